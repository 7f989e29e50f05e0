"""The docs pages' Python examples run under a standard runner: Sybil through pytest
(docs/conftest.py), not only the project's own docs/_regenerate.py."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("sybil")


#: a hang guard, not a speed check: every docs example takes about 2 minutes on an idle 2-core machine
#: and over 10 beside 8 CPU-burning processes (issue 34's busy run, 2026-12-05: 600 s was too short)
HANG = 2400


def pytest_on(folder: Path) -> subprocess.CompletedProcess:
    """Run pytest on ``folder`` from the repository root (so this tree's workbench is imported)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-o", "addopts=", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL,
    )


@pytest.mark.timeout(HANG + 60)
def test_every_docs_example_passes_under_sybil():
    done = pytest_on(ROOT / "docs")
    assert done.returncode == 0, done.stdout[-4000:]
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))  # type: ignore[union-attr]
    assert passed >= 100 and "failed" not in done.stdout


def test_a_wrong_output_fails_and_the_closing_fence_is_no_output(tmp_path):
    shutil.copy(ROOT / "docs" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "right.md").write_text("```python\n>>> import workbench as wb\n>>> wb.Dist.die(2).mean()\n1.5\n```\n")
    (tmp_path / "wrong.md").write_text("```python\n>>> 1 + 1\n3\n```\n")
    done = pytest_on(tmp_path)
    assert "1 failed, 2 passed" in done.stdout, done.stdout[-3000:]
    assert "wrong.md" in done.stdout and "right.md" not in done.stdout.split("short test summary")[-1]
