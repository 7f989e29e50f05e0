"""Glass Empires duels over armor points, jams and the Ray Shield, solved exactly (issue 15, item 2 for duels).

Each direction of a duel carries its own state: the target's armor points are spent by the attacker's Strikes only
(CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP, 1 AP per 2 damage (or
fraction)"), a jam is the attacker's own ("a windgun or Reload weapon jams" on a Fumble, costing its next Attack),
and a Ray Shield guards its bearer against the attacker's damage only (shared/data/glass_empires_creatures.toml,
Moon Rabbit Operator). So GlassEmpires.duel_couplings is empty, the two directions are independent until one side
falls, and wb.duel combines the two chains over the state (glass_empires/state_chain.py) exactly. The oracle here is
a plain enumeration over (a's AP, a's HP, b's AP, b's HP) with Fractions, written from the rules text (test
_armor_points.turn: 2d6 bands, Crit x2, Seven halved, armor Strike by Strike), to 1e-12.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from workbench.systems.glass_empires import round as ge_sim

from .builders import CAT, GE
from .test_armor_points import turn
from workbench.fight.chain import state_chain


def club(damage: int):
    return GE.Attack(name="Club", damage=damage)


def fighter(name: str, damage: int, power: int, armor: int = 0, strikes: int = 1):
    """A Glass Empires creature with one physical weapon of ``damage``: HP 4 x Power, AP Armor x Power."""
    return GE.Creature(name=name, power=power, armor=armor, strikes=strikes, weapons=(club(damage),))


def duel_oracle(a, b, first: str, rounds: int):
    """Return (P(a wins in round r), P(b wins in round r) for r = 1..rounds, {a's HP left: P}, {b's HP left: P}) by
    enumeration over (a's AP, a's HP, b's AP, b's HP): each round both take one Attack of their Strikes (``turn``),
    ``first`` acting first; a side whose HP reaches 0 has lost."""
    da, ka, db, kb = a.weapons[0].damage, a.strikes, b.weapons[0].damage, b.strikes
    alive = {(a.armor * a.power, 4 * a.power, b.armor * b.power, 4 * b.power): Fraction(1)}
    win_a, win_b = [Fraction(0)] * rounds, [Fraction(0)] * rounds
    left_a: dict[int, Fraction] = {}
    left_b: dict[int, Fraction] = {}
    for r in range(rounds):
        for who in ("a", "b") if first == "a" else ("b", "a"):
            nxt: dict[tuple[int, int, int, int], Fraction] = {}
            for (apa, hpa, apb, hpb), p in alive.items():
                if who == "a":
                    for (apb2, hpb2), q in turn(apb, hpb, da, ka).items():
                        if hpb2 <= 0:
                            win_a[r] += p * q
                            left_a[hpa] = left_a.get(hpa, Fraction(0)) + p * q
                        else:
                            key = (apa, hpa, apb2, hpb2)
                            nxt[key] = nxt.get(key, Fraction(0)) + p * q
                else:
                    for (apa2, hpa2), q in turn(apa, hpa, db, kb).items():
                        if hpa2 <= 0:
                            win_b[r] += p * q
                            left_b[hpb] = left_b.get(hpb, Fraction(0)) + p * q
                        else:
                            key = (apa2, hpa2, apb, hpb)
                            nxt[key] = nxt.get(key, Fraction(0)) + p * q
            alive = nxt
    return win_a, win_b, left_a, left_b


def _hp_left_agrees(exact, sim, fights: int) -> None:
    """Assert that E[winner's HP left; that side wins] of each side, exact and simulated, agree within 4 s.e. (the
    s.e. of a mean of ``fights`` draws of X = HP left x 1{the side wins}, from the exact distribution)."""
    for side in (exact.a, exact.b):
        e, s = _left(exact, side), _left(sim, side)
        m = sum(h * p for h, p in e.items())
        var = sum(h * h * p for h, p in e.items()) - m * m
        got = sum(h * p for h, p in s.items())
        assert abs(got - m) <= 4 * max(np.sqrt(var / fights), 1e-9), side


def _left(result, side: str) -> dict[int, float]:
    f = result.hp_left.filter(result.hp_left["side"] == side)
    return dict(zip(f["hp_left"].to_list(), f["probability"].to_list()))


def test_no_glass_empires_effect_couples_the_two_directions(monkeypatch):
    """Armor points on both sides, a jamming windgun with two Attacks a turn, and the Operator's Ray Shield: every
    effect is named by state_effects and none couples (duel_couplings empty); an effect Glass Empires has not shown
    one-sided (here a made-up name) couples, so the duel would be simulated."""
    opt = GE.Options(attack_is_save_action=False)
    gun = GE.Attack(name="Gun", damage=3, kind="ranged", range=60, windgun=True)
    gunner = GE.Creature(name="Gunner", power=1, armor=1, weapons=(gun,))
    op = CAT.creature("Moon Rabbit Operator")
    assert GE.state_effects(gunner, op, opt) == {"jams", "ray shield"}
    assert GE.state_effects(op, gunner, opt) == {"armor points"}
    assert GE.duel_couplings(gunner, op, opt) == set()
    assert ge_sim.ONE_SIDED >= GE.state_effects(gunner, op, opt) | GE.state_effects(op, gunner, opt)
    original = ge_sim.state_effects
    monkeypatch.setattr(ge_sim, "state_effects", lambda *args: original(*args) | {"made-up bond"})
    assert GE.duel_couplings(gunner, op, opt) == {"made-up bond"}


def test_by_hand_armor_in_a_two_round_duel():
    """a: Club 3, Power 1 (4 HP, no armor); b: Club 3, Power 1, Armor 2 (2 AP, 4 HP); a acts first, 2 rounds.
    a on b (test_armor_points.test_by_hand_armor_stays_spent): T_A = 1 never, P(T_A = 2) = 35/1296.
    b on a (no armor): one Strike deals 6 (Crit, 1/36), 3 (Pass, 14/36), 1 (Seven, 6/36) or 0 (15/36); P(T_B = 1) =
    1/36; P(T_B = 2) = (3 then >= 1: 14 x 21, 1 then >= 3: 6 x 15, 0 then 6: 15 x 1) / 1296 = 399/1296.
    P(a wins) = P(T_A = 2) P(T_B > 1) = 35/1296 x 35/36; P(b wins) = 1/36 + 399/1296 x (1 - 35/1296).
    a's HP left when it wins: b's first turn dealt 3, 1 or 0 (14, 6, 15 of 35): 1, 3 or 4 HP with 35/1296 x 14/36,
    x 6/36, x 15/36. With the armor restored every turn (simulate=False) a wins only by two Crits: 1/1296 x 35/36."""
    a, b = fighter("A", 3, 1), fighter("B", 3, 1, armor=2)
    assert GE.state_effects(a, b) == {"armor points"} and GE.state_effects(b, a) == set()
    d = wb.duel(a, b, max_rounds=2)
    assert d.exact and d.forced_by == () and d.fights is None
    p_a = Fraction(35, 1296) * Fraction(35, 36)
    p_b = Fraction(1, 36) + Fraction(399, 1296) * (1 - Fraction(35, 1296))
    assert d.p_a_wins == pytest.approx(float(p_a), abs=1e-15)
    assert d.p_b_wins == pytest.approx(float(p_b), abs=1e-15)
    assert d.p_draw == pytest.approx(float(1 - p_a - p_b), abs=1e-15)
    left = _left(d, "A")
    for hp, n in ((1, 14), (3, 6), (4, 15)):
        assert left[hp] == pytest.approx(float(Fraction(35, 1296) * Fraction(n, 36)), abs=1e-15)
    free = wb.duel(a, b, max_rounds=2, simulate=False)
    assert free.p_a_wins == pytest.approx(float(Fraction(1, 1296) * Fraction(35, 36)), abs=1e-15)


CASES = [  # a, b: (weapon damage, Power, Armor, Strikes)
    ((3, 1, 0, 1), (3, 1, 2, 1)),
    ((4, 2, 1, 1), (3, 1, 2, 2)),
    ((5, 2, 2, 2), (1, 2, 1, 1)),
    ((2, 1, 1, 1), (6, 1, 1, 1)),
]


@pytest.mark.parametrize("first", ["a", "b", "random"])
@pytest.mark.parametrize("sa, sb", CASES)
def test_duel_equals_the_enumeration(sa, sb, first):
    """Per-round wins of both sides and each winner's HP left equal the enumeration to 1e-12 (first = random: the
    mean of the two orders), over 8 rounds; and they add up (p_a_wins + p_b_wins + p_draw = 1)."""
    a, b = fighter("A", sa[0], sa[1], sa[2], sa[3]), fighter("B", sb[0], sb[1], sb[2], sb[3])
    d = wb.duel(a, b, first=first, max_rounds=8)
    assert d.exact
    orders = ["a", "b"] if first == "random" else [first]
    got = [duel_oracle(a, b, o, 8) for o in orders]
    win_a = [sum(g[0][r] for g in got) / len(got) for r in range(8)]
    win_b = [sum(g[1][r] for g in got) / len(got) for r in range(8)]
    np.testing.assert_allclose(d.rounds["p_a_wins"].to_numpy(), [float(x) for x in win_a], rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.rounds["p_b_wins"].to_numpy(), [float(x) for x in win_b], rtol=0, atol=1e-12)
    for side, i in (("A", 2), ("B", 3)):
        want = {h: float(sum(g[i].get(h, Fraction(0)) for g in got) / len(got)) for h in range(1, 40)}
        left = _left(d, side)
        for h, p in want.items():
            assert abs(left.get(h, 0.0) - p) < 1e-12, (side, h)
    assert abs(d.p_a_wins + d.p_b_wins + d.p_draw - 1) < 1e-12


def test_state_chain_weighted_alive_mass_is_the_enumeration():
    """state_chain(weights=w) returns sum_t w[t] P(alive after t rounds, damage taken d) summed over the AP left:
    the enumeration of a's rounds-to-kill fight (Club 4, 2 Strikes, on Armor 2, Power 2: 4 AP, 8 HP) to 1e-12,
    for weights 1, 2, ..., 7 over rounds 0..6; without weights the return is rounds_to_kill's pair."""
    a, t = fighter("A", 4, 1, strikes=2), fighter("T", 1, 2, armor=2)
    w = np.arange(1.0, 8.0)
    got = state_chain(GE, a, t, max_rounds=6, weights=w)
    by, mean, left = got.by, got.mean, got.weighted
    assert state_chain(GE, a, t, max_rounds=6).weighted is None
    alive = {(4, 8): Fraction(1)}
    want = [Fraction(0)] * 8
    for r in range(7):
        for (_, h), p in alive.items():
            want[8 - h] += int(w[r]) * p
        nxt: dict[tuple[int, int], Fraction] = {}
        for (ap, h), p in alive.items():
            for (ap2, h2), q in turn(ap, h, 4, 2).items():
                if h2 > 0:
                    nxt[(ap2, h2)] = nxt.get((ap2, h2), Fraction(0)) + p * q
        alive = nxt
    np.testing.assert_allclose(left, [float(x) for x in want], rtol=0, atol=1e-12)
    with pytest.raises(wb.RulesError) as err:
        state_chain(GE, a, t, max_rounds=6, weights=np.ones(9))
    assert err.value.field == "weights"


PAIRS = [  # catalog pairs whose fight carries state in at least one direction
    ("Gentleman Knight (Level 1 human, example)", "Plate Soldier (Level 2 human, example)", None),
    ("Moon Rabbit Operator", "Spider, Giant (Cellar Spider)", None),
    ("Mercenary Spearman (Level 0 human, example)", "Ant, Giant (Soldier caste)", "random"),
]


@pytest.mark.parametrize("a, b, first", PAIRS)
def test_exact_duel_agrees_with_200000_simulated_fights(a, b, first):
    """The exact duel (armor points, the Ray Shield) and wb.duel(simulate=True) with 200,000 seeded fights agree
    within 4 standard errors on both win chances and on each winner's mean HP left (the weighted alive mass of the
    chains over the state); before, these duels were simulated."""
    x, y = CAT.creature(a), CAT.creature(b)
    assert GE.state_effects(x, y) | GE.state_effects(y, x)
    kw = {"first": first or "a"}
    d = wb.duel(x, y, **kw)
    s = wb.duel(x, y, simulate=True, fights=200_000, seed=5, **kw)
    assert d.exact and not s.exact and s.forced_by == ()
    for p, q in ((d.p_a_wins, s.p_a_wins), (d.p_b_wins, s.p_b_wins)):
        se = max(np.sqrt(p * (1 - p) / 200_000), 1e-9)
        assert abs(p - q) <= 4 * se
    _hp_left_agrees(d, s, 200_000)
    assert abs(d.p_a_wins + d.p_b_wins + d.p_draw - 1) < 1e-12
