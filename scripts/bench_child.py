#!/usr/bin/env python3
"""Run one command and print its wall time, peak RSS and exit code as one JSON line.

``python scripts/bench_child.py ARGV...``: the command's stdout is discarded, its stderr is this
process's. ``scripts/bench_measure.py`` starts every measured command through this small process
rather than directly: on Linux a process's ``ru_maxrss`` keeps the high-water mark of the memory it
had before ``exec``, so a command started straight from the bench (which holds generated data and,
after the in-process rows, hundreds of MB) would report the bench's size, not its own. Started from
here, it starts from this process's ~10 MB, below any Python command's own peak.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    print(json.dumps({"seconds": seconds, "maxrss_kib": usage.ru_maxrss, "code": child.returncode}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
