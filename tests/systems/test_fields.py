"""Declared model fields (workbench/fields.py): every field of every model of the four systems
declares its kind, default, choices, bounds, unit, help and rule, and validation, the docs tables
and the JSON Schema of the save format are derived from that declaration."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import jsonschema
import pytest

import workbench as wb
from workbench import fields
from workbench.errors import RulesError
from workbench.systems import models_of
from workbench.model import Model

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("annulus", "unbound", "last_odyssey", "glass_empires")
MODELS = [(s, name, cls) for s in SYSTEMS for name, cls in models_of(s).items()]
IDS = [f"{s}.{name}" for s, name, _ in MODELS]
NOT_A_CHOICE = "zz-not-a-choice"

#: fields whose declared bound is accepted by the field's own check but refused, at that bound, by
#: a rule joining it to another field (the model's validate()); each names that rule
CROSS_FIELD_BOUNDS = {
    ("annulus", "Creature", "endurance", "high"): "Endurance + Vitality at most MAX_HP (Vitality >= 1)",
    ("annulus", "Creature", "vitality", "high"): "Endurance + Vitality at most MAX_HP",
    ("annulus", "Options", "success_on", "high"): "success_on at most dice_sides + 1",
    ("annulus", "Options", "dice_sides", "low"): "success_on at most dice_sides + 1",
    ("unbound", "Attack", "range_increment", "low"): "a melee attack has no range increment",
    ("unbound", "Attack", "range_increment", "high"): "a melee attack has no range increment",
    ("unbound", "Attack", "shield_ac", "high"): "only a shield gives a shield's AC bonus",
    ("unbound", "Attack", "shield_touch_ac", "high"): "only a shield gives a shield's AC bonus",
    ("glass_empires", "Creature", "hd", "low"): "Power = HD + Level",
    ("glass_empires", "Creature", "hd", "high"): "Power = HD + Level",
    ("glass_empires", "Creature", "level", "high"): "Power = HD + Level (Level below Power)",
}


def base_instance(system: str, cls: type):
    """Return a valid model of ``cls`` to vary one field of: the defaults, else the catalog's first
    model of its kind, else a minimal one."""
    try:
        return cls()
    except (TypeError, RulesError):
        pass
    cat = wb.system(system).catalog()
    for table in (cat.creatures, cat.attacks):
        for model in table.values():
            if isinstance(model, cls):
                return model
        for model in table.values():  # a nested model: the first one held by a catalog model
            for field in type(model).model_fields:
                v = getattr(model, field)
                for x in v if isinstance(v, tuple) else (v,):
                    if isinstance(x, cls):
                        return x
    if cls.__name__ == "Action":
        return cls("push", weapon="Claw")
    raise AssertionError(f"no valid {system} {cls.__name__} to start from")


@pytest.mark.parametrize(("system", "name", "cls"), MODELS, ids=IDS)
def test_every_field_is_declared(system, name, cls):
    declared = fields.specs(cls)
    assert list(declared) == list(cls.model_fields), "a field has no spec(...)"
    for name, f in cls.model_fields.items():
        s = declared[name]
        assert f.json_schema_extra is s and f.description == s.help, name
        assert s.kind in fields.KINDS, name
        assert s.help and "\n" not in s.help and s.help.strip() == s.help, name
        assert s.rule and s.rule.strip(), f"{name} cites no rule"
        assert (
            s.default_value(f) == s.default if s.default is not dataclasses.MISSING else f.is_required()
        ), f"{name}: the spec's default is not the field's default"
        if s.kind == "choice":
            assert len(s.options()) >= 2 and len(set(s.options())) == len(s.options()), name
        if s.kind == "models":
            assert isinstance(s.model, type) and issubclass(s.model, Model), name
        if s.kind in ("int", "number"):
            assert s.low() is not None or s.high() is not None or name == "fact_bonus", f"{name} has no bounds"


def test_the_spec_default_is_the_dataclass_default():
    """Not vacuous: the default a model is built with is the declared one."""
    for system, name, cls in MODELS:
        base = base_instance(system, cls)
        for field, f in cls.model_fields.items():
            s = fields.specs(cls)[field]
            if not f.is_required():
                assert s.default == f.get_default(call_default_factory=True), (system, name, field)
        assert type(base) is cls


def _choice_fields():
    for system, name, cls in MODELS:
        for field, s in fields.specs(cls).items():
            if s.kind == "choice":
                yield pytest.param(system, cls, field, s, id=f"{system}.{name}.{field}")


@pytest.mark.parametrize(("system", "cls", "field", "s"), list(_choice_fields()))
def test_choice_fields_take_exactly_their_choices(system, cls, field, s):
    base = base_instance(system, cls)
    with pytest.raises(RulesError) as err:
        base.replace(**{field: NOT_A_CHOICE})
    assert err.value.field == field and NOT_A_CHOICE in err.value.message
    for choice in s.options():
        try:
            if isinstance(choice, str):  # text choices compare case-insensitively
                assert getattr(base.replace(**{field: choice.upper()}), field) == choice
        except RulesError as exc:
            assert exc.field != field or "must be one of" not in exc.message, exc
        try:
            model = base.replace(**{field: choice})
        except RulesError as exc:  # refused by a rule joining fields: never by the field's own check
            assert exc.field != field or "must be one of" not in exc.message, exc
        else:
            assert getattr(model, field) == choice
    if s.optional:
        assert getattr(base.replace(**{field: None}), field) is None or s.kind != "choice"


def _bounded_fields():
    for system, name, cls in MODELS:
        for field, s in fields.specs(cls).items():
            if s.kind in ("int", "number"):
                yield pytest.param(system, name, cls, field, s, id=f"{system}.{name}.{field}")


@pytest.mark.parametrize(("system", "name", "cls", "field", "s"), list(_bounded_fields()))
def test_bounds_are_the_declared_ones(system, name, cls, field, s):
    base = base_instance(system, cls)
    for side, bound, step in (("low", s.low(), -1), ("high", s.high(), +1)):
        if bound is None:
            continue
        outside = bound + step
        with pytest.raises(RulesError) as err:
            base.replace(**{field: outside})
        assert err.value.field == field, err.value
        assert s.rule in (err.value.rule or ""), err.value
        if side == "low" and s.exclusive_minimum:  # "greater than": the bound itself is refused
            with pytest.raises(RulesError, match="greater than") as err:
                base.replace(**{field: bound})
            assert err.value.field == field
            bound = bound + 0.5
        try:
            model = base.replace(**{field: bound})
        except RulesError as exc:
            assert (system, name, field, side) in CROSS_FIELD_BOUNDS, f"the bound {bound} is refused: {exc}"
        else:
            assert getattr(model, field) == bound
            assert (system, name, field, side) not in CROSS_FIELD_BOUNDS, "a stale CROSS_FIELD_BOUNDS entry"
    if s.kind == "int":
        with pytest.raises(RulesError, match="whole number") as err:
            base.replace(**{field: 1.5})
        assert err.value.field == field


@pytest.mark.parametrize(("system", "name", "cls", "field", "s"), list(_bounded_fields()))
def test_every_number_field_declares_a_bound_of_its_own(system, name, cls, field, s):
    # issue 35: Last Odyssey multiplier_not_full_hp had no bound but the 10**12 every number has
    # (1e12 asked numpy for 65.5 TiB); each field now states its own, from the rules or the data
    assert s.high() is not None and s.low() is not None, f"{system}.{name}.{field} declares no bound"
    assert max(abs(s.high()), abs(s.low())) <= 10**7, f"{system}.{name}.{field}: only a huge bound"


def test_last_odyssey_multiplier_against_a_hurt_target_is_bounded_before_any_work():
    lo = wb.system("last_odyssey")
    with pytest.raises(RulesError) as err:
        lo.Attack("x", multiplier_not_full_hp=1e12)
    assert err.value.field == "multiplier_not_full_hp" and "limits" in err.value.rule
    with pytest.raises(RulesError) as err:
        lo.Attack("x", anima_cost=11)
    assert err.value.field == "anima_cost" and "10 anima" in err.value.rule
    with pytest.raises(RulesError) as err:
        wb.system("glass_empires").Situation(fact_bonus=-1)
    assert err.value.field == "fact_bonus"


def test_checked_kinds_are_checked_before_validate():
    """A wrong type in a declared field is refused by the declaration (naming the field and its rule)
    even where validate() no longer checks it by hand."""
    A = wb.system("annulus")
    with pytest.raises(RulesError) as err:
        A.Situation(target_blind="yes")
    assert err.value.field == "target_blind" and err.value.rule == fields.specs(A.Situation)["target_blind"].rule
    U = wb.system("unbound")
    with pytest.raises(RulesError, match="must be true or false") as err:
        U.Options(wild_plans=1)
    assert err.value.field == "wild_plans"
    assert A.Options(actions=2.0).actions == 2 and type(A.Options(actions=2.0).actions) is int


def test_list_fields_with_choices_refuse_other_values():
    for system, name, cls in MODELS:
        base = base_instance(system, cls)
        for field, s in fields.specs(cls).items():
            if s.kind != "list" or s.choices is None:
                continue
            with pytest.raises(RulesError) as err:
                base.replace(**{field: (NOT_A_CHOICE,)})
            assert (err.value.field or "").startswith(field), (system, name, field, err.value)
            model = base.replace(**{field: (s.options()[0],)})
            assert getattr(model, field) == (s.options()[0],)


@pytest.mark.parametrize(("system", "name", "cls"), MODELS, ids=IDS)
def test_docs_table_lists_every_field(system, name, cls):
    frame = fields.table(cls)
    assert frame.columns == ["field", "kind", "default", "choices", "bounds", "unit", "help", "rule"]
    assert frame["field"].to_list() == list(cls.model_fields)
    for row in frame.iter_rows(named=True):
        s = fields.specs(cls)[row["field"]]
        assert row["help"] == s.help and row["rule"] == s.rule and row["unit"] == (s.unit or "")
        assert row["choices"] == ", ".join(map(str, s.options()))
    page = (ROOT / "docs" / "models.md").read_text()
    block = re.search(rf"<!-- fields: {system}\.{name} -->\n(.*?)<!-- end fields -->", page, re.S)
    assert block, f"docs/models.md has no table of {system}.{name}"
    assert block.group(1) == fields.markdown(cls)
    assert [m for m in re.findall(r"^\| `(\w+)` \|", block.group(1), re.M)] == frame["field"].to_list()


def _catalog_models():
    for system in SYSTEMS:
        cat = wb.system(system).catalog()
        for what, table in (("creature", cat.creatures), ("attack", cat.attacks)):
            for key, model in table.items():
                yield pytest.param(model, id=f"{system}.{what}.{key}")
        S = wb.system(system)
        yield pytest.param(S.Options(), id=f"{system}.options")
        yield pytest.param(S.Situation(), id=f"{system}.situation")


@pytest.mark.parametrize("model", list(_catalog_models()))
def test_every_catalog_model_satisfies_its_json_schema(model):
    schema = fields.json_schema(type(model))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(model.to_dict(), schema, cls=jsonschema.Draft202012Validator)


def test_the_json_schema_refuses_what_the_specs_refuse():
    A = wb.system("annulus")
    schema = fields.json_schema(A.Creature)
    good = A.catalog().creature("Wolf").to_dict()
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid(good)
    assert set(schema["properties"]) == set(good)
    assert set(schema["required"]) == {n for n, f in A.Creature.model_fields.items() if f.is_required()}
    for change in (
        {"awareness": NOT_A_CHOICE},
        {"level": 0},
        {"size": 1.5},
        {"unknown_field": 1},
        {"attack_sets": [{**good["attack_sets"][0], "defense": NOT_A_CHOICE}]},
    ):
        assert not check.is_valid({**good, **change}), change
    lo = wb.system("last_odyssey")
    s = fields.json_schema(lo.Creature)
    v = jsonschema.Draft202012Validator(s)
    hero = next(iter(lo.catalog().creatures.values())).to_dict()
    assert v.is_valid({**hero, "element": None}) and not v.is_valid({**hero, "element": "Aether"})
    assert not v.is_valid({**hero, "immune_elements": ["Aether"]})


def test_spec_refuses_a_mistaken_declaration():
    with pytest.raises(ValueError, match="kind"):
        fields.spec(1, kind="integer", help="x", rule="r")
    with pytest.raises(ValueError, match="one non-empty line"):
        fields.spec(1, kind="int", help="two\nlines", rule="r")
    with pytest.raises(ValueError, match="choices"):
        fields.spec("a", kind="choice", help="x", rule="r")
