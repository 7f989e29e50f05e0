"""Last Odyssey MP: a pool spent by each ability with an MP cost; no plan may cost more than the MP left.

last-odyssey-attacks.txt names no MP; the system's reference does (srd/heroes/numbers.md, HP and MP):
"When a character uses an ability that has an MP cost, their MP is reduced by that amount. Characters may
never use an ability that costs more than their current MP". It has no MP regeneration.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import workbench as wb
from tests.systems.last_odyssey.published import CAT, LO

TROLL = CAT.creature("Troll")  # PAcc 14, PA 14, tier 4 (2 AP), Mana 55; Bash 1 AP 5 MP x2, Stomp 2 AP
# a target every Troll strike hits (die - 14 + Evasion 0 <= 7 always) for base 14 - PD 14 + die = die,
# x2 for a strike against no Shell: Stomp deals 2 die, Bash 2 x 2 die = 4 die
POST = LO.Creature("Post", hp=81, physical_defense=14)


def test_troll_one_turn_plans_are_those_its_mp_pays_for():
    """Troll MP 55: Bash + Bash costs 10 MP, so its best turn is Bash + Bash, mean 4 x 5.5 x 2 = 44 (Stomp 2 x 5.5
    = 11). At 9 MP only one Bash (5 MP) is paid for: the full turns are "Bash" (1 AP left, but no ability fits
    1 AP and 4 MP) mean 22, and "Stomp" 11. At 4 MP: Stomp alone. Bash + Bash at 9 MP is refused (field attacks)."""
    assert TROLL.mp == 55 and TROLL.ability("Bash").mp_cost == 5
    plans = {k: v.mean() for k, v in LO.turn_plans(TROLL, POST).items()}
    assert plans == {"Bash + Bash": pytest.approx(44.0, abs=1e-12), "Stomp": pytest.approx(11.0, abs=1e-12)}
    assert wb.turn_damage(TROLL, POST).mean() == pytest.approx(44.0, abs=1e-12)
    short = TROLL.replace(mp=9)
    plans = {k: v.mean() for k, v in LO.turn_plans(short, POST).items()}
    assert plans == {"Bash": pytest.approx(22.0, abs=1e-12), "Stomp": pytest.approx(11.0, abs=1e-12)}
    assert wb.turn_damage(short, POST).mean() == pytest.approx(22.0, abs=1e-12)
    assert list(LO.turn_plans(TROLL.replace(mp=4), POST)) == ["Stomp"]
    with pytest.raises(wb.RulesError, match="10 MP") as info:
        LO.plan_damage(short, POST, ["Bash", "Bash"])
    assert info.value.field == "attacks" and "numbers.md" in info.value.rule
    # compare's per-attack rows: Bash twice a turn at 55 MP, once at 9, never at 4
    assert [LO.uses_per_turn(TROLL.replace(mp=x), TROLL.ability("Bash")) for x in (55, 9, 4)] == [2, 1, 0]


def _p_kill_by(turns: list[list[int]], hp: int) -> float:
    """Return P(the summed damage of ``turns`` >= hp), each turn a list of per-die factors (damage = factor x d10,
    every die independent): an independent enumeration of every die."""
    factors = [f for t in turns for f in t]
    dice = np.array(list(itertools.product(range(1, 11), repeat=len(factors))))
    return float(((dice * np.array(factors)).sum(axis=1) >= hp).mean())


def test_a_fight_where_mp_runs_out():
    """Troll with 10 MP against the Post (81 HP): turn 1 Bash + Bash (10 MP, 4 d1 + 4 d2 <= 80: never a kill in
    round 1); then 0 MP, so every later turn is Stomp (2 d). Killed by round 2 when 4 (d1 + d2) + 2 d3 >= 81, i.e.
    2 s + d3 >= 41 with s = d1 + d2: s = 20 (1 way) any d3 (10), s = 19 (2) d3 >= 3 (8), s = 18 (3) d3 >= 5 (6),
    s = 17 (4) d3 >= 7 (4), s = 16 (5) d3 >= 9 (2): 10 + 16 + 18 + 16 + 10 = 70 of 1000 = 0.07. Had MP been
    ignored (Bash + Bash again): 4 (d1 + d2 + d3 + d4) >= 81, P = 0.5995 (enumerated). The fight carries MP; its MP
    schedule is fixed in advance, so it is chained exactly (test_mp_chain.py); the simulation (simulate=True) of the
    same fight lies within 4 standard errors of the hand numbers."""
    troll = TROLL.replace(mp=10)
    assert LO.state_effects(troll, POST) == {"mp"}
    assert _p_kill_by([[4, 4], [2]], 81) == pytest.approx(0.07, abs=1e-12)
    assert _p_kill_by([[4, 4], [4, 4]], 81) == pytest.approx(0.5995, abs=1e-12)
    by3 = _p_kill_by([[4, 4], [2], [2]], 81)
    f = wb.rounds_to_kill(troll, POST, fights=40_000, seed=3, simulate=True)
    assert not f["exact"][0]
    by = dict(zip(f["round"].to_list(), f["p_killed_by"].to_list()))
    se = dict(zip(f["round"].to_list(), f["standard_error"].to_list()))
    assert by.get(1, 0.0) == 0.0
    assert abs(by[2] - 0.07) <= 4 * se[2] and se[2] < 0.002
    assert abs(by[3] - by3) <= 4 * se[3]
    exact = dict(zip(*(wb.rounds_to_kill(troll, POST)[k].to_list() for k in ("round", "p_killed_by"))))
    assert exact[3] == pytest.approx(by3, abs=1e-12)
    # the full 55 MP pays for 5 turns of Bash + Bash: killed by round 2 as often as the enumeration says
    g = wb.rounds_to_kill(TROLL, POST)
    assert g["exact"].all()
    by = dict(zip(g["round"].to_list(), g["p_killed_by"].to_list()))
    assert by[2] == pytest.approx(0.5995, abs=1e-12)
    # compare's rows: the MP pair is chained (exact, nothing forced), and Stomp (no MP) stays exact
    rows = {r["attack"]: r for r in wb.compare([troll], [POST], best_plan=True).iter_rows(named=True)}
    assert (rows["best plan"]["method"], rows["best plan"]["forced_by"]) == ("exact", "")
    assert (rows["Bash"]["method"], rows["Bash"]["forced_by"], rows["Bash"]["uses_per_turn"]) == ("exact", "", 2)
    assert (rows["Stomp"]["method"], rows["Stomp"]["forced_by"]) == ("exact", "")


def test_a_given_plan_drops_the_abilities_the_mp_left_cannot_pay_for():
    """A plan of Bash + Bash with 10 MP: turn 1 pays both (10 MP, at most 80 damage); from turn 2 the MP left (0)
    pays for neither, so the turn is empty and the Post (81 HP) is never killed: the simulation refuses (field
    turn: no fight killed) and the exact chain says P 0 every round. With 15 MP turn 2 pays one Bash: killed by round
    2 when 4 (d1 + d2 + d3) >= 81 (enumerated)."""
    with pytest.raises(wb.RulesError) as info:
        wb.rounds_to_kill(
            TROLL.replace(mp=10), POST, plan=["Bash", "Bash"], fights=2_000, seed=1, max_rounds=20, simulate=True
        )
    assert info.value.field == "turn"
    never = wb.rounds_to_kill(TROLL.replace(mp=10), POST, plan=["Bash", "Bash"], max_rounds=20)
    assert never["exact"].all() and never["p_killed_by"].max() == 0.0
    f = wb.rounds_to_kill(
        TROLL.replace(mp=15), POST, plan=["Bash", "Bash"], fights=40_000, seed=2, max_rounds=20, simulate=True
    )
    by = dict(zip(f["round"].to_list(), f["p_killed_by"].to_list()))
    se = dict(zip(f["round"].to_list(), f["standard_error"].to_list()))
    assert abs(by[2] - _p_kill_by([[4, 4], [4]], 81)) <= 4 * se[2]
