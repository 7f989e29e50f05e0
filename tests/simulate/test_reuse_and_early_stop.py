"""What makes compare's simulated rows fast changes no number (issue 15, item 5): outcome tables and
plans reused by value across calls (``workbench.simulate.engine.MEMO``), and fights stopped once no
turn can change them (``Side.settled``) give exactly the numbers of a cold, full run with the same
seed; the memo stays bounded.
"""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.simulate import make_side, run_fights, simulate_rounds_to_kill
from workbench.simulate.engine import MEMO, Memo, Side
from workbench.systems.annulus.round import _Striker

A = wb.system("annulus")
LO = wb.system("last_odyssey")


def _annulus_pair():
    cat = A.catalog()
    return cat.creature("Ogre"), cat.creature("Berserker")


@pytest.mark.parametrize("plan", [None, "first attack"])
def test_reused_tables_and_plans_give_the_cold_numbers(monkeypatch, plan):
    """A second rounds-to-kill of the same pair (equal models, new objects) builds no outcome table
    and chooses no plan again, and its P(killed by t) equals that of a run from an empty memo."""
    a, t = _annulus_pair()
    if plan is not None:
        plan = [A.attacks_of(a)[0]] * 2
    MEMO.clear()
    cold = simulate_rounds_to_kill(a, t, plan=plan, fights=2_000, seed=7, max_rounds=100)
    built = []
    original = _Striker._build  # the Annulus round's outcome tables (annulus/round.py)
    monkeypatch.setattr(_Striker, "_build", lambda self, keys: built.append(keys) or original(self, keys))
    chosen = []
    choose = _Striker._choose
    monkeypatch.setattr(_Striker, "_choose", lambda self, *k: chosen.append(k) or choose(self, *k))
    warm = simulate_rounds_to_kill(a.replace(), t.replace(), plan=plan, fights=2_000, seed=7, max_rounds=100)
    assert np.array_equal(cold, warm)
    assert built == []
    if plan is None:  # a list plan is not chosen from the models (its sets are checked per state)
        assert chosen == []
    MEMO.clear()  # and a cold run after the warm one: still the same numbers
    assert np.array_equal(simulate_rounds_to_kill(a, t, plan=plan, fights=2_000, seed=7, max_rounds=100), cold)


def _stuck_pair():
    """A Last Odyssey attacker whose chosen ability deals 0 damage through the target's Shell (and
    another ability that could, so it is not 'never killed'); the ability costs no MP and the attacker
    plays nothing between rounds, so its turns change no state (MP, phase abilities)."""
    cat = LO.catalog()
    for a in cat.creatures.values():
        if a.phase_abilities:
            continue
        for t in cat.creatures.values():
            if LO.shell_points(t) == 0:
                continue
            for x in LO.attacks_of(a):
                if x.mp_cost:
                    continue
                try:
                    d = LO.plan_damage(a, t, [x])
                except wb.RulesError:
                    continue
                if d.max() == 0 and wb.simulate.can_damage(a, t):
                    return a, t, [x]
    raise AssertionError("no Last Odyssey catalog pair with a harmless ability against a Shell")


def test_a_fight_that_can_no_longer_change_stops_with_the_same_numbers(monkeypatch):
    """Last Odyssey: an ability that never damages the Shell leaves every fight as it is. run_fights
    stops after the first round (both sides settled) and its results equal those of playing all
    100 rounds (Side.settled patched to never settle)."""
    a, t, plan = _stuck_pair()

    def play():
        me = make_side(a, t, None, None, plan)
        me.immortal = True
        foe = make_side(t, a, None, None, None)
        turns = []
        original = type(me).turn
        monkeypatch.setattr(type(me), "turn", lambda self, *x: turns.append(1) or original(self, *x))
        sim = run_fights(me, foe, 500, first="a", max_rounds=100, seed=3, passive_b=True)
        monkeypatch.setattr(type(me), "turn", original)
        return sim, len(turns), foe

    early, early_turns, foe = play()
    assert foe.settled(np.arange(500), make_side(a, t, None, None, plan), True)
    monkeypatch.setattr(type(foe), "settled", lambda self, idx, other, passive: False)
    full, full_turns, _ = play()
    assert early_turns == 1 and full_turns == 100
    assert np.array_equal(early.winner, full.winner) and np.array_equal(early.end_round, full.end_round)
    assert (early.winner == 0).all()  # nobody is ever killed: all unresolved


def test_a_fight_that_still_changes_is_not_settled():
    """A Last Odyssey turn that can damage is never settled; the base Side settles only a passive
    turn that does nothing."""
    cat = LO.catalog()
    a = next(c for c in cat.creatures.values() if LO.attacks_of(c))
    t = max((c for c in cat.creatures.values() if LO.shell_points(c) == 0), key=LO.hit_points)
    me, foe = make_side(a, t), make_side(t, a)
    sim = run_fights(me, foe, 50, first="a", max_rounds=1, seed=1, passive_b=True)
    live = np.flatnonzero(sim.winner == 0)
    assert live.size > 0 and not me.settled(live, foe, False)
    assert foe.settled(np.arange(50), me, True)
    assert not Side.settled(me, np.arange(50), foe, False)


def test_the_memo_is_bounded_and_skips_unhashable_keys():
    """Memo keeps at most max_entries entries and about max_bytes of arrays, the oldest dropped
    first; a key it cannot hash is computed every time and kept nowhere."""
    m = Memo(max_entries=2, max_bytes=10_000)
    calls = []
    for k in ("a", "b", "c"):
        m.get(k, lambda k=k: calls.append(k) or k.upper())
    assert len(m) == 2 and m.lookup("a") is None and m.lookup("c") == "C"
    assert m.get("b", lambda: "other") == "B"  # a hit computes nothing
    m.put("big", {"x": np.zeros(2_000)})  # 16,000 bytes: over max_bytes, the older entries go
    assert len(m) == 1 and m.lookup("big") is not None
    out = [m.get(("list", [1]), lambda: len(calls)) for _ in range(2)]
    assert out == [3, 3] and len(m) == 1
