"""The tests mirror the tree (issue 20, item 5; tests/README.md): no test file directly in tests/,
one tests/systems/<name>/ folder with tests for every rule system in workbench/systems/, every
folder of tests a package, and tests/README.md mapping exactly the folders that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
OUTPUT = {"artifacts"}  # written by the browser tests, ignored by git


def folders_of_tests() -> list[Path]:
    """Return every folder under tests/ except caches, hidden folders and test output."""
    return [p for p in sorted(TESTS.rglob("*")) if p.is_dir() and p.name != "__pycache__"
            and not any(part.startswith(".") for part in p.relative_to(TESTS).parts)
            and p.relative_to(TESTS).parts[0] not in OUTPUT]


def test_no_test_file_directly_in_tests() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []


def test_every_rule_system_has_a_tests_folder_with_tests() -> None:
    systems = sorted(p.name for p in (ROOT / "workbench" / "systems").iterdir() if (p / "__init__.py").is_file())
    assert {"annulus", "unbound", "last_odyssey", "glass_empires"} <= set(systems)
    for name in systems:
        folder = TESTS / "systems" / name
        files = sorted(folder.glob("test_*.py"))
        assert files, f"no tests/systems/{name}/test_*.py for workbench/systems/{name}/"
        assert any(re.search(r"^def test_", f.read_text(), re.M) for f in files), folder


def test_every_tests_folder_is_a_package() -> None:
    folders = folders_of_tests()
    assert TESTS / "systems" / "annulus" in folders and TESTS / "dist" in folders
    assert [p.relative_to(ROOT).as_posix() for p in folders if not (p / "__init__.py").is_file()] == []
    assert (TESTS / "__init__.py").is_file() and (TESTS / "conftest.py").is_file()


def test_readme_maps_exactly_the_folders_that_hold_tests() -> None:
    listed = set(re.findall(r"^\| `tests/([a-z_/]+)/` \|", (TESTS / "README.md").read_text(), re.M))
    holding = {p.relative_to(TESTS).as_posix() for p in folders_of_tests() if any(p.glob("test_*.py"))}
    assert listed == holding
