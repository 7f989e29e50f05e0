"""The saved notebooks are readable before they run, and the lessons' quotes and exercises hold.

- Every chart output saved in a notebook carries a static image (``image/png`` or ``image/svg+xml``)
  beside the live chart, so GitHub, nbviewer and a notebook not yet run show a picture, not
  ``<altair...JupyterChart object at 0x...>``; and no saved output holds a memory address.
- Every rule quoted in a lesson (``classroom.quote``: a block quote ending "— *file*") is in that
  rules file, word for word up to spacing (checked when the rules texts are on this machine:
  ``$WB_RULES_DIR``, ``shared/rules`` beside the clone, or ``/work/shared/rules``).
- The lessons' prose (Markdown cells) holds no decimal or percentage typed by hand: every such number
  is printed by a cell, so none can go stale.
- The lessons' exercise checks: a blank answer is "not answered yet", the teacher's answer is right,
  a wrong one is "not quite"; the student's notebooks are saved with every answer blank.

The workbench notebooks (00-07) display charts through ``notebooks/saved_charts.py`` (the live
JupyterChart widget with a PNG and a plain-text name in the same output); the lessons save PNGs
(``notebooks/classroom.py``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SAVED = sorted(NOTEBOOKS.glob("*.ipynb"))
LESSONS = sorted(NOTEBOOKS.glob("1[0-8]-lesson-*.ipynb"))
#: the rules texts: $WB_RULES_DIR, else shared/rules beside the clone (as CI lays it), else this
#: workplace's copy
RULES = next(
    (
        p
        for p in (
            Path(os.environ["WB_RULES_DIR"]) if os.environ.get("WB_RULES_DIR") else None,
            Path(__file__).resolve().parents[3] / "shared" / "rules",
            Path("/work/shared/rules"),
        )
        if p is not None and p.is_dir()
    ),
    Path(os.environ.get("WB_RULES_DIR", "/work/shared/rules")),
)

STATIC = ("image/png", "image/svg+xml")
ADDRESS = re.compile(r"<[^<>\n]* at 0x[0-9a-fA-F]+>")


def outputs(path: Path):
    """Yield (cell index, output) for every saved output of the notebook at ``path``."""
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            yield i, out


def text_of(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def is_chart(data: dict) -> bool:
    """An output is a chart if it holds a Vega-Lite spec or an altair chart widget."""
    if any(k.startswith(("application/vnd.vegalite", "application/vnd.vega.")) for k in data):
        return True
    plain = text_of(data.get("text/plain", ""))
    return "application/vnd.jupyter.widget-view+json" in data and ("JupyterChart" in plain or "altair" in plain)


def problems(path: Path) -> list[str]:
    """Return what makes the saved notebook unreadable before it runs."""
    found = []
    for i, out in outputs(path):
        data = out.get("data", {})
        if is_chart(data) and not any(k in data for k in STATIC):
            found.append(f"cell {i}: a chart output without a static image ({sorted(data)})")
        texts = [text_of(v) for k, v in data.items() if k.startswith("text/")]
        texts += [text_of(out.get("text", "")), text_of(out.get("evalue", ""))]
        for text in texts:
            if m := ADDRESS.search(text):
                found.append(f"cell {i}: a memory address in a saved output: {m.group(0)[:120]}")
    return found


def test_the_checks_see_what_they_should():
    """The checks themselves: a chart widget without an image and an object repr are caught."""
    chart = {"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
             "text/plain": "<altair.jupyter.jupyter_chart.JupyterChart object at 0x7f3a2c1b>"}
    assert is_chart(chart) and ADDRESS.search(chart["text/plain"])
    assert not is_chart({"application/vnd.jupyter.widget-view+json": {"model_id": "x"}, "text/plain": "[control] AC"})
    assert is_chart({"application/vnd.vegalite.v6+json": {}, "text/plain": "alt.LayerChart(...)"})


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.name)
def test_saved_notebook_is_readable_before_it_runs(path: Path):
    found = problems(path)
    assert not found, f"{path.name}:\n" + "\n".join(found)


def test_there_are_lessons():
    assert len(LESSONS) >= 4, [p.name for p in LESSONS]


QUOTE = re.compile(r"\A(?P<body>(?:>.*\n)+)>\n> — \*(?P<source>[^*]+)\*\Z")


def normal(text: str) -> str:
    """Lower case, one space between words, plain quotes and dashes, no Markdown emphasis."""
    text = text.replace("’", "'").replace("“", '"').replace("”", '"').replace("**", "").replace("`", "")
    return " ".join(text.split()).lower()


def quotes(path: Path):
    for i, out in outputs(path):
        md = text_of(out.get("data", {}).get("text/markdown", ""))
        if m := QUOTE.match(md):
            body = "\n".join(line[2:] if line.startswith("> ") else "" for line in m["body"].splitlines())
            yield i, body, m["source"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_quotes_are_in_the_rules(path: Path):
    if not RULES.is_dir():
        pytest.skip(f"no rules texts at {RULES} (set WB_RULES_DIR)")
    seen = 0
    for i, body, source in quotes(path):
        name = source.split(" (")[0].split(",")[0].strip()
        text = normal((RULES / name).read_text())
        for part in re.split(r"\[\.\.\.\]|\n\s*\n", body):
            part = re.sub(r"^\s*\*\*[^*]+\*\*:\s*", "", part)  # a table row quoted as "**Crit (≥12)**: effect"
            if part.strip():
                assert normal(part) in text, f"{path.name} cell {i}: not in {name}: {part.strip()[:200]!r}"
        seen += 1
    assert seen >= 1, f"{path.name}: no rule quoted"


@pytest.fixture(scope="module")
def classroom():
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        import classroom as module
        import lesson_exercises  # noqa: F401  (registers the exercises)
    finally:
        sys.path.remove(str(NOTEBOOKS))
    return module


def test_exercise_checks(classroom, capsys):
    assert len(classroom.EXERCISES) >= 8
    for key in classroom.EXERCISES:
        classroom.check(key, None)
        assert "not answered yet" in capsys.readouterr().out
        answer = classroom.solution(key)
        classroom.check(key, answer)
        assert f"Exercise {key}: right!" in capsys.readouterr().out
        wrong = "no such thing" if isinstance(answer, str) else answer + 7
        classroom.check(key, wrong)
        assert f"Exercise {key}: not quite" in capsys.readouterr().out


def test_a_probability_may_be_answered_as_a_percentage(classroom):
    assert classroom.matches(31.25, 0.3125, 0.005)
    assert classroom.matches("0.3125", 0.3125, 0.005)
    assert not classroom.matches(True, 1.0, 0.005)
    assert classroom.matches(" Spell ", "spell", 0)


@pytest.mark.parametrize("path", LESSONS + [NOTEBOOKS / "19-lesson-answers.ipynb"], ids=lambda p: p.name)
def test_lesson_prose_quotes_no_computed_number(path: Path):
    """A lesson's Markdown cells hold no decimal or percentage: such numbers are results, and a result
    is printed by a cell (``classroom.say``), so it cannot go stale when the engine or catalog changes."""
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            found = re.findall(r"\d+\.\d+|\d+(?:\.\d+)? ?%", text_of(cell["source"]))
            assert not found, f"{path.name} cell {i}: a number typed into the prose: {found}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_student_notebooks_are_saved_unanswered(path: Path):
    nb = json.loads(path.read_text())
    checks = [c for c in nb["cells"] if c["cell_type"] == "code" and "check(" in text_of(c["source"])]
    assert len(checks) >= 2, f"{path.name}: fewer than two exercises"
    for cell in checks:
        assert re.search(r"^answer = None\b", text_of(cell["source"]), re.M), text_of(cell["source"])
        printed = "".join(text_of(o.get("text", "")) for o in cell.get("outputs", []))
        assert "not answered yet" in printed, printed
