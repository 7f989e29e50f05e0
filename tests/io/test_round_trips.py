"""Load/save (TOML, JSON) round trips (workbench/io.py): every catalog object, lists in order, mixed
systems, the header, non-default options and situations, hand-written files without a version, the
top-level exports.
"""

from __future__ import annotations

import json
import tomllib

import pytest

import workbench as wb
from tests.io.models import SYSTEMS, catalog_objects
from workbench import io as wio


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


def test_top_level_exports():
    assert wb.load is wio.load and wb.save is wio.save
    assert wb.share_code is wio.share_code and wb.from_share_code is wio.from_share_code
