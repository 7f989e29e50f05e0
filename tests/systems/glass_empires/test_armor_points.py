"""Glass Empires armor points that stay spent, solved exactly (issue 15, item 3): the chain over
(armor points left, jammed, damage taken) of glass_empires/state_chain.py against an independent
oracle, a plain enumeration with Fractions written from the rules text, to 1e-12, and a number
worked out by hand. wb.rounds_to_kill and wb.compare both read it (method "exact").

Rules (glass-empires-attack.txt, CLARIFICATIONS.md, Glass Empires): a Strike Save is 2d6 plus the
modifier; natural 12 is a Crit, natural 2 a Fumble; otherwise >= 12 Crit, 8-11 Pass, 7 Seven, 3-6
Failure, <= 2 Fumble. Crit deals x2, Pass the weapon's damage, Seven half rounded down, Failure and
Fumble nothing. "Armor points absorb physical damage before HP, 1 AP per 2 damage or fraction";
armor points = Armor x Power, HP = 4 x Power; each Strike of an Attack is its own Strike Save.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import BEST_PLAN, compare

G = wb.system("glass_empires")

#: P(natural 2d6 = n)
TWO_D6 = {n: Fraction(6 - abs(n - 7), 36) for n in range(2, 13)}


def strike_outcomes(damage: int, modifier: int = 0) -> dict[int, Fraction]:
    """Return {damage dealt by one Strike: probability}, from the Strike Save table."""
    out: dict[int, Fraction] = {}
    for n, p in TWO_D6.items():
        total = n + modifier
        if n == 12 or (n != 2 and total >= 12):
            x = 2 * damage
        elif n != 2 and 8 <= total <= 11:
            x = damage
        elif n != 2 and total == 7:
            x = damage // 2
        else:
            x = 0
        out[x] = out.get(x, Fraction(0)) + p
    return out


def strike(ap: int, hp: int, x: int) -> tuple[int, int]:
    """Return (AP, HP) after a Strike of ``x`` physical damage: armor absorbs up to 2 per AP, each
    AP taken per 2 absorbed damage or fraction, the rest goes to HP."""
    absorbed = min(x, 2 * ap)
    return ap - (absorbed + 1) // 2, hp - (x - absorbed)


def turn(
    ap: int, hp: int, damage: int, strikes: int, modifier: int = 0, cap: int | None = None
) -> dict[tuple[int, int], Fraction]:
    """Return {(AP, HP) after one turn (one Attack of ``strikes`` Strikes): probability}; ``modifier`` on every
    Strike Save, ``cap`` the most one Strike deals before armor (a Swarm's "reduced to 1")."""
    states = {(ap, hp): Fraction(1)}
    for _ in range(strikes):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (a, h), p in states.items():
            for x, q in strike_outcomes(damage, modifier).items():
                x = x if cap is None else min(x, cap)
                s = strike(a, h, x) if h > 0 else (a, h)
                nxt[s] = nxt.get(s, Fraction(0)) + p * q
        states = nxt
    return states


def oracle(
    ap0: int, hp0: int, damage: int, strikes: int, rounds: int, modifier: int = 0, cap: int | None = None
) -> tuple[list[Fraction], Fraction]:
    """Return (P(killed by round t) for t = 1..rounds, the exact mean rounds) by enumeration."""
    alive = {(ap0, hp0): Fraction(1)}
    by, dead = [], Fraction(0)
    for _ in range(rounds):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (a, h), p in alive.items():
            for (a2, h2), q in turn(a, h, damage, strikes, modifier, cap).items():
                if h2 <= 0:
                    dead += p * q
                else:
                    nxt[(a2, h2)] = nxt.get((a2, h2), Fraction(0)) + p * q
        alive = nxt
        by.append(dead)

    @lru_cache(maxsize=None)
    def mean(a: int, h: int) -> Fraction:  # every move but "no change" lowers AP or HP
        moves = turn(a, h, damage, strikes, modifier, cap)
        stay = moves.get((a, h), Fraction(0))
        rest = sum((q * mean(*s) for s, q in moves.items() if s != (a, h) and s[1] > 0), Fraction(0))
        return (1 + rest) / (1 - stay)

    return by, mean(ap0, hp0)


CASES = [  # (weapon damage, Armor, Power, Strikes)
    (3, 2, 1, 1),
    (4, 1, 1, 1),
    (3, 1, 2, 1),
    (5, 4, 2, 2),
    (1, 2, 2, 1),
]


@pytest.mark.parametrize("damage, armor, power, strikes", CASES)
def test_rounds_to_kill_is_the_enumerated_chain(damage, armor, power, strikes):
    club = G.Attack(name="Club", damage=damage)
    a = G.Creature(name="A", power=1, strikes=strikes, weapons=(club,))
    t = G.Creature(name="T", power=power, armor=armor)
    assert G.state_effects(a, t) == {"armor points"}
    f = wb.rounds_to_kill(a, t)
    assert f["exact"].all() and f["fights"].null_count() == f.height
    by, mean = oracle(armor * power, 4 * power, damage, strikes, 12)
    got = f["p_killed_by"].to_numpy()
    got = np.concatenate([got, np.full(12, got[-1])])[:12]
    assert np.allclose(got, [float(p) for p in by], atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - float(mean)) < 1e-9 * float(mean)
    row = compare([a], [t], progress=False).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    assert row["method"] == "exact" and row["forced_by"] == "" and row["se"] is None
    assert abs(row["mean_rounds"] - float(mean)) < 1e-9 * float(mean)
    assert abs(row["p_kill_one_turn"] - float(by[0])) < 1e-12


def test_by_hand_armor_stays_spent():
    """Club 3 against Armor 2, Power 1 (2 AP, 4 HP). Round 1 never kills (a Crit's 6 leaves 2 after
    4 absorbed). Round 2 kills from: Crit then Pass or Crit (1/36 x 15/36, 2 HP left, no AP); Pass
    then Crit (14/36 x 1/36: the Pass's 3 absorbed spends both AP, "or fraction"); Seven then Crit
    (6/36 x 1/36: 1 AP left absorbs 2 of the 6). P(killed in round 2) = 35/1296. With the armor
    restored every turn only two Crits kill by then: 1/1296."""
    club = G.Attack(name="Club", damage=3)
    a, t = G.Creature(name="A", power=1, weapons=(club,)), G.Creature(name="T", power=1, armor=2)
    f = wb.rounds_to_kill(a, t)
    assert f["p_killed_at"][0] == 0.0
    assert abs(f["p_killed_at"][1] - 35 / 1296) < 1e-15
    free = wb.rounds_to_kill(a, t, simulate=False)
    assert abs(free["p_killed_at"][1] - 1 / 1296) < 1e-15



def test_a_chain_past_its_transitions_is_simulated(monkeypatch):
    """The chain's time and memory follow its transitions (states x turn-table rows), so past
    MAX_TRANSITIONS it is not built and the fight is simulated (bounded by its own time). Club 3
    against 2 AP / 4 HP: 3 (AP left 2, 1, 0) x 4 HP states and a table of a few rows, far below the
    bound; with the bound at 1 the same fight is simulated."""
    import importlib

    chain = importlib.import_module("workbench.fight.chain")
    club = G.Attack(name="Club", damage=3)
    a, t = G.Creature(name="A", power=1, weapons=(club,)), G.Creature(name="T", power=1, armor=2)
    assert wb.rounds_to_kill(a, t)["exact"].all()
    monkeypatch.setattr(chain, "MAX_TRANSITIONS", 1)
    f = wb.rounds_to_kill(a, t, fights=2_000, seed=1)
    assert not f["exact"].any() and f["fights"][0] == 2_000


def _agree(f, by, mean) -> None:
    got = f["p_killed_by"].to_numpy()
    got = np.concatenate([got, np.full(len(by), got[-1])])[: len(by)]
    assert f["exact"].all()
    assert np.allclose(got, [float(p) for p in by], atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - float(mean)) < 1e-9 * float(mean)


def test_swarm_cap_in_the_armor_chain():
    """The chain stays exact with a published trait on the armored target: a Skittering Horde given Armor 1 (4 AP,
    16 HP; Swarm: single-target damage "reduced to 1", skittering-horde.yaml) against the Bear's 2 Strikes of 10.
    Each landed Strike (21/36) deals 1, and 1 damage spends a whole AP ("1 AP per 2 damage or fraction"), so 4 Strikes
    go to armor and 16 to HP: 20 landed Strikes, 10 turns at the least. P(killed by round 9) = 0, P(killed by
    round 10) = (21/36)^20. (Were armor a pool of 2 x 4 = 8 damage, 24 Strikes would be needed.)"""
    bear = wb.system("glass_empires").catalog().creature("Bear")
    horde = wb.system("glass_empires").catalog().creature("Skittering Horde").replace(armor=1)
    assert G.state_effects(bear, horde) == {"armor points"}
    f = wb.rounds_to_kill(bear, horde)
    assert f["p_killed_by"][8] == pytest.approx(0, abs=1e-12)
    assert f["p_killed_by"][9] == pytest.approx(float(Fraction(21, 36) ** 20), abs=1e-12)
    _agree(f, *oracle(4, 16, 10, 2, 14, cap=1))


def test_pack_hunter_bonus_in_the_armor_chain():
    """The Wolf (+2 to Strike Saves against a target engaged with an ally, wolf.yaml) against the Plate Soldier
    (Armor 4 x Power 4 = 16 AP, 16 HP): the chain over (AP, HP) equals the enumeration at modifier +2, and differs
    from it at +0 (the circumstance absent)."""
    cat = wb.system("glass_empires").catalog()
    wolf, soldier = cat.creature("Wolf"), cat.creature("Plate Soldier (Level 2 human, example)")
    engaged = G.Situation(circumstances=["target_engaged_with_ally"])
    f = wb.rounds_to_kill(wolf, soldier, situation=engaged)
    by, mean = oracle(16, 16, 6, 1, 8, modifier=2)
    _agree(f, by, mean)
    plain = oracle(16, 16, 6, 1, 8)
    assert float(plain[1]) > float(mean) + 0.5
