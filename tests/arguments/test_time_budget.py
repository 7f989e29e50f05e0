"""``arguments.time_budget`` / ``check_time``: the stop of a call whose parts are each bounded but
whose sum may not be (docs/limits.md, bounded work: "no public call on any input takes over 10 s
without first saying so and asking")."""

from __future__ import annotations

import time

import pytest

from workbench.arguments import check_time, time_budget
from workbench.errors import RulesError


def test_outside_a_budget_nothing_is_checked():
    check_time("anything")  # no budget: never refuses


def test_a_budget_refuses_once_it_has_run_out_naming_the_call_and_how_to_go_on():
    with time_budget(0.0, "compare", "compare fewer rows, or confirm=True"):
        time.sleep(0.01)
        with pytest.raises(RulesError) as err:
            check_time("round 3")
    assert err.value.field == "budget"
    assert err.value.message.startswith("compare: stopped after")
    assert "(round 3)" in err.value.message and "confirm=True" in err.value.message
    check_time()  # the block has ended: its budget with it


def test_within_the_time_nothing_is_refused():
    with time_budget(60.0, "compare", "how"):
        check_time()


def test_confirm_sets_no_budget():
    with time_budget(0.0, "compare", "how", confirm=True):
        time.sleep(0.01)
        check_time()


def test_nested_budgets_keep_the_earliest_end():
    with time_budget(0.0, "outer", "how"):
        time.sleep(0.01)
        with time_budget(60.0, "inner", "how"):  # cannot lift the outer bound
            with pytest.raises(RulesError, match="^budget: outer"):
                check_time()
    with time_budget(60.0, "outer", "how"):
        with time_budget(0.0, "inner", "how"):  # a tighter inner bound holds
            time.sleep(0.01)
            with pytest.raises(RulesError, match="^budget: inner"):
                check_time()
        check_time()  # back under the outer one, which has time left


def test_a_bounded_call_stops_unless_confirmed():
    """``bounded`` gives a public call (wb.rounds_to_kill, wb.duel) one budget for all its chains and
    simulations; confirm=True lifts it."""
    from workbench.arguments import bounded

    @bounded("slow call", "confirm=True to run it", seconds=0.0)
    def slow(confirm: bool = False) -> str:
        time.sleep(0.01)
        check_time("step 1")
        return "done"

    with pytest.raises(RulesError, match="slow call: stopped after") as err:
        slow()
    assert err.value.field == "budget"
    assert slow(confirm=True) == "done"
