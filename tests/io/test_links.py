"""Setup codes for links (workbench/links.py): short (catalog entries by name, only the edited
fields), exact round trips with pins in every system, the old wb1 codes still read, bad codes refused
with a RulesError naming the setup."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

import workbench as wb
from widgets.pins import Pin
from workbench.errors import RulesError
from workbench.links import SETUP_PREFIX, read_setup_code, setup_code

SYSTEMS = ["annulus", "unbound", "last_odyssey", "glass_empires"]


def _setup(name: str) -> list:
    s = wb.system(name)
    creatures = list(s.catalog().creatures.values())
    attacker, target = creatures[0], creatures[1]
    attack = s.attacks_of(attacker)[0]
    return [attacker, target, attack, s.Options(), s.Situation()]


def _doc(code: str):
    body = code[len(SETUP_PREFIX) :]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))


@pytest.mark.parametrize("name", SYSTEMS)
def test_catalog_setup_is_short_and_exact(name):
    models = _setup(name)
    code = setup_code(models)
    old = wb.share_code(models)
    assert code.startswith(SETUP_PREFIX) and len(code) <= 160 and len(code) * 4 < len(old)
    assert read_setup_code(code).models == models
    doc = _doc(code)
    assert doc["m"][0] == {"c": models[0].name}  # the catalog entry by name, nothing else
    assert len(doc["m"]) == 3  # default options and situation left out


@pytest.mark.parametrize("name", SYSTEMS)
def test_edited_fields_only_and_pins_round_trip(name):
    s = wb.system(name)
    attacker, target, attack, options, situation = _setup(name)
    cat = s.catalog()
    # an edited attacker: the first whole-number field whose +1 the rules allow
    edited = None
    for number, v in attacker.to_dict().items():
        if type(v) is int:
            try:
                edited = attacker.replace(**{number: v + 1})
                break
            except RulesError:
                continue
    assert edited is not None
    other = list(cat.creatures.values())[2]
    pins = [
        Pin("edited", edited, attack, options, situation),
        Pin("other", other, s.attacks_of(other)[0], options, situation),
    ]
    models = [edited, target, attack, options, situation]
    code = setup_code(models, pins, "other")
    doc = _doc(code)
    assert doc["m"][0] == {"c": attacker.name, "d": {number: attacker.to_dict()[number] + 1}}
    back = read_setup_code(code)
    assert back.models == models and back.reference == "other"
    assert [Pin(*p) for p in back.pins] == pins
    assert len(code) < 400


def test_edited_options_and_situation_carry_only_what_changed():
    s = wb.system("unbound")
    models = _setup("unbound")
    models[3] = s.Options(minimum_damage=1)
    models[4] = s.Situation(flanking=True)
    doc = _doc(setup_code(models))
    assert doc["m"][3] == {"d": {"minimum_damage": 1}} and doc["m"][4] == {"d": {"flanking": True}}
    assert read_setup_code(setup_code(models)).models == models


def test_old_share_codes_still_open():
    models = _setup("glass_empires")
    link = read_setup_code(wb.share_code(models))
    assert link.models == models and link.pins == [] and link.reference == ""


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("wb2:not-base64!!", "corrupted"),
        ("hello", "not a workbench setup"),
        (SETUP_PREFIX + base64.urlsafe_b64encode(zlib.compress(b'{"s":"nope","m":[{"c":"x"}]}')).decode(), "system"),
        (
            SETUP_PREFIX + base64.urlsafe_b64encode(zlib.compress(b'{"s":"annulus","m":[{"c":"Nobody"}]}')).decode(),
            "Nobody",
        ),
        (SETUP_PREFIX + base64.urlsafe_b64encode(zlib.compress(b'{"s":"annulus","m":[]}')).decode(), "no models"),
        (
            SETUP_PREFIX
            + base64.urlsafe_b64encode(zlib.compress(b'{"s":"annulus","m":[{"c":"Rat","d":{"level":-4}}]}')).decode(),
            "level",
        ),
    ],
)
def test_bad_codes_are_refused(code, words):
    with pytest.raises(RulesError) as info:
        read_setup_code(code)
    assert words in str(info.value) and (info.value.field or "").startswith("setup")
