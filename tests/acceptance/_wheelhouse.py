"""Wheels of what this environment has installed, so that a test can install evalscore with no network.

A wheel is a zip of a distribution's files and its ``.dist-info``; an installed distribution lists
both in its ``RECORD``, so it can be packed again. The pre-commit hook's test points pip at the
wheels (``PIP_FIND_LINKS`` with ``PIP_NO_INDEX``) for evalscore's dependencies and its build backend.
"""

from __future__ import annotations

import base64
import hashlib
import re
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(*roots: str) -> dict[str, metadata.Distribution]:
    """The installed distributions ``roots`` need, theirs too (extras and other platforms' markers left out)."""
    found: dict[str, metadata.Distribution] = {}
    pending = list(roots)
    while pending:
        name = pending.pop()
        if _key(name) in found:
            continue
        distribution = metadata.distribution(name)
        found[_key(name)] = distribution
        for line in distribution.requires or []:
            requirement = Requirement(line)
            if requirement.marker is not None and not Marker(str(requirement.marker)).evaluate({"extra": ""}):
                continue
            pending.append(requirement.name)
    return found


def repack(distribution: metadata.Distribution, directory: Path) -> Path:
    """``distribution`` as a wheel in ``directory``: its files under site-packages, and a RECORD of them."""
    site = Path(str(distribution.locate_file("")))
    wheel_info = distribution.read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel_info.splitlines() if line.startswith("Tag:")]
    name = re.sub(r"[-.]+", "_", distribution.metadata["Name"])
    path = directory / f"{name}-{distribution.version}-{tags[0] if tags else 'py3-none-any'}.whl"
    files = [file for file in distribution.files or [] if not str(file).startswith("..")]
    info = next(file for file in files if file.name == "RECORD").parent
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            text = str(file)
            if file.name in ("RECORD", "INSTALLER", "direct_url.json") or "__pycache__" in text:
                continue
            data = (site / file).read_bytes()
            archive.writestr(text, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{text},sha256={digest},{len(data)}")
        record.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


def wheelhouse(directory: Path) -> list[Path]:
    """Wheels of evalscore's dependencies and of its build backend (setuptools, wheel), not of evalscore."""
    directory.mkdir(parents=True, exist_ok=True)
    distributions = closure("evalscore", "setuptools", "wheel")
    distributions.pop("evalscore")
    return [repack(distribution, directory) for distribution in distributions.values()]
