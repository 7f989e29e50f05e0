"""The project metadata in pyproject.toml: authors, URLs, classifiers, keywords, the new dependencies."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_metadata_names_authors_urls_classifiers_and_keywords():
    assert PROJECT["authors"] and all(a.get("name") for a in PROJECT["authors"])
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(PROJECT["urls"])
    assert all(u.startswith("https://") for u in PROJECT["urls"].values())
    assert "Framework :: Jupyter" in PROJECT["classifiers"]
    assert "Programming Language :: Python :: 3.11" in PROJECT["classifiers"]  # requires-python's floor
    assert {"dice", "tabletop"} <= set(PROJECT["keywords"])


def test_runtime_libraries_are_declared_and_pinned_for_binder():
    """tomli-w (the TOML writer) and platformdirs (saves, the chart cache) are runtime dependencies:
    declared in pyproject.toml and pinned in Binder's requirements."""
    declared = {d.split(">")[0].split("=")[0].split("[")[0].strip().lower() for d in PROJECT["dependencies"]}
    assert {"tomli-w", "platformdirs"} <= declared
    binder = (ROOT / "binder" / "requirements.txt").read_text().lower().replace("_", "-")
    assert "\ntomli-w==" in binder and "\nplatformdirs==" in binder


def test_changelog_exists_and_names_the_version():
    import workbench

    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog") and f"## {workbench.__version__}" in text
