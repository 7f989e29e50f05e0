"""Helpers for the lesson notebooks (10-13 and the teacher's 19): quotes, charts that are readable
before the notebook runs, one control per rule, and exercises with a check.

Nothing here computes rules: every number comes from the workbench's public calls in the notebooks
(and in ``EXERCISES`` below, which the student's and the teacher's notebooks share).

- ``quote(text, source)``: the rule sentence as a block quote, with its rules file.
- ``say(text)``: Markdown built from results (so a number in the prose is printed by a cell).
- ``table(rows)``: a Markdown table; ``None``, ``inf`` and ``NaN`` show as "never" / "-".
- ``show(chart, alt)``: the chart as a PNG (vl-convert, offline) with a text description, so GitHub,
  nbviewer and a notebook not yet run show it; no JavaScript, no widget.
- ``explore(control, draw)``: one ipywidgets control and the outputs ``draw(value)`` returns; moving
  the control redraws them in place (the saved notebook keeps the last drawing, with its PNG).
- ``ask(key)`` / ``check(key, answer)``: an exercise's question and its check ("not answered yet",
  "right", or "not quite" with the reason).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
from IPython.display import display

SCALE = 2  # PNG pixels per chart pixel (sharp on high-density screens; shown at chart size)


class Md:
    """Markdown whose plain-text form is the same text (so nbval compares the words and numbers,
    and a plain viewer shows them instead of ``<IPython.core.display.Markdown object>``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def quote(text: str, source: str) -> Md:
    """Return ``text`` as a Markdown block quote followed by its source file."""
    body = "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines())
    return Md(f"{body}\n>\n> — *{source}*")


def say(text: str) -> Md:
    """Return ``text`` as Markdown (a sentence whose numbers were computed by the cell)."""
    return Md(text)


def cell_text(value: Any, digits: int = 3, never: str = "never") -> str:
    """Return a table cell: numbers rounded, ``None``/``inf`` as ``never``, ``NaN`` as ``-``."""
    if value is None:
        return never
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        if math.isinf(value):
            return never
        return fx(value, digits)
    return str(value)


def table(rows: Sequence[dict[str, Any]], digits: int = 3, never: str = "never") -> Md:
    """Return ``rows`` (dicts with the same keys) as a Markdown table that fits a laptop screen."""
    if not rows:
        return Md("*(no rows)*")
    heads = list(rows[0])
    lines = ["| " + " | ".join(heads) + " |", "|" + "|".join("---" for _ in heads) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(cell_text(row[h], digits, never) for h in heads) + " |")
    return Md("\n".join(lines))


def fx(value: float, digits: int) -> str:
    """Return ``value`` with ``digits`` decimals, rounded to 10 decimals first: float noise (which
    differs between CPUs) cannot tip a value sitting on a rounding boundary, such as 2.2425 to 3
    decimals, one way on one machine and the other way on another."""
    return f"{round(float(value), 10) + 0.0:.{digits}f}"


def percent(p: float, digits: int = 1) -> str:
    """Return a probability as a percentage, e.g. ``'31.2 %'`` (through ``fx``)."""
    return f"{fx(100 * p, digits)} %"


@dataclass
class Picture:
    """A chart as a static PNG with a one-line text description (what a screen reader or a plain
    text viewer shows)."""

    chart: Any
    alt: str

    def bundle(self) -> tuple[dict[str, Any], dict[str, Any]]:
        try:
            import vl_convert as vlc
        except ImportError:  # JupyterLite (vl-convert has no browser build): the live chart instead
            live = alt.JupyterChart(self.chart)._repr_mimebundle_()
            data = dict(live[0] if isinstance(live, tuple) else live)
            data["text/plain"] = f"[chart] {self.alt}"
            return data, {}

        spec = self.chart if isinstance(self.chart, dict) else self.chart.to_dict()
        png = vlc.vegalite_to_png(spec, scale=SCALE)
        width = int.from_bytes(png[16:20], "big") // SCALE  # the PNG header's width, in chart pixels
        data = {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": f"[chart] {self.alt}"}
        return data, {"image/png": {"width": width}}

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.bundle()


def show(chart: Any, alt: str) -> Picture:
    """Return ``chart`` as a Picture (displayed as a PNG plus the ``alt`` text)."""
    return Picture(chart, alt)


def _bundle_of(item: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    if isinstance(item, Picture):
        return item.bundle()
    if isinstance(item, Md):
        return {"text/markdown": item.text, "text/plain": item.text}, {}
    return {"text/plain": str(item)}, {}


def explore(control: Any, draw: Callable[[Any], Sequence[Any]], label: str | None = None) -> None:
    """Display ``control`` and, under it, the outputs of ``draw(control.value)`` (Markdown, Pictures
    or text); redraw them in place whenever the control moves.

    The outputs are plain notebook outputs (not inside a widget), so the saved notebook shows the
    last drawing, PNG included, before anything runs.
    """
    what = label or getattr(control, "description", "") or "the control"
    options = getattr(control, "options", None)
    if options is not None:
        span = "choices: " + ", ".join(str(o[0] if isinstance(o, tuple) else o) for o in options)
    else:
        span = f"from {control.min} to {control.max}"
    display({"application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                           "model_id": control.model_id},
             "text/plain": f"[control] {what} ({span}); it redraws what follows when the notebook runs"},
            raw=True)
    handles = []
    for item in draw(control.value):
        data, meta = _bundle_of(item)
        handles.append(display(data, metadata=meta, raw=True, display_id=True))

    def redraw(change: dict) -> None:
        for handle, item in zip(handles, draw(change["new"])):
            data, meta = _bundle_of(item)
            handle.update(data, metadata=meta, raw=True)

    control.observe(redraw, names="value")


def bars(rows: Sequence[dict[str, Any]], x: str, y: str, *, title: str, highlight: Any = None,
         y_format: str = "%", y_title: str | None = None, x_title: str | None = None,
         sort: Sequence[Any] | None = None, width: int = 440, height: int = 220) -> alt.Chart:
    """Return a bar chart of ``rows`` (y against x), the bar at x == ``highlight`` in the accent colour."""
    data = [{**row, "_selected": row[x] == highlight} for row in rows]
    x_type = "O" if sort is None else "N"
    enc_x = alt.X(f"{x}:{x_type}", title=x_title or x, sort=list(sort) if sort is not None else "ascending",
                  axis=alt.Axis(labelAngle=0))
    chart = (
        alt.Chart(alt.Data(values=data))
        .mark_bar()
        .encode(
            x=enc_x,
            y=alt.Y(f"{y}:Q", title=y_title or y, axis=alt.Axis(format=y_format)),
            color=alt.condition(alt.datum._selected, alt.value("#e15759"), alt.value("#4e79a7")),
            tooltip=[alt.Tooltip(f"{x}:{x_type}"), alt.Tooltip(f"{y}:Q", format=".3f")],
        )
        .properties(title=title, width=width, height=height)
    )
    return chart


# --- exercises -------------------------------------------------------------------------------------


@dataclass
class Exercise:
    """One question; ``solve()`` returns (the answer, why it is the answer), both computed by the
    workbench when asked, so they cannot go stale. Numbers match within ``tolerance`` (absolute);
    text matches case-insensitively."""

    question: str
    solve: Callable[[], tuple[Any, str]]
    tolerance: float = 0.005


EXERCISES: dict[str, Exercise] = {}


def exercise(key: str, question: str, tolerance: float = 0.005):
    """Register the decorated function (returning (answer, why)) as exercise ``key``."""

    def register(solve: Callable[[], tuple[Any, str]]) -> Callable[[], tuple[Any, str]]:
        EXERCISES[key] = Exercise(question, solve, tolerance)
        return solve

    return register


def ask(key: str) -> Md:
    """Return exercise ``key``'s question as Markdown."""
    return Md(f"**Exercise {key}.** {EXERCISES[key].question}")


def matches(answer: Any, expected: Any, tolerance: float) -> bool:
    """Return whether ``answer`` is ``expected``: numbers within ``tolerance`` (a probability may
    also be answered as a percentage: 31.25 for 0.3125), text case-insensitively."""
    if isinstance(expected, str):
        return str(answer).strip().lower() == expected.strip().lower()
    if isinstance(answer, bool):
        return False
    try:
        value = float(answer)
    except (TypeError, ValueError):
        return False
    if isinstance(expected, float) and 0 <= expected <= 1 and 1 < value <= 100:
        value /= 100
    return abs(value - float(expected)) <= tolerance + 1e-12


def check(key: str, answer: Any) -> None:
    """Print whether ``answer`` to exercise ``key`` is right, and why."""
    ex = EXERCISES[key]
    if answer is None:
        print(f"Exercise {key}: not answered yet. Replace None with your answer and run this cell again.")
        return
    expected, why = ex.solve()
    if matches(answer, expected, ex.tolerance):
        print(f"Exercise {key}: right! {why}")
    else:
        print(f"Exercise {key}: not quite ({answer!r} is not it). {why}")


def solution(key: str) -> Any:
    """Return exercise ``key``'s answer, computed by the workbench (the teacher's notebook uses it)."""
    return EXERCISES[key].solve()[0]
