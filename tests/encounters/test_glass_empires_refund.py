"""Glass Empires' refunded action in an encounter (CLARIFICATIONS.md, Encounters: "a Strike that kills
ends its Attack (its remaining Strikes are lost) and refunds the Attack's action, which makes a new
Attack on the next living foe by the same policy in the same turn; a kill by that Attack refunds
again"), option ``refund`` (default True) and the rule option ``kill_refunds_action``; the round's
hooks ``GlassEmpiresRound.refunds`` and, for turns of two Attacks (``attack_is_save_action=False``),
``GlassEmpiresRound.steps`` (``AttackStep``: the turn an Attack at a time)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import workbench as wb
from workbench.fight.encounter import Encounter

from .brute import brute

GES = wb.system("glass_empires")
GE = GES.catalog()
#: two Attacks a turn: "an Attack is the turn's Save action" off (CLARIFICATIONS.md, Glass Empires)
TWO = GES.Options(attack_is_save_action=False)
WOLF, BOAR, LILY = GE.creature("Wolf"), GE.creature("Boar"), GE.creature("Spider Lily")


def test_refund_by_hand() -> None:
    """The Wolf's turn (one Attack) against a Spider Lily of 4 HP deals 0 (5/12), 3 (1/6), 6 (7/18) or
    12 (1/36) damage (``wb.turn_damage``): it fells a fresh Lily with P = 7/18 + 1/36 = 5/12. With the
    refund each kill makes a new Attack on the next Lily, so the Wolf fells all three in its first
    turn with P (5/12)^3 = 0.0723380; without it, three Lilies need three turns: P(round 1) = P(round
    2) = 0."""
    turn = wb.turn_damage(WOLF, LILY).to_dict()
    assert turn == pytest.approx({0: 5 / 12, 3: 1 / 6, 6: 7 / 18, 12: 1 / 36})
    got = wb.encounter([WOLF], [LILY, LILY, LILY])
    assert got.rounds["p_a_wins"][0] == pytest.approx((5 / 12) ** 3, abs=1e-12)
    off = wb.encounter([WOLF], [LILY, LILY, LILY], refund=False)
    assert off.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.0, 0.0], abs=1e-15)


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_refund_equals_an_enumeration_from_the_rules(targeting: str) -> None:
    """The Wolf and the Boar against three Lilies (which hit back): the exact encounter equals the
    independent enumeration (brute.py, ``refund=True``) to 1e-12, and differs from it without."""
    sa, sb = [WOLF, BOAR], [LILY, LILY, LILY]
    got = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8)
    want = brute(sa, sb, targeting=targeting, first="random", max_rounds=8, refund=True)
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    off = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8, refund=False)
    plain = brute(sa, sb, targeting=targeting, first="random", max_rounds=8)
    assert off.p_a_wins == pytest.approx(plain["a"], abs=1e-12)
    assert got.p_a_wins > off.p_a_wins + 1e-3


def test_no_refund_when_the_rule_option_is_off() -> None:
    """``kill_refunds_action=False`` turns the rule off in a group too: three Lilies need three turns
    of one Attack (P(round 1) = P(round 2) = 0)."""
    off = wb.encounter([WOLF], [LILY, LILY, LILY], options=GES.Options(kill_refunds_action=False))
    assert off.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.0, 0.0], abs=1e-15)


def test_two_attacks_refund_by_hand() -> None:
    """Two Attacks a turn: each Attack of the Wolf on a fresh 4-HP Lily fells her with P 5/12 (7/18 +
    1/36), leaves her at 1 HP with 1/6 (3 damage) or misses with 5/12; on a Lily at 1 HP any damage
    fells her (7/12). A kill refunds the Attack under way, so the Wolf's turn goes on until it has made
    two Attacks that felled nobody; it fells all three Lilies in round 1 if at most one Attack before
    the third kill fails to kill. No miss: (5/12)^3. One miss among the first three Attacks: it is
    followed by a kill of the same Lily (focus: the wounded one has the fewest HP left) with
    1/6 x 7/12 + 5/12 x 5/12 = 39/144, and the two other kills with (5/12)^2, in 3 places:
    P(round 1) = (5/12)^3 + 3 x (25/144) x (39/144) = 4425/20736 = 0.2133970. Without the refund the
    turn's two Attacks go to one Lily: P(round 1) = 0."""
    got = wb.encounter([WOLF], [LILY, LILY, LILY], options=TWO)
    assert got.exact
    assert got.rounds["p_a_wins"][0] == pytest.approx(4425 / 20736, abs=1e-12)
    off = wb.encounter([WOLF], [LILY, LILY, LILY], options=TWO, refund=False)
    assert off.rounds["p_a_wins"][0] == pytest.approx(0.0, abs=1e-15)


def test_a_given_attack_refunds_an_attack_at_a_time() -> None:
    """A given attack (an encounter's (creature, attack) entry: the plan Bite + Bite) is played an
    Attack at a time too (``GivenAttackStep``): a kill refunds the Attack under way, made
    again with the Bite on the next Lily. The Wolf has one weapon, so its given Bite fells the three
    Lilies in round 1 with the damage play's 4425/20736 (worked above); played whole, as before, the
    turn's two Attacks went to one Lily (P 0)."""
    got = wb.encounter([(WOLF, "Bite")], [LILY, LILY, LILY], options=TWO)
    assert got.exact
    assert got.rounds["p_a_wins"][0] == pytest.approx(4425 / 20736, abs=1e-12)
    sim = wb.encounter([(WOLF, "Bite")], [LILY, LILY, LILY], options=TWO, simulate=True, max_rounds=1)
    assert abs(sim.p_a_wins - 4425 / 20736) < 4 * sim.standard_error


def test_a_given_attack_one_against_one_is_the_duel_with_that_plan() -> None:
    """Against one foe a given attack played an Attack at a time is the whole turn's plan (the attack
    twice): creatures holding a windgun or crossbow (which jams) and a melee weapon, each weapon
    given in turn, against armored, shielded and plain foes: every encounter of one against one equals
    ``wb.duel(plan_a=[weapon, weapon])`` to 1e-12, and the two weapons' fights differ."""
    cs = list(GE.creatures.values())
    gun = [w for w in GE.attacks.values() if w.jams][0]
    foes = [c for c in cs if GES.armor_points(c) > 0][:1] + [c for c in cs if c.ray_shield_breaks_at][:1] + [LILY]
    base = cs[0]
    a = base.replace(name=f"{base.name} with a {gun.name}", weapons=(gun, *base.weapons[:1]))
    checked = 0
    for b in foes:
        wins = []
        for weapon in GES.attacks_of(a):
            duel = wb.duel(a, b, options=TWO, plan_a=[weapon, weapon], progress=False)
            got = wb.encounter([(a, weapon)], [b], options=TWO)
            assert duel.exact and got.exact
            assert got.p_a_wins == pytest.approx(duel.p_a_wins, abs=1e-12), (b.name, weapon.name)
            assert got.p_b_wins == pytest.approx(duel.p_b_wins, abs=1e-12), (b.name, weapon.name)
            wins.append(got.p_a_wins)
            checked += 1
        assert abs(wins[0] - wins[1]) > 1e-6
    assert checked == 6


def _wolf_with_a_singe() -> tuple[Any, Any, Any, Any]:
    """Return (the Wolf holding its Bite and a Singe, the Bite with fire damage; the Bite; the Singe; a
    Spider Lily immune to fire, so that the Singe never hurts her)."""
    bite = WOLF.weapons[0]
    singe = bite.replace(name="Singe", damage_type="fire")
    return WOLF.replace(weapons=(bite, singe)), bite, singe, LILY.replace(immune=("fire",))


@pytest.mark.parametrize("plan", [["Bite", "Singe"], ["Singe", "Bite"], "Bite + Singe", ["Bite"]])
def test_a_given_plan_of_several_weapons_refunds_an_attack_at_a_time(plan: Any) -> None:
    """A plan given as a list or a label is played an Attack at a time (``GivenAttackStep``): its
    weapons in order, a kill refunding the Attack under way, made again with the same weapon on the
    next foe. The Wolf's Bite fells a fresh Lily with 5/12 (above); its Singe never hurts a Lily immune
    to fire. Bite then Singe, or Singe then Bite, or the Bite alone: the turn's Bites go on while
    each kills, so three passive Lilies fall in round 1 with (5/12)^3 = 125/1728, and by round 2 with
    the damage play's round 1, 4425/20736 (each round lets one Bite fail). One copy is rounds-to-kill's
    fight of that plan. Before, a list of two weapons was played whole, both Attacks at one Lily (0 by
    round 2), and the Bite alone was made at both Attacks (4425/20736 in round 1), unlike its
    rounds-to-kill (one Attack a turn)."""
    from workbench.encounters import Group, group_rounds
    from workbench.fight.chain import state_chain

    wolf, bite, singe, lily = _wolf_with_a_singe()
    given = plan if isinstance(plan, str) else [{"Bite": bite, "Singe": singe}[n] for n in plan]
    got = group_rounds(wolf, Group(lily, 3), options=TWO, plan=given, max_rounds=5)
    assert got.exact
    assert got.p_killed_by[:2] == pytest.approx([125 / 1728, 4425 / 20736], abs=1e-12)
    sim = group_rounds(wolf, Group(lily, 3), options=TWO, plan=given, max_rounds=5, simulate=True, fights=20_000)
    p = 125 / 1728
    assert abs(sim.p_killed_by[0] - p) <= 4 * np.sqrt(p * (1 - p) / 20_000)
    one = group_rounds(wolf, Group(lily, 1), options=TWO, plan=given, max_rounds=30)
    ref = state_chain(GES, wolf, lily, TWO, None, given, 30)
    assert ref is not None
    assert np.abs(np.asarray(ref.by[:30]) - one.p_killed_by[:30]).max() < 1e-12


def test_a_given_list_with_a_jamming_weapon_is_rounds_to_kill_one_against_one() -> None:
    """Against one passive foe a given list played an Attack at a time is the whole turn's plan:
    a creature holding a crossbow or windgun (which jams: a jam on the first Attack spends the second
    clearing it, a jam carried into a turn spends its first) and a melee weapon, each order of the
    two, against an armored, a shielded and a plain foe: P(felled by round t) equals rounds-to-kill's
    chain of that plan to 1e-12."""
    from workbench.encounters import Group, group_rounds
    from workbench.fight.chain import state_chain

    cs = list(GE.creatures.values())
    gun = [w for w in GE.attacks.values() if w.jams][0]
    foes = [c for c in cs if GES.armor_points(c) > 0][:1] + [c for c in cs if c.ray_shield_breaks_at][:1] + [LILY]
    base = cs[0]
    a = base.replace(name=f"{base.name} with a {gun.name}", weapons=(gun, *base.weapons[:1]))
    w1, w2 = GES.attacks_of(a)
    for b in foes:
        for plan in ([w1, w2], [w2, w1]):
            one = group_rounds(a, Group(b, 1), options=TWO, plan=plan, max_rounds=40)
            ref = state_chain(GES, a, b, TWO, None, plan, 40)
            assert one.exact and ref is not None
            n = min(40, len(ref.by))
            assert np.abs(np.asarray(ref.by[:n]) - one.p_killed_by[:n]).max() < 1e-12, (b.name, plan)


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_two_attacks_equal_an_enumeration_from_the_rules(targeting: str) -> None:
    """The Wolf and the Boar against two Lilies, two Attacks a turn: the exact encounter equals the
    independent enumeration (brute.py, ``attacks=2``: each Attack on the turn's target while it
    stands, a kill refunding the Attack) to 1e-12, and the simulation agrees within 4 standard
    errors. (Three rounds: the enumeration's sums over its states grow round-off past 1e-12 later.)"""
    sa, sb = [WOLF, BOAR], [LILY, LILY]
    got = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=3, options=TWO)
    want = brute(sa, sb, targeting=targeting, first="random", max_rounds=3, refund=True, attacks=2)
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    sim = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=3, options=TWO, simulate=True)
    assert abs(sim.p_a_wins - got.p_a_wins) < 4 * sim.standard_error


def test_two_attacks_one_against_one_is_the_duel() -> None:
    """Against one foe the Attacks one at a time are the whole turn's table: creatures holding a
    windgun or crossbow (a Fumble jams it; a jam on the first Attack spends the second clearing it, on
    the second carries to the next turn) and a melee weapon, against armored, shielded and plain foes,
    with ``jam_ends_strikes`` on and off: every encounter of one against one equals ``wb.duel`` to
    1e-12."""
    cs = list(GE.creatures.values())
    guns = [w for w in GE.attacks.values() if w.jams][:2]
    foes = [c for c in cs if GES.armor_points(c) > 0][:2] + [c for c in cs if c.ray_shield_breaks_at][:1] + [LILY]
    checked = 0
    for gun in guns:
        for base in cs[:2]:
            a = base.replace(name=f"{base.name} with a {gun.name}", weapons=(gun, *base.weapons[:1]))
            for b in foes:
                for opts in (TWO, GES.Options(attack_is_save_action=False, jam_ends_strikes=False)):
                    duel = wb.duel(a, b, options=opts, progress=False)
                    if not duel.exact:
                        continue
                    got = wb.encounter([a], [b], options=opts)
                    assert got.exact
                    assert got.p_a_wins == pytest.approx(duel.p_a_wins, abs=1e-12)
                    assert got.p_b_wins == pytest.approx(duel.p_b_wins, abs=1e-12)
                    checked += 1
    assert checked >= 24


def test_an_attack_step_with_nothing_queued_passes() -> None:
    """A turn of two Attacks whose plan has one Attack leaves nothing queued (``queued`` -2) for its
    second step: ``Encounter.idle`` passes that state over (no attack: not counted under spread) and
    leaves it as between turns (nothing queued, -1); a queued weapon, or a refunded Attack still to
    plan (-1), plays the step. The first step is never passed."""
    creatures = [WOLF, LILY, LILY]

    def make_round(me: object, foe: object, flanked: bool) -> object:
        return GES.fight_round(me, foe, TWO, GES.Situation(), None)

    enc = Encounter(creatures, np.array([0, 1, 1]), make_round)
    assert enc.steps(0) == 2
    state = enc.start[0].tile(3).replace(queued=np.array([-2, 0, -1]))
    over, after = enc.idle(0, 1, state)
    assert over.tolist() == [True, False, False]
    assert after.queued.tolist() == [-1, 0, -1]
    assert enc.idle(0, 0, state) is None
