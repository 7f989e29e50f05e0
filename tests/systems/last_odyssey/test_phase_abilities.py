"""Last Odyssey abilities played between rounds in a fight: Miasma, Dragonslayer, Foretell Doom.

srd/combat/round.md: each round is "The Action Phase", then "The Effect Phase" ("damage takes precedent,
followed by healing, followed by statuses"), then "The Paradigm Phase"; "An extra Paradigm Phase also takes
place at the beginning of the first round of every battle". The abilities' own sentences are quoted per test
(/work/shared/data/last_odyssey_creatures.toml sources). Every fight here is chained exactly
(the chain derived from last_odyssey/round.py, over MP, Shell, Poisoned, anima, the Effect Phases passed and full
HP), so each exact P equals the hand number to 1e-12, and the same fight
simulated (simulate=True) agrees within 4 standard errors; an enumeration oracle written from the rules text (plain
fractions over the hit-die faces of test_oracle.oracle_face) checks every phase together against a Shell.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from tests.systems.last_odyssey.published import CAT, LO
from tests.systems.last_odyssey.test_oracle import oracle_face
from workbench.systems.last_odyssey import Shell


def _by(frame):
    """Return ({round: P(killed by round)}, {round: standard error}) of a rounds_to_kill frame."""
    rounds = frame["round"].to_list()
    return dict(zip(rounds, frame["p_killed_by"].to_list())), dict(zip(rounds, frame["standard_error"].to_list()))


def _at(by: dict, r: int) -> float:
    """Return P(killed by round r) from the rows given (0 before the first row, the last row's after it)."""
    known = [k for k in by if k <= r]
    return by[max(known)] if known else 0.0


def test_miasma_poisons_and_poison_deals_a_tenth_of_max_hp_each_effect_phase():
    """Miasma (srd/warriors/examples/tier/03.md): "During the Effect Phase of each round, the Zombie Hulk uses a
    sleight ... that inflicts Poisoned on a hit on every non-Undead character". Poisoned (srd/combat/statuses.md):
    "During the Effect Phase at the end of a round, this character takes damage equal to one tenth of their base
    maximum HP rounded down, with a minimum damage of 1"; a sleight's status lasts "for the duration of the battle".
    The Hulk's Miasma (Status Accuracy 0) against a 5 HP target with Resistance 0: lands when die <= 5, P = 1/2 each
    Effect Phase; the damage comes first in the phase, so a target first Poisoned in Effect Phase k takes 5 // 10 ->
    1 (the minimum) in phases k + 1 .. k + 5 and falls in round k + 5: P(killed by round 6) = 1/2, by round 7 =
    3/4, by round 8 = 7/8, never by round 5; mean 5 + 2 = 7 rounds. An Undead target is spared: no state."""
    hulk = CAT.creature("Zombie Hulk")
    miasma = hulk.ability("Miasma")
    poisoner = LO.Creature("Poisoner", hp=10, phase_abilities=(miasma,))
    target = LO.Creature("Target", hp=5)
    assert LO.state_effects(poisoner, target) == {"miasma"}
    assert LO.state_effects(poisoner, target.replace(creature_type="Undead")) == set()
    assert LO.state_effects(poisoner, target.replace(immune_statuses=("Poisoned",))) == set()
    assert wb.turn_damage(hulk, CAT.creature("Cop")).mean() > 0  # the turn is the Hulk's actions only
    exact = wb.rounds_to_kill(poisoner, target, max_rounds=60)
    assert exact["exact"].all()
    by, _ = _by(exact)
    assert _at(by, 5) == 0.0
    for r, want in ((6, 0.5), (7, 0.75), (8, 0.875)):
        assert abs(_at(by, r) - want) <= 1e-12, r
    assert float((exact["round"] * exact["p_killed_at"]).sum()) == pytest.approx(7.0, abs=1e-9)
    by, se = _by(wb.rounds_to_kill(poisoner, target, fights=40_000, seed=5, max_rounds=60, simulate=True))
    assert _at(by, 5) == 0.0
    for r, want in ((6, 0.5), (7, 0.75), (8, 0.875)):
        assert abs(_at(by, r) - want) <= 4 * se[r] + 1e-12, r
    # the duel plays the same phases (the duel over both sides' state, workbench/fight/duel.py): the target has no attack,
    # so the Poisoner wins every fight, in round 5 + k with P 1/2^k; simulated, the same within 4 s.e.
    d = wb.duel(poisoner, target, max_rounds=60)
    assert d.exact and abs(d.p_a_wins - 1.0) <= 1e-12
    won = dict(zip(d.rounds["round"].to_list(), d.rounds["p_a_wins"].to_list()))
    assert won[5] == 0.0 and all(abs(won[5 + k] - 0.5**k) <= 1e-12 for k in (1, 2, 3))
    d = wb.duel(poisoner, target, fights=40_000, seed=5, max_rounds=60, simulate=True)
    assert (d.p_a_wins, d.exact) == (1.0, False)
    won = dict(zip(d.rounds["round"].to_list(), d.rounds["p_a_wins"].to_list()))
    assert abs(won[6] - 0.5) <= 4 * (0.25 / 40_000) ** 0.5 and won.get(5, 0.0) == 0.0


def test_dragonslayer_in_each_paradigm_phase_while_anima_lasts():
    """Dragonslayer (srd/anima/antagonists/examples.md): a paradigm action costing 1 anima, "a strike that deals 4x
    physical colorless damage on a hit against targets with full HP. If the target is not at full HP, the attack
    deals 2x damage instead"; "Antagonists can only use one paradigm action per round" (paradigm.md). A Leader (PAcc
    20, PA 0, 2 anima) against an 81 HP target (Evasion 0, PD 0, no Shell: a strike x2): always hits, base = die.
    Paradigm Phase before round 1: full HP, 4 x 2 x d1 = 8 d1 <= 80 (no kill); after round 1: not full, 4 d2.
    Killed when 8 d1 + 4 d2 >= 81, i.e. 2 d1 + d2 >= 21: d1 = 10 (10 ways), 9 (8), 8 (6), 7 (4), 6 (2): 30 of
    100 = 0.3, in round 1; then the anima is spent and nothing more happens. With 1 anima: never (80 < 81)."""
    ds = CAT.creature("Ser Tarbh of Greenhill, Form 1: War Leader").ability("Dragonslayer")
    assert CAT.creature("Ser Tarbh of Greenhill, Form 1: War Leader").anima == 10  # the catalog's visible default
    leader = LO.Creature("Leader", hp=10, physical_accuracy=20, anima=2, phase_abilities=(ds,))
    target = LO.Creature("Target", hp=81)
    assert LO.state_effects(leader, target) == {"dragonslayer"}
    assert LO.state_effects(leader.replace(anima=0), target) == set()
    exact = wb.rounds_to_kill(leader, target, max_rounds=10)
    by, _ = _by(exact)
    assert exact["exact"].all() and abs(_at(by, 1) - 0.3) <= 1e-12 and _at(by, 10) == _at(by, 1)
    by, se = _by(wb.rounds_to_kill(leader, target, fights=40_000, seed=7, max_rounds=10, simulate=True))
    assert abs(_at(by, 1) - 0.3) <= 4 * se[1] and _at(by, 10) == _at(by, 1)
    # 1 anima: one use of 8 d1 <= 80, never a kill: answered exactly (P 0 every round), not simulated
    never = wb.rounds_to_kill(leader.replace(anima=1), target, max_rounds=10)
    assert never["exact"].all() and never["p_killed_by"].max() == 0.0
    with pytest.raises(wb.RulesError) as info:  # the simulation forced on it finds no kill to count
        wb.rounds_to_kill(leader.replace(anima=1), target, fights=2_000, seed=7, max_rounds=10, simulate=True)
    assert info.value.field == "turn"
    # had the not-full rule been ignored (4x again): 8 (d1 + d2) >= 81, d1 + d2 >= 11: 45 of 100, not 0.3
    assert abs(_at(by, 1) - 0.45) > 20 * se[1]


def test_foretell_doom_once_after_the_third_effect_phase():
    """Foretell Doom (srd/warriors/examples/tier/06.md): "After the Effect Phase in battle passes three times, the
    Prophet uses a spell against all of its opponents ... Every hit character takes magical water damage that is
    multiplied by 3". A Seer (MAcc 20, MA 0) against a colorless 25 HP target (Evasion 0, MD 0, no Shell: a spell
    x1): always hits, base = die, 3 die; killed when 3 die >= 25, i.e. die >= 9: P = 0.2, in round 3 only. Its
    damage is fixed by the round alone (it reads no HP), so the fight is chained exactly (test_mp_chain.py); the
    simulation (simulate=True) agrees within 4 standard errors."""
    doom = CAT.creature("Prophet").ability("Foretell Doom")
    seer = LO.Creature("Seer", hp=10, magical_accuracy=20, phase_abilities=(doom,))
    target = LO.Creature("Target", hp=25)
    assert LO.state_effects(seer, target) == {"foretell doom"}
    exact = wb.rounds_to_kill(seer, target, max_rounds=10)
    assert exact["exact"].all() and _by(exact)[0] == {1: 0.0, 2: 0.0, 3: pytest.approx(0.2, abs=1e-12)}
    by, se = _by(wb.rounds_to_kill(seer, target, fights=40_000, seed=9, max_rounds=10, simulate=True))
    assert _at(by, 2) == 0.0
    assert abs(_at(by, 3) - 0.2) <= 4 * se[3] and _at(by, 10) == _at(by, 3)


def _phase_oracle(user, target, plan, rounds):
    """P(killed by round r), r = 1..rounds, from the rules text by enumeration over exact fractions: each
    use one of the ten hit-die faces (test_oracle.oracle_face, which reads the Shell standing and the HP
    left), a round being srd/combat/round.md's phases: round 1 opens with the extra Paradigm Phase; the
    Action Phase plays ``plan`` (no MP costs); the Effect Phase deals Poisoned's tenth of the base maximum
    HP (at least 1) to a Poisoned target, then each effect-phase sleight may Poison it for the battle,
    then, after the third Effect Phase, the abilities that wait for it; the Paradigm Phase uses the first
    paradigm action the anima pays for (one a round). A Shell takes damage before HP."""
    hp = target.hp
    phase = {t: [a for a in user.phase_abilities if a.timing == t] for t in
             ("effect_phase", "paradigm_phase", "after_third_effect_phase")}  # fmt: skip
    # state: (Shell left, HP taken, Poisoned, anima) -> probability; dead states stay as they are
    alive = {(target.shell.points if target.shell else 0, 0, False, user.anima): Fraction(1)}

    def hit(states, attack, **change):
        out = {}
        for (s, h, pois, an), p in states.items():
            if h >= hp:
                out[(s, h, pois, an)] = out.get((s, h, pois, an), 0) + p
                continue
            an2 = change.get("anima", lambda x: x)(an)
            for die in range(1, 11):
                _, dmg, status = oracle_face(attack, user, target, die, shell_points=s, target_hp=hp - h)
                if attack.kind == "sleight":
                    k = (s, h, pois or status, an2)
                else:
                    ab = min(dmg, s)
                    k = (s - ab, h + dmg - ab, pois, an2)
                out[k] = out.get(k, 0) + p * Fraction(1, 10)
        return out

    def paradigm(states):
        out = {}
        for st, p in states.items():
            a = next((a for a in phase["paradigm_phase"] if st[3] >= a.anima_cost), None)
            if a is None or st[1] >= hp:
                out[st] = out.get(st, 0) + p
            else:
                for k, q in hit({st: p}, a, anima=lambda x, c=a.anima_cost: x - c).items():
                    out[k] = out.get(k, 0) + q
        return out

    by = []
    for r in range(1, rounds + 1):
        if r == 1:
            alive = paradigm(alive)
        for name in plan:
            alive = hit(alive, user.ability(name))
        poisoned = {}
        for (s, h, pois, an), p in alive.items():
            d = max(1, target.hp // 10) if pois and h < hp else 0
            ab = min(d, s)
            k = (s - ab, h + d - ab, pois, an)
            poisoned[k] = poisoned.get(k, 0) + p
        alive = poisoned
        for a in phase["effect_phase"]:
            alive = hit(alive, a)
        if r == 3:
            for a in phase["after_third_effect_phase"]:
                alive = hit(alive, a)
        alive = paradigm(alive)
        by.append(sum(p for (s, h, pois, an), p in alive.items() if h >= hp))
    return by


def test_every_phase_against_a_shell_agrees_with_the_enumeration_oracle():
    """A Striker (one Cut a turn) with Miasma, Dragonslayer (2 anima) and Foretell Doom against a target with a
    Shell: the Shell breaking changes the multipliers of the Cut, of Dragonslayer (a strike) and of Foretell
    Doom (a spell), Dragonslayer reads full HP, Poisoned's damage is absorbed by the Shell too. The chain
    (derived from last_odyssey/round.py) equals the oracle (exact fractions) to 1e-12 in every one of 12 rounds."""
    hulk, tarbh, prophet = (CAT.creature(n) for n in ("Zombie Hulk", "Ser Tarbh of Greenhill, Form 1: War Leader",
                                                        "Prophet"))  # fmt: skip
    phases = (hulk.ability("Miasma"), tarbh.ability("Dragonslayer"), prophet.ability("Foretell Doom"))
    user = LO.Creature("Striker", 10, physical_accuracy=4, physical_attack=3, magical_accuracy=5, magical_attack=2,
                       status_accuracy=2, anima=2, abilities=(LO.Attack("Cut", ap_cost=2),),
                       phase_abilities=phases)  # fmt: skip
    target = LO.Creature("Target", 120, physical_defense=1, magical_defense=1, evasion=1, resistance=1,
                         shell=Shell(6))  # fmt: skip
    assert LO.state_effects(user, target, plan=["Cut"]) == {"shell", "miasma", "dragonslayer", "foretell doom"}
    want = [float(x) for x in _phase_oracle(user, target, ["Cut"], 12)]
    assert 0 < want[1] < want[2] < want[3] < 1  # decided neither at once nor never
    f = wb.rounds_to_kill(user, target, plan=["Cut"], max_rounds=12)
    assert f["exact"].all()
    by = f["p_killed_by"].to_numpy()
    by = np.concatenate((by, np.full(max(0, 12 - by.size), by[-1])))[:12]
    np.testing.assert_allclose(by, want, rtol=0, atol=1e-12)
