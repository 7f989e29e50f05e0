"""The chart bundle's cache folder (widgets/offline.py) comes from platformdirs."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from widgets import offline


def test_cache_folder_is_platformdirs_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("WB_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert offline.cache_dir() == Path(platformdirs.user_cache_dir("rules-workbench", appauthor=False))
    assert offline.cache_dir() == tmp_path / "xdg" / "rules-workbench"  # Linux: XDG_CACHE_HOME honoured


def test_wb_cache_dir_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("WB_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert offline.cache_dir() == tmp_path / "mine"
    assert offline.bundle_path().parent == tmp_path / "mine"
