"""Last Odyssey multi-target abilities in an encounter: "If the ability in question has multiple
targets, the hit die is only cast once, and the resulting number determines whether they hit and the
base damage they deal against each one separately" (last-odyssey-attacks.txt; Multi Attacks);
CLARIFICATIONS.md, Encounters: "default every living foe up to the ability's number of targets; one
hit die for all". The round's hooks: ``LastOdysseyRound.reach`` and ``group_turn``."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb

LO = wb.system("last_odyssey")
ZERO = dict(
    tier=1,
    physical_accuracy=0,
    magical_accuracy=0,
    status_accuracy=0,
    physical_attack=0,
    magical_attack=0,
    physical_defense=0,
    magical_defense=0,
    evasion=0,
    resistance=0,
)
BLAST = LO.Attack(name="Blast", kind="strike", targets="all", ap_cost=2)
BOMBER = LO.Creature(name="Bomber", hp=20, abilities=[BLAST], **ZERO)
TARGET = LO.Creature(name="Target", hp=8, abilities=[], **ZERO)
DODGER = LO.Creature(name="Dodger", hp=8, abilities=[], **{**ZERO, "evasion": 2, "physical_defense": 1})


def test_one_hit_die_for_both_targets_by_hand() -> None:
    """The Bomber (2 action points, Blast costs 2: one Blast a turn) against two Targets of 8 HP, all
    statistics 0 (CLARIFICATIONS.md, Last Odyssey): a strike hits when die - 0 + 0 <= 7 (die 1..7,
    and a 1 always hits); base damage 0 - 0 + die, x2 against a target without a Shell: 2 x die.
    One die for both, so both fall at once when the die is 4..7: P(round 1) = 0.4 (two dice would
    give 0.4^2 = 0.16 for both). Round 2: from 2 damage (die 1, 0.1) a die of 3..7 fells (0.5),
    from 4 (die 2) 2..7 (0.6), from 6 (die 3) 1..7 (0.7), after a miss (die 8..10, 0.3) 4..7 (0.4):
    0.1 x 0.5 + 0.1 x 0.6 + 0.1 x 0.7 + 0.3 x 0.4 = 0.30."""
    got = wb.encounter([BOMBER], [TARGET, TARGET])
    assert got.exact
    assert got.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.4, 0.3], abs=1e-12)
    # the two fall together: neither is ever the only one standing
    assert got.survivors.filter(got.survivors["side"] == "b")["probability"].to_list()[1] == pytest.approx(0.0)


def _by_the_rules(targets: list, rounds: int) -> np.ndarray:
    """An independent enumeration from the rules text: each round one d10 for every living target;
    target t is hit when die - 0 + evasion <= 7 or the die is 1, taking 2 x max(1, die - defense)."""
    hp = [t.hp for t in targets]
    mass = {tuple(0 for _ in targets): 1.0}
    wins = np.zeros(rounds)
    for r in range(rounds):
        new: dict[tuple[int, ...], float] = {}
        for taken, p in mass.items():
            for die in range(1, 11):
                after = list(taken)
                for k, t in enumerate(targets):
                    if taken[k] < hp[k] and (die + t.evasion <= 7 or die == 1):
                        after[k] += 2 * max(1, die - t.physical_defense)
                if all(a >= h for a, h in zip(after, hp)):
                    wins[r] += p / 10
                else:
                    new[tuple(after)] = new.get(tuple(after), 0.0) + p / 10
        mass = new
    return wins


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_multi_target_equals_an_enumeration_from_the_rules(targeting: str) -> None:
    """A Target and a Dodger (Evasion 2, Physical Defense 1: hit on a die of 1..5, 2 x (die - 1)
    damage, at least 2): the exact encounter equals :func:`_by_the_rules` round by round to 1e-12,
    and the simulation agrees within 4 standard errors."""
    foes = [TARGET, DODGER]
    got = wb.encounter([BOMBER], foes, targeting=targeting, max_rounds=20)
    want = _by_the_rules(foes, 20)
    assert np.abs(got.rounds["p_a_wins"].to_numpy() - want).max() < 1e-12
    sim = wb.encounter([BOMBER], foes, targeting=targeting, max_rounds=20, simulate=True, fights=20_000, seed=3)
    p = got.p_a_wins
    assert abs(sim.p_a_wins - p) <= 4 * np.sqrt(max(p * (1 - p), 1e-4) / 20_000)
    mean = float((got.rounds["round"] * got.rounds["p_a_wins"]).sum())
    sim_mean = float((sim.rounds["round"] * sim.rounds["p_a_wins"]).sum())
    assert abs(mean - sim_mean) < 0.05


def test_the_plan_counts_a_multi_target_ability_on_every_foe_it_strikes() -> None:
    """CLARIFICATIONS.md, Encounters: "a plan's damage counts every foe it strikes (... a multi-target
    ability's to each target)".

    Worked by hand: the Brute has Blast (every foe) and Smash (one target, x1.5), each 2 action points,
    one a turn. Against a Target (all statistics 0) a hit lands on a die of 1..7: Blast deals 2 x die,
    mean 2 x 28 / 10 = 5.6, Smash 3 x die, mean 8.4, so a duel plays Smash. Against two Targets the
    Blast's mean counts both, 11.2 > 8.4, so it is played: both fall in round 1 when the one die is
    4..7 (2 x 4 = 8), 0.4, and in round 2 with 0.30 (:func:`test_one_hit_die_for_both_targets_by_hand`);
    with Smash every turn they could not fall together in round 1. Against three, all fall at once
    with the same 0.4. Alone, the Brute's fight is Smash's: P(round 1) = P(3 x die >= 8) = P(die 3..7) = 0.5."""
    smash = LO.Attack(name="Smash", kind="strike", targets=1, ap_cost=2, multiplier=1.5)
    brute = LO.Creature(name="Brute", hp=20, abilities=[BLAST, smash], **ZERO)
    means = {k: v.mean() for k, v in LO.turn_plans(brute, TARGET).items()}
    assert means == pytest.approx({"Blast": 5.6, "Smash": 8.4}, abs=1e-12)
    alone = wb.encounter([brute], [TARGET], max_rounds=3)
    assert alone.exact and alone.rounds["p_a_wins"][0] == pytest.approx(0.5, abs=1e-12)
    duel = wb.duel(brute, TARGET, max_rounds=3)
    assert alone.p_a_wins == pytest.approx(duel.p_a_wins, abs=1e-12)
    for n in (2, 3):
        got = wb.encounter([brute], [TARGET] * n, max_rounds=3)
        assert got.exact
        assert got.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.4, 0.3], abs=1e-12)


def test_random_targeting_takes_the_other_targets_at_random() -> None:
    """CLARIFICATIONS.md, Encounters: a multi-target ability strikes its target and "the next living
    foes by the same policy"; under ``random`` (uniform) the target is uniform and so are the others.

    Worked by hand: a Cleave (two targets, one die, 2 action points: one a turn) against two Targets
    of 8 HP and a 1-HP Pip, every statistic 0: a strike hits on a die of 1..7 (0.7), and any hit
    fells the Pip. The Pip is struck when it is the target (1/3) or the second of the two taken
    (2/3 x 1/2): 2/3, so it survives round 1 with 1 - 0.7 x 2/3 = 0.5333... (1 - 0.7 x 1/3 were the
    others taken in listed order). Exact to 1e-12, and simulated within 4 standard errors."""
    cleave = LO.Attack(name="Cleave", kind="strike", targets=2, ap_cost=2)
    cleaver = LO.Creature(name="Cleaver", hp=20, abilities=[cleave], **ZERO)
    pip = LO.Creature(name="Pip", hp=1, abilities=[], **ZERO)
    want = 1 - 0.7 * 2 / 3
    got = wb.encounter([cleaver], [TARGET, TARGET, pip], targeting="random", max_rounds=1)
    assert got.exact
    assert got.creatures["p_survives"][3] == pytest.approx(want, abs=1e-12)
    fights = 40_000
    sim = wb.encounter(
        [cleaver], [TARGET, TARGET, pip], targeting="random", max_rounds=1, simulate=True, fights=fights, seed=8
    )
    assert abs(sim.creatures["p_survives"][3] - want) <= 4 * np.sqrt(want * (1 - want) / fights)


def test_random_targeting_over_many_foes_takes_ordered_choices_not_every_order() -> None:
    """The same rule over five foes (four Targets and the Pip): the Pip is struck when it is the target
    (1/5) or the second taken (4/5 x 1/4), so it survives round 1 with 1 - 0.7 x 2/5 = 0.72, exact to
    1e-12. The exact chain weighs the ordered choices of one other foe after each target (5 x 4 = 20,
    and each target alone where it is the last foe standing: 25 in all), not every order of the four
    others after it (5 x 4! = 120)."""
    from workbench.fight.encounter import Encounter
    from workbench.fight.encounter_chain import _Chain

    cleave = LO.Attack(name="Cleave", kind="strike", targets=2, ap_cost=2)
    cleaver = LO.Creature(name="Cleaver", hp=20, abilities=[cleave], **ZERO)
    pip = LO.Creature(name="Pip", hp=1, abilities=[], **ZERO)
    got = wb.encounter([cleaver], [TARGET] * 4 + [pip], targeting="random", max_rounds=1)
    assert got.exact
    assert got.creatures["p_survives"][5] == pytest.approx(1 - 0.7 * 2 / 5, abs=1e-12)
    enc = Encounter(
        [cleaver] + [TARGET] * 4 + [pip],
        np.array([0, 1, 1, 1, 1, 1]),
        lambda me, foe, f: LO.fight_round(me, foe),
        targeting="random",
    )
    chain = _Chain(enc, 1)
    aims = chain.aims_group(chain.start_key(), 0, enc.reach(0))
    assert enc.reach(0) == 2 and len(aims) == 25
    assert sorted(len(t) for t, _ in aims) == [1] * 5 + [2] * 20
    # in every cell where the Cleaver acts, the weights of the choices sum to 1
    total = sum(w for _, w in aims)
    acting = chain.alive[0] & chain.going
    assert np.allclose(total[acting], 1.0, atol=1e-12) and not total[~acting].any()


def test_spread_counts_the_foes_a_turn_strikes_not_those_it_could() -> None:
    """``spread``: "the living foe targeted by the fewest attacks so far this round" (CLARIFICATIONS.md,
    Encounters). A turn over several foes counts an attack on each foe one of its uses struck, not on
    every foe it was handed. Worked by hand, all statistics 0 but the Walls' physical defense 10 (a
    hit deals 2 x max(1, die - 10) = 2, times the ability's multiplier) and 9 HP: the Cleaver's Stab
    (x2, 1 action point) hits with P 0.7 for 4, Stab + Stab (5.6 expected) beats Cleave (2 x 0.7 x 2
    = 2.8 over two Walls), so its turn is two Stabs on the first Wall (which never falls in round 1).
    The Poker then attacks the Wall attacked the fewest times: the second (0 attacks; listed before
    the third), hitting with 0.7 for 2. After round 1 the Walls have 9 - 5.6 = 3.4, 9 - 1.4 = 7.6 and
    9 HP left on average. (The second Wall, handed to the Cleaver's turn as the next foe a Cleave
    would strike, was counted as attacked: the Poker went for the third.)"""
    cleave = LO.Attack(name="Cleave", kind="strike", targets=2, ap_cost=2)
    stab = LO.Attack(name="Stab", kind="strike", targets=1, ap_cost=1, multiplier=2)
    jab = LO.Attack(name="Jab", kind="strike", targets=1, ap_cost=2)
    cleaver = LO.Creature(name="Cleaver", hp=1, abilities=[cleave, stab], **ZERO)
    poker = LO.Creature(name="Poker", hp=1, abilities=[jab], **ZERO)
    wall = LO.Creature(name="Wall", hp=9, abilities=[], **{**ZERO, "physical_defense": 10})
    assert wb.turn_damage(poker, wall).to_dict() == pytest.approx({0: 0.3, 2: 0.7})
    got = wb.encounter([cleaver, poker], [wall, wall, wall], targeting="spread", max_rounds=1)
    assert got.exact
    assert got.creatures["mean_hp_left"].to_list()[2:] == pytest.approx([3.4, 7.6, 9.0], abs=1e-12)
    fights = 20_000
    sim = wb.encounter(
        [cleaver, poker], [wall, wall, wall], targeting="spread", max_rounds=1, simulate=True, fights=fights
    )
    left = sim.creatures["mean_hp_left"].to_list()[2:]
    assert left[2] == 9.0 and abs(left[1] - 7.6) <= 4 * 2 * (0.7 * 0.3 / fights) ** 0.5


def test_a_foe_fallen_this_turn_takes_no_target_of_a_multi_ability() -> None:
    """A multi-target ability strikes "every living foe up to the ability's number of targets"
    (CLARIFICATIONS.md, Encounters): a foe felled earlier in the same turn takes no place. Worked by
    hand, all statistics 0: the Sweeper's Sweep (two targets, 1 action point: two a turn) rolls one
    die for both, hitting each on 1..7 (0.7) for 2 x die (8 on average). Under ``focus`` its target is
    Pip A (2 HP, the fewest), then Pip B (3 HP), then the 50-HP Wall. The first Sweep strikes both
    Pips: a hit fells A, and B unless the die is 1 (0.1: B keeps 1 HP). The second strikes the next
    living foes: where A fell (0.7) Pip B if it stands and the Wall, never the fallen A; else A and B
    again. So the Wall loses 0.7 x 0.7 x 8 = 3.92 HP on average (46.08 left), A stands with
    0.3 x 0.3 = 0.09 and B with 0.1 x 0.3 + 0.3 x 0.4 = 0.15."""
    sweep = LO.Attack(name="Sweep", kind="strike", targets=2, ap_cost=1)
    sweeper = LO.Creature(name="Sweeper", hp=1, abilities=[sweep], **ZERO)
    wall = LO.Creature(name="Wall", hp=50, abilities=[], **ZERO)
    pip_a = LO.Creature(name="Pip A", hp=2, abilities=[], **ZERO)
    pip_b = LO.Creature(name="Pip B", hp=3, abilities=[], **ZERO)
    got = wb.encounter([sweeper], [wall, pip_a, pip_b], max_rounds=1)
    assert got.exact
    assert got.creatures["p_survives"].to_list()[2:] == pytest.approx([0.09, 0.15], abs=1e-12)
    assert got.creatures["mean_hp_left"][1] == pytest.approx(50 - 3.92, abs=1e-12)


def test_a_foe_hurt_in_an_earlier_round_falls_part_way_through_the_turn_by_hand() -> None:
    """A foe hurt in an earlier round can fall to the first use of a turn, and the second use then
    strikes the next living foes (CLARIFICATIONS.md, Encounters: "the remaining attacks ... go to the
    next living foe by the same policy"): the exact chain plays such cells from their full state (it
    played them as if unhurt, so the second Sweep struck the fallen foe again). All statistics 0: a
    Sweep (two targets, 1 action point: two a turn) hits on 1..7 for 2 x die; on a fresh 3-HP Pip it
    kills (K, die 2..7: 0.6), leaves 1 HP (D, die 1: 0.1) or misses (M, 0.3); on a hurt Pip any hit
    (0.7) kills. Under ``spread`` (fewest attacks this round, the turn's own counted, ties in listed
    order) against Pips A, B and a 100-HP Wall: the target is A while it stands, the first Sweep
    strikes A and B, the second A and the Wall (B now has an attack, the Wall none), or, A fallen,
    the Wall and B. With A fallen as a round begins the target is B, each Sweep striking B and the
    Wall. P(B falls in two rounds): K first (0.6); D then the second Sweep on A hits (0.07: B hurt,
    then falls unless two misses, 0.91) or misses (0.03: both hurt, both fall to a hit, 0.7); M then
    K (0.18: B alone, 0.6 + 0.1 x 0.7 + 0.3 x 0.6 = 0.85); M then D (0.03: A hurt, B fresh: the first
    Sweep fells A on a hit, and the second then strikes B, hurt by a die of 1: 0.6 + 0.1 x 0.7 =
    0.67); M then M (0.09: 0.6). Sum: 0.6 + 0.0637 + 0.021 + 0.153 + 0.0201 + 0.054 = 0.9118 (0.9097
    when the chain played the hurt A as unhurt: 0.6 in place of 0.67). A stands with
    0.3^4 + 4 x 0.1 x 0.3^3 = 0.0189."""
    sweep = LO.Attack(name="Sweep", kind="strike", targets=2, ap_cost=1)
    sweeper = LO.Creature(name="Sweeper", hp=1, abilities=[sweep], **ZERO)
    wall = LO.Creature(name="Wall", hp=100, abilities=[], **ZERO)
    pip = LO.Creature(name="Pip", hp=3, abilities=[], **ZERO)
    got = wb.encounter([sweeper], [pip, pip, wall], targeting="spread", max_rounds=2)
    assert got.exact
    assert got.creatures["p_survives"].to_list()[1:3] == pytest.approx([0.0189, 1 - 0.9118], abs=1e-12)
