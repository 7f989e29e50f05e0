"""Compare's simulated rows stop and ask (docs/limits.md, bounded work): projected past 10 s from the
rows done after 1 s, or still running after ROWS_SECONDS (8 s), unless confirm=True."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench import fight_rows
from workbench.errors import RulesError

PAIR = (["annulus:Berserker", "annulus:Ogre"], ["annulus:Ogre", "annulus:Town Guard"])


def test_rows_still_running_after_the_simulation_bound_are_refused(monkeypatch):
    monkeypatch.setattr(fight_rows, "PROJECT_AFTER", 0.0)
    monkeypatch.setattr(fight_rows, "ROWS_SECONDS", 0.0)  # past the bound after the first row
    monkeypatch.setattr("workbench.limits.MAX_SECONDS", 1e9)  # the projection alone would let it run
    with pytest.raises(RulesError) as err:
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget" and "confirm=True" in err.value.message
    frame = wb.compare(*PAIR, progress=False, confirm=True)  # asked: it runs
    assert (frame["method"] == "simulated").any()


def test_a_projection_past_ten_seconds_is_refused(monkeypatch):
    monkeypatch.setattr(fight_rows, "PROJECT_AFTER", 0.0)
    monkeypatch.setattr("workbench.limits.MAX_SECONDS", 1e-6)
    with pytest.raises(RulesError) as err:
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget"
