"""The save / load / share panel (widgets/files.py), headless: round trips through the buttons, errors
shown inline changing nothing.

Button.click() swallows handler exceptions, so every button test asserts on the resulting state.
"""

from __future__ import annotations

import json

import workbench as wb
from workbench.widgets import Workbench


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


def _link_bytes(panel) -> bytes:
    import base64
    import re

    href = re.search(r'href="data:application/octet-stream;base64,([^"]+)"', panel.download_link.value).group(1)
    return base64.b64decode(href)


def test_download_and_upload_round_trip_in_the_browser():
    """Issue 17, item 7: download and upload a save file in the browser instead of server paths.
    The link holds exactly what wb.save would write; uploading it puts the models back."""
    from workbench.io import dumps

    app = Workbench("unbound")
    d = app.damage
    tough = d.target.replace(ac=d.target.ac + 3)
    d.target = tough
    saved = app.value
    app.files.download_button.click()
    data = _link_bytes(app.files)
    models = [saved[k] for k in ("attacker", "target", "attack", "options", "situation")]
    assert data == dumps(models) and 'download="workbench-setup.toml"' in app.files.download_link.value
    other = Workbench("annulus")
    import datetime

    other.files.upload.value = ({"name": "setup.toml", "type": "", "size": len(data), "content": memoryview(data),
                                 "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert other.files.error == "" and "loaded" in other.files.status.value
    assert other.value["system"] == "unbound" and other.value["target"] == tough


def test_a_bad_upload_is_explained_beside_the_upload():
    app = Workbench("glass_empires")
    before = app.value
    app.files.uploaded([{"name": "notes.toml", "content": b"name = 3"}])
    assert "notes.toml" in app.files.error and app.value == before
    assert app.files._slots["upload"].value
    app.files.uploaded([{"name": "photo.png", "content": b"\x89PNG"}])
    assert ".toml or .json" in app.files.error
    app.files.uploaded([{"name": "big.toml", "content": b"x" * (2 * 1024 * 1024)}])
    assert "at most" in app.files.error


def test_a_link_restores_the_whole_setup():
    """Issue 17, item 7: the share code in the app's URL. "Get code" on the whole setup also gives
    a link ?setup=<code>; the app built with that query's setup opens on it; a broken one is
    explained and the app still opens."""
    from urllib.parse import parse_qs, urlparse

    import html as html_lib
    import re

    from workbench.widgets.app import SETUP_SLOT, setup_from_query

    app = Workbench("glass_empires")
    wolf = wb.system("glass_empires").catalog().creature("Wolf")
    app.damage.target = wolf
    app.files.what.value = SETUP_SLOT
    app.files.get_code_button.click()
    href = html_lib.unescape(re.search(r'href="([^"]+)"', app.files.link.value).group(1))
    code = parse_qs(urlparse(href).query)["setup"][0]
    assert code.startswith("wb2:") and setup_from_query(href) == code  # the short setup code (tests/io/test_links.py)
    opened = Workbench("annulus", setup=setup_from_query(href.lstrip("?")))
    assert opened.value["system"] == "glass_empires" and opened.value["target"] == wolf
    assert opened.damage.value.isclose(app.damage.value)
    broken = Workbench("annulus", setup="wb1:garbage")
    assert broken.value["system"] == "annulus" and "link's setup" in broken.error
    app.files.what.value = "target"
    app.files.get_code_button.click()
    assert app.files.code.value.startswith("wb1:")  # the target's own code in the box
    assert setup_from_query(html_lib.unescape(re.search(r'href="([^"]+)"', app.files.link.value).group(1))) == code
    assert setup_from_query("") is None and setup_from_query("x=1") is None


def test_link_is_short_carries_the_pins_and_has_a_copy_button():
    """Issue 36, item 7: the link carries the pins, names catalog entries, holds only edited fields."""
    import re
    from urllib.parse import parse_qs

    app = Workbench("annulus")
    old = len("?setup=" + wb.share_code(app._setup_models()))
    app.pin("first")
    d = app.damage
    d.update(attacker=d.attacker.replace(level=d.attacker.level + 2))
    app.pin("second")
    html = app.files.link.value
    assert "wb-copy-link" in html and "Copy link" in html
    # Font Awesome's link icon, as on the other buttons (the clipboard emoji drew as an empty box
    # in a browser without an emoji font)
    assert "fa fa-link" in html and "&#128203;" not in html and "\U0001f4cb" not in html
    href = re.search(r'class="wb-share-link-a" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert len(href) < old / 3, (len(href), old)
    assert f"({len(href)} characters)" in html
    code = parse_qs(href.lstrip("?"))["setup"][0]
    opened = Workbench("unbound", setup=code)
    assert opened.error == "" and opened.value == app.value
    assert opened.pins == app.pins and opened.reference == "first"


def test_old_links_still_open():
    app = Workbench("unbound")
    code = wb.share_code(app._setup_models())
    opened = Workbench("annulus", setup=code)
    assert opened.error == "" and opened.value == app.value


def test_save_status_names_no_server_path(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path))
    app = Workbench("unbound")
    app.files.path.value = "mine/setup.toml"
    app.files.save_button.click()
    status = app.files.status.value
    assert "mine/setup.toml in your files folder" in status and str(tmp_path) not in status


def test_path_errors_name_no_server_path(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path / "files"))
    app = Workbench("unbound")
    for bad in ("../escape.toml", "/etc/passwd.toml"):
        app.files.path.value = bad
        app.files.save_button.click()
        shown = app.files.errors_shown()["path"]
        assert "your files folder" in shown and str(tmp_path) not in shown
