"""The docs site (mkdocs.yml: mkdocs-material + mkdocstrings) builds with warnings as errors, and its
API reference covers every public name of ``workbench``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import workbench

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")


def build(root: Path, out: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(out)],
        cwd=root, capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )


def test_the_site_builds_strict_with_the_api_reference(tmp_path):
    start = time.monotonic()
    done = build(ROOT, tmp_path / "site")
    took = time.monotonic() - start
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert took < 60, f"the docs build took {took:.0f} s"
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    for name in workbench.__all__:
        if name != "__version__":
            assert f'id="{name.lower()}' in api.lower() or f"<code>{name}</code>" in api, name
    # the docstrings themselves are there, not only the headings
    assert "absorbing" in api.lower() or "rounds to kill" in api.lower()
    assert (tmp_path / "site" / "combat" / "index.html").exists()


def test_every_public_name_has_a_reference_entry():
    text = (ROOT / "docs" / "api.md").read_text()
    entries = set(re.findall(r"^::: workbench\.[\w.]+\.(\w+)$", text, re.M))
    assert {n for n in workbench.__all__ if n != "__version__"} <= entries


def test_a_broken_page_link_fails_the_build(tmp_path):
    """Strict means strict: a link to a page that does not exist is a warning, so the build fails."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("screenshots"))
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(ROOT / "workbench", root / "workbench", ignore=shutil.ignore_patterns("__pycache__"))
    page = root / "docs" / "index.md"
    page.write_text(page.read_text() + "\nSee [nowhere](no-such-page.md).\n")
    done = build(root, tmp_path / "site")
    assert done.returncode != 0 and "no-such-page.md" in done.stdout + done.stderr
