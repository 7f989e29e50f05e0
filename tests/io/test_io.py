"""Load/save (TOML, JSON) and share codes: round trips, atomic saves, malformed files, corrupt codes."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import tomllib
import zlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench import io as wio
from workbench.errors import RulesError

SYSTEMS = wb.systems()


def catalog_objects(name: str) -> list:
    c = wb.system(name).catalog()
    return list(c.creatures.values()) + list(c.attacks.values())


ALL_CATALOG = [o for s in SYSTEMS for o in catalog_objects(s)]


# --------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_catalog_creature_and_attack_round_trips(tmp_path, system, suffix):
    objs = catalog_objects(system)
    assert len(objs) > 5
    path = tmp_path / f"thing{suffix}"
    for obj in objs:
        wb.save(obj, path)
        back = wb.load(path)
        assert back == obj and type(back) is type(obj)


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_list_of_models_round_trips_in_order(tmp_path, system, suffix):
    s = wb.system(system)
    objs = catalog_objects(system) + [s.Options(), s.Situation()]
    path = wb.save(objs, tmp_path / f"all{suffix}")
    assert wb.load(path) == objs


def test_mixed_systems_list_records_each_items_system(tmp_path):
    objs = [catalog_objects(s)[0] for s in SYSTEMS]
    path = wb.save(objs, tmp_path / "mixed.toml")
    doc = tomllib.loads(path.read_text())
    assert "system" not in doc and [i["system"] for i in doc["items"]] == SYSTEMS
    assert wb.load(path) == objs


def test_file_records_system_kind_and_version(tmp_path):
    guard = wb.system("annulus").catalog().creature("Town Guard")
    doc = tomllib.loads(wb.save(guard, tmp_path / "g.toml").read_text())
    assert (doc["format_version"], doc["system"], doc["model_kind"], doc["name"]) == (1, "annulus", "creature",
                                                                                      "Town Guard")
    assert [a["name"] for a in doc["attack_sets"]] == [a.name for a in guard.attack_sets]
    js = json.loads(wb.save(guard, tmp_path / "g.json").read_text())
    assert js["model_kind"] == "creature" and js["system"] == "annulus"


def test_non_default_options_and_situation_round_trip(tmp_path):
    s = wb.system("annulus")
    opts = s.Options(success_on=5, crit_doubles_bonus=False, reroll="never")
    sit = s.Situation(distance=12.5, concealment="partial", target_awareness="clueless", attacker_vitality=0)
    for suffix in (".toml", ".json"):
        assert wb.load(wb.save(opts, tmp_path / f"o{suffix}")) == opts
        assert wb.load(wb.save(sit, tmp_path / f"s{suffix}")) == sit


def test_a_hand_written_file_without_version_loads(tmp_path):
    path = tmp_path / "hand.toml"
    path.write_text('system = "unbound"\nmodel_kind = "attack"\nname = "Club"\ndamage = "1d6"\n')
    assert wb.load(path) == wb.system("unbound").Attack(name="Club", damage="1d6")


# --------------------------------------------------------------------------- the TOML writer against tomllib
plain_scalars = (st.booleans() | st.integers(-2**63, 2**63 - 1)
                 | st.floats(allow_nan=False, allow_infinity=True) | st.text(max_size=12))
keys = st.text(min_size=1, max_size=8)
plain_data = st.recursive(plain_scalars, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, plain_data, max_size=6))
def test_toml_writer_output_parses_back_to_the_same_data(data):
    """tomllib (an independent parser) reads our TOML back to the data written."""
    assert tomllib.loads(wio.to_toml(data)) == data


def test_toml_writer_escapes_and_tables():
    data = {"name": 'a "q" \\ \n\t\x01\x7f é', "x": 1.0, "big": 1e300, "neg": -0.5, "inf": float("-inf"),
            "sets": [{"name": "A", "upgrades": {"Counter": 1, "odd key": 2}}, {"name": "B", "upgrades": {}}],
            "shell": {"points": 3, "element": "fire", "deep": {"x": [1, [2, 3]]}}, "empty": [], "none": None}
    text = wio.to_toml(data)
    back = tomllib.loads(text)
    expected = {k: v for k, v in data.items() if k != "none"}
    assert back == expected
    assert "[[sets]]" in text and "none" not in text


# --------------------------------------------------------------------------- atomic saves
def _guard():
    return wb.system("annulus").catalog().creature("Town Guard")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_unserialisable_object_leaves_existing_file_untouched(tmp_path, suffix):
    path = wb.save(_guard(), tmp_path / f"keep{suffix}")
    before = path.read_bytes()
    with pytest.raises(RulesError) as err:
        wb.save(wb.Dist([0.5, 0.5]), path)
    assert str(path) in str(err.value)
    bad = dataclasses.replace(_guard(), name="Guard")
    object.__setattr__(bad, "size", object())  # a value no file can hold
    with pytest.raises(RulesError, match="size"):
        wb.save(bad, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_failure_during_write_never_corrupts_the_existing_file(tmp_path, monkeypatch, where):
    path = wb.save(_guard(), tmp_path / "keep.toml")
    before = path.read_bytes()
    wolf = wb.system("annulus").catalog().creature("Wolf")

    class Boom(OSError):
        pass

    if where == "write":
        real_fdopen = os.fdopen

        def half_writer(fd, *args, **kwargs):
            fh = real_fdopen(fd, *args, **kwargs)
            real_write = fh.write

            def write(text):
                real_write(text[: len(text) // 2])
                fh.flush()
                raise Boom("disk full")

            fh.write = write
            return fh

        monkeypatch.setattr(wio.os, "fdopen", half_writer)
    elif where == "fsync":
        monkeypatch.setattr(wio.os, "fsync", lambda fd: (_ for _ in ()).throw(Boom("io error")))
    else:
        monkeypatch.setattr(wio.os, "replace", lambda a, b: (_ for _ in ()).throw(Boom("cross-device")))
    with pytest.raises(RulesError) as err:  # an OSError becomes a RulesError naming the path
        wb.save(wolf, path)
    assert str(path) in str(err.value) and err.value.field == "path"
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert wb.load(path) == _guard()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # temporary file removed


def test_save_replaces_an_existing_file(tmp_path):
    path = wb.save(_guard(), tmp_path / "c.json")
    wolf = wb.system("annulus").catalog().creature("Wolf")
    wb.save(wolf, path)
    assert wb.load(path) == wolf


# --------------------------------------------------------------------------- malformed files
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


# --------------------------------------------------------------------------- share codes
names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=16).filter(str.strip)


@st.composite
def varied_models(draw):
    """A catalog model with its name and some whole-number / true-false fields changed, kept if legal."""
    obj = draw(st.sampled_from(ALL_CATALOG))
    changes = {"name": draw(names)}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if f.name == "name" or not draw(st.booleans()):
            continue
        if isinstance(v, bool):
            changes[f.name] = draw(st.booleans())
        elif isinstance(v, int):
            changes[f.name] = draw(st.integers(0, 60))
    try:
        return obj.replace(**changes)
    except RulesError:
        assume(False)


@st.composite
def annulus_attacks(draw):
    """A legal Annulus attack set with random upgrades (illegal combinations discarded)."""
    from workbench.systems.annulus.upgrades import UPGRADES

    Attack = wb.system("annulus").Attack
    ups = draw(st.lists(st.sampled_from([u for u in UPGRADES if u != "Counter"]), max_size=5, unique=True))
    ranks = {u: (draw(st.integers(1, 3)) if UPGRADES[u].stackable else 1) for u in ups}
    counter = draw(st.sampled_from([None, "agility", "toughness", "insight"]))
    if counter:
        ranks["Counter"] = 1
    try:
        return Attack(name=draw(names), defense=draw(st.sampled_from(["agility", "toughness", "insight"])),
                      upgrades=ranks, counter_type=counter)
    except RulesError:
        assume(False)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ALL_CATALOG))
def test_share_code_round_trips_catalog_objects(obj):
    code = wb.share_code(obj)
    assert code.startswith("wb1:") and code.isascii() and " " not in code
    assert wb.from_share_code(code) == obj


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(varied_models() | annulus_attacks())
def test_share_code_and_files_round_trip_generated_models(tmp_path_factory, obj):
    assert wb.from_share_code(wb.share_code(obj)) == obj
    folder = tmp_path_factory.mktemp("gen")
    for suffix in (".toml", ".json"):
        assert wb.load(wb.save(obj, folder / f"m{suffix}")) == obj


def test_share_code_is_short():
    giant = wb.system("annulus").catalog().creature("Town Guard")
    assert len(wb.share_code(giant)) < len(json.dumps(giant.to_dict()))


def test_share_code_of_a_list():
    objs = catalog_objects("glass_empires")[:3]
    assert wb.from_share_code(wb.share_code(objs)) == objs


def _pack(payload: bytes) -> str:
    return "wb1:" + base64.urlsafe_b64encode(zlib.compress(payload)).rstrip(b"=").decode()


@pytest.mark.parametrize("code, message", [
    ("hello", "not a workbench share code"),
    ("wb2:eNpLTEoGAAJNASc", "not a workbench share code"),
    ("wb1:", "corrupted"),
    ("wb1:!!!!", "corrupted"),
    ("wb1:" + base64.urlsafe_b64encode(b"not zlib at all").decode(), "corrupted"),
    (_pack(b"{not json"), "corrupted"),
    (_pack(b"[1, 2]"), "does not hold a workbench model"),
    (_pack(b'{"system": "chess", "model_kind": "creature", "name": "Rook"}'), "invalid model"),
    (_pack(b'{"system": "annulus", "model_kind": "creature", "name": "R", "level": 0, "endurance": 1,'
           b' "agility": 0, "toughness": 0, "insight": 0}'), "level"),
])
def test_corrupt_or_foreign_codes_raise(code, message):
    with pytest.raises(RulesError, match=message):
        wb.from_share_code(code)


def test_truncated_code_raises():
    code = wb.share_code(_guard())
    for cut in (1, 5, len(code) // 2):
        with pytest.raises(RulesError, match="corrupted"):
            wb.from_share_code(code[:-cut])
    with pytest.raises(RulesError, match="text"):
        wb.from_share_code(None)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_CATALOG[:40]), st.data())
def test_any_single_character_change_is_caught(obj, data):
    """A changed character either raises RulesError or (never, by the canonical-base64 and zlib
    checksum checks) silently yields a different model."""
    code = wb.share_code(obj)
    i = data.draw(st.integers(4, len(code) - 1))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    ch = data.draw(st.sampled_from(alphabet).filter(lambda c: c != code[i]))
    mutated = code[:i] + ch + code[i + 1:]
    try:
        back = wb.from_share_code(mutated)
    except RulesError as exc:
        assert exc.field is not None
    else:
        assert back == obj


def test_top_level_exports():
    assert wb.load is wio.load and wb.save is wio.save
    assert wb.share_code is wio.share_code and wb.from_share_code is wio.from_share_code


def test_toml_key_with_a_trailing_newline_is_quoted():
    """Found by hypothesis: a key "0\\n" passed a bare-key regex ending in "$" (which admits a
    trailing newline) and produced TOML that tomllib rejects."""
    import tomllib

    from workbench.io import _toml_key

    assert _toml_key("0\n") == '"0\\n"'
    text = _toml_key("0") + " = 1\n" + _toml_key("0\n") + " = 2\n"
    assert tomllib.loads(text) == {"0": 1, "0\n": 2}
