"""Forms round-trip every field type over every catalog model of every system (issue 35): a form
built from a model, read back without an edit, is the same model, and an edit of one field keeps
every other field. Booleans and nested traits included: Glass Empires' "Ant, Giant (Queen caste)"
(trait ``immobile: true``) refused every edit, its traits box showing ``immobile=True`` and reading
back the text 'True'."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.widgets.forms import ModelForm, _parse_mapping, _read_literal, _split_top, _write_literal

MODELS = [
    (name, kind, model)
    for name in wb.systems()
    for kind in ("creatures", "attacks")
    for model in getattr(wb.system(name).catalog(), kind).values()
]


def _form(system: str, model):
    return ModelForm(type(model), model, system=wb.system(system))


@pytest.mark.parametrize("system,kind,model", MODELS, ids=[f"{s}-{k}-{m.name}" for s, k, m in MODELS])
def test_every_catalog_model_reads_back_from_its_form_and_takes_an_edit(system, kind, model):
    form = _form(system, model)
    assert form.rebuild() == model, form.error_box.value if hasattr(form, "error_box") else ""
    name = form.controls["name"]
    name.value = model.name + " II"
    assert form.value == model.replace(name=model.name + " II")
    if "traits" in form.controls:  # the traits box takes an edit too, and reads back as written
        assert form.value.traits == model.traits


def test_the_queen_ant_takes_edits_and_its_trait_is_a_boolean():
    queen = wb.system("glass_empires").catalog().creature("Ant, Giant (Queen caste)")
    assert queen.traits["immobile"] is True
    form = _form("glass_empires", queen)
    box = form.controls["traits"]
    assert "immobile=true" in box.value
    form.controls["armor"].value = queen.armor + 1  # any edit at all used to be refused
    assert form.value.armor == queen.armor + 1
    form.controls["name"].value = "Queen"
    assert form.value.name == "Queen" and form.value.traits["immobile"] is True
    box.value = box.value.replace("immobile=true", "immobile=false")
    assert form.value.traits.get("immobile", False) is False and form.value.name == "Queen"


@pytest.mark.parametrize(
    "value",
    [
        True,
        False,
        0,
        -3,
        2.5,
        "Pack Hunter",
        "true",
        "2",
        "a, b",
        'say "hi"',
        "",
        (),
        ("a", "b, c"),
        {"vs_target_engaged_with_ally": 2},
        {"fire": 1.5, "ice": 2},
        ((1, 2), ("x",)),
    ],
)
def test_a_literal_reads_back_as_the_value_it_writes(value):
    got = _read_literal(_write_literal(value))
    if isinstance(value, tuple):
        value = [list(v) if isinstance(v, tuple) else v for v in value]
    assert got == value and type(got) is type(value)


def test_a_mapping_entry_splits_only_at_its_top_level():
    assert _split_top('a=1, b=[1, 2], c={x = 1, y = "p, q"}, d="r,s"') == [
        "a=1",
        "b=[1, 2]",
        'c={x = 1, y = "p, q"}',
        'd="r,s"',
    ]
    read = _parse_mapping("traits")
    assert read('immobile=True, features=["Pack Hunter"]') == {"immobile": True, "features": ["Pack Hunter"]}
    assert read("Reckless=2, Giant") == {"Reckless": 2, "Giant": 1}  # Annulus upgrade ranks, as before


def test_a_list_of_texts_round_trips_texts_with_commas_and_quotes():
    tags = ("plain", "a, b", 'say "hi"', "true", "2")
    cop = wb.system("last_odyssey").catalog().creature("Cop")
    attack = wb.system("last_odyssey").attacks_of(cop)[0].replace(tags=tags)
    form = _form("last_odyssey", attack)
    assert form.controls["tags"].value.startswith("plain, ")
    assert form.rebuild().tags == tags
    form.controls["tags"].value = 'x, "y, z"'
    assert form.value.tags == ("x", "y, z")
