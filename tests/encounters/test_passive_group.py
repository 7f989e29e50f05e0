"""A group of passive targets (``workbench.encounters.group_rounds``, compare's "3 x Wolf"): rounds-to-
kill grown to a group. The copies neither attack nor react; each copy's turn is its ``rest``; the
attacker never falls and picks the living copy with the fewest HP left (CLARIFICATIONS.md,
Encounters: Targets, ``focus``), ties in listed order. One copy is rounds-to-kill's fight."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import workbench as wb
from workbench.encounters import Group, group_rounds
from workbench.fight.chain import state_chain
from workbench.simulate import fight_rounds, state_effects

ROUNDS = 60


def _by(values: np.ndarray, n: int = ROUNDS) -> np.ndarray:
    out = np.zeros(n)
    v = np.asarray(values, dtype=np.float64)[:n]
    out[: v.size] = v
    out[v.size :] = v[-1] if v.size else 0.0
    return out


@pytest.mark.parametrize("system", ["unbound", "glass_empires", "last_odyssey"])
def test_one_copy_is_the_rounds_to_kill_chain(system: str) -> None:
    """One passive copy: P(felled by round t) equals the exact chain of rounds-to-kill over the
    fight's state (``state_chain``, the damage play) to 1e-12 on 16 catalog pairs of the system."""
    sys_ = wb.system(system)
    cat = sys_.catalog()
    names = list(cat.creatures)[:4]
    for a, b in itertools.product(names, names):
        A, B = cat.creature(a), cat.creature(b)
        ref = state_chain(sys_, A, B, None, None, None, ROUNDS)
        assert ref is not None, (a, b)
        got = group_rounds(A, Group(B, 1), max_rounds=ROUNDS)
        assert got.exact and got.forced_by == ()
        assert np.abs(_by(ref.by) - got.p_killed_by).max() < 1e-12, (a, b)


@pytest.mark.parametrize("a, b", [("Town Guard", "Ogre"), ("Cutpurse", "Wolf"), ("Hill Giant", "Wolf")])
def test_one_annulus_copy_agrees_with_rounds_to_kill(a: str, b: str) -> None:
    """Annulus groups are simulated (a fall part-way through a turn); one copy's mean rounds agrees
    with rounds-to-kill's exact mean within 4 standard errors."""
    cat = wb.system("annulus").catalog()
    A, B = cat.creature(a), cat.creature(b)
    _, mean, exact = fight_rounds(A, B, max_rounds=200)
    assert exact
    got = group_rounds(A, Group(B, 1), max_rounds=200, fights=20_000, seed=4)
    assert not got.exact and got.forced_by == ("a fall part-way through a turn",)
    assert abs(got.mean - mean) <= 4 * got.se


@pytest.mark.parametrize("a, b", [("Town Guard", "Ogre"), ("Cutpurse", "Wolf"), ("Hill Giant", "Wolf")])
def test_the_exact_chain_plays_one_annulus_copy_as_rounds_to_kill(a: str, b: str) -> None:
    """The exact encounter chain, given one passive Annulus copy (an attacker that never falls: the
    Counter's damage to it is not kept), is rounds-to-kill's exact chain over the state: P(felled by
    round t) equal to 1e-12. ``group_rounds`` simulates Annulus groups (above), so the chain is run on
    the group's encounter directly."""
    from workbench.fight.encounter import Encounter
    from workbench.fight.encounter_chain import solve

    sys_ = wb.system("annulus")
    cat = sys_.catalog()
    A, B = cat.creature(a), cat.creature(b)
    ref = state_chain(sys_, A, B, None, None, None, ROUNDS)
    assert ref is not None
    enc = Encounter([A, B], np.array([0, 1]), lambda me, foe, flanked: sys_.fight_round(me, foe), passive=True)
    got = solve(enc, "sides", 0, ROUNDS)
    assert got is not None
    assert np.abs(_by(ref.by) - np.cumsum(got[0].ends[0])).max() < 1e-12, (a, b)


def _passive_brute(steps: list[dict[int, float]], hp: int, copies: int, rounds: int) -> np.ndarray:
    """Return P(every copy felled by round t), t = 1..rounds, by plain enumeration over the damage
    taken by each copy: each round the attacker's turn is ``steps`` in order (its attack rolls, each
    damage -> probability), each on the turn's target while it stands, else on the living copy with
    the fewest HP left (ties: the first listed); damage past a copy's HP is lost."""
    mass: dict[tuple[tuple[int, ...], int], float] = {((0,) * copies, -1): 1.0}
    out = []
    done = 0.0
    for _ in range(rounds):
        for step in steps:
            nxt: dict[tuple[tuple[int, ...], int], float] = {}
            for (state, aim), p in mass.items():
                living = [k for k in range(copies) if state[k] < hp]
                target = aim if aim in living else min(living, key=lambda k: (hp - state[k], k))
                for d, q in step.items():
                    s = list(state)
                    s[target] = min(hp, s[target] + d)
                    if all(x >= hp for x in s):
                        done += p * q
                    else:
                        key = (tuple(s), target)
                        nxt[key] = nxt.get(key, 0.0) + p * q
            mass = nxt
        mass_round: dict[tuple[tuple[int, ...], int], float] = {}
        for (state, _), p in mass.items():  # (a new turn: no target yet)
            mass_round[(state, -1)] = mass_round.get((state, -1), 0.0) + p
        mass = mass_round
        out.append(done)
    return np.array(out)


def test_groups_of_a_fight_without_state_match_a_plain_enumeration() -> None:
    """A Fighter (two Push the Attack a turn with its Club, +0 then -4, brute.py ``_rolls``) against
    two and three copies of Unbound catalog creatures whose fight carries no state beyond HP: the
    passive group agrees with :func:`_passive_brute` roll by roll (written from the rules above,
    sharing no code) to 1e-12."""
    from .brute import _rolls
    from .test_unbound_flanking import FIGHTER

    sys_ = wb.system("unbound")
    cat = sys_.catalog()
    tried = 0
    for b in list(cat.creatures)[:6]:
        B = cat.creature(b)
        if state_effects(FIGHTER, B) or sys_.hit_points(B) > 40:
            continue
        steps = _rolls(FIGHTER, B, 2)
        for copies in (2, 3):
            got = group_rounds(FIGHTER, Group(B, copies), max_rounds=30)
            assert got.exact
            want = _passive_brute(steps, sys_.hit_points(B), copies, 30)
            assert np.abs(got.p_killed_by - want).max() < 1e-12, (b, copies)
        tried += 1
    assert tried >= 3


def _blaster(area: str | None) -> tuple:
    """The Blaster of tests/encounters/test_annulus.py: one set, Blast (4 dice against Toughness 0,
    ``area`` its area upgrade); a Mouse has 1 hit point."""
    A = wb.system("annulus")
    cat = A.catalog()
    blast = A.Attack(name="Blast", defense="toughness", upgrades={area: 1} if area else {})
    blaster = cat.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast,))
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    mouse = cat.creature("Rat").replace(name="Mouse", endurance=0, vitality=1, attack_sets=(nibble,))
    return blast, blaster, mouse


@pytest.mark.parametrize("area, round_one", [("Burst", 3375 / 4096), (None, 0.0)])
def test_an_area_set_clears_a_group_in_one_turn(area: str | None, round_one: float) -> None:
    """Worked by hand: one Blast fells a 1-HP Mouse with P = 1 - (1/2)^4 = 15/16; a Burst strikes all
    three passive Mice in its one use, so P(all three fall in round 1) = (15/16)^3 = 3375/4096; with
    no area the turn is two Blasts at one Mouse at a time, so three Mice never fall in round 1."""
    blast, blaster, mouse = _blaster(area)
    assert wb.damage(blast, blaster, mouse).sf(1) == pytest.approx(15 / 16, abs=1e-12)
    fights = 40_000
    got = group_rounds(blaster, Group(mouse, 3), plan=[blast] if area else [blast, blast], fights=fights, seed=2)
    p = float(got.p_killed_by[0])
    assert abs(p - round_one) <= 4 * np.sqrt(round_one * (1 - round_one) / fights) + 1e-12


def test_bad_groups_are_refused_naming_the_field() -> None:
    cat = wb.system("unbound").catalog()
    a, b = (cat.creature(n) for n in list(cat.creatures)[:2])
    for copies in (0, 51, 2.5, True):
        with pytest.raises(wb.RulesError) as err:
            group_rounds(a, Group(b, copies))  # type: ignore[arg-type]
        assert err.value.field == "targets"
    with pytest.raises(wb.RulesError) as err:
        group_rounds(a, Group(b, 2), simulate=False)
    assert err.value.field == "simulate"


def test_a_simulated_group_reports_whole_fights_unresolved() -> None:
    """P(unresolved) of a simulated group is a number of fights over the fights (0 exactly when every
    fight ended, never a float sum's remainder like 1e-16), and P(all fallen by t) never decreases."""
    _, blaster, mouse = _blaster("Burst")
    got = group_rounds(blaster, Group(mouse, 3), max_rounds=20, fights=2_000, seed=5)
    assert not got.exact and got.fights == 2_000
    assert got.unresolved * 2_000 == round(got.unresolved * 2_000)
    assert got.unresolved == 0.0 and got.p_killed_by[-1] == pytest.approx(1.0, abs=1e-12)
    assert (np.diff(got.p_killed_by) >= 0).all()


def test_an_annulus_use_left_after_a_kill_strikes_the_next_copy() -> None:
    """CLARIFICATIONS.md, Encounters: "the remaining attacks of the action under way go to the next
    living foe". Worked by hand: a Reckless Blast (+1 automatic success: every use deals at least 1,
    CLARIFICATIONS.md, Annulus: Reckless) fells a 1-HP Mouse every time, so two Blasts fell two Mice in the
    first turn: P = 1 (it was 0 while the second Blast stayed on the fallen Mouse). Its 1 unavoidable
    self-damage a use fells a Blaster of 1 Vitality in a fight, never here: rounds-to-kill's attacker
    never falls, and its uses left still go on."""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="toughness", upgrades={"Reckless": 1})
    _, blaster, mouse = _blaster(None)
    blaster = blaster.replace(endurance=0, vitality=1, attack_sets=(blast,))
    assert wb.damage(blast, blaster, mouse).sf(1) == 1.0
    got = group_rounds(blaster, Group(mouse, 2), plan=[blast, blast], fights=2_000, seed=2)
    assert float(got.p_killed_by[0]) == 1.0
    three = group_rounds(blaster, Group(mouse, 3), plan=[blast, blast], fights=2_000, seed=2)
    assert float(three.p_killed_by[0]) == 0.0 and float(three.p_killed_by[1]) == 1.0
