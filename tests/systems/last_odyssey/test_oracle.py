"""Last Odyssey against an independent brute-force oracle over the ten hit-die faces.

The oracle below is written straight from last-odyssey-attacks.txt and CLARIFICATIONS.md with
exact fractions and a plain loop over the faces; it shares no code with the engine (not even the
element table: it reads the published chart in shared/data). icepool gives a second oracle for
the damage distribution.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import icepool
import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from tests.oracles import assert_dist_close, from_icepool

LO = wb.system("last_odyssey")
from workbench.systems.last_odyssey import Shell  # noqa: E402

DATA = Path("/work/shared/data/last_odyssey_creatures.toml")
_CHART = tomllib.loads(DATA.read_text())["element_chart"] if DATA.exists() else None
ELEMENTS = ["Fire", "Water", "Earth", "Wind", "Thunder", "Ice", "Wood", "Light", "Shadow"]


def chart(attack_el, target_el) -> Fraction:
    if attack_el is None or target_el is None:
        return Fraction(1)
    return Fraction(_CHART[attack_el.lower()][_CHART["columns"].index(target_el)])


def oracle_face(attack, user, target, die, rounding="nearest_half_up", ladder=False, shell_points=None,
                lean_in=False, target_hp=None):
    """Return (hit, damage, status) of one face, from the rules text (and, for the published abilities that
    need them, Dragonslayer's "If the target is not at full HP, the attack deals 2x damage instead" and
    Miasma's "every non-Undead character")."""
    if target.creature_type is not None and target.creature_type in attack.spares_creature_types:
        return False, 0, False
    shell = target.shell.points if (target.shell and shell_points is None) else (shell_points or 0)
    shelled = shell > 0
    t_el = target.shell.element if shelled else target.element
    if attack.kind == "sleight":
        limit = 5
        if ladder and attack.element is not None:
            m = chart(attack.element, t_el)
            limit = {Fraction(1, 4): -99, Fraction(1, 2): 3, Fraction(1): 5, Fraction(2): 7, Fraction(4): 99}[m]
        lands = die - user.status_accuracy + target.resistance <= limit or lean_in
        immune = attack.status.lower() in [s.lower() for s in target.immune_statuses]
        return lands, 0, lands and not immune
    if attack.kind == "strike":
        acc, atk, dfn = user.physical_accuracy, user.physical_attack, target.physical_defense
    else:
        acc, atk, dfn = user.magical_accuracy, user.magical_attack, target.magical_defense
    hit = die == 1 or die - acc + target.evasion <= 7 or lean_in
    if not hit:
        return False, 0, False
    base = max(1, atk - dfn + (1 if attack.nonlethal else die))
    own = attack.multiplier
    if attack.multiplier_not_full_hp is not None and target_hp is not None and target_hp < target.hp:
        own = attack.multiplier_not_full_hp
    m = Fraction(own).limit_denominator(1000)
    if attack.kind == "spell" and shelled:
        m *= 2
    if attack.kind == "strike" and not shelled:
        m *= 2
    m *= chart(attack.element, t_el)
    if attack.element is not None and attack.element in target.immune_elements:
        m = Fraction(0)
    x = base * m
    dmg = int(x // 1) if rounding == "floor" else int((x + Fraction(1, 2)) // 1)
    status = attack.status is not None and attack.status.lower() not in [s.lower() for s in target.immune_statuses]
    return True, dmg, status


def oracle_table(attack, user, target, **kw) -> dict:
    out: dict = {}
    for die in range(1, 11):
        key = oracle_face(attack, user, target, die, **kw)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 10)
    return out


def engine_table(table: pl.DataFrame) -> dict:
    out: dict = {}
    for r in table.iter_rows(named=True):
        key = (r["hit"], r["damage"], r["status"])
        out[key] = out.get(key, 0.0) + r["probability"]
    return out


def assert_tables_equal(ours: dict, oracle: dict) -> None:
    keys = set(ours) | set(oracle)
    for k in keys:
        assert abs(ours.get(k, 0.0) - float(oracle.get(k, 0))) < 1e-12, (k, ours, oracle)


# --------------------------------------------------------------------------- strategies
stat = st.integers(min_value=0, max_value=16)
element = st.sampled_from([None] + ELEMENTS)


@st.composite
def creatures(draw):
    shell = draw(st.one_of(st.none(), st.builds(Shell, points=st.integers(0, 30), element=element)))
    return LO.Creature(
        "C", draw(st.integers(1, 80)), tier=draw(st.integers(1, 10)),
        physical_accuracy=draw(stat), magical_accuracy=draw(stat), status_accuracy=draw(stat),
        physical_attack=draw(stat), magical_attack=draw(stat), physical_defense=draw(stat),
        magical_defense=draw(stat), evasion=draw(st.integers(0, 12)), resistance=draw(st.integers(0, 12)),
        element=draw(element), shell=shell,
        immune_elements=draw(st.lists(st.sampled_from(ELEMENTS), max_size=1)),
        immune_statuses=draw(st.lists(st.sampled_from(["Poisoned", "Slowed"]), max_size=1)),
        creature_type=draw(st.sampled_from([None, "Human", "Undead", "Dragon"])))


@st.composite
def attacks(draw):
    kind = draw(st.sampled_from(["strike", "spell", "sleight"]))
    return LO.Attack(
        "A", kind=kind, element=draw(element),
        status=draw(st.sampled_from(["Poisoned", "Slowed"])) if kind == "sleight" else
        draw(st.sampled_from([None, "Poisoned"])),
        nonlethal=draw(st.booleans()) if kind != "sleight" else False,
        multiplier=draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0])), ability_type="ranged",
        multiplier_not_full_hp=draw(st.sampled_from([None, 2.0, 0.5])),
        spares_creature_types=draw(st.sampled_from([(), ("Undead",)])))


options = st.builds(LO.Options, rounding=st.sampled_from(["nearest_half_up", "floor"]),
                    sleight_elements=st.sampled_from(["none", "ladder"]))


# --------------------------------------------------------------------------- oracle agreement
@given(attacks(), creatures(), creatures(), options, st.booleans(), st.integers(0, 80))
def test_single_matchup_matches_brute_force(attack, user, target, opts, lean, hp):
    target_hp = hp if 1 <= hp <= target.hp else None
    table = LO.outcomes(attack, user, target, opts, LO.Situation(lean_in=lean, target_hp=target_hp))
    oracle = oracle_table(attack, user, target, rounding=opts.rounding,
                          ladder=opts.sleight_elements == "ladder", lean_in=lean, target_hp=target_hp)
    assert_tables_equal(engine_table(table), oracle)
    assert abs(table["probability"].sum() - 1.0) < 1e-12


@given(st.lists(st.tuples(attacks(), creatures(), creatures()), min_size=1, max_size=12), options)
def test_batch_matches_brute_force_per_matchup(rows, opts):
    """Many matchups in one call: each matchup's table equals its own oracle (no cross-talk)."""
    a, u, t = zip(*rows)
    table = LO.outcome_tables(a, u, t, opts)
    assert table["matchup"].unique().sort().to_list() == list(range(len(rows)))
    for i, (attack, user, target) in enumerate(rows):
        part = table.filter(pl.col("matchup") == i)
        oracle = oracle_table(attack, user, target, rounding=opts.rounding,
                              ladder=opts.sleight_elements == "ladder")
        assert_tables_equal(engine_table(part), oracle)


@given(attacks().filter(lambda a: a.kind != "sleight"), creatures(), creatures(), options)
def test_damage_matches_icepool(attack, user, target, opts):
    def face(d):
        return oracle_face(attack, user, target, int(d), rounding=opts.rounding)[1]
    assert_dist_close(LO.damage(attack, user, target, opts), from_icepool(icepool.d10.map(face)))


@given(attacks().map(lambda a: a.replace(targets="all")), creatures(), st.lists(creatures(), min_size=2, max_size=4),
       options)
def test_multi_target_joint_matches_brute_force(attack, user, targets, opts):
    """Multi Attacks: one die for all targets; the joint table equals the face-by-face oracle."""
    table = LO.multi_target_outcomes(attack, user, targets, opts)
    ours: dict = {}
    for r in table.iter_rows(named=True):
        key = tuple((r[f"hit_{i}"], r[f"damage_{i}"], r[f"status_{i}"]) for i in range(len(targets)))
        ours[key] = ours.get(key, 0.0) + r["probability"]
        assert r["damage"] == sum(r[f"damage_{i}"] for i in range(len(targets)))
    oracle: dict = {}
    for die in range(1, 11):
        key = tuple(oracle_face(attack, user, t, die, rounding=opts.rounding,
                                ladder=opts.sleight_elements == "ladder") for t in targets)
        oracle[key] = oracle.get(key, Fraction(0)) + Fraction(1, 10)
    assert_tables_equal(ours, oracle)


# --------------------------------------------------------------------------- properties
@given(attacks(), creatures(), creatures(), st.integers(1, 5))
def test_more_accuracy_never_lowers_hit_chance(attack, user, target, extra):
    better = user.replace(physical_accuracy=user.physical_accuracy + extra,
                          magical_accuracy=user.magical_accuracy + extra,
                          status_accuracy=user.status_accuracy + extra)
    p0 = LO.outcomes(attack, user, target).filter(pl.col("hit"))["probability"].sum()
    p1 = LO.outcomes(attack, better, target).filter(pl.col("hit"))["probability"].sum()
    assert p1 >= p0 - 1e-12


@given(attacks(), creatures(), creatures(), st.integers(1, 5))
def test_more_evasion_and_resistance_never_raise_hit_chance(attack, user, target, extra):
    harder = target.replace(evasion=target.evasion + extra, resistance=target.resistance + extra)
    p0 = LO.outcomes(attack, user, target).filter(pl.col("hit"))["probability"].sum()
    p1 = LO.outcomes(attack, user, harder).filter(pl.col("hit"))["probability"].sum()
    assert p1 <= p0 + 1e-12
    spared = target.creature_type is not None and target.creature_type in attack.spares_creature_types
    if attack.kind != "sleight" and not spared:
        assert p1 >= 0.1 - 1e-12  # a 1 always hits


@given(attacks().filter(lambda a: a.kind != "sleight"), creatures(), creatures(), st.integers(1, 6))
def test_more_attack_never_lowers_damage(attack, user, target, extra):
    stronger = user.replace(physical_attack=user.physical_attack + extra, magical_attack=user.magical_attack + extra)
    d0, d1 = LO.damage(attack, user, target), LO.damage(attack, stronger, target)
    xs = np.arange(0, 400)
    assert np.all(d1.sf(xs) >= d0.sf(xs) - 1e-12)  # first-order stochastic dominance


@given(attacks().filter(lambda a: a.kind != "sleight"), creatures(), creatures())
def test_nonlethal_damage_is_constant_on_hits(attack, user, target):
    table = LO.outcomes(attack.replace(nonlethal=True), user, target)
    assert table.filter(pl.col("hit"))["damage"].n_unique() <= 1


@settings(max_examples=30)
@given(attacks(), creatures(), creatures())
def test_shell_and_hp_damage_split(attack, user, target):
    table = LO.outcomes(attack, user, target)
    assert (table["shell_damage"] + table["hp_damage"] == table["damage"]).all()
    assert (table["shell_damage"] <= target.shell_points).all()
    assert ((table["hp_damage"] == 0) | (table["shell_damage"] == target.shell_points)).all()
