"""Annulus model validation: illegal upgrade sets, bad creatures, situations and options raise
RulesError naming the field and the rule (annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

import pytest

from tests.systems.annulus.builders import A
from workbench import RulesError

ILLEGAL = [
    (["Charged", "Flurry"], ["Charged", "Flurry", "alteration"]),
    (["Gaze", "Telegraphed"], ["Gaze", "Telegraphed", "alteration"]),
    (["Arc", "Line"], ["Arc", "Line", "area"]),
    (["Range", "Burst"], ["Range", "Burst"]),
    (["Flashy", "Stealth"], ["Flashy", "Stealth"]),
    (["Counter Agility", "Counter Toughness"], ["Counter Agility", "Counter Toughness", "one Counter"]),
    ({"Bully": 2}, ["Bully", "more than once"]),
    ({"Critical": 2}, ["Critical", "more than once"]),
    (["Fireball"], ["unknown upgrade", "Fireball"]),
    (["Damage"], ["seed"]),
    ({"Reckless": 0}, ["Reckless", "at least 1"]),
]


@pytest.mark.parametrize("ups,words", ILLEGAL)
def test_illegal_sets_rejected(ups, words):
    """Each illegal set raises RulesError naming the upgrades and the rule (annulus-attacks.txt)."""
    with pytest.raises(RulesError) as e:
        A.Attack("Bad", "agility", ups)
    for w in words:
        assert w.lower() in str(e.value).lower()
    assert e.value.field == "upgrades" and e.value.rule


def test_counter_needs_type_and_seed_is_one_of_three():
    """Counter: "Pick one kind of attack (Agility, Toughness, or Insight)"; the seed must be one of the
    three Damage abilities."""
    with pytest.raises(RulesError) as e:
        A.Attack("C", "agility", ["Counter"])
    assert e.value.field == "counter_type" and "Counter" in str(e.value)
    with pytest.raises(RulesError) as e:
        A.Attack("C", "agility", ["Bully"], counter_type="agility")
    assert e.value.field == "counter_type"
    with pytest.raises(RulesError) as e:
        A.Attack("C", "strength")
    assert e.value.field == "defense"
    assert A.Attack("C", "Insight Damage").defense == "insight"


@pytest.mark.parametrize("field,value", [("size", -1), ("level", 0), ("endurance", -2), ("agility", -1),
                                         ("awareness", "asleep"), ("vitality", 0), ("toughness", 1.5)])
def test_bad_creature_rejected(field, value):
    """Creature fields are validated and the error names the field."""
    kw = dict(size=5, level=3, endurance=3, agility=0, toughness=0, insight=0)
    kw[field] = value
    with pytest.raises(RulesError) as e:
        A.Creature("X", **kw)
    assert e.value.field == field


@pytest.mark.parametrize("field,value", [("distance", -1), ("concealment", "fog"), ("tired", "yes"),
                                         ("target_awareness", "asleep")])
def test_bad_situation_rejected(field, value):
    with pytest.raises(RulesError) as e:
        A.Situation(**{field: value})
    assert e.value.field == field


def test_bad_options_rejected():
    for field, value in (("success_on", 8), ("reroll", "always"), ("size_free_steps", -1)):
        with pytest.raises(RulesError) as e:
            A.Options(**{field: value})
        assert e.value.field == field


def test_upgrades_frozen_and_hashable():
    a = A.Attack("A", "agility", {"reckless": 2, "first blood": 1})
    assert dict(a.upgrades) == {"Reckless": 2, "First Blood": 1}
    assert hash(a) == hash(A.Attack("A", "agility", {"Reckless": 2, "First Blood": 1}))
    with pytest.raises(RulesError):
        a.upgrades["Bully"] = 1
    assert A.Attack.from_dict(a.to_dict()) == a


def test_models_pickle_and_copy_whole():
    """An attack set's read-only upgrades mapping pickles as itself (the default for a dict subclass fills the
    copy item by item, which it refuses), so Annulus models cross to Dask workers and process pools; the
    copy equals the original, hashes alike and is still read-only."""
    import copy
    import pickle

    import pytest

    import workbench as wb
    from workbench.errors import RulesError

    drake = wb.system("annulus").catalog().creature("Drake")
    back = pickle.loads(pickle.dumps(drake))
    assert back == drake and copy.deepcopy(drake) == drake
    ups = back.attack_sets[0].upgrades
    assert hash(ups) == hash(drake.attack_sets[0].upgrades)
    with pytest.raises(RulesError):
        ups["Reckless"] = 3
