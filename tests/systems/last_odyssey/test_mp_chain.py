"""Last Odyssey MP in the exact chain: a fight whose only state is the attacker's MP is chained, not simulated.

srd/heroes/numbers.md (HP and MP): "When a character uses an ability that has an MP cost, their MP is reduced by
that amount. Characters may never use an ability that costs more than their current MP"; there is no MP
regeneration. Against a target without a Shell each turn's plan depends on the MP left alone and the MP is paid
on every use, hit or miss, so the MP left after each turn is known in advance: the fight is the chain of those
turns in order, then of the plan that costs nothing (the chain derived from last_odyssey/round.py). The oracle below is written
from the rules (the hit die faces of test_oracle.oracle_face, plain Python over exact fractions): it shares no
code with the engine's plan choice, tables or chain.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.systems.last_odyssey.published import CAT, LO
from tests.systems.last_odyssey.test_oracle import oracle_face
from workbench.comparison import compare
from workbench.fight.chain import state_chain

TROLL = CAT.creature("Troll")  # PAcc 14, PA 14, tier 4 (2 AP), Mana 55; Bash 1 AP 5 MP x2, Stomp 2 AP
# every Troll strike hits it (die - 14 + Evasion 0 <= 7 always) for base 14 - PD 14 + die = die, x2 (no Shell)
POST = LO.Creature("Post", hp=81, physical_defense=14)


def _by(frame) -> dict[int, float]:
    """Return {round: P(killed by round)} of a rounds_to_kill frame."""
    return dict(zip(frame["round"].to_list(), frame["p_killed_by"].to_list()))


# --------------------------------------------------------------------------- the oracle
def _face_pmf(attack, user, target) -> dict[int, Fraction]:
    """Return one use's damage pmf: each of the ten hit-die faces with probability 1/10 (last-odyssey-attacks.txt)."""
    out: dict[int, Fraction] = {}
    for die in range(1, 11):
        _, dmg, _ = oracle_face(attack, user, target, die)
        out[dmg] = out.get(dmg, Fraction(0)) + Fraction(1, 10)
    return out


def _add(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """Return the pmf of the sum of two independent damages."""
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def _turn(user, target, mp: int, plan) -> tuple[dict[int, Fraction], int]:
    """Return (the turn's damage pmf, the MP it spends) with ``mp`` MP left. No plan: the full turns of damaging
    abilities within the action points and MP to which no further ability fits, the one of highest expected
    damage (asserted unique: no tie-break is needed). A plan (names): its abilities in order, each the MP left
    still pays for ("Characters may never use an ability that costs more than their current MP")."""
    if plan is not None:
        chosen, left = [], mp
        for name in plan:
            a = user.ability(name)
            if a.mp_cost <= left:
                chosen.append(a)
                left -= a.mp_cost
    else:
        usable = [a for a in user.abilities if a.deals_damage]
        full = []
        for n in range(1, user.action_points + 1):
            for combo in itertools.combinations_with_replacement(usable, n):
                ap, cost = sum(a.ap_cost for a in combo), sum(a.mp_cost for a in combo)
                if ap > user.action_points or cost > mp:
                    continue
                if any(a.ap_cost <= user.action_points - ap and a.mp_cost <= mp - cost for a in usable):
                    continue  # a further ability fits: not a full turn
                full.append(combo)
        means = [sum(sum(d * p for d, p in _face_pmf(a, user, target).items()) for a in c) for c in full]
        top = max(means)
        best = [c for c, m in zip(full, means) if m == top]
        assert len({sum(a.mp_cost for a in c) for c in best}) == 1, "a tie between plans of different MP costs"
        chosen = list(best[0])
    pmf = {0: Fraction(1)}
    for a in chosen:
        pmf = _add(pmf, _face_pmf(a, user, target))
    return pmf, sum(a.mp_cost for a in chosen)


def oracle(user, target, rounds: int, plan=None) -> tuple[list[Fraction], Fraction | None]:
    """Return (P(killed by round r) for r = 1..rounds, the exact mean rounds, None when infinite) of ``user``
    attacking the passive ``target`` (no Shell) from its full MP: damage taken, alive below HP, round by round,
    each turn the one the MP left pays for, round 3 with Foretell Doom's spell added after it; once a turn costs no MP it repeats, and the mean from damage s on is
    m(s) = (1 + sum_{d > 0} p(d) m(s + d)) / (1 - p(0)) (m = 0 at or past HP), solved from the top."""
    hp, mp = target.hp, user.mp
    alive = {0: Fraction(1)}
    by: list[Fraction] = []
    killed = Fraction(0)
    mean = Fraction(0)
    t = 0
    doom = [a for a in user.phase_abilities if a.timing == "after_third_effect_phase"]
    while True:
        pmf, cost = _turn(user, target, mp, plan)
        if cost == 0 and t >= max(rounds, 3 if doom else 0):
            break
        t += 1
        if t == 3:  # "After the Effect Phase in battle passes three times": a kill then is a kill in round 3
            for a in doom:
                pmf = _add(pmf, _face_pmf(a, user, target))
        nxt: dict[int, Fraction] = {}
        for s, p in alive.items():
            for d, q in pmf.items():
                if s + d >= hp:
                    killed += p * q
                    mean += t * p * q
                else:
                    nxt[s + d] = nxt.get(s + d, Fraction(0)) + p * q
        alive = nxt
        mp -= cost
        if t <= rounds:
            by.append(killed)
    # the rounds after the MP settled (and past round 3): the constant turn ``pmf`` from each damage s still alive
    p0 = pmf.get(0, Fraction(0))
    m: dict[int, Fraction | None] = {}
    for s in range(hp - 1, -1, -1):
        if p0 == 1:
            m[s] = None
            continue
        rest = [(q, m.get(s + d, Fraction(0))) for d, q in pmf.items() if d > 0]
        m[s] = None if any(v is None for _, v in rest) else (1 + sum(q * v for q, v in rest)) / (1 - p0)
    for s, p in alive.items():
        if m[s] is None:
            return by, None
        mean += p * (t + m[s])
    return by, mean


# --------------------------------------------------------------------------- the tests
def test_the_troll_with_10_mp_is_exact():
    """test_mp.py's fight: Troll with 10 MP against the Post (81 HP): turn 1 Bash + Bash (10 MP, 4 d1 + 4 d2 <= 80:
    no kill in round 1), then 0 MP and every later turn Stomp (2 d). Killed by round 2 when 2 (d1 + d2) + d3 >= 41:
    s = d1 + d2 = 20 (1 way) any d3 (10), 19 (2) d3 >= 3 (8), 18 (3) d3 >= 5 (6), 17 (4) d3 >= 7 (4), 16 (5)
    d3 >= 9 (2): 10 + 16 + 18 + 16 + 10 = 70 of 1000 = 0.07. Now exact (the chain), and compare's rows for the
    pair say "exact" with nothing forcing a simulation."""
    troll = TROLL.replace(mp=10)
    assert LO.state_effects(troll, POST) == {"mp"}
    f = wb.rounds_to_kill(troll, POST)
    assert f["exact"].all() and f["fights"].null_count() == f.height
    by = _by(f)
    assert by[1] == 0.0
    assert by[2] == pytest.approx(0.07, abs=1e-12)
    rows = {r["attack"]: r for r in compare([troll], [POST], best_plan=True, progress=False).iter_rows(named=True)}
    for k in ("best plan", "Bash", "Stomp"):
        assert (rows[k]["method"], rows[k]["forced_by"], rows[k]["se"]) == ("exact", "", None), k


def test_a_bash_only_plan_whose_mp_runs_out_is_never_killed_exactly():
    """The plan Bash + Bash with 15 MP: turn 1 pays both (10 MP), turn 2 one Bash (5 MP), then nothing (0 MP pays
    for no Bash): killed by round 2 when 4 (d1 + d2 + d3) >= 81, i.e. d1 + d2 + d3 >= 21, as often as
    d1 + d2 + d3 <= 12 (3d10 is symmetric about 16.5): C(12, 3) = 220 of 1000 = 0.22, and never after (mean inf).
    With 10 MP: never killed at all (4 (d1 + d2) <= 80 < 81); compare's row is exact, P(unresolved) 1."""
    f = wb.rounds_to_kill(TROLL.replace(mp=15), POST, plan=["Bash", "Bash"])
    assert f["exact"].all() and _by(f) == {1: 0.0, 2: pytest.approx(0.22, abs=1e-12)}
    got = state_chain(LO, TROLL.replace(mp=15), POST, plan=["Bash", "Bash"])
    assert got is not None and got.mean == np.inf
    row = compare([TROLL.replace(mp=10)], [POST], progress=False).filter(pl.col("attack") == "Bash").row(0, named=True)
    assert (row["uses_per_turn"], row["method"], row["p_unresolved"], row["mean_rounds"]) == (2, "exact", 1.0, np.inf)


CASES = [
    ("troll 10 MP", TROLL.replace(mp=10), POST, None),
    # 55 MP: five turns of Bash + Bash, then Stomp; Evasion 3 makes die 10 miss (10 - 14 + 3 = -1 <= 7: hits;
    # the Post's Evasion 12 instead: die - 14 + 12 <= 7 misses on 10)
    ("troll 55 MP", TROLL, POST.replace(hp=150, evasion=12), None),
    # Boar Rider, 10 MP, 2 AP: Gore (3 MP, x2), Charge (5 MP), Stab: Gore + Gore (6 MP), then Stab + Gore (3 MP),
    # then Stab + Stab; a hero with Evasion 2 (Jianna, her 35 HP raised to 250 so the fight lasts rounds)
    ("boar rider", CAT.creature("Boar Rider"), CAT.creature("Jianna").replace(hp=250), None),
    # the Ghost's Bonechill (an Ice spell, 5 MP) twice a turn as a given plan, 35 MP: three turns of two, one of
    # one, then nothing (never killed after round 4: mean inf)
    ("ghost plan", CAT.creature("Ghost"), POST.replace(hp=30, magical_defense=0), ["Bonechill", "Bonechill"]),
    # the Prophet: Drown (9 MP, a Water spell x2) and Foretell Doom once after the third Effect Phase (a Water
    # spell x3, no HP read); Jianna's 35 HP raised to 400
    ("prophet doom", CAT.creature("Prophet"), CAT.creature("Jianna").replace(hp=400), None),
]


@pytest.mark.parametrize("name, user, target, plan", CASES, ids=[c[0] for c in CASES])
def test_the_chain_agrees_with_the_enumeration_oracle(name, user, target, plan):
    """P(killed by round r), r = 1..12, and the mean rounds: the chain equals the oracle (exact fractions) to
    1e-12. Each case plays MP turns before a turn that costs none (state "mp"), so the per-round form is tested."""
    assert target.shell_points == 0
    assert LO.state_effects(user, target, plan=plan) == {"mp"} | {a.name.lower() for a in user.phase_abilities}
    want, mean = oracle(user, target, 12, plan)
    got = state_chain(LO, user, target, plan=plan)
    assert got is not None
    by, m = got.by, got.mean
    full = np.concatenate((by, np.full(max(0, 12 - by.size), by[-1])))[:12]
    np.testing.assert_allclose(full, [float(x) for x in want], rtol=0, atol=1e-12)
    assert (m == np.inf) if mean is None else m == pytest.approx(float(mean), abs=1e-12 * max(1.0, float(mean)))
    assert 0 < float(want[-1]) and float(want[0]) < 1  # the fight is neither decided at once nor never


