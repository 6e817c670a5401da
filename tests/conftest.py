"""Hypothesis profiles, and the real Inspect logs every test directory shares.

Hypothesis: ``default`` keeps the suite fast, ``ci`` is reproducible, ``long`` digs.

Choose one with ``HYPOTHESIS_PROFILE=long pytest tests/properties`` (see CONTRIBUTING.md).
Deadlines are off everywhere: this machine's two shared cores make timings noisy.

A property test that sets its own budget uses ``tests/properties/_budget.examples(n)``: n examples
under ``default`` and ``ci``, scaled by ``long``'s budget over the default's (x80) under ``long``, so the
long run digs deeper in every test (tests/properties/test_example_budgets.py checks it). The long run
of tests/properties takes tens of minutes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from module_files import load_module

_QUICK = {"max_examples": 25, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("default", **_QUICK)
settings.register_profile("ci", derandomize=True, database=None, **_QUICK)
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


INSPECT_LOG_FACTORY = Path(__file__).resolve().parent / "unit" / "importers" / "inspect_log_factory.py"
INSPECT_MISSING = "inspect_ai is not installed (a dev dependency): cannot produce real Inspect logs"


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real Inspect logs (``eval`` and ``json`` formats, ...), made once per session; skipped without inspect_ai."""
    pytest.importorskip("inspect_ai", reason=INSPECT_MISSING)
    factory = load_module("inspect_log_factory", INSPECT_LOG_FACTORY)
    logs: dict[str, Path] = factory.session_logs(tmp_path_factory.getbasetemp() / "inspect-logs")
    return logs


PYDANTIC_AI_HISTORIES = Path(__file__).resolve().parent / "unit" / "importers" / "pydantic_ai_histories.py"
PYDANTIC_AI_MISSING = "pydantic-ai-slim is not installed (a dev dependency): cannot run real Pydantic AI agents"


@pytest.fixture(scope="session")
def pydantic_ai_runs(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The module that runs real Pydantic AI agents offline (``make_histories``). pydantic-ai is a dev
    dependency: without it these tests fail (they are never skipped), saying what to install."""
    if importlib.util.find_spec("pydantic_ai") is None:
        pytest.fail(PYDANTIC_AI_MISSING)
    return load_module("pydantic_ai_histories", PYDANTIC_AI_HISTORIES)


@pytest.fixture(scope="session")
def pydantic_ai_histories(pydantic_ai_runs: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One conversation's histories as an application saved them: paused, resumed, finished."""
    return pydantic_ai_runs.make_histories(tmp_path_factory.mktemp("pydantic-ai"))


LANGGRAPH_STORES = Path(__file__).resolve().parent / "unit" / "importers" / "langgraph_stores.py"
LANGGRAPH_MISSING = "langgraph, langchain and langgraph-checkpoint-sqlite are not installed (dev dependencies)"


@pytest.fixture(scope="session")
def langgraph_runs() -> ModuleType:
    """The module that runs real LangGraph agents offline. langgraph is a dev dependency: without it these
    tests fail (they are never skipped), saying what to install."""
    if importlib.util.find_spec("langgraph.checkpoint.sqlite") is None:
        pytest.fail(LANGGRAPH_MISSING)
    return load_module("langgraph_stores", LANGGRAPH_STORES)


@pytest.fixture(scope="session")
def langgraph_store(langgraph_runs: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SqliteSaver store holding every scripted thread (``langgraph_stores.THREADS``)."""
    path: Path = langgraph_runs.make_store(
        tmp_path_factory.mktemp("langgraph") / "store.sqlite", langgraph_runs.THREADS
    )
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server on a Unix socket (tests/postgres_server.py); the tests fail without one."""
    server = load_module("postgres_server", Path(__file__).resolve().parent / "postgres_server.py")
    binaries = server.server_binaries()
    if binaries is None:
        pytest.fail(server.MISSING)
    with server.throwaway_server(binaries) as url:
        yield url


@pytest.fixture(scope="session")
def langgraph_postgres_store(langgraph_runs: ModuleType, langgraph_store: Path, postgres_url: str) -> str:
    """The runs of ``langgraph_store``, kept by PostgresSaver in the throwaway server."""
    langgraph_runs.copy_to_postgres(langgraph_store, postgres_url)
    return postgres_url


@pytest.fixture
def digests_made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many SHA-256 digests the readers start (one entry per digest)."""
    from evalscore.inputs import documents, jsonl_ranges  # noqa: PLC0415 - only where it is used

    made: list[int] = []

    def counted_sha256() -> Any:
        made.append(1)
        return hashlib.sha256()

    counting = SimpleNamespace(sha256=counted_sha256)
    monkeypatch.setattr(documents, "hashlib", counting)
    monkeypatch.setattr(jsonl_ranges, "hashlib", counting)
    return made


_NAMED: pytest.StashKey[dict[Path, frozenset[str]] | None] = pytest.StashKey()


def named_tests(config: pytest.Config) -> dict[Path, frozenset[str]] | None:
    """When every argument names tests (``path::name``, as mutmut passes them), the module-level names
    asked for in each file; else None."""
    if _NAMED in config.stash:
        return config.stash[_NAMED]
    named: dict[Path, set[str]] | None = {}
    for arg in config.args:
        path, separator, rest = arg.partition("::")
        if not separator or named is None:
            named = None
            break
        name = rest.split("::", 1)[0].split("[", 1)[0]
        named.setdefault((config.invocation_params.dir / path).resolve(), set()).add(name)
    result = None if named is None else {path: frozenset(names) for path, names in named.items()}
    config.stash[_NAMED] = result
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> list[pytest.Item] | None:
    """Under a run of named tests, a test module makes items only for the names asked for: the others
    would be made (parametrized, wrapped, their fixtures resolved) only to be deselected. mutmut runs
    each mutant as a session of the tests that reach its function, named one by one, and making the
    rest of their modules was a large part of what a mutant cost (CONTRIBUTING.md, "Mutation testing")."""
    if not isinstance(collector, pytest.Module):
        return None
    named = named_tests(collector.config)
    if named is None:
        return None
    wanted = named.get(collector.path)
    if wanted is None or name in wanted:
        return None
    return []
