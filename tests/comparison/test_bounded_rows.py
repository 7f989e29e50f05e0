"""Compare's simulated rows stop and ask (docs/limits.md, bounded work): projected past 10 s from the
rows done after 1 s, or still running after ROWS_SECONDS (8 s), unless confirm=True."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench import fight_rows
from workbench.errors import RulesError

# Last Odyssey's Miasma acts between rounds; every catalog fight's state fits its chain now, so these
# tests make it too large for the chain (conftest.state_too_large): the rows are then simulated
PAIR = (["last_odyssey:Zombie Hulk", "last_odyssey:Cop"], ["last_odyssey:Troll", "last_odyssey:Wolf"])


def test_rows_still_running_after_the_simulation_bound_are_refused(monkeypatch, state_too_large):
    monkeypatch.setattr(fight_rows, "PROJECT_AFTER", 0.0)
    monkeypatch.setattr(fight_rows, "ROWS_SECONDS", 0.0)  # past the bound after the first row
    monkeypatch.setattr("workbench.limits.MAX_SECONDS", 1e9)  # the projection alone would let it run
    with pytest.raises(RulesError) as err:
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget" and "confirm=True" in err.value.message
    frame = wb.compare(*PAIR, progress=False, confirm=True)  # asked: it runs
    assert (frame["method"] == "simulated").any()


def test_a_projection_past_ten_seconds_is_refused(monkeypatch, state_too_large):
    monkeypatch.setattr(fight_rows, "PROJECT_AFTER", 0.0)
    monkeypatch.setattr("workbench.limits.MAX_SECONDS", 1e-6)
    with pytest.raises(RulesError) as err:
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget"


def test_one_row_whose_simulation_outruns_the_rows_bound_stops_inside_the_row(monkeypatch, state_too_large):
    """Before, the bound was checked only between rows: a single row (or the last one) ran its
    whole simulation past ROWS_SECONDS (a long hostile profile saw 16.5 s). Now the row's own
    simulation checks compare's budget every round."""
    from workbench.simulate import engine

    monkeypatch.setattr(fight_rows, "PROJECT_AFTER", 1e9)  # no projection between rows
    monkeypatch.setattr(engine, "SIMULATION_SECONDS", 1e9)  # nor the simulation's own bound
    monkeypatch.setattr(fight_rows, "ROWS_SECONDS", 0.0)
    with pytest.raises(RulesError) as err:
        wb.compare(["last_odyssey:Zombie Hulk"], ["last_odyssey:Troll"], fights=50_000, progress=False)
    assert err.value.field == "budget"
    assert err.value.message.startswith("compare: stopped after") and "undecided after round 1" in err.value.message
