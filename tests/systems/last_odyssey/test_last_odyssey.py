"""Last Odyssey: hand-worked numbers for every rule of last-odyssey-attacks.txt and
CLARIFICATIONS.md (Last Odyssey). Each expected number is worked out in the comment beside it."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench import RulesError

LO = wb.system("last_odyssey")
C, A, S, O, Shell = LO.Creature, LO.Attack, LO.Situation, LO.Options, None
from workbench.systems.last_odyssey import Shell  # noqa: E402


def by_die(attack, attacker, target, options=None, situation=None):
    """Return {die: (hit, damage, status)} from the multi-target table of one target."""
    t = LO.multi_target_outcomes(attack, attacker, [target], options, situation, by_die=True)
    return {r["die"]: (r["hit_0"], r["damage_0"], r["status_0"]) for r in t.iter_rows(named=True)}


def p(table: pl.DataFrame, **where) -> float:
    """Return the total probability of the rows matching ``where``."""
    expr = pl.lit(True)
    for k, v in where.items():
        expr = expr & (pl.col(k) == v)
    return table.filter(expr)["probability"].sum()


# --------------------------------------------------------------------------- the worked example
def test_worked_example_multi_attacks_text():
    """last-odyssey-attacks.txt, Multi Attacks: accuracy 3, attack 2, die 5; target 1 (evasion 6,
    defense 1) is missed, target 2 (evasion 2, defense 3) is hit for base damage 4."""
    user = C("Example", 20, physical_accuracy=3, physical_attack=2)
    first = C("First", 20, evasion=6, physical_defense=1, shell=Shell(5))   # Shell: no strike ×2
    second = C("Second", 20, evasion=2, physical_defense=3, shell=Shell(5))
    cleave = A("Cleave", targets="all")
    t = LO.multi_target_outcomes(cleave, user, [first, second], by_die=True)
    row = t.filter(pl.col("die") == 5).row(0, named=True)
    # accuracy result 5 - 3 = 2; 2 + 6 = 8 > 7 misses; 2 + 2 = 4 <= 7 hits; 2 - 3 + 5 = 4
    assert (row["hit_0"], row["damage_0"]) == (False, 0)
    assert (row["hit_1"], row["damage_1"]) == (True, 4)
    assert row["damage"] == 4 and row["targets_hit"] == 1
    # The same targets without a Shell take the strike's double damage: 4 × 2 = 8.
    t2 = LO.multi_target_outcomes(cleave, user, [first.replace(shell=None), second.replace(shell=None)], by_die=True)
    assert t2.filter(pl.col("die") == 5).row(0, named=True)["damage_1"] == 8


# --------------------------------------------------------------------------- strikes
def test_strike_hit_rule_and_damage_per_face():
    """Strikes: hit when die − Physical Accuracy + Evasion <= 7; base = PA − PD + die;
    strike against no Shell ×2 (last-odyssey-attacks.txt, Strikes and General Notes)."""
    user = C("U", 10, physical_accuracy=2, physical_attack=5)
    target = C("T", 10, evasion=4, physical_defense=3)
    faces = by_die(A("Hit"), user, target)
    # die − 2 + 4 <= 7  ⇔  die <= 5; base = 5 − 3 + die = 2 + die; ×2
    for d in range(1, 11):
        hit = d <= 5
        assert faces[d] == (hit, 2 * (2 + d) if hit else 0, False)
    table = wb.outcomes(A("Hit"), user, target)
    assert p(table, hit=True) == pytest.approx(0.5, abs=1e-12)
    assert wb.damage(A("Hit"), user, target).mean() == pytest.approx((6 + 8 + 10 + 12 + 14) / 10, abs=1e-12)


def test_die_one_always_hits_strikes_and_spells():
    """General Notes: "a result of 1 will still lead to a hit" even when nothing else can."""
    user = C("U", 10, physical_accuracy=0, magical_accuracy=0, physical_attack=1, magical_attack=1)
    dodgy = C("T", 10, evasion=20, physical_defense=0, magical_defense=0, shell=Shell(3))
    for kind in ("strike", "spell"):
        faces = by_die(A("X", kind=kind), user, dodgy)
        assert faces[1][0] is True and all(not faces[d][0] for d in range(2, 11))
    # strike vs Shell: base 1 − 0 + 1 = 2, no ×2; spell vs Shell: 2 × 2 = 4
    assert by_die(A("X"), user, dodgy)[1][1] == 2
    assert by_die(A("X", kind="spell"), user, dodgy)[1][1] == 4


def test_minimum_base_damage_is_one():
    """General Notes: "The minimum amount of base damage ... is 1": PA 1 vs PD 30."""
    user = C("U", 10, physical_accuracy=10, physical_attack=1)
    wall = C("T", 10, physical_defense=30, shell=Shell(1))
    assert {by_die(A("X"), user, wall)[d][1] for d in range(1, 11)} == {1}
    # without a Shell: base 1, ×2 = 2 on every face
    assert {by_die(A("X"), user, wall.replace(shell=None))[d][1] for d in range(1, 11)} == {2}


# --------------------------------------------------------------------------- spells
def test_spell_uses_magical_stats_and_doubles_against_shell():
    """Spells: die − Magical Accuracy + Evasion <= 7; base = MA − MD + die; spell vs an active
    Shell ×2, vs no Shell ×1 (last-odyssey-attacks.txt, Spells, General Notes)."""
    user = C("U", 10, magical_accuracy=3, magical_attack=4, physical_accuracy=0, physical_attack=0)
    shelled = C("T", 10, evasion=3, magical_defense=2, shell=Shell(10))
    bare = shelled.replace(shell=None)
    bolt = A("Bolt", kind="spell")
    # die − 3 + 3 <= 7 ⇔ die <= 7; base = 4 − 2 + die = 2 + die
    for d in range(1, 11):
        hit = d <= 7
        assert by_die(bolt, user, shelled)[d][:2] == (hit, 2 * (2 + d) if hit else 0)
        assert by_die(bolt, user, bare)[d][:2] == (hit, (2 + d) if hit else 0)


def test_broken_shell_counts_as_no_shell():
    """A Shell at 0 points is not active: strikes double, spells do not (General Notes)."""
    user = C("U", 10, physical_accuracy=10, physical_attack=3)
    t = C("T", 10, physical_defense=1, shell=Shell(6))
    assert by_die(A("X"), user, t)[4][1] == 6                                   # 3 − 1 + 4 = 6, ×1
    assert by_die(A("X"), user, t, situation=S(target_shell_points=0))[4][1] == 12  # ×2


# --------------------------------------------------------------------------- sleights
def test_sleight_threshold_five_and_no_automatic_hit():
    """Sleights: die − Status Accuracy + Resistance <= 5 lands; no automatic hit on a 1."""
    user = C("U", 10, status_accuracy=3)
    target = C("T", 10, resistance=4)
    poison = A("Poison", kind="sleight", status="Poisoned", ability_type="ranged")
    faces = by_die(poison, user, target)
    # die − 3 + 4 <= 5 ⇔ die <= 4
    assert [faces[d][2] for d in range(1, 11)] == [d <= 4 for d in range(1, 11)]
    assert all(faces[d][1] == 0 for d in faces)
    table = wb.outcomes(poison, user, target)
    assert p(table, status=True) == pytest.approx(0.4, abs=1e-12)
    # resistance 20: die − 3 + 20 >= 18 > 5 on every face, a 1 included: never lands
    assert p(wb.outcomes(poison, user, target.replace(resistance=20)), status=True) == 0.0


def test_sleight_element_ladder_option():
    """Options.sleight_elements="ladder": an elemental sleight's threshold follows its element
    multiplier (×0.25 immune, ×0.5 <= 3, ×1 <= 5, ×2 <= 7, ×4 cannot evade); "none" keeps 5."""
    user = C("U", 10, status_accuracy=0)
    ladder = O(sleight_elements="ladder")
    cases = {"Wind": 0.0, "Water": 0.3, "Light": 0.5, "Wood": 0.7, "Ice": 1.0}  # Fire sleight vs these
    burn = A("Burn", kind="sleight", status="Burned", element="Fire", ability_type="ranged")
    for element, expected in cases.items():
        target = C("T", 10, element=element, resistance=0)
        # Fire vs Wind 0.25, Water 0.5, Light 1, Wood 2, Ice 4; die <= threshold with acc 0, res 0
        assert p(wb.outcomes(burn, user, target, ladder), status=True) == pytest.approx(expected, abs=1e-12)
        assert p(wb.outcomes(burn, user, target), status=True) == pytest.approx(0.5, abs=1e-12)


def test_status_immunity_and_status_on_hit():
    """A target immune to a status never gains it; a strike that names a status inflicts it on a hit."""
    user = C("U", 10, status_accuracy=10, physical_accuracy=10, physical_attack=3)
    paladin_like = C("T", 10, immune_statuses=["Taunted"])
    assert p(wb.outcomes(A("Challenge", kind="sleight", status="Taunted"), user, paladin_like), status=True) == 0
    dagger = A("Poison Dagger", status="Poisoned")
    table = wb.outcomes(dagger, user, C("T2", 10))
    assert p(table, status=True) == pytest.approx(1.0) and p(table, status=True, hit=False) == 0


# --------------------------------------------------------------------------- multipliers, rounding
def test_element_multiplier_uses_shell_element_and_rounding_options():
    """Element table (CLARIFICATIONS.md); a Shell's element stands in for the target's; final
    damage rounded half up by default, floor as the option."""
    user = C("U", 10, magical_accuracy=10, magical_attack=4)
    # Water target with a Fire Shell: Fire spell vs the Shell's element Fire ×1, Shell ×2.
    t = C("T", 10, element="Water", magical_defense=0, shell=Shell(10, "Fire"))
    fire = A("Fire", kind="spell", element="Fire")
    assert by_die(fire, user, t)[1][1] == (4 + 1) * 2 * 1
    # Without a Shell, Fire vs Water ×0.5, spell ×1: base 5 → 2.5 → 3 (half up) or 2 (floor)
    bare = t.replace(shell=None)
    assert by_die(fire, user, bare)[1][1] == 3
    assert by_die(fire, user, bare, O(rounding="floor"))[1][1] == 2
    # Wind vs Water ×0.25: base 5 → 1.25 → 1; base 4 (MA 3) → 1.0 → 1; base 2 → 0.5 → 1 half up, 0 floor
    wind = A("Gust", kind="spell", element="Wind")
    weak = user.replace(magical_attack=1)
    assert by_die(wind, user, bare)[1][1] == 1
    assert by_die(wind, weak, bare)[1][1] == 1            # 2 × 0.25 = 0.5 → 1
    assert by_die(wind, weak, bare, O(rounding="floor"))[1][1] == 0   # a 0 stays 0
    assert by_die(wind, weak, bare, O(rounding="floor"))[1][0] is True  # but it hit


def test_ability_multiplier_and_element_immunity():
    """An ability's own multiplier (e.g. Gore ×1.5) multiplies the base; ×0 for an immune element."""
    user = C("U", 10, physical_accuracy=10, physical_attack=3)
    t = C("T", 10, physical_defense=0, shell=Shell(5))
    gore = A("Gore", multiplier=1.5)
    # die 2: base 5 × 1.5 = 7.5 → 8 half up, 7 floor
    assert by_die(gore, user, t)[2][1] == 8 and by_die(gore, user, t, O(rounding="floor"))[2][1] == 7
    ice_proof = C("W", 10, element="Ice", immune_elements=["Ice"], shell=Shell(5, "Ice"))
    assert {v[1] for v in by_die(A("Spike", kind="spell", element="Ice"), user, ice_proof).values()} == {0}


def test_nonlethal_damage_as_if_die_were_one():
    """Nonlethal Attacks: damage as though the die were 1; the hit check uses the real die."""
    user = C("U", 10, physical_accuracy=3, physical_attack=6)
    t = C("T", 10, evasion=3, physical_defense=2)
    faces = by_die(A("Knock", nonlethal=True), user, t)
    # die − 3 + 3 <= 7 ⇔ die <= 7; damage (6 − 2 + 1) × 2 = 10 on each hit
    assert [faces[d][1] for d in range(1, 11)] == [10] * 7 + [0] * 3


def test_lean_in_always_hits():
    """Leaning In: the target may choose to be hit even when the die says miss."""
    user = C("U", 10, physical_accuracy=0, physical_attack=2)
    t = C("T", 10, evasion=10)
    assert p(wb.outcomes(A("X"), user, t, situation=S(lean_in=True)), hit=True) == pytest.approx(1.0)
    assert p(wb.outcomes(A("X"), user, t), hit=True) == pytest.approx(0.1)


# --------------------------------------------------------------------------- Shell pool, AP, rows
def test_shell_absorbs_damage_before_hp():
    """CLARIFICATIONS.md: a Shell is a pool of points that takes damage before HP."""
    user = C("U", 10, physical_accuracy=10, physical_attack=5)
    t = C("T", 30, physical_defense=0, shell=Shell(7))
    table = wb.outcomes(A("X"), user, t)
    # damage = 5 + die (Shell active, ×1): 6..15; shell takes min(d, 7), HP the rest
    row = table.filter(pl.col("damage") == 12).row(0, named=True)
    assert (row["shell_damage"], row["hp_damage"]) == (7, 5)
    row = table.filter(pl.col("damage") == 6).row(0, named=True)
    assert (row["shell_damage"], row["hp_damage"]) == (6, 0)
    assert LO.shell_points(t) == 7 and LO.hit_points(t) == 30 and LO.health(t) == 37


def test_action_points_by_tier():
    """CLARIFICATIONS.md: 2 action points at tiers 1-5, 3 at tiers 6-10."""
    assert [LO.actions_per_turn(C("X", 5, tier=t)) for t in range(1, 11)] == [2] * 5 + [3] * 5


def test_melee_rows():
    """Ability Types, Melee: only from the front row and only against front-row targets."""
    user = C("U", 10, physical_accuracy=5, physical_attack=2)
    t = C("T", 10)
    with pytest.raises(RulesError, match="target_row"):
        wb.outcomes(A("Claw"), user, t, situation=S(target_row="back"))
    with pytest.raises(RulesError, match="attacker_row"):
        wb.outcomes(A("Claw"), user, t, situation=S(attacker_row="back"))
    # a ranged ability reaches the back row; melee reaches it once the front row has fallen
    assert p(wb.outcomes(A("Shot", ability_type="ranged"), user, t, situation=S(target_row="back")), hit=True) > 0
    fallen = S(target_row="back", target_front_row_standing=False)
    assert wb.damage(A("Claw"), user, t, situation=fallen).isclose(wb.damage(A("Claw"), user, t))


def test_plan_damage_and_turn_plans():
    """A turn spends the tier's action points; each ability rolls its own hit die."""
    user = C("U", 10, tier=2, physical_accuracy=10, physical_attack=1,
             abilities=[A("Jab"), A("Heavy", ap_cost=2, multiplier=2.0)])
    t = C("T", 100, shell=Shell(50))
    jab = wb.damage(A("Jab"), user, t)   # uniform 2..11 (1 − 0 + die, ×1 vs Shell)
    assert LO.plan_damage(user, t, ["Jab", "Jab"]).isclose(jab + jab)
    with pytest.raises(RulesError, match="attacks"):
        LO.plan_damage(user, t, ["Jab", "Heavy"])  # 3 AP > 2
    plans = LO.turn_plans(user, t)
    assert set(plans) == {"Jab + Jab", "Heavy"}
    assert plans["Heavy"].mean() == pytest.approx(2 * 6.5, abs=1e-12)
    assert plans["Jab + Jab"].mean() == pytest.approx(13.0, abs=1e-12)


# --------------------------------------------------------------------------- bad inputs
@pytest.mark.parametrize("build, field", [
    (lambda: C("X", 10, element="Plasma"), "element"),
    (lambda: A("X", element="Plasma"), "element"),
    (lambda: C("X", -3), "hp"),
    (lambda: C("X", 0), "hp"),
    (lambda: A("X", kind="sleight"), "status"),
    (lambda: A("X", kind="punch"), "kind"),
    (lambda: C("X", 10, tier=11), "tier"),
    (lambda: C("X", 10, evasion=1.5), "evasion"),
    (lambda: C("X", 10, shell={"points": -2}), "shell.points"),
    (lambda: C("X", 10, shell={"points": 2, "element": "Aether"}), "shell.element"),
    (lambda: A("X", targets=0), "targets"),
    (lambda: A("X", multiplier=-1), "multiplier"),
    (lambda: A("X", kind="sleight", status="Slowed", nonlethal=True), "nonlethal"),
    (lambda: O(rounding="banker"), "rounding"),
    (lambda: S(target_row="middle"), "target_row"),
    (lambda: C("X", 10, abilities=[{"name": "Bad", "kind": "sleight"}]), "abilities[0].status"),
    (lambda: LO.multi_target_outcomes(A("Solo"), C("U", 5), [C("A", 5), C("B", 5)]), "targets"),
    (lambda: wb.outcomes(A("X"), C("U", 5), C("T", 5), situation=S(target_shell_points=3)), "target_shell_points"),
])
def test_bad_inputs_name_the_field(build, field):
    with pytest.raises(RulesError) as info:
        build()
    assert info.value.field == field
    assert field in str(info.value)
