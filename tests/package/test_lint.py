"""Lint, format and types: ``ruff check``, ``ruff format --check`` and ``mypy`` on workbench/ and widgets/ (and lite/, the JupyterLite site's builder), with their configuration in
pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``), must report nothing.

Both tools are pinned in the ``test`` extra (their findings change between versions). Run them by
hand from the repository root: ``.venv/bin/ruff check``, ``.venv/bin/ruff format`` and ``.venv/bin/mypy``.

Nothing is excluded: :func:`test_nothing_is_excluded` checks that.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


def test_ruff_check_is_clean() -> None:
    proc = run_tool("ruff", "check", "--no-fix", "--output-format", "concise")
    assert proc.returncode == 0, f"ruff check found:\n{proc.stdout}{proc.stderr}"


def test_ruff_format_is_clean() -> None:
    proc = run_tool("ruff", "format", "--check")
    assert proc.returncode == 0, f"ruff format would reformat:\n{proc.stdout}{proc.stderr}"


@pytest.mark.timeout(600)
def test_mypy_is_clean() -> None:
    proc = run_tool("mypy")
    assert proc.returncode == 0, f"mypy found:\n{proc.stdout}{proc.stderr}"
    assert "no issues found" in proc.stdout, proc.stdout


def test_tools_cover_workbench_and_widgets() -> None:
    ruff = PYPROJECT["tool"]["ruff"]
    assert set(ruff["include"]) == {"workbench/**/*.py", "widgets/**/*.py", "lite/**/*.py"}
    assert {"E", "F", "B", "I", "UP"} <= set(ruff["lint"]["select"])
    assert set(PYPROJECT["tool"]["mypy"]["files"]) == {"workbench", "widgets", "lite"}
    listed = run_tool("ruff", "check", "--show-files")
    files = {Path(line).resolve().relative_to(ROOT).as_posix() for line in listed.stdout.split() if line.endswith(".py")}
    assert "workbench/dist.py" in files and "widgets/app.py" in files and "workbench/cli.py" in files
    assert "lite/build.py" in files
    assert not [f for f in files if not f.startswith(("workbench/", "widgets/", "lite/"))]


def test_nothing_is_excluded() -> None:
    assert "extend-exclude" not in PYPROJECT["tool"]["ruff"] and "exclude" not in PYPROJECT["tool"]["ruff"]
    assert "exclude" not in PYPROJECT["tool"]["mypy"]
    for override in PYPROJECT["tool"]["mypy"].get("overrides", []):   # untyped third-party packages only
        assert not override.get("ignore_errors")
        assert not [m for m in override["module"] if m.startswith(("workbench", "widgets"))]
