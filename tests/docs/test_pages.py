"""Documentation that is tested: every example of README.md, docs/*.md and docs/systems/*.md runs,
and every output a page shows must be the output of a fresh run.

After changing the engine (numbers, columns, messages), regenerate the shown outputs with ONE command,
from the repository root, then review the diff and commit it:

    .venv/bin/python docs/_regenerate.py        (or: make docs)

(``--check`` lists the differences without writing.) How each kind of block is run is described in
docs/_regenerate.py: ``>>>`` Python examples are doctests, ```` ```console ```` blocks are real
``workbench`` command runs with their output, ```` ```bash ```` blocks must run, and a file block
after ``<!-- file: NAME -->`` is the file the examples wrote.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("docs_regenerate", ROOT / "docs" / "_regenerate.py")
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
sys.modules["docs_regenerate"] = regen
_spec.loader.exec_module(regen)


def test_every_page_is_covered():
    pages = {p.relative_to(ROOT).as_posix() for p in regen.PAGES}
    expected = {"README.md", *(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))}
    assert pages == expected
    assert len(pages) >= 9


@pytest.mark.timeout(900)
@pytest.mark.parametrize("page", regen.PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_matches_a_fresh_run(page: Path):
    fresh = regen.render(page)
    if fresh != page.read_text():
        pytest.fail("the page differs from a fresh run; regenerate with `.venv/bin/python docs/_regenerate.py` "
                    f"and review the diff:\n{regen.diff(page, fresh)}", pytrace=False)


def test_a_changed_output_is_caught(tmp_path: Path):
    """The check is not vacuous: an altered number in a doctest or a console block fails it."""
    page = tmp_path / "page.md"
    page.write_text("```python\n>>> 1 + 1\n3\n```\n\n```console\n$ workbench systems\nannulus  Annulus\n```\n")
    fresh = regen.render(page)
    assert ">>> 1 + 1\n2\n" in fresh
    assert re.search(r"^glass_empires\s+Glass Empires$", fresh, re.M)
    kept = tmp_path / "kept.md"
    kept.write_text("```python\n>>> list(range(30))\n[0, 1, ..., 29]\n```\n")
    assert regen.render(kept) == kept.read_text()   # a matching shortened (ELLIPSIS) output is kept
    bad = tmp_path / "bad.md"
    bad.write_text("```python\nraise ValueError('no')\n```\n")
    with pytest.raises(regen.DocError, match="raised"):
        regen.render(bad)


def test_a_number_quoted_in_prose_is_recomputed(tmp_path):
    """A figure quoted in prose as ``<!--= EXPRESSION -->VALUE<!--/-->`` is rendered from a run in the page's
    namespace (issue 42: docs/combat.md quoted 15.05 rounds where the engine gave 14.83), so a stale value
    makes the page differ from its fresh render, which test_every_page_shows_fresh_outputs reports."""
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n>>> import workbench as wb\n>>> d6 = wb.Dist.die(6)\n```\n\n"
        'A d6 averages <!--= f"{d6.mean():.2f}" -->3.00<!--/--> and <!--= 2 + 2 -->4<!--/-->.\n'
    )
    rendered = regen.render(page)
    assert 'averages <!--= f"{d6.mean():.2f}" -->3.50<!--/-->' in rendered
    assert "<!--= 2 + 2 -->4<!--/-->" in rendered
    page.write_text("<!--= undefined_name -->1<!--/-->\n")
    with pytest.raises(regen.DocError, match="undefined_name"):
        regen.render(page)
