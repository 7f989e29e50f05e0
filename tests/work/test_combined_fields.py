"""Issue 35, the work of fields each in bounds but unbounded together: each call answers, or refuses
before its work with a RulesError naming the fields that drive it; no MemoryError, and at most 2 GB
of peak memory growth (tests/bounds.py). Counted, so nothing here asserts a time."""

from __future__ import annotations

import re


import pytest

import workbench as wb
from workbench import limits
from workbench.dist import Dist

from tests.bounds import MEMORY, measure

L, U = wb.system("last_odyssey"), wb.system("unbound")
COP = L.catalog().creatures["Cop"]


def bounded(call):
    """Return what ``call()`` returns or the RulesError it raises; anything else, or a peak memory
    growth past 2 GB, fails the test."""
    m = measure(call, wb.RulesError)
    assert m.peak_growth is None or m.peak_growth < MEMORY, f"peak memory grew by {m.peak_growth / 1e9:.2f} GB"
    return m.error if m.error is not None else m.result


def test_a_last_odyssey_multiplier_of_1e12_is_refused_naming_it():
    """It asked numpy for 65.5 TiB (MemoryError). The field now has its own bound (at most
    MAX_MULTIPLIER, models.py), so the reproducer is refused at construction, naming it."""
    got = bounded(
        lambda: wb.damage(L.Attack("x", multiplier_not_full_hp=1e12), COP, COP, situation=L.Situation(target_hp=1))
    )
    assert isinstance(got, wb.RulesError) and got.field == "multiplier_not_full_hp"


def test_a_last_odyssey_damage_span_is_counted_before_any_table(monkeypatch):
    """Behind the field bounds, the whole matchup's damage (attack stat x the multiplier in use x the
    rule multipliers) is counted before any table is made, and past MAX_SUPPORT refused naming the
    multiplier and the attack stat: here with the bound lowered below the brute's 100,700 damage."""
    m = _brute()
    assert wb.damage(m.abilities[0], m, m).max() == 100_700
    monkeypatch.setattr(limits, "MAX_SUPPORT", 50_000)
    got = bounded(lambda: wb.damage(m.abilities[0], m, m))
    assert isinstance(got, wb.RulesError) and got.field == "multiplier"
    assert "deals up to 100,700 damage" in got.message and "physical_attack 999" in got.message
    assert "the work is driven by multiplier and physical_attack" in got.message


def _brute():
    return COP.replace(name="Brute", physical_attack=999, abilities=(COP.abilities[0].replace(multiplier=100.0),)
    )


def test_a_last_odyssey_attack_of_999_with_multiplier_100_answers():
    """turn_damage took 1.3-74 s (a direct convolution of two 200,000-wide uses: 4e10 multiply-adds);
    `workbench duel` and `optimal` still ran at 40 s. The plan's uses are summed by FFT past
    SUMMED_DIRECT multiply-adds, and every call answers."""
    from workbench.systems.base import SUMMED_DIRECT

    m = _brute()
    turn = bounded(lambda: wb.turn_damage(m, m))
    assert isinstance(turn, Dist)
    one = wb.damage(m.abilities[0], m, m)
    assert one.max() * one.max() > SUMMED_DIRECT  # the case the FFT is for
    assert turn.max() == 2 * one.max() and abs(turn.mean() - 2 * one.mean()) < 1e-9 * turn.mean()
    assert abs(turn.pmf.sum() - 1.0) < 1e-12 and turn.pmf.min() >= 0.0
    duel = bounded(lambda: wb.duel(m, m))
    assert isinstance(duel, wb.DuelResult) and duel.p_a_wins == pytest.approx(1.0)  # it acts first and kills
    policy = bounded(lambda: wb.optimal_play(m, m))
    assert not isinstance(policy, wb.RulesError)


def test_an_unbound_creature_of_20_wide_weapons_is_refused_naming_weapons():
    """20 weapons of 100d100+50, str_mod 50, 1,000 HP: wb.duel(m, m) ran 5-19 s, then MemoryError.
    The outcome table's cells (rows x damage outcomes) are counted before it is allocated."""
    base = U.catalog().creatures["Town guard"]
    w = U.Attack(name="Big", damage="100d100+50")
    m = base.replace(weapons=tuple(w.replace(name=f"W{i}") for i in range(20)), str_mod=50, hp=1000
    )
    got = bounded(lambda: wb.duel(m, m))
    assert isinstance(got, wb.RulesError) and got.field == "weapons"
    assert "table cells" in got.message and "'100d100+50'" in got.message
    assert f"{limits.MAX_TABLE_CELLS:,}" in got.message
    # 8 of them are still past the bound (45 M cells: a duel took 40 s); 4 are within it, and answer
    eight = m.replace(weapons=m.weapons[:8])
    got = bounded(lambda: wb.turn_damage(eight, eight))
    assert isinstance(got, wb.RulesError) and got.field == "weapons"
    # 2,816 rows x about 15,976 outcomes (45 M cells): the outcomes are the damage pmfs' widths once
    # their underflowed tails (probabilities near 1e-18 after the FFT) are trimmed, so the last one
    # or two differ with numpy's FFT; the rows and the product do not
    found = re.search(r"([\d,]+) attack rows .* x ([\d,]+) damage outcomes .* = ([\d,]+) table cells", got.message)
    assert found is not None, got.message
    rows, width, cells = (int(x.replace(",", "")) for x in found.groups())
    assert rows == 2_816 and 15_900 < width <= 16_001 and cells == rows * width > limits.MAX_TABLE_CELLS
    four = m.replace(weapons=m.weapons[:4])
    assert isinstance(bounded(lambda: wb.turn_damage(four, four)), Dist)


def test_a_sweep_over_range_10_to_the_18_is_refused_by_its_length():
    got = bounded(lambda: wb.sweep(["unbound:Town guard"], "unbound:Veteran duelist", "ac", range(10**18)))
    assert isinstance(got, wb.RulesError) and got.field == "values"
    assert "1,000,000,000,000,000,000" in got.message
