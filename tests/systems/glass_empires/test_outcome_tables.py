"""Glass Empires outcome tables: a grid equals its single matchups, probabilities sum to one and are
monotone, 10,000 matchups in one call (glass-empires-attack.txt; CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations


import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.systems.glass_empires.builders import CAT, GE


def test_vectorised_grid_equals_single_matchups():
    """outcome_tables over several matchups equals each 1 x 1 call."""
    creatures = list(CAT.creatures.values())
    armed = [c for c in creatures if c.weapons]
    attacks = [c.weapons[0] for c in armed[:6]]
    targets = creatures[-6:]
    grid = GE.outcome_tables(attacks, armed[:6], targets)
    for i in range(6):
        single = GE.outcomes(attacks[i], armed[i], targets[i])
        part = grid.filter(pl.col("matchup") == i).drop("matchup")
        assert part.equals(single)


@settings(max_examples=40, deadline=None)
@given(damage=st.integers(0, 15), strikes=st.integers(1, 3), armor=st.integers(0, 4), power=st.integers(1, 5),
       m=st.integers(-6, 5), res=st.sampled_from([(), ("physical",)]))
def test_properties_sum_to_one_and_monotone(damage, strikes, armor, power, m, res):
    """Probabilities sum to 1; a better modifier never lowers mean damage or P(a Strike lands);
    more armor points never raise HP damage."""
    w = GE.Attack("w", damage=damage)
    a = GE.Creature("a", power=2, strikes=strikes, weapons=[w])
    t = GE.Creature("t", power=power, armor=armor, resist=res)
    lo = GE.outcomes(w, a, t, situation=GE.Situation(environment=m))
    hi = GE.outcomes(w, a, t, situation=GE.Situation(environment=m + 1))
    for tab in (lo, hi):
        assert abs(tab["probability"].sum() - 1) < 1e-12
    mean = lambda tab: float((tab["damage"] * tab["probability"]).sum() + (tab["ap_damage"] * tab["probability"]).sum())  # noqa: E731
    assert mean(hi) >= mean(lo) - 1e-12
    landed = lambda tab: tab.filter(pl.col("strikes_passed") > 0)["probability"].sum()  # noqa: E731
    assert landed(hi) >= landed(lo) - 1e-12
    bare = GE.damage(w, a, t.replace(armor=0), situation=GE.Situation(environment=m))
    assert bare.mean() >= GE.damage(w, a, t, situation=GE.Situation(environment=m)).mean() - 1e-12


def test_ten_thousand_matchups_in_one_call():
    """10,000 matchups (catalog creatures x weapons, 1-3 Strikes, armor) in one vectorised call, each
    summing to 1 (its speed: benchmarks/, never asserted here)."""
    creatures = list(CAT.creatures.values())
    weapons = [w for w in CAT.attacks.values() if w.kind == "melee"]
    rng = np.random.default_rng(6)
    n = 10_000
    attackers = [creatures[i].replace(strikes=int(s), weapons=()) for i, s in
                 zip(rng.integers(0, len(creatures), n), rng.integers(1, 4, n))]
    attacks = [weapons[i] for i in rng.integers(0, len(weapons), n)]
    targets = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    table = GE.outcome_tables(attacks, attackers, targets)
    sums = table.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == n and np.allclose(sums["probability"].to_numpy(), 1, atol=1e-12)
