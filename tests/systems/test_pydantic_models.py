"""The models on pydantic v2 (issue 40, item 2): frozen and hashable, every broken field in one
RulesError (missing and unknown ones too, never pydantic's ValidationError), each field's limits,
unit, help and rule in its JSON Schema, and model_validate(model_dump()) giving the model back."""

from __future__ import annotations

import pickle

import pydantic
import pytest

import workbench as wb
from workbench import fields
from workbench.errors import RulesError
from workbench.limits import MAX_HP
from workbench.model import Model
from workbench.systems import models_of

SYSTEMS = ("annulus", "unbound", "last_odyssey", "glass_empires")
U = wb.system("unbound")


def test_every_broken_field_in_one_error():
    """Two bad fields and one missing: one RulesError naming all three, each with its rule."""
    with pytest.raises(RulesError) as info:
        U.Creature(name="Ogre", hp=-1, ac=-5)
    err = info.value
    assert not isinstance(err, pydantic.ValidationError)
    assert [e.field for e in err.errors] == ["hp", "ac", "touch_ac"]
    declared = fields.specs(U.Creature)
    assert [e.rule for e in err.errors] == [declared["hp"].rule, declared["ac"].rule, declared["touch_ac"].rule]
    assert err.errors[0].message == "must be at least 1, not -1"
    assert err.errors[1].message == "must be at least 0, not -5"
    assert "required" in err.errors[2].message
    # the error itself is its first broken field; its text names every one
    assert (err.field, err.message, err.rule) == ("hp", err.errors[0].message, declared["hp"].rule)
    assert all(f"{f}: " in str(err) for f in ("hp", "ac", "touch_ac"))
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err) and [e.field for e in again.errors] == ["hp", "ac", "touch_ac"]


def test_a_single_broken_field_is_its_own_list():
    with pytest.raises(RulesError) as info:
        U.Creature(name="Ogre", hp=-1, ac=10, touch_ac=10)
    assert info.value.errors == (info.value,) and str(info.value).startswith("hp: must be at least 1")


def test_missing_and_unknown_fields_are_rules_errors():
    with pytest.raises(RulesError) as info:
        U.Creature(name="Ogre", hp=10, ac=10, touch_ac=10, armour=3)
    assert info.value.field == "armour" and "unknown field" in info.value.message
    with pytest.raises(RulesError) as info:
        U.Creature()
    assert {e.field for e in info.value.errors} == {"name", "hp", "ac", "touch_ac"}
    with pytest.raises(RulesError) as info:
        U.Creature.from_dict({"name": "Ogre"})
    assert {e.field for e in info.value.errors} == {"hp", "ac", "touch_ac"}


def test_nested_models_name_the_broken_field_of_each():
    with pytest.raises(RulesError) as info:
        U.Creature(
            name="Ogre",
            hp=10,
            ac=10,
            touch_ac=10,
            weapons=[{"name": "Club", "light": 3, "bogus": 1}, {"name": "Bow", "kind": "ranged"}],
        )
    got = {e.field: e for e in info.value.errors}
    assert set(got) == {"weapons[0].light", "weapons[0].bogus", "weapons[1].range_increment"}
    assert "range increment" in got["weapons[1].range_increment"].message  # a rule joining fields, cited
    assert got["weapons[1].range_increment"].rule.startswith("unbound-d20-attacking.txt")


def test_pydantic_entry_points_refuse_with_rules_errors():
    for call in (
        lambda: U.Creature.model_validate({"name": "Ogre", "hp": "ten"}),
        lambda: U.Creature.model_validate([1, 2]),
        lambda: U.Creature.model_validate_json('{"name": 3}'),
        lambda: U.Creature.model_validate_json("not json"),
    ):
        with pytest.raises(RulesError):
            call()


def test_frozen_and_hashable():
    ogre = U.Creature(name="Ogre", hp=30, ac=12, touch_ac=9)
    with pytest.raises(RulesError) as info:
        ogre.hp = 3  # type: ignore[misc]
    assert isinstance(info.value, AttributeError) and info.value.field == "hp"
    same = U.Creature(name="Ogre", hp=30, ac=12, touch_ac=9)
    assert same == ogre and hash(same) == hash(ogre) and len({ogre, same}) == 1
    assert ogre.replace(hp=31) != ogre and ogre.replace(hp=31).hp == 31
    assert U.Creature("Ogre", 30, 12, 9) == ogre  # fields by position, in declaration order


def test_the_json_schema_of_a_model_states_limits_unit_help_and_rule():
    schema = U.Creature.model_json_schema()
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"name", "hp", "ac", "touch_ac"}
    hp = schema["properties"]["hp"]
    assert (hp["type"], hp["minimum"], hp["maximum"]) == ("integer", 1, MAX_HP)
    assert hp["unit"] == "HP" and hp["rule"] == "unbound-d20-attacking.txt" and hp["description"] == "hit points"
    rank = schema["properties"]["rank"]
    assert rank["enum"] == ["untrained", "professional", "grandmaster"] and rank["kind"] == "choice"
    weapons = schema["properties"]["weapons"]
    assert weapons["maxItems"] == 20 and weapons["items"] == {"$ref": "#/$defs/Attack"}
    assert schema["$defs"]["Attack"]["properties"]["range_increment"]["unit"] == "ft"


@pytest.mark.parametrize("system", SYSTEMS)
def test_model_validate_of_model_dump_round_trips(system):
    S = wb.system(system)
    cat = S.catalog()
    for model in [*cat.creatures.values(), *cat.attacks.values(), S.Options(), S.Situation()]:
        cls = type(model)
        assert cls.model_validate(model.model_dump()) == model
        assert cls.model_validate_json(model.model_dump_json()) == model
        assert cls.from_dict(model.to_dict()) == model
        assert hash(cls.model_validate(model.model_dump())) == hash(model)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_model_is_a_frozen_pydantic_model(system):
    for cls in models_of(system).values():
        assert issubclass(cls, Model) and issubclass(cls, pydantic.BaseModel)
        assert cls.model_config["frozen"] and cls.model_config["extra"] == "forbid"
        assert list(fields.specs(cls)) == list(cls.model_fields)
