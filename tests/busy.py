"""CPU-burning processes beside a run (issue 34: "the test suite passes ... on a busy machine"): a
context manager that starts ``n`` processes, each spinning until ``seconds`` have passed or it is
stopped, and stops them all when the block ends. Standard library only, so tasks.py can load it
before the environment exists.

Each burner ends by itself at its deadline (it reads the clock only to know when to stop), so a
run killed with SIGKILL leaves nothing behind for longer than ``seconds``; normally the block's
end terminates them at once and waits for each.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: a burner's own program: spin on the CPU until its deadline
_BURN = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"


@contextmanager
def busy(n: int, seconds: float = 600.0) -> Iterator[list[subprocess.Popen]]:
    """Within the block, ``n`` processes burn a CPU each for at most ``seconds``; yields their
    Popen handles. At the end of the block each is terminated (killed if it does not stop within
    5 s) and waited for, so no burner outlives the block."""
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a whole number >= 0, not {n!r}")
    procs: list[subprocess.Popen] = []
    try:
        for _ in range(n):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", _BURN, str(float(seconds))],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        yield procs
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
