"""Share codes (workbench/io.py): round trips of catalog and generated models, short codes, lists,
corrupt, foreign and truncated codes, every single-character change caught.
"""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import workbench as wb
from tests.io.models import SYSTEMS, _guard, catalog_objects
from workbench.errors import RulesError

ALL_CATALOG = [o for s in SYSTEMS for o in catalog_objects(s)]

names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=16).filter(str.strip)


@st.composite
def varied_models(draw):
    """A catalog model with its name and some whole-number / true-false fields changed, kept if legal."""
    obj = draw(st.sampled_from(ALL_CATALOG))
    changes = {"name": draw(names)}
    for field in type(obj).model_fields:
        v = getattr(obj, field)
        if field == "name" or not draw(st.booleans()):
            continue
        if isinstance(v, bool):
            changes[field] = draw(st.booleans())
        elif isinstance(v, int):
            changes[field] = draw(st.integers(0, 60))
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
