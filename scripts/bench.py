#!/usr/bin/env python3
"""Cost of evalscore's commands against a floor, as one table: a row per command and data shape.

Every throughput row is a whole process (interpreter start-up included) timed against a floor
process that reads the same bytes (``scripts/bench_floors.py``), the two run alternately
``--repeat`` times and the medians compared; peak RSS comes from ``os.wait4`` on each command
(started from ``scripts/bench_child.py``, see there why).
The N-and-4N rows (``scripts/bench_scaling.py``) are timed inside a fresh process per case. Data is generated
once under bench-data/ (``scripts/bench_data.py``, ``scripts/bench_inspect.py``) and reused.
Usage: python scripts/bench.py [--repeat 3] [--large] [sizes: see --help]
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import importlib.util
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# The bench's modules live beside this script, not in a package; evalscore is this checkout's.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_data
import bench_inspect
import bench_scaling
from bench_measure import ROOT, Command, Figure, evalscore, floor, interleaved, supports_jobs, usable_cores
from bench_table import Row, Target, render

DATA = ROOT / "bench-data"
JSONL_TARGET = Target(">=", 0.5)
LARGE_TARGET = Target(">=", 0.7)
SCORE_TARGET = Target(">=", 0.5)
LINEAR_TARGET = Target("<=", bench_scaling.LINEAR_LIMIT)
TWIN_TARGET = Target("<=", 2.0)
START_TARGET = Target("<=", 2.5)
FLAT_TARGET = Target("<=", 1.25)
"""Peak RSS at 4S over S: 1 is flat, 4 proportional (the interpreter's ~50 MB is in both)."""


@dataclass(frozen=True, slots=True)
class Shapes:
    tiny: Path
    single: Path
    jsonl: Path
    quarter: Path
    large: Path | None
    files: Path
    suite: Path
    inspect_log: Path
    twins: tuple[Path, Path]
    dask_jsonl: Path | None


def size_mb(path: Path) -> float:
    if path.is_dir():
        return sum(file.stat().st_size for file in path.rglob("*") if file.is_file()) / 1e6
    return path.stat().st_size / 1e6


def generate(args: argparse.Namespace) -> Shapes:
    data: Path = args.data_dir
    data.mkdir(parents=True, exist_ok=True)
    return Shapes(
        tiny=bench_data.tiny_run(data),
        single=bench_data.single_run(data, args.single_mb),
        jsonl=bench_data.jsonl(data, args.jsonl_mb),
        quarter=bench_data.jsonl(data, args.jsonl_mb / 4),
        large=bench_data.jsonl(data, args.large_mb) if args.large else None,
        files=bench_data.small_files(data, args.files),
        suite=bench_data.suite_file(data),
        inspect_log=bench_inspect.eval_log(data, args.inspect_samples, args.inspect_seed),
        twins=bench_data.twins(data, args.twin_calls),
        dask_jsonl=bench_data.jsonl(data, args.dask_mb) if args.dask else None,
    )


def one_core(command: Command) -> Command:
    return Command((*command.argv, "-j", "1"), command.ok_codes)


def with_one_core(commands: dict[str, Command], jobs: bool) -> dict[str, Command]:
    """``commands`` and, when the command takes ``--jobs``, the same with ``-j 1`` under ``name -j1``."""
    extra = {f"{name} -j1": one_core(command) for name, command in commands.items() if jobs}
    return {**commands, **extra}


def speedup(figures: dict[str, Figure], name: str) -> str:
    single = figures.get(f"{name} -j1")
    if single is None:
        return "n/a"
    return f"{single.seconds / figures[name].seconds:.2f}x"


def _ratio(floor_figure: Figure, figure: Figure) -> float:
    return floor_figure.seconds / figure.seconds


def mb(megabytes: float) -> str:
    """A size for a row's label: 80, 49.9, 0.4."""
    return f"{megabytes:.3g}" if megabytes < 1000 else f"{megabytes:.0f}"


def startup_row(tiny: Path, repeat: int) -> Row:
    """``validate`` of a 3 kB run against a process that only imports orjson, jsonschema_rs and click."""
    figures = interleaved({"validate": evalscore("validate", str(tiny)), "floor": floor("imports", tiny)}, repeat)
    run = figures["validate"]
    ratio = run.seconds / figures["floor"].seconds
    return Row("validate", "start-up: a 3 kB run", "imports", run.seconds, None, ratio, START_TARGET, run.rss_mb)


def validate_row(shape: str, path: Path, floor_kind: str, target: Target | None, repeat: int) -> Row:
    """``validate PATH`` against its floor process, alternately; -j 1 too when there is ``--jobs``."""
    commands = with_one_core({"validate": evalscore("validate", str(path))}, supports_jobs("validate"))
    figures = interleaved({**commands, "floor": floor(floor_kind, path)}, repeat)
    run = figures["validate"]
    return Row(
        "validate",
        shape,
        f"orjson {floor_kind}",
        run.seconds,
        size_mb(path),
        _ratio(figures["floor"], run),
        target,
        run.rss_mb,
        speedup(figures, "validate"),
    )


def jsonl_commands(path: Path, suite: Path) -> dict[str, Command]:
    validate = {"validate": evalscore("validate", str(path))}
    score = {"score": evalscore("score", "--suite", str(suite), str(path))}
    json_score = {"score json": evalscore("score", "--format", "json", "--suite", str(suite), str(path))}
    return {
        **with_one_core(validate, supports_jobs("validate")),
        **with_one_core(score, supports_jobs("score")),
        **json_score,
    }


def jsonl_rows(shapes: Shapes, repeat: int) -> tuple[list[Row], dict[str, Figure]]:
    """validate and score --suite on the JSONL, with the floor, all alternately; figures kept for the RSS rows."""
    path = shapes.jsonl
    figures = interleaved({**jsonl_commands(path, shapes.suite), "floor": floor("lines", path)}, repeat)
    megabytes = size_mb(path)
    shape = f"JSONL {mb(megabytes)} MB"
    validate, score = figures["validate"], figures["score"]
    rows = [
        Row("validate", shape, "orjson lines", validate.seconds, megabytes, _ratio(figures["floor"], validate),
            JSONL_TARGET, validate.rss_mb, speedup(figures, "validate")),
        Row("score --suite", shape, "orjson lines", score.seconds, megabytes, _ratio(figures["floor"], score),
            None, score.rss_mb, speedup(figures, "score")),
        Row("score --suite", shape, "validate", score.seconds, megabytes, _ratio(validate, score),
            SCORE_TARGET, score.rss_mb, speedup(figures, "score")),
    ]  # fmt: skip
    return rows, figures


def large_row(shapes: Shapes, megabytes: float, repeat: int) -> Row:
    if shapes.large is None:
        return Row("validate", f"JSONL {mb(megabytes)} MB", "orjson lines", target=LARGE_TARGET, skipped="--large")
    return validate_row(f"JSONL {mb(size_mb(shapes.large))} MB", shapes.large, "lines", LARGE_TARGET, repeat)


def import_row(log: Path, samples: int, repeat: int) -> Row:
    """``import inspect LOG -o OUT`` against unzipping and parsing every member of the log."""
    out = log.with_name(f"{log.stem}-imported.jsonl")
    commands = with_one_core(
        {"import": evalscore("import", "inspect", str(log), "-o", str(out))}, supports_jobs("import", "inspect")
    )
    figures = interleaved({**commands, "floor": floor("eval", log)}, repeat)
    run = figures["import"]
    return Row(
        "import inspect",
        f".eval, {samples:,} samples ({mb(size_mb(log))} MB zip)",
        "unzip+orjson",
        run.seconds,
        size_mb(log),
        _ratio(figures["floor"], run),
        None,
        run.rss_mb,
        speedup(figures, "import"),
    )


def twin_rows(twins: tuple[Path, Path], calls: int, repeat: int) -> list[Row]:
    """An invalid run (every call's args wrongly typed) against its valid twin: time and peak RSS."""
    valid, invalid = twins
    figures = interleaved(
        {
            "valid": evalscore("validate", str(valid)),
            "invalid": evalscore("validate", str(invalid), ok_codes=frozenset({1})),
        },
        repeat,
    )
    bad, good = figures["invalid"], figures["valid"]
    shape = f"invalid run, {calls:,} bad calls"
    return [
        Row("validate", f"{shape}: time", "valid twin", bad.seconds, size_mb(invalid), bad.seconds / good.seconds,
            TWIN_TARGET, bad.rss_mb),
        Row("validate", f"{shape}: RSS", "valid twin", bad.seconds, size_mb(invalid), bad.rss_mb / good.rss_mb,
            TWIN_TARGET, bad.rss_mb),
    ]  # fmt: skip


FLAT_COMMANDS = (
    ("validate", "validate", ""),
    ("score --suite", "score", ", text"),
    ("score --suite", "score json", ", json"),
)


def flat_rows(shapes: Shapes, large: dict[str, Figure], repeat: int) -> list[Row]:
    """Peak RSS on a JSONL of size S against 4S (the JSONL of the throughput rows)."""
    commands = jsonl_commands(shapes.quarter, shapes.suite)
    small = interleaved({name: commands[name] for _, name, _ in FLAT_COMMANDS}, repeat)
    shape = f"JSONL {mb(size_mb(shapes.jsonl))} vs {mb(size_mb(shapes.quarter))} MB"
    return [
        Row(label, f"{shape}{output}: RSS", "RSS at S", large[name].seconds, size_mb(shapes.jsonl),
            large[name].rss_mb / small[name].rss_mb, FLAT_TARGET, large[name].rss_mb)
        for label, name, output in FLAT_COMMANDS
    ]  # fmt: skip


def scaling_rows(data: Path, repeat: int, scale: float) -> list[Row]:
    """t(4N)/t(N) along each dimension, timed inside a fresh process per case (no start-up to dilute the ratio)."""
    if scale <= 0:
        return [
            Row(command, f"{case.dimension}: 4N vs N", "t(N)", target=LINEAR_TARGET, skipped="--scaling 0")
            for case in bench_scaling.CASES
            for command, _ in bench_scaling.COMMANDS
        ]
    return [
        Row(result.command, f"{result.dimension}: {4 * result.n:,} vs {result.n:,}", "t(N)", result.large,
            ratio=result.ratio, target=LINEAR_TARGET)
        for result in bench_scaling.measure(data, repeat, scale)
    ]  # fmt: skip


DASK_LOCAL = "local:2"


def dask_rows(shapes: Shapes, megabytes: float, repeat: int) -> list[Row]:
    """``--dask local:2`` against ``-j 1`` on the same JSONL (ratio: the speed-up), for validate and
    score --suite; the -j1/all column is the default ``-j`` (forked processes) against ``-j 1``."""
    labels = (("validate", "validate", ()), ("score --suite", "score", ("--suite", str(shapes.suite))))
    path = shapes.dask_jsonl
    if path is None or importlib.util.find_spec("distributed") is None:
        reason = "--dask" if path is None else "needs evalscore[dask]"
        return [
            Row(label, f"JSONL {mb(megabytes)} MB, --dask {DASK_LOCAL}", "-j 1", skipped=reason)
            for label, _, _ in labels
        ]
    rows = []
    for label, name, extra in labels:
        base = evalscore(name, *extra, str(path))
        figures = interleaved(
            {"dask": Command((*base.argv, "--dask", DASK_LOCAL)), **with_one_core({name: base}, True)}, repeat
        )
        dask, single = figures["dask"], figures[f"{name} -j1"]
        rows.append(
            Row(label, f"JSONL {mb(size_mb(path))} MB, --dask {DASK_LOCAL}", "-j 1", dask.seconds,
                size_mb(path), single.seconds / dask.seconds, None, dask.rss_mb, speedup(figures, name))
        )  # fmt: skip
    return rows


def measure(args: argparse.Namespace, shapes: Shapes) -> list[Row]:
    repeat: int = args.repeat
    jsonl, large_figures = jsonl_rows(shapes, repeat)
    return [
        startup_row(shapes.tiny, repeat),
        validate_row(f"one run {mb(size_mb(shapes.single))} MB", shapes.single, "document", None, repeat),
        jsonl[0],
        large_row(shapes, args.large_mb, repeat),
        validate_row(
            f"{args.files:,} small files ({mb(size_mb(shapes.files))} MB)", shapes.files, "files", None, repeat
        ),
        *jsonl[1:],
        import_row(shapes.inspect_log, args.inspect_samples, repeat),
        *scaling_rows(args.data_dir, repeat, args.scaling),
        *twin_rows(shapes.twins, args.twin_calls, repeat),
        *flat_rows(shapes, large_figures, repeat),
        *dask_rows(shapes, args.dask_mb, repeat),
    ]


def _commit() -> str:
    found = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    return found.stdout.strip() or "unknown"


def compile_package() -> str:
    """evalscore's modules compiled to bytecode, as pip compiles a wheel it installs, and where.

    An editable install is otherwise compiled from source by every process that imports it where
    ``PYTHONDONTWRITEBYTECODE`` is set (this project's machines set it): about 40 ms of start-up
    that an installed evalscore never pays, and that the floors, whose packages pip compiled, do not."""
    spec = importlib.util.find_spec("evalscore")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        return "evalscore not found to compile"
    compiled = compileall.compile_dir(locations[0], quiet=1)
    return "modules compiled to bytecode first" if compiled else "modules could not all be compiled to bytecode"


def preamble(args: argparse.Namespace, compiled: str) -> str:
    jobs = "yes" if supports_jobs("validate") else "no: the -j1/all column prints n/a"
    today = datetime.datetime.now(tz=datetime.UTC).date().isoformat()
    return (
        f"evalscore bench, {today}, commit {_commit()}, {usable_cores()} usable core(s), "
        f"medians of {args.repeat} alternating run(s); validate --jobs: {jobs}; evalscore's {compiled}"
    )


LEGEND = """\
ratio: floor time / command time for rows against a floor or validate (>= targets: speed as a share
of the floor); the cost ratio itself for 'imports', 't(N)', 'valid twin' and 'RSS at S' rows (<=).
floors, whole processes with the GC off (scripts/bench_floors.py): imports = import orjson,
jsonschema_rs, click; orjson document = orjson.loads of the file; orjson lines = orjson.loads of each
line; orjson files = orjson.loads of each file; unzip+orjson = each member of the .eval zip
decompressed (zstd) and orjson.loads. 't(N)' rows are timed in-process, a fresh one per case; their time is t(4N).
MB/s: input bytes on disk per second. peak RSS: ru_maxrss from os.wait4 (the largest process among
the command and the workers it reaped, not their sum). -j1/all: time with -j 1 over the default
(every usable core); n/a until the command takes --jobs. --dask rows: ratio = time with -j 1 over
time with --dask local:2 (a LocalCluster of two worker processes, started and closed by the command)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs per row (median)")
    parser.add_argument("--single-mb", type=float, default=50, help="the one big run")
    parser.add_argument("--jsonl-mb", type=float, default=80, help="the JSONL of validate and score (S = a quarter)")
    parser.add_argument("--large", action="store_true", help="also validate the --large-mb JSONL")
    parser.add_argument("--large-mb", type=float, default=800)
    parser.add_argument("--files", type=int, default=5000, help="small files in one directory")
    parser.add_argument("--inspect-samples", type=int, default=10_000, help="samples in the Inspect log")
    parser.add_argument("--inspect-seed", type=Path, help="a real .eval log to copy samples from (default: made)")
    parser.add_argument("--twin-calls", type=int, default=100_000, help="tool calls in the invalid run and its twin")
    parser.add_argument("--data-dir", type=Path, default=DATA, help="where the generated data is kept")
    parser.add_argument("--dask", action="store_true", help="also time --dask local:2 against -j 1 on --dask-mb")
    parser.add_argument("--dask-mb", type=float, default=1000, help="the JSONL of the --dask rows")
    parser.add_argument(
        "--scaling",
        type=float,
        default=1.0,
        help="size of the N-and-4N cases, as a multiple of their default (0: skip)",
    )
    return parser.parse_args(argv)


def main() -> int:
    args = parse_args()
    shapes = generate(args)
    compiled = compile_package()
    print(preamble(args, compiled), flush=True)
    print(render(measure(args, shapes)))
    print(LEGEND)
    return 0


if __name__ == "__main__":
    sys.exit(main())
