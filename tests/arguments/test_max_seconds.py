"""``max_seconds``: no clock stops the work (docs/limits.md, bounded work: "the same call gives the same
answer on every machine"). The work is counted before it starts; ``max_seconds`` is accepted only as
None, and ``check_time`` reports progress without reading a clock."""

from __future__ import annotations

import time

import pytest

import workbench as wb
from workbench.arguments import bounded, check_max_seconds, check_time, reporting
from workbench.errors import RulesError


def test_no_clock_is_read_by_progress(monkeypatch):
    def no_clock() -> float:
        raise AssertionError("a clock was read")

    monkeypatch.setattr(time, "perf_counter", no_clock)
    monkeypatch.setattr(time, "monotonic", no_clock)
    seen = []
    with reporting(lambda done, total, unit: seen.append((done, total, unit))):
        check_time("round 3", 3, 10, "rounds")

        @bounded("a call")
        def work() -> str:
            check_time("step")
            return "done"

        assert work() == "done"
    assert seen == [(3, 10, "rounds"), (None, None, "")]


@pytest.mark.parametrize("value", [0, -1, 2, 3600, float("inf"), "5", True])
def test_a_number_of_seconds_is_refused_naming_max_seconds(value):
    with pytest.raises(RulesError, match="no clock stops the work") as err:
        check_max_seconds(value)
    assert err.value.field == "max_seconds"
    assert check_max_seconds(None) is None


def test_duel_and_compare_refuse_max_seconds_and_run_without_it():
    A = wb.system("annulus")
    wolf, guard = A.catalog().creature("Wolf"), A.catalog().creature("Town Guard")
    for call in (lambda: wb.duel(wolf, guard, max_seconds=3600), lambda: wb.compare([wolf], [guard], max_seconds=5)):
        with pytest.raises(RulesError) as err:
            call()
        assert err.value.field == "max_seconds"
    assert wb.duel(wolf, guard, max_seconds=None).summary() == wb.duel(wolf, guard).summary()
