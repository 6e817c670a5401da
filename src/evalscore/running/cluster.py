"""Where ``--dask`` runs the work: a running scheduler, or a LocalCluster started for one command.

``distributed`` is imported only here, and only when ``--dask`` is given: without the extra
installed, evalscore works as before and ``--dask`` says which extra to install.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from evalscore.running.parallel import usable_cores

if TYPE_CHECKING:
    from distributed import Client

# ruff: noqa: PLC0415 - distributed is imported when a cluster is asked for, never at start-up

EXTRA_MISSING: Final = "--dask needs the optional extra dask: pip install 'evalscore[dask]'"
CONNECT_SECONDS: Final = 10
WORKERS_SECONDS: Final = 30
"""How long a scheduler without workers is given for one to join before the command gives up."""
_LOCAL: Final = re.compile(r"local(?::([0-9]+))?")


class ClusterError(Exception):
    """The cluster cannot be started or reached, or was lost during the run (exit 2)."""


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """A scheduler's ``address`` (``tcp://host:8786``), or ``local_workers`` processes on this machine."""

    address: str | None = None
    local_workers: int | None = None

    def __str__(self) -> str:
        return self.address if self.address is not None else f"local:{self.local_workers}"


def parse_cluster(value: str) -> ClusterSpec:
    """``local``, ``local:N`` or a scheduler address; a ``ValueError`` says what is accepted."""
    local = _LOCAL.fullmatch(value)
    if local is not None:
        workers = usable_cores() if local.group(1) is None else int(local.group(1))
        if not 1 <= workers <= 1024:
            raise ValueError(f"local:{local.group(1)} asks for {workers} workers; 1 to 1024 can be started")
        return ClusterSpec(local_workers=workers)
    if value.strip() != value or not value or value.startswith("local:"):
        raise ValueError(f"{value!r} is neither local[:N] nor a scheduler address such as tcp://host:8786")
    return ClusterSpec(address=value)


@contextmanager
def connected(spec: ClusterSpec) -> Iterator[Client]:
    """A client of the cluster for the length of the block; a LocalCluster started for it is closed after."""
    try:
        from distributed import Client, LocalCluster
        from distributed.utils import silence_logging_cmgr
    except ImportError as error:
        raise ClusterError(EXTRA_MISSING) from error
    if spec.local_workers is not None:
        try:
            cluster = LocalCluster(
                n_workers=spec.local_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",  # loopback only, on a free port
                silence_logs=logging.CRITICAL,  # a worker's heartbeat refused at shutdown is no news
            )
        except Exception as error:  # distributed raises what the OS or its own start-up raised
            raise ClusterError(
                f"a local Dask cluster of {spec.local_workers} workers could not start: {error}"
            ) from error
        with cluster, Client(cluster) as client:
            yield client
        return
    with silence_logging_cmgr(logging.CRITICAL):  # Dask's tracebacks when the scheduler is lost: one line is ours
        try:
            client = Client(spec.address, timeout=CONNECT_SECONDS)
        except Exception as error:  # an address it cannot parse, a refused or timed-out connection
            raise ClusterError(f"the Dask scheduler at {spec.address} cannot be reached: {error}") from error
        with client:
            try:
                client.wait_for_workers(1, timeout=WORKERS_SECONDS)
            except Exception as error:  # a scheduler with no worker would leave every task waiting
                message = f"the Dask scheduler at {spec.address} has no worker (none joined in {WORKERS_SECONDS} s)"
                raise ClusterError(message) from error
            yield client


def dashboard_link(client: Client) -> str | None:
    """Where the cluster's dashboard is, when it has one (it needs bokeh on the scheduler)."""
    services = client.scheduler_info().get("services", {})
    return client.dashboard_link if "dashboard" in services else None


def worker_slots(client: Client) -> int:
    """How many tasks the cluster runs at once (its workers' threads), at least 1."""
    threads: dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))
