"""A throwaway PostgreSQL server for the tests: Debian's binaries, a new cluster in a temporary folder,
listening on a Unix socket only (no TCP port), stopped and removed afterwards.

``.ci/run`` installs Debian's ``postgresql`` package when its binaries are absent. initdb refuses to run
as root, so under root the server runs as the package's ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MISSING = "PostgreSQL's server binaries (pg_ctl, initdb) are not installed: .ci/run installs Debian's postgresql"
SUPERUSER = "evalscore"


def server_binaries() -> Path | None:
    """The folder of the newest installed server's binaries, None when there is none."""
    on_path = shutil.which("pg_ctl")
    if on_path is not None and shutil.which("initdb") is not None:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda path: int(path.split("/")[4]))
    return Path(found[-1]).parent if found else None


@contextmanager
def throwaway_server(binaries: Path) -> Iterator[str]:
    """Start a cluster; yield a libpq URL to it (its socket folder as ``host``); stop and remove it."""
    root = Path(tempfile.mkdtemp(prefix="evalscore-pg-"))
    root.chmod(0o755)
    data, sockets, log = root / "data", root / "sockets", root / "server.log"
    sockets.mkdir()
    as_other_user: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(sockets, owner.pw_uid, owner.pw_gid)
        os.chown(root, owner.pw_uid, owner.pw_gid)
        as_other_user = ["runuser", "-u", "postgres", "--"]
    try:
        subprocess.run(
            [*as_other_user, str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
             "--no-sync", "--no-instructions"],
            check=True, capture_output=True,
        )  # fmt: skip
        options = f"-c listen_addresses='' -c unix_socket_directories='{sockets}' -c fsync=off"
        subprocess.run(
            [*as_other_user, str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "start"],
            check=True, capture_output=True,
        )  # fmt: skip
        try:
            yield f"postgresql:///postgres?host={sockets}&user={SUPERUSER}"
        finally:
            subprocess.run(
                [*as_other_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                check=False, capture_output=True,
            )  # fmt: skip
    finally:
        shutil.rmtree(root, ignore_errors=True)
