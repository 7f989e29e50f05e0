"""Blind and non-visual senses (annulus-attacks.txt, Blind: "Targets with the Blind sting treat all
spaces as having full concealment. Attacking a space with full concealment imposes two
disadvantages on the attack check. Attackers striking a creature that cannot see them gain an
advantage on the attack check. Blindness does not affect non-visual-based modes of sensory input
such as tremorsense, scent or sonar.")"""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.errors import RulesError

A = wb.system("annulus")


def _creature(name, sets=(), senses=(), defense=1):
    return A.Creature(name, level=3, endurance=6, vitality=3, agility=defense, toughness=defense, insight=defense,
                      attack_sets=list(sets), senses=senses)


PUNCH = A.Attack("Punch", "toughness", {})


def test_a_blind_target_gives_an_advantage_unless_it_perceives_otherwise():
    """Punch: 4 dice, a success on 4+ (1/2 each), defense 1, damage = successes - 1, so unblinded
    the mean is (1 C(4,2) + 2 C(4,3) + 3 C(4,4)) / 16 = 17/16. A Blind target gives the attacker an
    advantage (a better mean); a Blind target with tremorsense gives none: the same 17/16."""
    attacker = _creature("Boxer", [PUNCH])
    sighted, mole = _creature("Sighted"), _creature("Mole", senses=("tremorsense",))
    blind = A.Situation(target_blind=True)
    plain = A.damage(PUNCH, attacker, sighted).mean()
    # plain: damage = max(0, S - 1), S ~ Binomial(4, 1/2): (1*C(4,2) + 2*C(4,3) + 3*C(4,4)) / 16 = 17/16
    assert plain == pytest.approx(17 / 16, abs=1e-12)
    assert A.damage(PUNCH, attacker, sighted, situation=blind).mean() > plain + 0.1
    assert A.damage(PUNCH, attacker, mole, situation=blind).mean() == pytest.approx(plain, abs=1e-12)
    assert A.damage(PUNCH, attacker, mole).mean() == pytest.approx(plain, abs=1e-12)


def test_compare_keeps_a_sighted_and_a_sensing_target_apart():
    """compare groups matchups with identical dice (damage_keys): the senses must split them."""
    attacker = _creature("Boxer", [PUNCH])
    sighted, mole = _creature("Sighted"), _creature("Mole", senses=("scent",))
    f = wb.compare([attacker], [sighted, mole], situation=A.Situation(target_blind=True), best_plan=False,
                   progress=False)
    means = dict(zip(f["target"], f["mean_damage"]))
    assert means["Sighted"] > means["Mole"] + 0.1


def test_a_blinded_attacker_with_sonar_is_not_hindered_but_still_cannot_gaze():
    """In a fight the Blind sting on the attacker means full concealment (two disadvantages) for
    it; a bat's sonar ignores that, but a Gaze needs sight ("suffering from a Blind sting ... a
    Gaze attack cannot be used")."""
    from workbench.systems.annulus.round import _CLASS, AnnulusRound

    bat, wolf = _creature("Bat", [PUNCH], senses=("sonar",)), _creature("Wolf", [PUNCH])
    blinded = tuple(int(name == "attacker_blind") for name in _CLASS)  # the state class of a use
    for me, expected in ((bat, "none"), (wolf, "full")):
        sit = AnnulusRound(A, me, wolf).a._sit(blinded)
        assert sit.concealment == expected and sit.mutual_sight is False


def test_senses_are_checked():
    assert _creature("Mole", senses=["Tremorsense", "scent", "scent"]).senses == ("tremorsense", "scent")
    with pytest.raises(RulesError) as e:
        _creature("Owl", senses=("darkvision",))
    assert e.value.field == "senses" and "tremorsense" in str(e.value)
    with pytest.raises(RulesError) as e:
        _creature("Owl", senses="sonar")
    assert e.value.field == "senses"
