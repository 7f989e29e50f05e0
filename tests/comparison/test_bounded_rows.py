"""Compare's rows whose fight carries state are counted before any fight runs (docs/limits.md,
bounded work): rows x fights past limits.MAX_STATE_ROW_FIGHTS is refused, naming the count, unless
confirm=True. No clock takes part: the decision is the same however slow the machine."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.errors import RulesError
from workbench.work import estimate

# Last Odyssey's Miasma acts between rounds; every catalog fight's state fits its chain now, so these
# tests make it too large for the chain (conftest.state_too_large): the rows are then simulated
PAIR = (["last_odyssey:Zombie Hulk", "last_odyssey:Cop"], ["last_odyssey:Troll", "last_odyssey:Wolf"])


def _rows_with_state() -> int:
    frame = wb.compare(*PAIR, progress=False, simulate=False)
    assert frame.height > 0
    work = estimate("compare", *PAIR)
    return next(w for w in work.works if w.unit == "row-fights").count // 2000


def test_rows_with_state_past_the_bound_are_refused_before_any_fight(monkeypatch, state_too_large):
    rows = _rows_with_state()
    assert rows > 0
    monkeypatch.setattr("workbench.limits.MAX_STATE_ROW_FIGHTS", rows * 2000 - 1)
    with pytest.raises(RulesError) as err:
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget"
    assert f"{rows:,} rows whose fight carries state x 2,000 fights = {rows * 2000:,} row-fights" in err.value.message
    assert "confirm=True" in err.value.message and "fights=" in err.value.message
    # fewer fights per row bring it within the bound; confirm=True runs it as asked
    assert wb.compare(*PAIR, progress=False, fights=1000).height > 0
    frame = wb.compare(*PAIR, progress=False, confirm=True)
    assert (frame["method"] == "simulated").any()


def test_the_decision_does_not_depend_on_the_clock(monkeypatch, state_too_large):
    """A clock that jumps an hour at every reading (a machine at any load) changes nothing: the
    same frame, the same refusal."""
    import time

    rows = _rows_with_state()
    first = wb.compare(*PAIR, progress=False)
    ticks = [0.0]

    def slow() -> float:
        ticks[0] += 3600.0
        return ticks[0]

    monkeypatch.setattr(time, "perf_counter", slow)
    monkeypatch.setattr(time, "monotonic", slow)
    assert wb.compare(*PAIR, progress=False).equals(first)
    monkeypatch.setattr("workbench.limits.MAX_STATE_ROW_FIGHTS", rows * 2000 - 1)
    with pytest.raises(RulesError, match="row-fights"):
        wb.compare(*PAIR, progress=False)
