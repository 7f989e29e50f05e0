"""Annulus dice pool, hand-worked: four dice less the defense the seed picks, the success number,
situational advantages and disadvantages, and 10,000 matchups in one call (annulus-attacks.txt;
CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import polars as pl

from tests.systems.annulus.builders import ME, THEM, A, atk, close, mean, mk


def test_basic_pool_minus_defense():
    """annulus-attacks.txt: "roll four dice. You deal damage equal to the number of successes ...
    subtracts their relevant defense ... not below 0": vs defense 1, P(0) = 5/16, P(3) = 1/16."""
    d = A.damage(atk(), ME, mk(ag=1))
    assert close(d.probability(0), F(5, 16)) and close(d.probability(3), F(1, 16))
    assert close(d.mean(), F(6 + 8 + 3, 16))


def test_seed_picks_the_defense():
    """annulus-attacks.txt: "an attack with a Toughness Damage seed ability will always target the
    Toughness defense": toughness 4 blocks everything, agility 0 blocks nothing."""
    target = mk(ag=0, to=4)
    assert mean(atk(defense="toughness"), target=target) == 0
    assert close(mean(atk(defense="agility"), target=target), 2)


def test_success_on_option():
    """CLARIFICATIONS: option success_on (4 -> p = 1/2; 5 -> p = 1/3): mean 4/3 on 5+."""
    d = A.damage(atk(), ME, THEM, options=A.Options(success_on=5))
    assert close(d.mean(), F(4, 3))


def test_pool_never_below_zero():
    """CLARIFICATIONS: "pool never below 0 dice": 6 disadvantages -> always 0 damage, not an error."""
    d = A.damage(atk(), ME, THEM, situation=A.Situation(extra_disadvantages=6))
    assert d.probability(0) == 1.0


def test_situation_advantages_and_disadvantages():
    """CLARIFICATIONS step 2: Prone within 5 m +1, beyond 20 m 1 disadvantage; Setup +1; target
    Blind +1; attacker Weakened 1."""
    bow = A.Attack("Bow", "agility", {"Range": 3})  # > 50 to 100 m
    assert close(mean(atk(), target_prone=True), 2.5)
    assert close(mean(bow, distance=60, target_prone=True), 1.5)
    assert close(mean(A.Attack("B", "agility", {"Range": 1}), distance=5, target_prone=True), 2.5)
    assert close(mean(atk(), target_setup=True), 2.5)
    assert close(mean(atk(), target_blind=True), 2.5)
    assert close(mean(atk(), attacker_weakened=True), 1.5)


def test_ten_thousand_matchups_one_call():
    """10,000 (set, target) pairs in one vectorised call: every matchup sums to 1."""
    c = A.catalog()
    rng = np.random.default_rng(7)
    sets = [a for a in c.attacks.values() if a.alteration not in ("Gaze", "Swansong") and not a.area
            and not a.has("Range")]
    creatures = list(c.creatures.values())
    n = 10_000
    attacks = [sets[i] for i in rng.integers(0, len(sets), n)]
    attackers = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    targets = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    t = A.outcome_tables(attacks, attackers, targets)
    sums = t.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == n and (sums["probability"] - 1).abs().max() < 1e-12


def test_the_resolution_is_reproducible_to_the_bit():
    """Outcome rows are summed in a fixed order (polars group_by with maintain_order): the turn tables of the
    whole catalog against itself are bit-identical from one call to the next (before, 14 cells of 121 pairs
    differed by an ulp over 5 calls, which split explore's merges and resumed runs)."""
    import numpy as np

    import workbench as wb

    A = wb.system("annulus")
    cr = list(A.catalog().creatures.values())
    pairs = [(a, t) for a in cr for t in cr]
    first = A.turn_tables(pairs).pmf
    for _ in range(3):
        assert np.array_equal(A.turn_tables(pairs).pmf, first)
