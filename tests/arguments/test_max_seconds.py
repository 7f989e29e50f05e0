"""``max_seconds``: the one clock of the bounds, and only when the caller asks for it (docs/limits.md,
bounded work). The clock is a stand-in advanced by the test, so nothing here depends on how fast the
machine is."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench import arguments
from workbench.arguments import bounded, check_max_seconds, check_time, time_budget
from workbench.errors import RulesError


class Clock:
    """A perf_counter stand-in: ``now`` seconds, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(arguments.time, "perf_counter", c)
    return c


def test_without_max_seconds_no_clock_stops_anything(clock):
    check_time("anything")
    with time_budget(None, "compare"):
        clock.now += 1e9  # any time at all
        check_time("round 3")


def test_max_seconds_stops_running_work_naming_it(clock):
    with time_budget(5.0, "compare"):
        clock.now += 4.0
        check_time("round 2")  # within the 5 s asked for
        clock.now += 2.0
        with pytest.raises(RulesError) as err:
            check_time("round 3")
    assert err.value.field == "max_seconds"
    assert err.value.message.startswith("compare: stopped after 6.0 s (round 3)")
    check_time()  # the block has ended: its stop with it


def test_nested_stops_keep_the_earliest_end(clock):
    with time_budget(1.0, "outer"):
        with time_budget(60.0, "inner"):  # cannot lift the outer stop
            clock.now += 2.0
            with pytest.raises(RulesError, match="^max_seconds: outer"):
                check_time()


def test_a_bounded_call_takes_max_seconds(clock):
    @bounded("slow call")
    def slow() -> str:
        clock.now += 10.0
        check_time("step 1")
        return "done"

    assert slow() == "done"  # no max_seconds: runs to the end, however long
    with pytest.raises(RulesError, match="slow call: stopped after 10.0 s") as err:
        slow(max_seconds=3)
    assert err.value.field == "max_seconds"


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "5", True])
def test_max_seconds_must_be_a_positive_number_or_none(bad):
    with pytest.raises(RulesError) as err:
        check_max_seconds(bad)
    assert err.value.field == "max_seconds"
    assert check_max_seconds(None) is None and check_max_seconds(2) == 2.0


def test_duel_and_compare_take_max_seconds(clock):
    """A generous max_seconds changes nothing about the answer: the stop is only ever the caller's."""
    A = wb.system("annulus")
    wolf, guard = A.catalog().creature("Wolf"), A.catalog().creature("Town Guard")
    assert wb.duel(wolf, guard, max_seconds=3600).summary() == wb.duel(wolf, guard).summary()
    frame = wb.compare([wolf], [guard], max_seconds=3600, progress=False)
    assert frame.equals(wb.compare([wolf], [guard], progress=False))
