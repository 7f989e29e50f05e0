"""A repeated identical compare answers from its kept frame (workbench.memo.CALLS; issue 38 item 1:
"a repeated identical call costs at most a tenth of the first"): the same frame without running a
fight again, a fresh one for any changed argument, its counted work still checked, and a frame the
caller changes never reaching the next caller."""

from __future__ import annotations

import pytest

import workbench as wb
import workbench.comparison as comparison
from workbench.errors import RulesError
from workbench.memo import CALLS, MEMO

GE = wb.system("glass_empires")
PAIR = (["last_odyssey:Zombie Hulk", "last_odyssey:Cop"], ["last_odyssey:Troll", "last_odyssey:Wolf"])


def _no_fights(*args, **kwargs):
    raise AssertionError("a fight was run again")


def test_the_same_call_returns_the_same_frame_without_running_a_fight(monkeypatch):
    real, ran = comparison.fight_rows, []
    monkeypatch.setattr(comparison, "fight_rows", lambda rows, *a, **k: ran.append(len(rows)) or real(rows, *a, **k))
    first = wb.compare(*PAIR, progress=False)
    assert ran and ran[0] > 0  # rows whose fight carries state (Miasma): each played its fight
    monkeypatch.setattr(comparison, "fight_rows", _no_fights)
    again = wb.compare(*PAIR, progress=False)
    assert again.equals(first)
    # written another way (the names as creatures, the flags spelled out): the same call
    creatures = [wb.system("last_odyssey").catalog().creatures[n.split(":")[1]] for n in PAIR[0]]
    assert wb.compare(creatures, PAIR[1], progress=False, simulate=None, seed=0).equals(first)


def test_a_changed_argument_or_model_is_a_new_call(monkeypatch):
    a, t = GE.catalog().creatures["Vegetable Sprite"], GE.catalog().creatures["Commoner"]
    first = wb.compare([a], [t], progress=False)
    assert len(CALLS) == 1
    # the target's HP, the situation's options and max_rounds each change the frame's numbers
    tougher = wb.compare([a], [t.model_copy(update={"hp": t.hp + 3})], progress=False)
    assert tougher["mean_rounds"][0] > first["mean_rounds"][0]
    capped = wb.compare([a], [t], progress=False, max_rounds=1)
    assert capped["rounds_q90"].null_count() > first["rounds_q90"].null_count()
    assert len(CALLS) == 3
    MEMO.clear()  # clearing the memo forgets the kept frames with it
    assert len(CALLS) == 0


def test_the_counted_work_is_checked_again(monkeypatch, state_too_large):
    frame = wb.compare(*PAIR, progress=False, confirm=True)
    assert (frame["method"] == "simulated").any()
    rows = int((frame["method"] == "simulated").sum())
    monkeypatch.setattr("workbench.limits.MAX_STATE_ROW_FIGHTS", rows * 2000 - 1)
    with pytest.raises(RulesError) as err:  # kept, but past the bound: refused as the first would be
        wb.compare(*PAIR, progress=False)
    assert err.value.field == "budget"
    monkeypatch.setattr(comparison, "fight_rows", _no_fights)
    assert wb.compare(*PAIR, progress=False, confirm=True).equals(frame)


def test_a_frame_changed_by_its_caller_is_not_the_next_callers():
    first = wb.compare(*PAIR, progress=False)
    kept = first.clone()
    first.drop_in_place("mean_rounds")  # polars' one in-place change of a frame
    assert wb.compare(*PAIR, progress=False).equals(kept)


def test_a_kept_frame_says_again_what_the_rules_left_out():
    """The Town Guard's Harpoon reaches only beyond 10 m (CLARIFICATIONS.md, Annulus: Range ranks):
    at the default 1 m compare leaves it out with a warning, the second call as the first."""
    guard = wb.system("annulus").catalog().creature("Town Guard")
    for _ in range(2):
        with pytest.warns(UserWarning, match=r"left out, not usable here: Town Guard: Harpoon .*not at 1 m"):
            frame = wb.compare([guard], ["annulus:Rat"], progress=False)
        assert "Harpoon" not in frame["attack"].to_list()
    assert len(CALLS) == 1
