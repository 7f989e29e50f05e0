"""The Moon Rabbit Operator's Ray Shield over a whole fight (issue 16; issue 15's "each system declares the state
a fight carries"): once broken it stays broken, so rounds_to_kill, compare and duel play the turns while it is up
with the shield-up turn table and the turns after it broke with the shield-down one.

Rule (shared/data/glass_empires_creatures.toml, Moon Rabbit Operator): defenses = { ray_shield_immune_to_all_damage
= true, ray_shield_breaks_on_effect_dealing_at_least = 6, ray_shield_absorbs_breaking_effect = true }; the gem
"instantly shatters, destroying the item". Strike Saves (glass-empires-attack.txt, CLARIFICATIONS.md): 2d6 plus the
modifier; natural 12 a Crit, natural 2 a Fumble; otherwise >= 12 Crit (x2), 8-11 Pass (the weapon's damage), 7 Seven
(half, rounded down), 3-6 Failure and <= 2 Fumble (nothing). "Armor points absorb physical damage before HP, 1 AP
per 2 damage or fraction"; the order is band -> Ray Shield -> armor points -> HP (glass_empires/resolve.py).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import BEST_PLAN, compare
from workbench.simulate import can_damage, simulate_rounds_to_kill

from .builders import CAT, GE

#: P(natural 2d6 = n)
TWO_D6 = {n: Fraction(6 - abs(n - 7), 36) for n in range(2, 13)}


def strike_outcomes(damage: int) -> dict[int, Fraction]:
    """Return {damage of one Strike before the shield and armor: probability} (Strike Save table, modifier 0)."""
    out: dict[int, Fraction] = {}
    for n, p in TWO_D6.items():
        x = 2 * damage if n == 12 else damage if 8 <= n <= 11 else damage // 2 if n == 7 else 0
        out[x] = out.get(x, Fraction(0)) + p
    return out


def strike(ap: int, hp: int, up: int, x: int, breaks_at: int) -> tuple[int, int, int]:
    """Return (AP, HP, shield up) after a Strike of ``x`` physical damage: while the shield is up it takes all of it
    ("immune to all damage") and breaks if x >= ``breaks_at``, absorbing that Strike too; then armor absorbs up to 2
    per AP, each AP per 2 damage or fraction, the rest goes to HP."""
    if up:
        return ap, hp, 0 if x >= breaks_at else 1
    absorbed = min(x, 2 * ap)
    return ap - (absorbed + 1) // 2, hp - (x - absorbed), 0


def turn(state: tuple[int, int, int], damage: int, strikes: int, breaks_at: int) -> dict[tuple[int, int, int], Fraction]:
    """Return {(AP, HP, shield up) after one turn of ``strikes`` Strikes in a row: probability}."""
    states = {state: Fraction(1)}
    for _ in range(strikes):
        nxt: dict[tuple[int, int, int], Fraction] = {}
        for (a, h, u), p in states.items():
            for x, q in strike_outcomes(damage).items():
                s = strike(a, h, u, x, breaks_at) if h > 0 else (a, h, u)
                nxt[s] = nxt.get(s, Fraction(0)) + p * q
        states = nxt
    return states


def oracle(
    ap0: int, hp0: int, damage: int, strikes: int, breaks_at: int, rounds: int
) -> tuple[list[Fraction], Fraction]:
    """Return (P(killed by round t) for t = 1..rounds, the exact mean rounds) by enumeration over (AP, HP, shield)."""
    alive = {(ap0, hp0, 1): Fraction(1)}
    by, dead = [], Fraction(0)
    for _ in range(rounds):
        nxt: dict[tuple[int, int, int], Fraction] = {}
        for s, p in alive.items():
            for s2, q in turn(s, damage, strikes, breaks_at).items():
                if s2[1] <= 0:
                    dead += p * q
                else:
                    nxt[s2] = nxt.get(s2, Fraction(0)) + p * q
        alive = nxt
        by.append(dead)

    @lru_cache(maxsize=None)
    def mean(s: tuple[int, int, int]) -> Fraction:  # every move but "no change" lowers AP, HP or the shield
        moves = turn(s, damage, strikes, breaks_at)
        stay = moves.get(s, Fraction(0))
        rest = sum((q * mean(s2) for s2, q in moves.items() if s2 != s and s2[1] > 0), Fraction(0))
        return (1 + rest) / (1 - stay)

    return by, mean((ap0, hp0, 1))


def shielded(power: int = 1, armor: int = 0, breaks_at: int = 6, **kw) -> object:
    return GE.Creature(name="T", power=power, armor=armor, traits={"ray_shield_breaks_at": breaks_at}, **kw)


def by_round(frame: pl.DataFrame, rounds: int) -> np.ndarray:
    got = frame["p_killed_by"].to_numpy()
    return np.concatenate([got, np.full(rounds, got[-1])])[:rounds]


def test_outcome_table_says_whether_the_shield_broke():
    """A Sword (5) Strike on the Operator breaks the shield only on a Crit (10 >= 6; a Pass 5 < 6): P(shield_breaks
    = 1) = 1/36, with damage 0 (the breaking Strike is absorbed). With the shield already down nothing breaks."""
    op = CAT.creature("Moon Rabbit Operator")
    sword = GE.Attack("Sword", category="medium_melee")
    me = GE.Creature("Swordsman", power=3, weapons=[sword])
    t = GE.outcome_tables([sword], [me], [op])
    assert t.filter(pl.col("shield_breaks") == 1)["probability"].sum() == pytest.approx(1 / 36, abs=1e-15)
    assert t["damage"].max() == 0
    down = GE.outcome_tables([sword], [me], [op], situation=GE.Situation(target_shield_up=False))
    assert down["shield_breaks"].max() == 0 and down["damage"].max() == 10
    # the shield is progress without damage: the generic can_damage reads the declared column
    assert GE.progress_columns == ("shield_breaks",)
    assert can_damage(me, op)


def test_by_hand_the_shield_stays_broken():
    """Weapon 6 against a shield that breaks at 6, on 3 HP. A Strike breaks the shield on a Crit (12) or a Pass (6):
    p = 15/36 (naturals 8..12: 5 + 4 + 3 + 2 + 1); a Seven's 3 < 6 is absorbed. The breaking Strike is absorbed
    ("ray_shield_absorbs_breaking_effect"), so the kill comes on a later turn, by any Strike that lands (Crit 12,
    Pass 6 or Seven 3 >= 3 HP): q = 21/36. Rounds T = T1 + T2, two independent geometric waits, so
    P(T = n) = pq (a^(n-1) - b^(n-1)) / (a - b), a = 1 - p = 21/36, b = 1 - q = 15/36, a - b = 1/6:
    P(T = 1) = 0, P(T = 2) = pq = 315/1296, P(T = 3) = pq (a + b) = 315/1296, P(T = 4) = pq (a^2 + ab + b^2) =
    315 x 981 / 1296^2; the mean is 1/p + 1/q = 12/5 + 12/7 = 144/35. With the shield restored every turn (the
    HP-only chain) the target is never killed."""
    a = GE.Creature(name="A", power=1, weapons=(GE.Attack(name="Ray", damage=6),))
    t = shielded(hp=3)
    assert GE.state_effects(a, t) == {"ray shield"}
    p, q = Fraction(15, 36), Fraction(21, 36)
    pa, pb = 1 - p, 1 - q
    at = [Fraction(0)] + [p * q * (pa ** (n - 1) - pb ** (n - 1)) / (pa - pb) for n in range(2, 13)]
    assert at[1] == Fraction(315, 1296) and at[2] == Fraction(315, 1296)
    assert at[3] == Fraction(315 * 981, 1296**2)
    f = wb.rounds_to_kill(a, t)
    assert f["exact"].all()
    assert np.allclose(by_round(f, 12), np.cumsum([float(x) for x in at]), atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - 144 / 35) < 1e-9
    with pytest.raises(wb.RulesError, match="never"):
        wb.rounds_to_kill(a, t, simulate=False)
    # the simulation carries the shield too: within 4 standard errors of the hand-worked numbers
    n = 40_000
    sim = simulate_rounds_to_kill(a, t, fights=n, seed=7)
    exact = np.cumsum([float(x) for x in at])[:8]
    got = np.concatenate([sim, np.full(8, sim[-1])])[:8]
    se = np.sqrt(exact * (1 - exact) / n)
    assert got[0] == 0.0
    assert np.all(np.abs(got - exact) <= 4 * se)


CASES = [  # (weapon damage, Armor, Power, Strikes, breaks at)
    (6, 0, 1, 1, 6),
    (5, 0, 1, 2, 6),
    (4, 1, 1, 1, 6),
    (3, 2, 1, 2, 5),
    (5, 1, 2, 1, 6),
]


@pytest.mark.parametrize("damage, armor, power, strikes, breaks_at", CASES)
def test_chain_is_the_enumeration_over_hp_ap_and_shield(damage, armor, power, strikes, breaks_at):
    club = GE.Attack(name="Club", damage=damage)
    a = GE.Creature(name="A", power=1, strikes=strikes, weapons=(club,))
    t = shielded(power=power, armor=armor, breaks_at=breaks_at)
    assert "ray shield" in GE.state_effects(a, t)
    f = wb.rounds_to_kill(a, t)
    assert f["exact"].all()
    by, mean = oracle(armor * power, 4 * power, damage, strikes, breaks_at, 12)
    assert np.allclose(by_round(f, 12), [float(p) for p in by], atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - float(mean)) < 1e-9 * float(mean)
    row = compare([a], [t], progress=False).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    assert row["method"] == "exact" and row["se"] is None
    assert abs(row["mean_rounds"] - float(mean)) < 1e-9 * float(mean)


def test_two_attacks_a_turn_carry_the_shield_from_turn_to_turn():
    """Two Attacks a turn (attack_is_save_action = False): the best plan is Club + Club, two Attacks of one Strike
    each, the same as one turn of two Strikes in the enumeration."""
    opt = GE.Options(attack_is_save_action=False)
    club = GE.Attack(name="Club", damage=4)
    a = GE.Creature(name="A", power=1, weapons=(club,))
    t = shielded(power=2, armor=1, breaks_at=7)
    f = wb.rounds_to_kill(a, t, options=opt)
    by, mean = oracle(2, 8, 4, 2, 7, 12)
    assert np.allclose(by_round(f, 12), [float(p) for p in by], atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - float(mean)) < 1e-9 * float(mean)


def test_swordsman_against_the_operator():
    """Sword (5) against the Operator (Power 1: 4 HP, no armor): the shield breaks only on a Crit (1/36 a turn), then
    a Crit 10 or Pass 5 kills and a Seven's 2 needs a second Seven. Today's rounds_to_kill is the enumeration; before,
    every turn restored the shield and it raised "never deals damage"."""
    op = CAT.creature("Moon Rabbit Operator")
    sword = GE.Attack("Sword", category="medium_melee")
    me = GE.Creature("Swordsman", power=3, weapons=[sword])
    assert (op.hp, GE.armor_points(op), op.traits["ray_shield_breaks_at"]) == (4, 0, 6)
    f = wb.rounds_to_kill(me, op)
    assert f["exact"].all()
    by, mean = oracle(0, 4, 5, 1, 6, 30)
    assert np.allclose(by_round(f, 30), [float(p) for p in by], atol=1e-12, rtol=0)
    assert abs(float((f["round"] * f["p_killed_at"]).sum()) - float(mean)) < 1e-9 * float(mean)
    # the mean waits 36 turns for the Crit, then 1 / P(Crit or Pass) = 36/15 turns less the Seven-Seven shortcut
    assert 36 + 1 < float(mean) < 36 + 36 / 15 + 1


def duel_oracle(rounds: int) -> float:
    """Return P(the Swordsman, acting first, kills the Operator within ``rounds``) by enumeration over (Swordsman's HP,
    Operator's HP, shield up). The Swordsman's turn: one Sword (5) Strike on the Operator (4 HP, Ray Shield breaking
    at 6); the Operator's turn: its best weapon, the Jade Pestle (4), one Strike on the Swordsman (12 HP, no armor)."""
    sword, pestle = strike_outcomes(5), strike_outcomes(4)
    alive = {(12, 4, 1): 1.0}
    won = 0.0
    for _ in range(rounds):
        nxt: dict[tuple[int, int, int], float] = {}
        for (hs, ho, up), p in alive.items():
            for x, q in sword.items():
                _, ho2, up2 = strike(0, ho, up, x, 6)
                if ho2 <= 0:
                    won += p * float(q)
                    continue
                for y, r in pestle.items():
                    if hs - y > 0:
                        k = (hs - y, ho2, up2)
                        nxt[k] = nxt.get(k, 0.0) + p * float(q * r)
        alive = nxt
    return won


def test_duel_carries_the_shield():
    """The duel against the Operator is no longer 100 % the Operator's: the Swordsman breaks the shield on a Crit and
    wins then, about 1 time in 10. The fight carries state ("ray shield"), which is the Operator's own (it guards
    against the Swordsman's damage only: GlassEmpires.duel_couplings is empty), so the duel is exact from the two
    chains, equal to the enumeration to 1e-12; 40,000 simulated fights lie within 4 s.e. of it."""
    op = CAT.creature("Moon Rabbit Operator")
    sword = GE.Attack("Sword", category="medium_melee")
    me = GE.Creature("Swordsman", power=3, weapons=[sword])
    d = wb.duel(me, op)
    want = duel_oracle(100)
    assert 0.05 < want < 0.2
    assert d.exact and abs(d.p_a_wins - want) < 1e-12
    s = wb.duel(me, op, fights=40_000, seed=3, simulate=True)
    assert abs(s.p_a_wins - want) <= 4 * np.sqrt(want * (1 - want) / 40_000)
