"""Annulus encounters (CLARIFICATIONS.md, "Encounters: groups against groups"): exact, the chain
over every creature's state playing the cells near a fall from their full state (an Annulus fight can
end part-way through a turn: a Counter, a fall before the turn's later uses), as the duel does; the
simulation from the same round agrees within 4 standard errors.

What a group adds to the pair's round (``AnnulusRound.in_group``): a creature's Endurance and
Vitality are one pool only when none of its foes deals vital damage. The Town Guard (Endurance 6,
Vitality 3, annulus catalog) against the Wolf alone is one pool of 6 + 3 = 9; beside a Cutpurse,
whose Sneak Stab is Vital ("damage straight to Vitality"), its Vitality is kept apart: it falls at 3
vital damage, and its hit points (``focus`` targeting, HP left) are still 6 + 3 = 9."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import workbench as wb
from workbench.fight.encounter import Encounter
from workbench.fight.encounter_chain import solve

from .brute import brute

CAT = wb.system("annulus").catalog()
FIGHTS = 20_000


@pytest.mark.parametrize(
    "a, b",
    [
        ("Town Guard", "Ogre"),  # the Guard's Riposte counters: a fall part-way through a turn
        ("Cutpurse", "Wolf"),  # Vital and Blood Price: Endurance and Vitality apart
        ("Wolf", "Hill Giant"),  # the Giant's First Blood, Devour and Drain
    ],
)
def test_one_against_one_agrees_with_the_exact_duel(a: str, b: str) -> None:
    """One creature against one is the duel: exact to 1e-12 (the cells near a fall played from the
    full state, as the duel plays them); the simulation within 4 standard errors."""
    A, B = CAT.creature(a), CAT.creature(b)
    duel = wb.duel(A, B)
    assert duel.exact
    got = wb.encounter([A], [B])
    assert got.exact and got.forced_by == ()
    assert abs(duel.p_a_wins - got.p_a_wins) <= 1e-12 and abs(duel.p_b_wins - got.p_b_wins) <= 1e-12
    sim = wb.encounter([A], [B], simulate=True, fights=FIGHTS, seed=5)
    assert not sim.exact and sim.fights == FIGHTS
    for p, q in [(duel.p_a_wins, sim.p_a_wins), (duel.p_b_wins, sim.p_b_wins)]:
        assert abs(p - q) <= 4 * np.sqrt(max(p * (1 - p), 1e-12) / FIGHTS)


def test_allies_in_the_area_are_exact_and_agree_with_the_simulation() -> None:
    """The exact chain strikes the allies in an area too (``allies_in_area``): the encounter is exact,
    nothing forces a simulation, and the simulation agrees within 4 standard errors."""
    _, blaster, mouse = _blaster("Burst")
    got = wb.encounter([blaster, blaster], [mouse] * 2, allies_in_area=1, max_rounds=6)
    assert got.exact and got.forced_by == ()
    assert got.p_a_wins != pytest.approx(wb.encounter([blaster, blaster], [mouse] * 2, max_rounds=6).p_a_wins)
    fights = 20_000
    sim = wb.encounter([blaster, blaster], [mouse] * 2, allies_in_area=1, max_rounds=6, simulate=True, fights=fights)
    assert abs(sim.p_a_wins - got.p_a_wins) <= 4 * np.sqrt(got.p_a_wins * (1 - got.p_a_wins) / fights)
    assert abs(sim.p_b_wins - got.p_b_wins) <= 4 * np.sqrt(max(got.p_b_wins * (1 - got.p_b_wins), 1e-12) / fights)


def _encounter(a: list[str], b: list[str]) -> Encounter:
    sys_ = wb.system("annulus")
    creatures = [CAT.creature(n) for n in a + b]

    def make_round(me, foe, flanked):
        return sys_.fight_round(me, foe)

    return Encounter(creatures, np.array([0] * len(a) + [1] * len(b)), make_round)


def test_a_creature_keeps_one_state_against_every_foe() -> None:
    alone = _encounter(["Town Guard"], ["Wolf"])
    assert alone.round_of(0, 1).pooled == (True, True)
    assert (alone.hp[0], alone.total[0]) == (9, 9)  # one pool: 6 + 3
    beside = _encounter(["Town Guard"], ["Cutpurse", "Wolf"])
    # the Cutpurse's Vital reaches the Guard: kept apart in its round against the Wolf too
    assert beside.round_of(0, 1).pooled[0] is False and beside.round_of(0, 2).pooled[0] is False
    assert beside.round_of(1, 0).pooled[1] is False and beside.round_of(2, 0).pooled[1] is False
    assert (beside.hp[0], beside.total[0]) == (3, 9)  # falls at 3 vital damage; 9 hit points
    assert beside.round_of(2, 0).pooled[0] is True  # nobody deals the Wolf vital damage
    # "wounded" is read by a First Blood set: kept for the Wolf beside the Hill Giant's foe
    giant = _encounter(["Wolf", "Wolf"], ["Hill Giant", "Rat"])
    assert giant.round_of(3, 0)._first_blood[1] and giant.round_of(0, 3)._first_blood[0]


def test_focus_and_hp_left_count_endurance_and_vitality() -> None:
    guards = [CAT.creature("Town Guard")] * 3
    got = wb.encounter(guards, [CAT.creature("Rat"), CAT.creature("Wolf")], fights=4_000, seed=2)
    hp = dict(zip(got.creatures["name"].to_list(), got.creatures["hp"].to_list()))
    assert hp == {"Town Guard": 9, "Town Guard #2": 9, "Town Guard #3": 9, "Rat": 2, "Wolf": 8}
    # focus: the foe with the fewest hit points left (Rat 1 + 1 against Wolf 5 + 3) is struck first,
    # so it falls first whenever anyone falls before the guards reach the Wolf
    first = dict(zip(got.creatures["name"].to_list(), got.creatures["p_falls_first"].to_list()))
    assert first["Rat"] > 0.9 > first["Wolf"]
    left = got.hp_left.filter(got.hp_left["name"] == "Wolf")["hp_left"]
    assert int(left.max()) <= 8


def _blaster(area: str | None) -> tuple:
    """A Blaster (the Giant Centipede's stats) whose one set, Blast, is 4 dice against Toughness 0,
    with ``area`` its area upgrade; a Mouse has 1 hit point (Endurance 0, Vitality 1)."""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="toughness", upgrades={area: 1} if area else {})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast,))
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    mouse = CAT.creature("Rat").replace(name="Mouse", endurance=0, vitality=1, attack_sets=(nibble,))
    return blast, blaster, mouse


@pytest.mark.parametrize("area, struck", [("Burst", 3), ("Arc", 3), ("Line", 2), (None, 1)])
def test_an_area_set_strikes_the_foes_in_its_area(area: str | None, struck: int) -> None:
    """An area set "strikes all creatures" in its area: in an encounter its target and the next living
    foes, up to Arc 3, Burst 3, Line 2 (CLARIFICATIONS.md, Encounters), each rolled for separately.

    Worked by hand: the Blast rolls 4 dice, each a success on 4+ (p = 1/2), 1 damage per success
    against Toughness 0, so one Blast fells a 1-HP Mouse with P = 1 - (1/2)^4 = 15/16 (checked below
    against wb.damage). The Blaster acts first; its turn is 2 actions but the Blast costs 1 and, an
    area set, is spent until it recharges, so the turn is one Blast (with no area it is not spent:
    two Blasts at the target). All three Mice fall in round 1
    only when the Blast strikes all three: (15/16)^3 = 3375/4096 = 0.823974609375 for Burst and Arc;
    a Line strikes two and a set with no area one, so side A never wins in round 1 with them."""
    blast, blaster, mouse = _blaster(area)
    assert wb.damage(blast, blaster, mouse).sf(1) == pytest.approx(15 / 16, abs=1e-12)
    fights = 40_000
    got = wb.encounter([blaster], [mouse] * 3)
    assert got.exact
    first_round = float(got.rounds["p_a_wins"][0])
    want = 3375 / 4096 if struck == 3 else 0.0
    assert abs(first_round - want) <= 1e-12
    sim = wb.encounter([blaster], [mouse] * 3, simulate=True, fights=fights, seed=11)
    assert abs(float(sim.rounds["p_a_wins"][0]) - want) <= 4 * np.sqrt(want * (1 - want) / fights) + 1e-12
    # round 1 alone: each Mouse in the area survives it with 1/16 (one Blast); a Mouse outside is
    # never struck. A set with no area is not spent: the target takes the first Blast, and the
    # second too where it stood (1/16 x 1/16 = 1/256 it survives both); where the first felled it
    # (15/16), "the remaining attacks ... go to the next living foe" (CLARIFICATIONS.md,
    # Encounters): the second Mouse survives 1/16 + 15/16 x 1/16 = 31/256, the third is not struck
    one = wb.encounter([blaster], [mouse] * 3, max_rounds=1)
    survives = one.creatures["p_survives"].to_list()[1:]
    want_alive = [1 / 16] * struck + [1.0] * (3 - struck) if area else [1 / 256, 31 / 256, 1.0]
    assert one.exact and np.allclose(survives, want_alive, rtol=0, atol=1e-12)


def test_an_area_set_reach_is_its_area() -> None:
    sys_ = wb.system("annulus")
    for area, reach in (("Burst", 3), ("Arc", 3), ("Line", 2), (None, 1)):
        _, blaster, mouse = _blaster(area)
        assert sys_.fight_round(blaster, mouse).reach == reach
    # the Drake's Fire Breath is a Line, its Tail Sweep an Arc: three foes at most
    assert sys_.fight_round(CAT.creature("Drake"), CAT.creature("Wolf")).reach == 3


def test_a_creature_felled_by_vital_damage_has_no_hp_left() -> None:
    """The Cutpurse's Sneak Stab is Vital: the Town Guard can fall with Endurance left. A fallen
    creature has 0 HP left, so alone on its side it survives exactly when its side wins or the fight
    is unresolved."""
    got = wb.encounter([CAT.creature("Town Guard")], [CAT.creature("Cutpurse")], fights=4_000, seed=4)
    guard = got.creatures.row(0, named=True)
    assert guard["p_survives"] == pytest.approx(got.p_a_wins + got.p_unresolved, abs=1e-12)


def test_foes_in_area_is_a_named_option() -> None:
    """``foes_in_area`` (CLARIFICATIONS.md, Encounters: "up to default foes_in_area: Arc 3, Burst 3,
    Line 2"): a Burst set to 2 strikes the target and one more Mouse, so three Mice never all fall in
    round 1 and the third is never struck then; each struck Mouse survives round 1 with 1/16 (one
    Blast, 15/16 to fell it, worked in the test above)."""
    _, blaster, mouse = _blaster("Burst")
    fights = 40_000
    got = wb.encounter([blaster], [mouse] * 3, foes_in_area={"Burst": 2}, max_rounds=1, fights=fights, seed=3)
    assert float(got.rounds["p_a_wins"][0]) == 0.0
    survives = got.creatures["p_survives"].to_list()[1:]
    for p in survives[:2]:
        assert abs(p - 1 / 16) <= 4 * np.sqrt((1 / 16) * (15 / 16) / fights)
    assert survives[2] == 1.0
    assert wb.system("annulus").fight_round(blaster, mouse).with_foes_in_area({"Burst": 2}).reach == 2


@pytest.mark.parametrize("areas", [{"Cone": 2}, {"Burst": 0}, {"Burst": 51}, {"Burst": True}, ["Burst", 2]])
def test_bad_foes_in_area_is_refused_naming_it(areas) -> None:
    _, blaster, mouse = _blaster("Burst")
    with pytest.raises(wb.RulesError) as err:
        wb.encounter([blaster], [mouse] * 3, foes_in_area=areas, fights=100)
    assert err.value.field == "foes_in_area"


def test_foes_in_area_is_refused_where_there_are_no_area_sets() -> None:
    cat = wb.system("unbound").catalog()
    a, b = (cat.creature(n) for n in list(cat.creatures)[:2])
    with pytest.raises(wb.RulesError, match="no area sets") as err:
        wb.encounter([a], [b], foes_in_area={"Burst": 2})
    assert err.value.field == "foes_in_area"


def _spree_wolf(spree: bool) -> object:
    """The Wolf holding one Agility set, with Killing Spree or without (the rest of the set alike)."""
    A = wb.system("annulus")
    ups = {"Killing Spree": 1} if spree else {}
    atk = A.Attack.from_dict({"name": "Spree" if spree else "Plain", "defense": "agility", "upgrades": ups})
    return CAT.creature("Wolf").replace(attack_sets=(atk,))


def test_a_kill_in_a_group_sets_killing_spree_waiting() -> None:
    """CLARIFICATIONS.md, Annulus: "Killing Spree (+2 automatic successes on the next use after a
    kill)", "the single next use after a kill"; Encounters: "Killing Spree triggers when the attack
    kills any of them". In a group, a use that fells its foe leaves the kill waiting (``spree_waits``
    1) for the next use; a use that does not fell it leaves none; and in a duel (no foe left) the
    state is as before: only the situation's ``after_kill`` starts it."""
    A = wb.system("annulus")
    wolf, centipede = _spree_wolf(True), CAT.creature("Giant Centipede")
    group = A.fight_round(wolf, centipede).in_group([centipede, centipede], [wolf])
    from workbench.fight.draw import Enumerator

    me, foe = group.start()
    hp = group.hit_points(1)
    low = foe.replace(damage_taken=foe.damage_taken + hp - 1, endurance_lost=foe.endurance_lost + hp - 1)
    draw = Enumerator(1)
    after, hit = group._use(0, (me, low), np.zeros(1, np.int64), np.ones(1, bool), draw, True, False)[:2]
    felled = np.asarray(hit.damage_taken) >= hp
    assert felled.any() and (~felled).any()  # some outcomes fell it, some do not
    assert (np.asarray(after.spree_waits)[felled] == 1).all()
    assert (np.asarray(after.spree_waits)[~felled] == 0).all()
    # with one hit point left, P(the kill waits) is P(any damage) of one use of the set
    use = wb.damage(wolf.attack_sets[0], wolf, centipede)
    assert draw.weight[felled].sum() == pytest.approx(use.sf(1), abs=1e-12)
    # a duel's round never sets it: the fight is over at the kill
    duel = A.fight_round(wolf, centipede)
    me, foe = duel.start()
    low = foe.replace(damage_taken=foe.damage_taken + hp - 1, endurance_lost=foe.endurance_lost + hp - 1)
    after = duel._use(0, (me, low), np.zeros(1, np.int64), np.ones(1, bool), Enumerator(1), True, False)[0]
    assert (np.asarray(after.spree_waits) == 0).all()


def test_killing_spree_speeds_up_a_group_not_one_copy() -> None:
    """The same seeded fights with and without Killing Spree: against one Giant Centipede the kill ends
    the fight, so both are the same to the last digit; against three, the +2 after each kill fells
    them sooner, by more than 4 standard errors."""
    from workbench.encounters import Group, group_rounds

    centipede = CAT.creature("Giant Centipede")
    kw = dict(fights=FIGHTS, seed=5, max_rounds=100)
    one = [group_rounds(_spree_wolf(s), Group(centipede, 1), **kw) for s in (True, False)]
    assert one[0].mean == one[1].mean and np.array_equal(one[0].p_killed_by, one[1].p_killed_by)
    spree, plain = (group_rounds(_spree_wolf(s), Group(centipede, 3), **kw) for s in (True, False))
    assert plain.mean - spree.mean > 4 * np.hypot(spree.se, plain.se)


def test_the_plan_counts_the_area_set_on_every_foe_it_strikes() -> None:
    """CLARIFICATIONS.md, Encounters: "a plan's damage counts every foe it strikes (an area set's damage
    to each foe in its area ...), so an area set is chosen when the crowd makes it pay".

    Worked by hand: the Blaster's Blast (Burst) rolls 4 dice at 4+, 1 damage a success: mean 2; its
    Jab (Bully: +1 damage when it deals any) has mean 2 + 15/16 = 2.9375. Both cost 1 action of 2
    and the Blast, an area set, once until it recharges, so the plans are Blast + Jab (4.9375 on the
    target) and Jab + Jab (5.875). Against one Mouse Jab + Jab is the plan, as in a duel. Against
    three, Blast + Jab also strikes the other two Mice: 4.9375 + 2 x 2 = 8.9375 > 5.875, so it is
    played. Against two: 4.9375 + 2 > 5.875, the Blast again.

    In round 1 the Blast strikes every Mouse; the Jab strikes the target where it stood, else (the
    Blast felled it, 15/16) "the remaining attacks ... go to the next living foe" (CLARIFICATIONS.md,
    Encounters; the one action left planned again: the Jab, the Blast spent). The target survives
    both uses with (1/16)^2 = 1/256. The second Mouse survives the Blast with 1/16 and then the Jab
    where it comes its way (the target fell): 1/16 x (1/16 + 15/16 x 1/16) = 31/4096. The third is
    Jabbed only where the first two fell to the Blast: 1/16 x (1 - (15/16)^2 x 15/16) = 721/65536.
    All three fall: the target to the Blast (15/16) with the other two felled by it (225/256) or one
    of them left for the Jab (2 x 15/16 x 1/16 x 15/16 = 450/4096), or the target to the Jab
    (1/16 x 15/16) with both others to the Blast: 15/16 x 4050/4096 + 1/16 x 15/16 x 225/256 =
    64125/65536 (57375/65536 were the Jab kept on the fallen target)."""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="toughness", upgrades={"Burst": 1})
    jab = A.Attack(name="Jab", defense="toughness", upgrades={"Bully": 1})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast, jab))
    _, _, mouse = _blaster(None)
    means = {k: v.mean() for k, v in A.turn_plans(blaster, mouse).items()}
    assert means == pytest.approx({"Blast + Jab": 4.9375, "Jab + Jab": 5.875}, abs=1e-12)
    fights = 40_000
    for n, survive in [(1, [1 / 256]), (2, [1 / 256, 31 / 4096]), (3, [1 / 256, 31 / 4096, 721 / 65536])]:
        got = wb.encounter([blaster], [mouse] * n, max_rounds=1, fights=fights, seed=12)
        for p, want in zip(got.creatures["p_survives"].to_list()[1:], survive, strict=True):
            assert abs(p - want) <= 4 * np.sqrt(want * (1 - want) / fights)
    all_three = 15 / 16 * (225 / 256 + 2 * 15 / 16 * 1 / 16 * 15 / 16) + 1 / 16 * 15 / 16 * 225 / 256
    assert all_three == pytest.approx(64125 / 65536, abs=1e-15)
    first = float(got.rounds["p_a_wins"][0])  # (the three Mice's encounter, the loop's last)
    assert abs(first - all_three) <= 4 * np.sqrt(all_three * (1 - all_three) / fights)
    # the plan chosen at the start of the turn, with 0, 1 and 2 other Mice standing in the area
    # (against one Mouse Blast + Jab and Jab + Jab fell it alike: the plan shows only here)
    group = A.fight_round(blaster, mouse).in_group([mouse, mouse, mouse], [blaster])
    me, foe = group.start()
    others = [(group._beside(mouse), foe), (group._beside(mouse), foe)]
    for extra, want in [([], ("Jab", "Jab")), (others[:1], ("Blast", "Jab")), (others, ("Blast", "Jab"))]:
        me2, t = group._begin(me, np.full(1, -1, np.int64))
        row = group._plans(me2, foe, t, np.ones(1, bool), [], extra)[0]
        plan = tuple(group.a.sets[i].name for i in group.a.steps()[:, row] if i >= 0)
        assert plan == want, (len(extra), plan)
    # a foe already down does not count: the Jab + Jab of one Mouse
    down = foe.replace(damage_taken=foe.damage_taken + 1)
    me2, t = group._begin(me, np.full(1, -1, np.int64))
    row = group._plans(me2, foe, t, np.ones(1, bool), [], [(group._beside(mouse), down)] * 2)[0]
    assert tuple(group.a.sets[i].name for i in group.a.steps()[:, row] if i >= 0) == ("Jab", "Jab")


def _friendly_fire() -> tuple:
    """(the Blaster: one Burst set, Blast, 4 dice against Toughness; a Mouse ally with 1 hit point and
    Agility 10; a Wall, the only foe, with 40 hit points whose Nibble (Agility) never gets through
    Agility 10): nothing but the Blast can fell a Mouse."""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="toughness", upgrades={"Burst": 1})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast,), agility=10)
    nibble = A.Attack(name="Nibble", defense="agility", upgrades={})
    rat = CAT.creature("Rat")
    mouse = rat.replace(name="Mouse", endurance=0, vitality=1, toughness=0, agility=10, attack_sets=(nibble,))
    wall = rat.replace(name="Wall", endurance=0, vitality=40, level=40, toughness=0, attack_sets=(nibble,))
    return blast, blaster, mouse, wall


def test_allies_in_area_are_struck_by_the_area_set() -> None:
    """annulus-attacks.txt: area attacks "can and will harm the user's allies if they are standing in
    the target area"; CLARIFICATIONS.md, Encounters: allies in the area default 0, ``allies_in_area``
    adds them (the first living ones in listed order, each rolled for separately).

    Worked by hand: the Blast fells a 1-HP Mouse with 1 - (1/2)^4 = 15/16 (wb.damage below), and
    nothing else can (the Wall's Nibble never gets through Agility 10, nor does the Mice's own through
    the Blaster's). The Blaster acts first, its turn one Blast (an area set is spent until it
    recharges). Round 1: with ``allies_in_area=1`` the first Mouse survives with 1/16 and the second
    is never struck (1.0); with 0 both always survive. Round 2: the Blast again only when it
    recharges ("5 or 6", 1/3), and then strikes the first LIVING ally: the second Mouse survives two
    rounds unless the first fell in round 1 and the Blast recharged and felled it:
    1 - (15/16)(1/3)(15/16) = 1 - 75/256 = 181/256."""
    blast, blaster, mouse, wall = _friendly_fire()
    assert wb.damage(blast, blaster, mouse).sf(1) == pytest.approx(15 / 16, abs=1e-12)
    assert wb.damage(wall.attack_sets[0], wall, mouse).sf(1) == 0.0
    assert wb.damage(mouse.attack_sets[0], mouse, blaster).sf(1) == 0.0
    fights = 40_000

    def survives(n: int, rounds: int, simulate: bool | None = None) -> list[float]:
        got = wb.encounter(
            [blaster, mouse, mouse],
            [wall],
            allies_in_area=n,
            max_rounds=rounds,
            simulate=simulate,
            fights=fights,
            seed=3,
        )
        assert got.exact is (simulate is None)
        return got.creatures["p_survives"].to_list()[1:3]

    assert survives(0, 2) == pytest.approx([1.0, 1.0], abs=1e-12)
    assert survives(1, 1) == pytest.approx([1 / 16, 1.0], abs=1e-12)
    assert survives(2, 1) == pytest.approx([1 / 16, 1 / 16], abs=1e-12)
    assert survives(1, 2)[1] == pytest.approx(181 / 256, abs=1e-12)
    # the simulation, within 4 standard errors
    first, second = survives(1, 1, True)
    assert abs(first - 1 / 16) <= 4 * np.sqrt((1 / 16) * (15 / 16) / fights) and second == 1.0
    second = survives(1, 2, True)[1]
    want = 181 / 256
    assert abs(second - want) <= 4 * np.sqrt(want * (1 - want) / fights)


def test_an_ally_struck_does_not_counter() -> None:
    """Counter: "when you are damaged by an enemy that targeted the selected defense, you can use the
    attack for free as an immediate reaction against your attacker" (annulus-attacks.txt): the Town
    Guard's Riposte (Counter, Agility) answers a foe's Agility attack, not its own side's Blast. The
    Blaster's Blast here targets Agility (Guard Agility 1: it gets through half the time, wb.damage
    below) and the Blaster has Agility 0, Toughness 10 (the Wall's Nibble, Toughness, never gets
    through): with the Guard as an ally in the area the Blaster ends round 1 unhurt in every fight,
    though the Guard is hurt. As a foe, the same Guard hurts it."""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="agility", upgrades={"Burst": 1})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast,), agility=0, toughness=10)
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    wall = CAT.creature("Rat").replace(name="Wall", endurance=0, vitality=40, level=40, attack_sets=(nibble,))
    guard = CAT.creature("Town Guard")
    assert wb.damage(blast, blaster, guard).sf(1) == pytest.approx(0.5, abs=1e-12)
    got = wb.encounter([blaster, guard], [wall], allies_in_area=1, max_rounds=1, fights=4_000, seed=3)
    left = got.hp_left.filter(got.hp_left["name"] == "Blaster")
    assert left["hp_left"].to_list() == [5] and left["probability"].to_list() == [1.0]
    guard_left = got.hp_left.filter(got.hp_left["name"] == "Town Guard")
    assert guard_left.filter(guard_left["hp_left"] < 9)["probability"].sum() > 0.4
    foe = wb.encounter([blaster], [wall, guard], max_rounds=1, fights=4_000, seed=3)
    hurt = foe.hp_left.filter((foe.hp_left["name"] == "Blaster") & (foe.hp_left["hp_left"] < 5))
    assert hurt["probability"].sum() > 0.5


def test_allies_in_area_keep_each_state_as_every_creature_needs_it() -> None:
    """With ``allies_in_area`` a creature can be hurt by its own side's area sets: the Town Guard
    beside a Blaster whose Burst is Vital ("damage straight to Vitality") keeps its Vitality apart
    (``in_group``), as it does facing the Cutpurse's Vital Sneak Stab; without, one pool of 6 + 3."""
    A = wb.system("annulus")
    vital = A.Attack(name="Blast", defense="toughness", upgrades={"Burst": 1, "Vital": 1})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(vital,))
    sys_ = wb.system("annulus")
    creatures = [blaster, CAT.creature("Town Guard"), CAT.creature("Wolf")]

    def make_round(me, foe, flanked):
        return sys_.fight_round(me, foe)

    for allies, pooled in ((0, True), (1, False)):
        enc = Encounter(creatures, np.array([0, 0, 1]), make_round, allies_in_area=allies)
        assert enc.round_of(1, 2).pooled[0] is pooled and enc.round_of(2, 1).pooled[1] is pooled
        assert enc.allies_struck(0) == allies and enc.allies_struck(1) == 0  # the Guard has no area set
        assert (enc.hp[1], enc.total[1]) == ((9, 9) if pooled else (3, 9))


@pytest.mark.parametrize("bad", [-1, 51, 1.5, True, "2"])
def test_bad_allies_in_area_is_refused_naming_it(bad) -> None:
    _, blaster, mouse, wall = _friendly_fire()
    with pytest.raises(wb.RulesError) as err:
        wb.encounter([blaster, mouse], [wall], allies_in_area=bad, fights=100)
    assert err.value.field == "allies_in_area"


def test_allies_in_area_is_refused_where_there_are_no_area_sets() -> None:
    cat = wb.system("glass_empires").catalog()
    a, b = (cat.creature(n) for n in list(cat.creatures)[:2])
    with pytest.raises(wb.RulesError, match="no area sets") as err:
        wb.encounter([a, a], [b], allies_in_area=1)
    assert err.value.field == "allies_in_area"
    assert wb.encounter([a, a], [b], allies_in_area=0).p_a_wins == wb.encounter([a, a], [b]).p_a_wins


def _duelist() -> tuple:
    """The Duelist (the Giant Centipede's stats) holds Stab (against Agility) and Crush (against
    Toughness), each 4 dice at 4+, a success 1 damage less the defense; the Turtle (Agility 0,
    Toughness 4) and the Flea (Agility 4, Toughness 0) have 1 hit point each."""
    A = wb.system("annulus")
    stab = A.Attack(name="Stab", defense="agility", upgrades={})
    crush = A.Attack(name="Crush", defense="toughness", upgrades={})
    duelist = CAT.creature("Giant Centipede").replace(name="Duelist", attack_sets=(stab, crush))
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    rat = CAT.creature("Rat").replace(endurance=0, vitality=1, attack_sets=(nibble,))
    turtle = rat.replace(name="Turtle", agility=0, toughness=4)
    flea = rat.replace(name="Flea", agility=4, toughness=0)
    return stab, crush, duelist, turtle, flea


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_the_uses_left_after_a_kill_go_to_the_next_foe_planned_again(targeting: str) -> None:
    """CLARIFICATIONS.md, Encounters: "If the target dies part-way through the turn, the remaining
    attacks of the action under way go to the next living foe by the same policy, and the turn's
    remaining actions are planned again against that foe".

    Worked by hand: a use fells the Turtle with Stab (4 dice at 1/2, Agility 0: 1 - (1/2)^4 = 15/16),
    never with Crush (Toughness 4 takes every success); the Flea the other way round. Against the
    Turtle the Duelist's plan is Stab + Stab; where the first Stab fells it (15/16) the one action
    left is planned again against the Flea: Crush, which fells it with 15/16. Both fall in round 1
    with 15/16 x 15/16 = 225/256 = 0.87890625 (the Duelist acts first). Targeting the Flea first
    (random) is the same turn mirrored. Had the action kept its Stab (the plan given as Stab, "as
    often as the turn allows"), the Flea would never fall in round 1."""
    stab, crush, duelist, turtle, flea = _duelist()
    assert wb.damage(stab, duelist, turtle).sf(1) == pytest.approx(15 / 16, abs=1e-12)
    assert wb.damage(crush, duelist, turtle).sf(1) == 0.0
    assert wb.damage(crush, duelist, flea).sf(1) == pytest.approx(15 / 16, abs=1e-12)
    assert wb.damage(stab, duelist, flea).sf(1) == 0.0
    fights = 40_000
    got = wb.encounter([duelist], [turtle, flea], targeting=targeting, max_rounds=1, fights=fights, seed=21)
    both = float(got.rounds["p_a_wins"][0])
    want = 225 / 256
    assert abs(both - want) <= 4 * np.sqrt(want * (1 - want) / fights)
    kept = wb.encounter([(duelist, stab)], [turtle, flea], targeting="focus", max_rounds=1, fights=fights, seed=21)
    assert float(kept.rounds["p_a_wins"][0]) == 0.0
    # the kept Stab reached the Flea (the Turtle fell first) and dealt nothing: the Turtle falls
    # with 1 - (1/16)^2 = 255/256 either way
    turtle_falls = 1 - kept.creatures["p_survives"][1]
    assert abs(turtle_falls - 255 / 256) <= 4 * np.sqrt(255 / 256 / 256 / fights)


def test_a_turn_strikes_as_many_foes_as_it_has_uses() -> None:
    """In an encounter a turn of two uses may strike two foes (the first felled by the first use), so
    the turn is handed the target and the next living foe; an area set adds its area (a Burst 3)."""
    _, _, duelist, turtle, flea = _duelist()
    sys_ = wb.system("annulus")
    alone = sys_.fight_round(duelist, turtle)
    assert alone.reach == 1  # (a duel: one foe)
    assert alone.in_group([turtle, flea], [duelist]).reach == 2
    _, blaster, mouse = _blaster("Burst")
    assert sys_.fight_round(blaster, mouse).in_group([mouse] * 3, [blaster]).reach == 3 + 2 - 1


def _plain(name: str, endurance: int, vitality: int, agility: int) -> Any:
    """An alert Annulus creature of one plain set (Strike, against Agility: its uses carry no state)."""
    A = wb.system("annulus")
    strike = A.Attack(name="Strike", defense="agility", upgrades={})
    return CAT.creature("Rat").replace(
        name=name, endurance=endurance, vitality=vitality, agility=agility, attack_sets=(strike,), awareness="alert"
    )


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_small_encounters_agree_with_an_enumeration_from_the_rules(targeting: str) -> None:
    """tests/encounters/brute.py (an enumeration from CLARIFICATIONS.md alone, sharing no code with the
    fight): a turn is two uses of the one set, each on the turn's target while it stands, the rest on
    the next living foe by the policy. The exact encounter agrees to 1e-12 on P(each side wins) and
    on who falls first; the simulation within 4 standard errors."""
    side_a = [_plain("Brawler", 2, 2, 1), _plain("Scrapper", 1, 2, 0)]
    side_b = [_plain("Goblin", 1, 2, 0), _plain("Kobold", 1, 1, 1), _plain("Imp", 0, 2, 2)]
    want = brute(side_a, side_b, targeting=targeting, uses=2)
    assert 0.05 < want["a"] < 0.95  # (a fight either side can win)
    got = wb.encounter(side_a, side_b, targeting=targeting)
    assert got.exact
    assert abs(want["a"] - got.p_a_wins) <= 1e-12 and abs(want["b"] - got.p_b_wins) <= 1e-12
    assert np.allclose(got.creatures["p_falls_first"].to_list(), want["first"], rtol=0, atol=1e-12)
    fights = 40_000
    sim = wb.encounter(side_a, side_b, targeting=targeting, simulate=True, fights=fights, seed=31)
    for p, q in [(want["a"], sim.p_a_wins), (want["b"], sim.p_b_wins)]:
        assert abs(p - q) <= 4 * np.sqrt(p * (1 - p) / fights)
    first = sim.creatures["p_falls_first"].to_list()
    for p, q in zip(want["first"], first, strict=True):
        assert abs(p - q) <= 4 * np.sqrt(max(p * (1 - p), 1e-12) / fights) + 1e-12


def test_blood_price_uses_after_a_kill_go_to_the_next_foe() -> None:
    """Blood Price ("damage your own Vitality instead of spending an action ... There is no limit to
    how many times", annulus-attacks.txt; ``Tactics.blood_price_uses``, after the plan) in an encounter: each
    such use strikes the foe struck now, or, once it has fallen, the next living foe (CLARIFICATIONS.md,
    Encounters). Worked by hand: a Reckless Jab (+1 automatic success, so every use deals at least 1)
    fells a 1-HP Mouse every time; two actions and one Blood Price use fell three Mice in the first
    turn: P = 1 (0 with the Blood Price use kept on the fallen target: the third Mouse stands)."""
    from workbench.fight.encounter import simulate

    A = wb.system("annulus")
    jab = A.Attack(name="Jab", defense="toughness", upgrades={"Reckless": 1, "Blood Price": 1})
    _, blaster, mouse = _blaster(None)
    biter = blaster.replace(name="Biter", endurance=10, vitality=5, attack_sets=(jab,))
    assert wb.damage(jab, biter, mouse).sf(1) == 1.0
    for uses, wins in ((1, 1.0), (0, 0.0)):
        tactics = A.tactics_class(blood_price_uses=uses)

        def make_round(me, foe, flanked, tactics=tactics):  # (both directions know the Biter's tactics)
            mine = lambda c: tactics if c is biter else None  # noqa: E731
            return A.fight_round(me, foe, tactics=mine(me), foe_tactics=mine(foe))

        enc = Encounter([biter, mouse, mouse, mouse], np.array([0, 1, 1, 1]), make_round)
        tally, outcome = simulate(enc, "sides", np.zeros(500, np.int64), 1, np.random.default_rng(4))
        assert float(np.mean(outcome == 0)) == wins
        # the exact chain enumerates the same turn: its Blood Price use carries the counts of the
        # turn's uses through the use's draws
        exact = solve(enc, "sides", 0, 1)
        assert exact is not None
        assert exact[0].ends[0, 0] == pytest.approx(wins, abs=1e-12)


def test_spread_counts_a_turn_that_strikes_one_foe() -> None:
    """``spread``: "the living foe targeted by the fewest attacks so far this round" (CLARIFICATIONS.md,
    Encounters). With one action a turn and no area set, an Annulus turn strikes one foe; its use is
    still an attack on it. Worked by hand: a Blast (4 dice at 1/2, a success 1 damage against
    Toughness 0) fells a 2-HP Mouse with P(2 or more successes) = 11/16. The first Blaster attacks the
    first Mouse; the second Blaster then attacks the second (no attacks on it yet, one on the first),
    so each Mouse stands after round 1 with 5/16. (The exact chain counted no attack for such a turn:
    the second Blaster went for the first Mouse while it stood, and the second Mouse stood with
    1 - (11/16)^2 = 135/256; the simulation, which counted it, said 5/16.)"""
    A = wb.system("annulus")
    blast = A.Attack(name="Blast", defense="toughness", upgrades={})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(blast,))
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    mouse = CAT.creature("Rat").replace(name="Mouse", endurance=1, vitality=1, toughness=0, attack_sets=(nibble,))
    one = A.Options(actions=1)
    assert wb.damage(blast, blaster, mouse, options=one).sf(2) == pytest.approx(11 / 16, abs=1e-12)
    got = wb.encounter([blaster, blaster], [mouse, mouse], targeting="spread", options=one, max_rounds=1)
    assert got.exact
    assert got.creatures["p_survives"].to_list()[2:] == pytest.approx([5 / 16, 5 / 16], abs=1e-12)
    fights = 20_000
    sim = wb.encounter(
        [blaster, blaster], [mouse, mouse], targeting="spread", options=one, max_rounds=1, simulate=True, fights=fights
    )
    for p in sim.creatures["p_survives"].to_list()[2:]:
        assert abs(p - 5 / 16) <= 4 * np.sqrt(5 / 16 * 11 / 16 / fights)


def _burst_and_line(mouse_hp: int) -> tuple[Any, Any, Any, Any, Any]:
    """Return (the Blaster: the Giant Centipede's statistics with a Burst and a Line, each 4 dice
    against Toughness; its Burst, its Line; a Mouse of ``mouse_hp`` HP (Vitality 1), Toughness 0; a
    Shell, 1 HP and Toughness 4, which neither set ever hurts)."""
    A = wb.system("annulus")
    burst = A.Attack(name="Burst", defense="toughness", upgrades={"Burst": 1})
    line = A.Attack(name="Line", defense="toughness", upgrades={"Line": 1})
    blaster = CAT.creature("Giant Centipede").replace(name="Blaster", attack_sets=(burst, line))
    nibble = A.Attack(name="Nibble", defense="toughness", upgrades={})
    mouse = CAT.creature("Rat").replace(
        name="Mouse", endurance=mouse_hp - 1, vitality=1, toughness=0, attack_sets=(nibble,)
    )
    shell = mouse.replace(name="Shell", endurance=0, toughness=4)
    return blaster, burst, line, mouse, shell


def test_a_foe_fallen_this_turn_takes_no_place_in_an_area() -> None:
    """An area set strikes its target "and the next living foes by the same policy, up to
    foes_in_area" (CLARIFICATIONS.md, Encounters): a foe felled earlier in the same turn takes no
    place. Worked by hand: the Blaster holds Burst (its area set to 2 foes here) and Line (2), each 4
    dice at 1/2, 1 damage a success against Toughness 0, both spent once used, so its turn is one of
    each. Its target (focus) is the Shell (1 HP, Toughness 4: never hurt), then two 2-HP Mice. The
    Burst strikes the Shell and the first Mouse, felling it with P(2 or more successes) = 11/16; the
    Line then strikes the Shell and the next LIVING Mouse: the second where the first fell. So the
    second Mouse falls in round 1 with (11/16)^2 = 121/256 (the Line struck the fallen Mouse before:
    0)."""
    blaster, burst, line, mouse, shell = _burst_and_line(mouse_hp=2)
    assert wb.damage(burst, blaster, mouse).sf(2) == pytest.approx(11 / 16, abs=1e-12)
    assert wb.damage(line, blaster, shell).sf(1) == 0.0
    got = wb.encounter([blaster], [shell, mouse, mouse], foes_in_area={"Burst": 2}, max_rounds=1)
    assert got.exact
    assert got.creatures["p_survives"][3] == pytest.approx(1 - 121 / 256, abs=1e-12)
    fights = 20_000
    sim = wb.encounter(
        [blaster], [shell, mouse, mouse], foes_in_area={"Burst": 2}, max_rounds=1, simulate=True, fights=fights
    )
    p = 1 - 121 / 256
    assert abs(sim.creatures["p_survives"][3] - p) <= 4 * np.sqrt(p * (1 - p) / fights)


def test_the_next_foes_are_ranked_by_the_policy_as_the_turn_stands() -> None:
    """ "The next living foes by the same policy" (CLARIFICATIONS.md, Encounters) is the policy read as
    the turn stands: under ``focus`` the foe with the fewest HP left NOW, which an area set may have
    changed (workbench/foe_order.py). Worked by hand: the Blaster's turn is its Burst (3 foes) then
    its Line (2 foes), each 4 dice at 1/2, 1 damage a success against Toughness 0: each struck foe
    takes Binomial(4, 1/2), P(0..4) = 1, 4, 6, 4, 1 sixteenths, rolled separately. Its target is the
    Shell (1 HP, never hurt); the Burst strikes it and both 3-HP Mice (A listed first), and the Line
    strikes it and the living Mouse with the fewer HP left after the Burst (a tie: A). B falls to the
    Burst with P(3+) = 5/16; with dB = 0, 1, 2 taken it stands, and the Line strikes it where A fell
    (5/16) or took less (dA < dB: 0, 1/16, 5/16), felling it with P(dL >= 3 - dB) = 5/16, 11/16,
    15/16: 5/16 + (1 x 5 x 5 + 4 x 6 x 11 + 6 x 10 x 15) / 4096 = 2469/4096. A: 5/16 + (1 x 6 x 5 +
    4 x 10 x 11 + 6 x 16 x 15) / 4096 = 3190/4096. In the order the turn began with (the Line always
    on A while it stands) B fell with 1975/4096 and A with 3504/4096."""
    blaster, burst, line, mouse, shell = _burst_and_line(mouse_hp=3)
    assert wb.damage(burst, blaster, mouse).to_dict() == pytest.approx(
        {k: c / 16 for k, c in enumerate((1, 4, 6, 4, 1))}
    )
    got = wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1)
    assert got.exact
    want = [1 - 3190 / 4096, 1 - 2469 / 4096]
    assert got.creatures["p_survives"].to_list()[2:] == pytest.approx(want, abs=1e-12)
    fights = 20_000
    sim = wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1, simulate=True, fights=fights, seed=4)
    for p, s in zip(want, sim.creatures["p_survives"].to_list()[2:]):
        assert abs(s - p) <= 4 * np.sqrt(p * (1 - p) / fights)


def test_a_turn_played_from_every_cell_is_counted_before_it_is_enumerated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``focus`` the Blaster's turn over the Shell and two Mice reads each cell's HP left, so the
    chain plays it from every cell's full state, its rows counted first (``MAX_TURN_ROWS``): past the
    bound the encounter is simulated and says why. Under ``spread`` the order reads the attacks
    counted, the cells far from a fall are shifted, and nothing is counted so."""
    from workbench.fight import encounter_chain

    blaster, _, _, mouse, shell = _burst_and_line(mouse_hp=3)
    monkeypatch.setattr(encounter_chain, "MAX_TURN_ROWS", 10)
    got = wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1, fights=2_000)
    assert not got.exact
    assert got.forced_by == ("a turn re-ranking three foes or more: its outcomes x cells over 10",)
    assert wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1, targeting="spread").exact
