"""Last Odyssey Shell in the exact chain: a fight against a shelled target is an absorbing chain over
(MP left, Shell points left, HP damage taken), not a simulation (the chain derived from last_odyssey/round.py).

CLARIFICATIONS.md, Last Odyssey: "A target with a Shell counts as the Shell's element; a Shell is a pool of
points that takes damage before HP", and "A spell against a target with an active Shell x2; a strike against a
target without one x2": each ability of a turn is drawn as the Shell stands when it is used, its damage absorbed
by the Shell points left and the rest taken from HP. The oracle below is written from the rules (the hit die
faces of test_oracle.oracle_face, plain Python over exact fractions); it shares no code with the engine's
tables, plans or chain.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.systems.last_odyssey.published import CAT, LO
from tests.systems.last_odyssey.test_oracle import oracle_face
from workbench.comparison import compare
from workbench.systems.last_odyssey import Shell
from workbench.fight.chain import state_chain


def _by(frame) -> list[float]:
    return frame["p_killed_by"].to_list()


def test_by_hand_the_shell_breaks_and_strikes_double():
    """One Strike a turn (2 AP of the 2 a tier-1 turn has), always hitting (die - 10 + 0 <= 7), base = PA 3 -
    PD 3 + die = die; x1 while the Shell (5 points) stands, x2 once it is broken; HP 4.
    Round 1 kills when die - 5 >= 4: die 9 or 10, P = 2/10.
    Round 2, from round 1's die d: d = 1..4 leaves Shell 5 - d up, and the next die e kills when e - (5 - d) >= 4,
    i.e. e >= 9 - d: 3, 4, 5, 6 faces of 10; d = 5 breaks it with no HP lost: 2e >= 4, 9 faces; d = 6 (1 HP lost):
    2e >= 3, 9 faces; d = 7, 8 (2, 3 lost): every face. P(killed in round 2) = (3+4+5+6 + 9 + 9 + 10 + 10)/100 =
    56/100, so P(killed by round 2) = 76/100."""
    user = LO.Creature("U", 10, physical_accuracy=10, physical_attack=3, abilities=(LO.Attack("Slam", ap_cost=2),))
    target = LO.Creature("T", 4, physical_defense=3, shell=Shell(5))
    assert LO.state_effects(user, target) == {"shell"}
    f = wb.rounds_to_kill(user, target)
    assert f["exact"].all()
    assert _by(f)[:2] == pytest.approx([0.2, 0.76], abs=1e-15)


def _use(attack, user, target, shell: int) -> dict[int, Fraction]:
    """One use's damage pmf with ``shell`` Shell points left (0: broken), each hit-die face 1/10."""
    out: dict[int, Fraction] = {}
    t = target if shell > 0 else target.replace(shell=None)
    for die in range(1, 11):
        _, dmg, _ = oracle_face(attack, user, t, die)
        out[dmg] = out.get(dmg, Fraction(0)) + Fraction(1, 10)
    return out


def oracle(user, target, plan: list[str], rounds: int) -> list[Fraction]:
    """P(killed by round r), r = 1..rounds, of ``user`` playing the abilities ``plan`` every turn (no MP costs)
    against the passive ``target``: the state is (Shell left, HP damage taken); each use is drawn as the Shell
    stands, the Shell absorbs what it can and HP takes the rest; HP damage reaching HP kills."""
    alive = {(target.shell.points, 0): Fraction(1)}
    killed, by = Fraction(0), []
    for _ in range(rounds):
        for name in plan:
            a = user.ability(name)
            nxt: dict[tuple[int, int], Fraction] = {}
            for (s, h), p in alive.items():
                for d, q in _use(a, user, target, s).items():
                    absorbed = min(d, s)
                    key = (s - absorbed, h + d - absorbed)
                    if key[1] >= target.hp:
                        killed += p * q
                    else:
                        nxt[key] = nxt.get(key, Fraction(0)) + p * q
            alive = nxt
        by.append(killed)
    return by


STRIKER = LO.Creature(
    "Striker", 40, physical_accuracy=3, physical_attack=6, magical_accuracy=4, magical_attack=5,
    abilities=(LO.Attack("Cut"), LO.Attack("Bolt", kind="spell")),
)  # fmt: skip
CASES = [
    ("two strikes", ["Cut", "Cut"], LO.Creature("A", 14, physical_defense=2, evasion=1, shell=Shell(9))),
    ("spell then strike", ["Bolt", "Cut"], LO.Creature("B", 20, physical_defense=1, magical_defense=3, shell=Shell(12))),
    ("two spells", ["Bolt", "Bolt"], LO.Creature("C", 9, magical_defense=0, evasion=2, shell=Shell(4))),
]  # fmt: skip


@pytest.mark.parametrize("name, plan, target", CASES, ids=[c[0] for c in CASES])
def test_the_chain_agrees_with_the_enumeration_oracle(name, plan, target):
    """P(killed by round r), r = 1..10, of a fixed plan of two uses a turn: the chain equals the oracle (exact
    fractions) to 1e-12, and its mean equals sum_t P(T > t) of a long oracle run."""
    want = oracle(STRIKER, target, plan, 10)
    got = state_chain(LO, STRIKER, target, plan=plan)
    assert got is not None
    by, mean = got.by, got.mean
    full = np.concatenate((by, np.full(max(0, 10 - by.size), by[-1])))[:10]
    np.testing.assert_allclose(full, [float(x) for x in want], rtol=0, atol=1e-12)
    long = oracle(STRIKER, target, plan, 60)
    assert float(1 - long[-1]) < 1e-13  # the tail left out of the oracle's mean
    assert mean == pytest.approx(float(sum(1 - x for x in long)) + 1, abs=1e-9)
    assert 0 < float(want[0]) < 1 and float(want[-1]) > float(want[0])  # neither decided at once nor never


def test_compare_rows_against_a_shell_are_exact_and_equal_rounds_to_kill():
    troll, wolf = CAT.creature("Troll"), CAT.creature("Wolf")
    row = compare([troll], [wolf], progress=False).filter(pl.col("attack") == "best plan").row(0, named=True)
    f = wb.rounds_to_kill(troll, wolf)
    assert row["method"] == "exact" and row["se"] is None
    assert row["mean_rounds"] == pytest.approx(float((f["round"] * f["p_killed_at"]).sum()), abs=1e-9)
    assert row["p_kill_one_turn"] == pytest.approx(f["p_killed_by"][0], abs=1e-12)
