"""Last Odyssey in an encounter, a use at a time: CLARIFICATIONS.md, Encounters: "A target that dies
during a creature's turn: the remaining attacks of the action under way go to the next living foe by
the same policy (same weapons, same penalties), and the turn's remaining actions are planned again
against that foe". A use is one action (its action points: "Action points per turn: 2 at tiers
1-5", CLARIFICATIONS.md, Last Odyssey). The round's hook ``LastOdysseyRound.steps`` (``UseStep``:
the plan queued at the first use, the action points left planned again where the target fell)."""

from __future__ import annotations

import pytest

import workbench as wb

from .brute import brute
from .test_last_odyssey_multi import ZERO

LO = wb.system("last_odyssey")
SWIPE = LO.Attack(name="Swipe", kind="strike")
CLAW = LO.Creature(name="Claw", hp=6, abilities=[SWIPE], **ZERO)
PIP = LO.Creature(name="Pip", hp=1, abilities=[], **ZERO)
SLASH, BOLT = LO.Attack(name="Slash", kind="strike"), LO.Attack(name="Bolt", kind="spell")
MAGE = LO.Creature(name="Mage", hp=20, abilities=[SLASH, BOLT], **{**ZERO, "magical_attack": 10})
KNIGHT = LO.Creature(name="Knight", hp=1, abilities=[], **{**ZERO, "physical_defense": 10})
OGRE = LO.Creature(name="Ogre", hp=40, abilities=[], **{**ZERO, "magical_defense": 20})


def test_the_second_use_goes_to_the_next_foe_by_hand() -> None:
    """The Claw's turn is two Swipes (2 action points, 1 each); all statistics 0, so a Swipe hits on a
    die of 1..7 (0.7: "hit if die - Physical Accuracy + target Evasion <= 7") and any hit fells a
    1-HP Pip. Against two Pips: both fall in round 1 when both Swipes hit, the second going to the
    Pip still standing: 0.7 x 0.7 = 0.49 (a turn played whole against one Pip: 0). Round 2: one Pip
    left after round 1 (0.7 x 0.3 + 0.3 x 0.7 = 0.42) falls unless both Swipes miss (1 - 0.09), both
    left (0.09) fall with 0.49: 0.42 x 0.91 + 0.09 x 0.49 = 0.4263."""
    got = wb.encounter([CLAW], [PIP, PIP])
    assert got.exact
    assert got.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.49, 0.4263], abs=1e-12)
    sim = wb.encounter([CLAW], [PIP, PIP], simulate=True, fights=100_000, seed=5)
    se = (0.49 * 0.51 / 100_000) ** 0.5
    assert abs(sim.rounds["p_a_wins"][0] - 0.49) < 4 * se


@pytest.mark.parametrize("simulate", [False, True])
def test_the_actions_left_are_planned_again_against_the_next_foe_by_hand(simulate: bool) -> None:
    """The Mage (Magical Attack 10) has Slash (a strike) and Bolt (a spell); both hit on a die of 1..7.
    The Knight (1 HP, Physical Defense 10): Slash deals 2 (base at least 1, x2 "a strike against a
    target without [a Shell]"), Bolt 10 + die: the plan is Bolt + Bolt (19.6 expected, against 2.8
    for Slash + Slash). The Ogre (40 HP, Magical Defense 20): Bolt deals 1, Slash 2 x die (expected
    0.1 x 2 x (1 + ... + 7) = 5.6). Under focus the Knight (fewest HP) is the turn's target; the
    first Bolt fells it with 0.7, and the one action point left is planned again against the Ogre:
    Slash. So after one round the Ogre keeps 40 - 0.7 x 5.6 = 36.08 HP on average (the queued Bolt
    would leave 40 - 0.7 x 0.7 = 39.51), and the Knight stands with 0.3 x 0.3 = 0.09. A plan given
    (the picked Bolt, twice a turn) is played as given: 39.51."""
    kw = dict(max_rounds=1, simulate=simulate, fights=100_000, seed=8)
    got = wb.encounter([MAGE], [KNIGHT, OGRE], **kw)
    left = got.creatures["mean_hp_left"].to_list()
    picked = wb.encounter([(MAGE, "Bolt")], [KNIGHT, OGRE], **kw).creatures["mean_hp_left"].to_list()
    if simulate:
        slash = wb.turn_damage(MAGE, OGRE, plan=["Slash"])
        # (the Ogre's loss: Slash's damage with probability 0.7, else nothing)
        sd = (0.7 * (slash.std() ** 2 + slash.mean() ** 2) - (0.7 * slash.mean()) ** 2) ** 0.5
        assert left[2] == pytest.approx(36.08, abs=4 * sd / 100_000**0.5)
        assert left[1] == pytest.approx(0.09, abs=4 * (0.09 * 0.91 / 100_000) ** 0.5)
        assert picked[2] == pytest.approx(39.51, abs=4 * (0.49 * 0.51 / 100_000) ** 0.5)
    else:
        assert got.exact
        assert left[1:] == pytest.approx([0.09, 36.08], abs=1e-12)
        assert picked[2] == pytest.approx(39.51, abs=1e-12)


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_uses_equal_an_enumeration_from_the_rules(targeting: str) -> None:
    """Two Claws against a Claw and a Pip (the Claw hits back), first side random: the exact encounter
    equals the independent enumeration (brute.py, ``uses=2``: each use on the turn's target while it
    stands, the rest on the next living foe) to 1e-12, and the simulation agrees within 4 standard
    errors."""
    sa, sb = [CLAW, CLAW], [CLAW.replace(hp=5), PIP]
    got = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=6)
    want = brute(sa, sb, targeting=targeting, first="random", max_rounds=6, uses=2)
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.p_draw == pytest.approx(want["draw"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    sim = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=6, simulate=True, seed=2)
    assert abs(sim.p_a_wins - got.p_a_wins) < 4 * sim.standard_error


@pytest.mark.parametrize(
    "a, b",
    [
        ("Zombie Hulk", "Wolf"),  # Miasma between rounds (the phases of a turn played a use at a time)
        ("Skirmisher", "Cop"),  # MP (Poison Dart) and Shells on both sides
        ("Ghost", "Blacksmith"),  # a 2-AP ability beside 1-AP ones
        ("Wolf", "Zombie Hulk"),
    ],
)
def test_one_against_one_is_the_duel(a: str, b: str) -> None:
    """Against one foe the uses one at a time are the whole turn (each has its own hit die, drawn as
    the Shell stands when it is used, paying its MP): catalog pairs with Shells, MP, phases and
    abilities of 2 action points, each encounter of one against one equal to ``wb.duel`` to 1e-12."""
    cat = LO.catalog()
    A, B = cat.creature(a), cat.creature(b)
    duel = wb.duel(A, B, first="random", progress=False)
    got = wb.encounter([A], [B], first="random")
    assert got.exact and duel.exact
    assert got.p_a_wins == pytest.approx(duel.p_a_wins, abs=1e-12)
    assert got.p_b_wins == pytest.approx(duel.p_b_wins, abs=1e-12)
    assert got.rounds["p_a_wins"].to_list()[:10] == pytest.approx(duel.rounds["p_a_wins"].to_list()[:10], abs=1e-12)


def test_a_one_target_use_of_a_turn_over_several_foes_goes_to_the_next_foe_by_hand() -> None:
    """A creature with a multi-target ability plays its turn over several foes (``group_turn``); a use
    with one target in it strikes the turn's target while it stands, else the next living foe. The
    Claw with a weak Puff besides (strikes every foe, 2 action points, x0.1: 0.5 expected damage to
    a Pip) still plays Swipe + Swipe (11.2 against 0.5 + 0.5 counting both Pips), so against two
    1-HP Pips it fells both in round 1 with 0.7 x 0.7 = 0.49 and by round 2 with 0.4263, as the Claw
    without the Puff (test_the_second_use_goes_to_the_next_foe_by_hand); exact and simulated."""
    puff = LO.Attack(name="Puff", kind="strike", targets="all", ap_cost=2, multiplier=0.1)
    claw = CLAW.replace(abilities=(SWIPE, puff))
    assert list(LO.turn_plans(claw, PIP)) == ["Swipe + Swipe", "Puff"]
    got = wb.encounter([claw], [PIP, PIP])
    assert got.exact
    assert got.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.49, 0.4263], abs=1e-12)
    sim = wb.encounter([claw], [PIP, PIP], simulate=True, fights=100_000, seed=5)
    assert abs(sim.rounds["p_a_wins"][0] - 0.49) < 4 * (0.49 * 0.51 / 100_000) ** 0.5


@pytest.mark.parametrize("simulate", [False, True])
def test_a_turn_over_several_foes_plans_the_actions_left_again_by_hand(simulate: bool) -> None:
    """The Mage of test_the_actions_left_are_planned_again_against_the_next_foe_by_hand with a weak
    Puff besides (strikes every foe, 2 action points, x0.1), so that its turn is played over both
    foes (``group_turn``): against the Knight it still plays Bolt + Bolt, and when the first Bolt
    fells the Knight (0.7) the action point left is planned against the Ogre: Slash (5.6 expected;
    the Puff needs 2 action points). The Ogre loses 0.7 x 5.6 = 3.92 HP on average in round 1."""
    puff = LO.Attack(name="Puff", kind="strike", targets="all", ap_cost=2, multiplier=0.1)
    mage = MAGE.replace(abilities=(SLASH, BOLT, puff))
    got = wb.encounter([mage], [KNIGHT, OGRE], max_rounds=1, simulate=simulate, fights=100_000, seed=4)
    lost = 40 - got.creatures["mean_hp_left"][2]
    if simulate:
        slash = wb.turn_damage(MAGE, OGRE, plan=["Slash"])
        sd = (0.7 * (slash.std() ** 2 + slash.mean() ** 2) - (0.7 * slash.mean()) ** 2) ** 0.5
        assert lost == pytest.approx(3.92, abs=4 * sd / 100_000**0.5)
    else:
        assert got.exact
        assert lost == pytest.approx(3.92, abs=1e-12)
