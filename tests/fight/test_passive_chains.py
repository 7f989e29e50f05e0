"""Rounds-to-kill's chains of many rows solved together (workbench/fight/chain.py ``passive_chains``,
and compare's rows through workbench/fight_rows.py): each row's numbers are those of its chain solved
alone, whatever the batch, the memo cleared in between so nothing is read back from the other."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
import workbench.fight_rows as fight_rows
from workbench.fight.chain import passive_chain, passive_chains
from workbench.memo import MEMO


def _rounds(system: str, names: list[str]):
    sys = wb.system(system)
    cat = sys.catalog()
    cs = [cat.creature(n) for n in names]
    return [sys.fight_round(a, t) for a in cs for t in cs if a is not t and sys.attacks_of(a)]


def _same(a, b):
    assert (a is None) == (b is None)
    if a is not None:
        assert a.states == b.states and a.by.size == b.by.size
        np.testing.assert_allclose(a.by, b.by, rtol=0, atol=1e-12)
        assert a.mean == pytest.approx(b.mean, rel=1e-12)


@pytest.mark.parametrize(
    "system, names, bound",
    [
        # chains of 248 to 11,656 transitions (rows x HP)
        ("last_odyssey", ["Paladin", "Troll", "Wraith", "Gunner"], 5_000),
        # the Warrior King's armor: 25,920 to 102,560 transitions against it, 16 to 32 otherwise
        ("glass_empires", ["Boar", "Bear", "Bear, Cave", "Wolf", "Warrior King (Level 10, example)"], 30_000),
    ],
)
def test_together_as_alone(system, names, bound):
    """Every ordered pair of a few catalog creatures: the batch equals each chain solved alone; with
    a transitions bound the batch is cut into several solves, and chains past the bound are None,
    as alone."""
    rnds = _rounds(system, names)
    for bound in (None, bound):
        MEMO.clear()
        together = passive_chains(rnds, 500, max_transitions=bound)
        for rnd, got in zip(rnds, together):
            MEMO.clear()
            _same(got, passive_chain(rnd, 500, max_transitions=bound))
    assert any(c is None for c in together) and any(c is not None for c in together)


def test_compare_rows_solved_together_as_one_by_one(monkeypatch):
    """A Glass Empires compare of five catalog creatures (two in armor): the frame with rows solved 128 at a time
    equals the frame with each row solved alone (``SOLVED_TOGETHER`` = 1), to 1e-12."""
    import workbench.fight.chain as chain_module

    cat = wb.system("glass_empires").catalog()
    names = ["Boar", "Bear", "Wolf", "Warrior King (Level 10, example)", "Plate Soldier (Level 2 human, example)"]
    cs = [cat.creature(n) for n in names]
    batches: list[int] = []
    real = chain_module.passive_chains

    def spy(rnds, *args, **kwargs):
        batches.append(len(rnds))
        return real(rnds, *args, **kwargs)

    monkeypatch.setattr(chain_module, "passive_chains", spy)
    MEMO.clear()
    together = wb.compare(cs, cs, progress=False, confirm=True)
    assert max(batches) >= 8  # (the rows with state came in one batch)
    monkeypatch.setattr(fight_rows, "SOLVED_TOGETHER", 1)
    MEMO.clear()
    alone = wb.compare(cs, cs, progress=False, confirm=True)
    assert together.columns == alone.columns and together.height == alone.height
    assert (together["method"] == "exact").sum() > 0
    for col, dtype in together.schema.items():
        if dtype.is_float():
            a, b = together[col].to_numpy(), alone[col].to_numpy()
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True)
        elif dtype.is_numeric() or dtype == wb_str():
            assert together[col].to_list() == alone[col].to_list(), col


def wb_str():
    import polars as pl

    return pl.String


def test_a_refusal_in_a_stack_is_the_refused_rounds_own():
    """A level of Glass Empires fights is enumerated in one call of the stacked round; when the rules
    refuse one of them (a plan naming an attack the Bear does not have), the others' levels are
    enumerated alone and the refusal reaches the caller as that round's own, naming the attack
    (compare's rows then meet it one by one, fight_rows.py); without it, the same rounds solve."""
    sys = wb.system("glass_empires")
    cat = sys.catalog()
    bear, king = cat.creature("Bear"), cat.creature("Warrior King (Level 10, example)")
    good = sys.fight_round(bear, king)
    bad = sys.fight_round(bear, king, plan=["Nonexistent"])
    MEMO.clear()
    with pytest.raises(wb.RulesError, match="no attack called 'Nonexistent'") as refused:
        passive_chains([good, bad, good], 100)
    assert refused.value.field == "attacks"
    MEMO.clear()
    alone = passive_chain(good, 100)
    MEMO.clear()
    for got in passive_chains([good, sys.fight_round(bear, king)], 100):
        _same(got, alone)
