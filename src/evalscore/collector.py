"""The cyclic garbage collector, paused around work that makes many objects and no garbage cycles."""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside; on again after only if it was on before.

    A collection walks every tracked object of the generations it collects: while a large acyclic
    structure is being made (a report with a row per target tool, the classes a command imports)
    it walks the same live objects again and again, and a full collection walks the whole heap.
    Objects freed by reference counting are freed as usual meanwhile.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def imported_once(module_name: str) -> ModuleType:
    """The module; when first imported, with the cyclic collector off, then frozen.

    Importing ``score`` makes about 35,000 tracked objects (pydantic builds some sixty model
    classes) that live as long as the process; the collector would walk them again and again while
    they are made. Frozen (``gc.freeze``), no later collection walks them, in this process or in a
    forked worker, where walking them would copy their pages. Measured: score and validate of the
    bench's 80 MB JSONL in about 0.93 of the time. What a command's module is imported with
    (``cli.main``), and the report's code ``score`` imports while its workers run.
    """
    if module_name in sys.modules:
        return sys.modules[module_name]
    with collector_paused():
        try:
            return importlib.import_module(module_name)
        finally:
            gc.freeze()
