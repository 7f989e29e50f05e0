"""The save / load / share panel (widgets/files.py), headless: round trips through the buttons, errors
shown inline changing nothing.

Button.click() swallows handler exceptions, so every button test asserts on the resulting state.
"""

from __future__ import annotations

import json

import workbench as wb
from widgets import Workbench


def test_save_and_load_round_trip_through_the_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path))  # the panel's files folder
    app = Workbench("unbound")
    d = app.damage
    tough = d.target.replace(ac=d.target.ac + 3)
    d.target = tough
    saved = app.value
    path = tmp_path / "setup.toml"
    app.files.path.value = str(path)
    app.files.save_button.click()
    assert path.exists() and "saved" in app.files.status.value and app.files.error == ""
    assert wb.load(path)[1] == tough
    app.system_select.value = "annulus"                    # load switches the system back
    app.files.load_button.click()
    assert app.files.error == ""
    assert app.value == saved and app.damage.value.isclose(wb.damage(saved["attack"], saved["attacker"], tough))


def test_share_code_round_trip_through_the_buttons():
    app = Workbench("last_odyssey")
    app.files.what.value = "target"
    app.files.get_code_button.click()
    code = app.files.code.value
    assert code.startswith("wb1:") and wb.from_share_code(code) == app.value["target"]
    target = app.value["target"]
    other = Workbench("glass_empires")
    other.files.what.value = "target"
    other.files.code.value = code
    other.files.apply_code_button.click()
    assert other.files.error == "" and other.value["system"] == "last_odyssey" and other.value["target"] == target


def test_file_and_code_errors_are_shown_inline_and_change_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path))  # the panel's files folder
    app = Workbench("unbound")
    before = app.value
    app.files.code.value = "wb1:not-a-real-code"
    app.files.apply_code_button.click()
    assert "corrupted" in app.files.errors_shown()["code"] and app.value == before
    app.files.path.value = str(tmp_path / "missing.toml")
    app.files.load_button.click()
    assert "no such file" in app.files.errors_shown()["path"] and app.value == before
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format_version": 1, "system": "unbound", "model_kind": "creature",
                               "name": "X", "hp": -5, "ac": 12, "touch_ac": 10}))
    app.files.path.value = str(bad)
    app.files.load_button.click()
    assert "hp" in app.files.errors_shown()["path"] and app.value == before
    app.files.what.value = "attack"                                     # a creature is not an attack
    wb.save(before["target"], tmp_path / "c.toml")
    app.files.path.value = str(tmp_path / "c.toml")
    app.files.load_button.click()
    assert "not an attack" in app.files.errors_shown()["path"] and app.value == before
    app.files.path.value = str(tmp_path / "setup.txt")
    app.files.save_button.click()
    assert ".toml or .json" in app.files.errors_shown()["path"] and not (tmp_path / "setup.txt").exists()
