"""``evalscore ledger verify FILE [--head HASH]`` and ``evalscore ledger find FILE --sha256 HEX``.

verify: exit 0 when the chain verifies, 1 with ``FILE:LINE: reason`` for each finding, 2 when the
file cannot be read. find: the decisions made on an input with that SHA-256, from a ledger that
verifies (exit 0 when there is one, 1 when there is none or the ledger does not verify: a ledger
that does not verify answers nothing).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import click

from evalscore.cli.common import traceback_option, write_out
from evalscore.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from evalscore.json_output import dumps_text
from evalscore.ledger.verify import Verification, verify_stream
from evalscore.printable import printable, printable_path

_HEX: Final = re.compile(r"[0-9a-fA-F]{64}")


def _digest(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _HEX.fullmatch(value):
        raise click.BadParameter("a SHA-256 is 64 hexadecimal digits", ctx, param)
    return None if value is None else value.lower()


def _verified(path: str, head: str | None, wanted: Callable[[dict[str, Any]], bool] | None = None) -> Verification:
    try:
        with Path(path).open("rb") as stream:
            return verify_stream(stream, head, wanted)
    except OSError as error:
        sys.stderr.write(f"evalscore ledger: cannot read {printable_path(path)}: {error.strerror or error}\n")
        sys.exit(EXIT_USAGE)


def _findings_text(path: str, result: Verification) -> str:
    lines = [f"{printable_path(path)}:{finding.line}: {printable(finding.reason)}" for finding in result.findings]
    if result.unlisted:
        lines.append(f"{printable_path(path)}: ... and {result.unlisted:,} more finding(s)")
    return "".join(line + "\n" for line in lines)


@click.group("ledger")
def ledger_group() -> None:
    """Check the decision ledger that score --ledger appends to, and look decisions up in it."""


@ledger_group.command("verify")
@click.argument("ledger")
@click.option("--head", default=None, callback=_digest, metavar="HASH", help="A hash the ledger must still hold.")
@traceback_option
def verify_command(ledger: str, head: str | None) -> None:
    """Verify the chain: every record canonical, its hash its own, each following the one before.

    With --head (the hash of the last record, kept elsewhere), also that no record was cut off
    the end. Exit 0 when it verifies, 1 with FILE:LINE: reason per finding, 2 when unreadable.
    """
    result = _verified(ledger, head)
    if not result.verified:
        write_out(_findings_text(ledger, result))
        write_out(f"{printable_path(ledger)}: does not verify ({len(result.findings) + result.unlisted} finding(s))\n")
        sys.exit(EXIT_FAILED)
    write_out(f"{printable_path(ledger)}: {result.records} record(s), the chain verifies; head {result.head}\n")
    sys.exit(EXIT_OK)


@ledger_group.command("find")
@click.argument("ledger")
@click.option("--sha256", "digest", required=True, callback=_digest, metavar="HEX", help="The input's SHA-256.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@traceback_option
def find_command(ledger: str, digest: str, output_format: str) -> None:
    """The decisions made on an input with this SHA-256 (which evaluation approved these bytes).

    The ledger is verified first: one that does not verify answers nothing (exit 1, with its
    findings). Exit 0 when a decision is found, 1 when none is.
    """
    result = _verified(ledger, None, lambda record: _names(record, digest))
    if not result.verified:
        sys.stderr.write(_findings_text(ledger, result))
        sys.stderr.write(f"evalscore ledger: {printable_path(ledger)} does not verify; nothing is looked up in it\n")
        sys.exit(EXIT_FAILED)
    found = result.records_read
    if output_format == "json":
        write_out(dumps_text(found))
    else:
        write_out("".join(_line(record, digest) + "\n" for record in found))
    sys.exit(EXIT_OK if found else EXIT_FAILED)


def _names(record: dict[str, Any], digest: str) -> bool:
    return any(entry.get("sha256") == digest for entry in record["inputs"])


def _line(record: dict[str, Any], digest: str) -> str:
    paths = ", ".join(entry["path"] for entry in record["inputs"] if entry.get("sha256") == digest)
    return printable(
        f"seq {record['seq']} {record['recorded_at']} {record['outcome']} (exit {record['exit_code']}) "
        f"report {record['report_sha256']} input {paths}"
    )
