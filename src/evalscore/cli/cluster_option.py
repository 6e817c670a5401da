"""``--dask ADDRESS|local[:N]``: validate or score on a Dask cluster (``evalscore.running``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from evalscore.running.cluster import ClusterSpec, connected, dashboard_link, parse_cluster

if TYPE_CHECKING:
    from distributed import Client


def _cluster_spec(ctx: click.Context, param: click.Parameter, value: str | None) -> ClusterSpec | None:
    if value is None:
        return None
    try:
        return parse_cluster(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


dask_option = click.option(
    "--dask",
    "dask",
    metavar="ADDRESS|local[:N]",
    callback=_cluster_spec,
    default=None,
    help=(
        "Run on a Dask cluster: a scheduler's address (tcp://host:8786), or local[:N] for N worker processes "
        "on this machine [default N: every usable core]. Needs the extra: pip install 'evalscore[dask]'."
    ),
)


@contextmanager
def cluster_for(spec: ClusterSpec | None) -> Iterator[Client | None]:
    """A client of the cluster asked for (its dashboard's address on stderr), or None without ``--dask``."""
    if spec is None:
        yield None
        return
    with connected(spec) as client:
        link = dashboard_link(client)
        if link is not None:
            click.echo(f"evalscore: Dask dashboard at {link}", err=True)
        yield client
