"""Malformed files (workbench/io.py) raise RulesError naming the file and the field: bad syntax,
unknown fields, wrong types, illegal builds, bad headers, wrong suffixes, non-models.
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.io.models import _guard
from workbench.errors import RulesError

GOOD = 'format_version = 1\nsystem = "annulus"\nmodel_kind = "creature"\nname = "X"\nlevel = 2\nendurance = 3\n' \
       'agility = 1\ntoughness = 1\ninsight = 1\n'


def _bad(tmp_path, text, name="bad.toml"):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RulesError) as err:
        wb.load(path)
    assert str(path) in str(err.value), str(err.value)
    return err.value


def test_good_fixture_loads(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    assert wb.load(path).hp == 5


def test_bad_toml_syntax(tmp_path):
    err = _bad(tmp_path, GOOD + "level = = 3\n")
    assert "not valid TOML" in str(err) and "line" in str(err)


def test_bad_json_syntax(tmp_path):
    err = _bad(tmp_path, '{"system": "annulus",', "bad.json")
    assert "not valid JSON" in str(err)


def test_unknown_field_is_named(tmp_path):
    err = _bad(tmp_path, GOOD + "wings = 2\n")
    assert err.field == "wings" and "wings" in str(err)


def test_wrong_type_is_named(tmp_path):
    err = _bad(tmp_path, GOOD.replace("level = 2", 'level = "two"'))
    assert err.field == "level" and "whole number" in str(err)


def test_illegal_build_cites_the_rule(tmp_path):
    text = ('system = "annulus"\nmodel_kind = "attack"\nname = "Show"\n'
            'upgrades = {Flashy = 1, Stealth = 1}\n')
    err = _bad(tmp_path, text)
    assert err.field == "upgrades" and "Flashy" in str(err) and err.rule


def test_nested_bad_field_in_a_list_names_the_item(tmp_path):
    text = ('system = "unbound"\n[[items]]\nmodel_kind = "attack"\nname = "Club"\n'
            '[[items]]\nmodel_kind = "creature"\nname = "Y"\nhp = -3\nac = 10\ntouch_ac = 10\n')
    err = _bad(tmp_path, text)
    assert err.field == "items[1].hp"


def test_unknown_system(tmp_path):
    err = _bad(tmp_path, GOOD.replace('"annulus"', '"pathfinder"'))
    assert err.field == "system" and "pathfinder" in str(err)


@pytest.mark.parametrize("change, field", [
    (lambda t: t.replace('model_kind = "creature"\n', ""), "model_kind"),
    (lambda t: t.replace('"creature"', '"spaceship"'), "model_kind"),
    (lambda t: t.replace('system = "annulus"\n', ""), "system"),
    (lambda t: t.replace("format_version = 1", "format_version = 99"), "format_version"),
    (lambda t: t.replace("format_version = 1", 'format_version = "1"'), "format_version"),
    (lambda t: t.replace('system = "annulus"', "system = 3"), "system"),
])
def test_missing_or_bad_header(tmp_path, change, field):
    assert _bad(tmp_path, change(GOOD)).field == field


def test_wrong_suffix_missing_file_and_non_table(tmp_path):
    with pytest.raises(RulesError, match=r"\.toml or \.json"):
        wb.load(tmp_path / "x.yaml")
    with pytest.raises(RulesError, match="no such file"):
        wb.load(tmp_path / "missing.toml")
    assert _bad(tmp_path, "[1, 2]", "list.json").field == "document"
    err = _bad(tmp_path, '{"system": "annulus", "items": [1]}', "items.json")
    assert err.field == "items[0]"
    with pytest.raises(RulesError, match=r"\.toml or \.json"):
        wb.save(_guard(), tmp_path / "x.txt")
    with pytest.raises(RulesError, match="not valid TOML|not UTF-8"):
        (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
        wb.load(tmp_path / "bin.toml")


def test_non_models_cannot_be_saved(tmp_path):
    for thing in ({"name": "x"}, "Wolf", [], 3):
        with pytest.raises(RulesError):
            wb.save(thing, tmp_path / "x.toml")
    assert not list(tmp_path.iterdir())
