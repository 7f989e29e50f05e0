"""Memory of one call, for the property suites of issue 21 ("no public call on any input takes over
2 GB without first saying so and asking"). The time a call takes is measured (``Measured.seconds``,
for a report) but never asserted: a call's work is bounded by counting it before it starts
(docs/limits.md, bounded work; issue 34), and speed lives in benchmarks/.

Memory is the growth of the process's peak resident set (Linux ``VmHWM``, reset before the call by
writing 5 to ``/proc/self/clear_refs``), so it counts what numpy, polars and Python allocate alike.
Where the kernel offers no reset (not Linux), ``peak_growth`` is None.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the issue's bound on one call's memory: 2 GB
MEMORY = 2_000_000_000
_STATUS = Path("/proc/self/status")
_CLEAR = Path("/proc/self/clear_refs")


def _hwm() -> int | None:
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", _STATUS.read_text())
    except OSError:
        return None
    return int(found.group(1)) * 1024 if found else None


def _reset_hwm() -> bool:
    try:
        _CLEAR.write_text("5")
    except OSError:
        return False
    return True


@dataclass
class Measured:
    """What one call returned (or the exception it raised), its seconds and its peak memory growth."""

    result: Any
    error: BaseException | None
    seconds: float
    peak_growth: int | None


def measure(call: Callable[[], Any], catch: type[BaseException] | tuple[type[BaseException], ...]) -> Measured:
    """Run ``call()``; return its result (or the exception of type ``catch``), its wall time and the
    growth of the peak resident set over the resident set before it (None when not measurable).
    Exceptions not in ``catch`` propagate."""
    before = _hwm() if _reset_hwm() else None
    start = time.perf_counter()
    result, error = None, None
    try:
        result = call()
    except catch as exc:
        error = exc
    seconds = time.perf_counter() - start
    after = _hwm() if before is not None else None
    growth = None if before is None or after is None else max(0, after - before)
    return Measured(result, error, seconds, growth)


def assert_bounded(m: Measured, memory: int = MEMORY) -> None:
    """Assert the call grew the peak memory by under ``memory`` bytes (no time: issue 34)."""
    assert m.peak_growth is None or m.peak_growth < memory, f"peak memory grew by {m.peak_growth / 1e9:.2f} GB"
