"""The cyclic garbage collector, paused around work that makes many objects and no garbage cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
