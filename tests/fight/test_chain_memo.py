"""The exact chain reused across calls (workbench/fight/chain.py ``passive_chain``, issue 38 item 1: "a
repeated identical call costs at most a tenth of the first"): a round with a key keeps its solved
chain in the bounded MEMO; equal models share it, a changed one does not, and a chain past the counted
bounds is remembered as such."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.fight.chain import passive_chain
from workbench.memo import MEMO

LO = wb.system("last_odyssey")
CAT = LO.catalog()


def test_a_repeated_chain_is_the_kept_one_and_read_only():
    a, t = CAT.creature("Paladin"), CAT.creature("Troll")
    MEMO.clear()
    first = passive_chain(LO.fight_round(a, t), 1_000)
    again = passive_chain(LO.fight_round(a.model_copy(), t.model_copy()), 1_000)  # equal models
    assert first is not None and again is first
    with pytest.raises(ValueError):
        first.by[0] = 0.5  # shared: nobody may change it
    # another max_rounds, or a changed model, is its own chain
    assert passive_chain(LO.fight_round(a, t), 999) is not first
    weaker = passive_chain(LO.fight_round(a, t.replace(hp=t.hp - 1)), 1_000)
    assert weaker is not first and weaker.mean != first.mean
    # the numbers are those of a chain solved afresh
    MEMO.clear()
    fresh = passive_chain(LO.fight_round(a, t), 1_000)
    assert fresh is not first and fresh.mean == first.mean and np.array_equal(fresh.by, first.by)


def test_past_the_bounds_is_remembered():
    a, t = CAT.creature("Paladin"), CAT.creature("Troll")
    MEMO.clear()
    assert passive_chain(LO.fight_round(a, t), 1_000, max_states=10) is None
    assert len(MEMO) > 0 and passive_chain(LO.fight_round(a, t), 1_000, max_states=10) is None
    assert passive_chain(LO.fight_round(a, t), 1_000) is not None  # its own bounds, its own entry


def test_unbound_state_effects_are_memoised_as_they_are():
    from workbench.systems.unbound.round import _state_effects, state_effects

    sys_ = wb.system("unbound")
    cat = sys_.catalog()
    names = list(cat.creatures)[:6]
    for x in names:
        for y in names:
            a, t = cat.creature(x), cat.creature(y)
            opts, sit = sys_.defaults(None, None)
            want = set(_state_effects(sys_, a, t, opts, sit, None))
            assert state_effects(sys_, a, t) == want
            got = state_effects(sys_, a, t)
            got.add("changed by a caller")  # a copy: the memo is not changed
            assert state_effects(sys_, a, t) == want
