"""Rich display in Jupyter: a compact chart plus the key numbers, text elsewhere.

``Dist``, ``DuelResult`` and :func:`workbench.explain`'s result have a ``_repr_mimebundle_`` that
returns the bundle made here:

- ``text/plain``: the object's ``repr`` (what a terminal and a plain console show);
- ``text/html``: the key numbers as a small table (what a notebook shows when it draws no chart,
  e.g. GitHub's and nbviewer's renderings, or a front end without Vega-Lite);
- ``application/vnd.vegalite.v5+json``: a compact Vega-Lite chart whose title holds the same key
  numbers. This is the mime type JupyterLab and Notebook render natively (their Vega extension
  knows v3 to v5): the spec is plain JSON built here, with its data inline, and imports nothing
  (no altair, no JavaScript from the network);
- ``image/svg+xml``: the same chart as a static picture, when vl-convert is installed (the
  ``export`` and ``lab`` extras), so a saved notebook shows it where no Vega renderer runs (GitHub,
  nbviewer): about 0.5 s for the first picture of a process, some 40 ms after.

A chart holds at most :data:`MAX_POINTS` bars: a wider distribution is summed into that many equal
bins of outcomes, so a bundle stays small whatever the support.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["VEGALITE_MIME", "MAX_POINTS", "bundle", "dist_bundle", "duel_bundle", "explanation_bundle"]

#: the Vega-Lite mime type Jupyter's front ends render
VEGALITE_MIME = "application/vnd.vegalite.v5+json"
_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
#: the most bars a chart holds (wider distributions are binned)
MAX_POINTS = 200
_WIDTH, _HEIGHT = 260, 110


def _num(x: Any, digits: int = 4) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        if math.isnan(x):
            return "–"
        return f"{x:.{digits}g}"
    return str(x)


def _table(caption: str, numbers: Iterable[tuple[str, str]]) -> str:
    rows = "".join(
        f"<tr><th style='text-align:left'>{html.escape(k)}</th><td style='text-align:right'>{html.escape(v)}</td></tr>"
        for k, v in numbers
    )
    return f"<table><caption style='text-align:left'><b>{html.escape(caption)}</b></caption>{rows}</table>"


def bundle(
    text: str,
    caption: str,
    numbers: Sequence[tuple[str, str]],
    chart: dict[str, Any] | None,
    include: Any = None,
    exclude: Any = None,
    **extra: str,
) -> dict[str, Any]:
    """Return the mime bundle: text/plain ``text``, text/html of ``numbers`` under ``caption``, the
    Vega-Lite ``chart`` (when given) and any ``extra`` mime types; ``include``/``exclude`` as IPython
    passes them (collections of mime types)."""
    out: dict[str, Any] = {"text/plain": text, "text/html": _table(caption, numbers)}
    if chart is not None:
        out[VEGALITE_MIME] = chart
        if not (exclude and "image/svg+xml" in exclude):
            svg = _svg(chart)
            if svg is not None:
                out["image/svg+xml"] = svg
    out.update({k.replace("_", "/"): v for k, v in extra.items()})
    if include:
        out = {k: v for k, v in out.items() if k in include or k == "text/plain"}
    if exclude:
        out = {k: v for k, v in out.items() if k not in exclude or k == "text/plain"}
    return out


@functools.cache
def _vl_version() -> str | None:
    """Return the newest Vega-Lite 5 that the installed vl-convert bundles, or None without it."""
    try:
        import vl_convert
    except ImportError:
        return None
    fives = [v for v in vl_convert.get_vegalite_versions() if v.startswith("5.")]
    return max(fives, key=lambda v: tuple(int(x) for x in v.split("."))) if fives else None


def _svg(chart: dict[str, Any]) -> str | None:
    """Return the chart drawn as SVG by vl-convert (offline), or None without it or on its error."""
    version = _vl_version()
    if version is None:
        return None
    import vl_convert

    try:
        return str(vl_convert.vegalite_to_svg(chart, vl_version=version))
    except Exception:  # noqa: BLE001 - a picture is a bonus: the bundle stands without it
        return None


def _bar_chart(title: str, rows: list[dict[str, Any]], x: str, y: str, color: str | None = None) -> dict[str, Any]:
    encoding: dict[str, Any] = {
        "x": {"field": x, "type": "quantitative" if color is None else "ordinal", "title": x.replace("_", " ")},
        "y": {"field": y, "type": "quantitative", "title": y.replace("_", " ")},
        "tooltip": [{"field": x}, {"field": y, "format": ".4f"}],
    }
    if color is not None:
        encoding["color"] = {"field": color, "type": "nominal", "title": None}
        encoding["xOffset"] = {"field": color}
        encoding["tooltip"].append({"field": color})
    return {
        "$schema": _SCHEMA,
        "title": {"text": title, "fontSize": 11, "anchor": "start"},
        "width": _WIDTH,
        "height": _HEIGHT,
        "data": {"values": rows},
        "mark": {"type": "bar", "tooltip": True},
        "encoding": encoding,
    }


def _binned(outcomes: np.ndarray, probs: np.ndarray) -> tuple[list[int], list[float]]:
    """Return (outcome, probability) of at most MAX_POINTS bars: each bar the lowest outcome of its
    bin and the bin's summed probability."""
    if outcomes.size <= MAX_POINTS:
        return [int(v) for v in outcomes], [float(p) for p in probs]
    lo, hi = int(outcomes[0]), int(outcomes[-1])
    width = -(-(hi - lo + 1) // MAX_POINTS)
    bins = (outcomes - lo) // width
    sums = np.bincount(bins, weights=probs)
    keep = np.flatnonzero(sums > 0)
    return [lo + int(b) * width for b in keep], [float(sums[b]) for b in keep]


def dist_bundle(dist: Any, include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """The bundle of a :class:`~workbench.dist.Dist`: its bars, mean, sd, range and P(> 0)."""
    mask = dist.pmf > 0
    xs, ps = _binned(dist.outcomes[mask], dist.pmf[mask])
    mean, sd = dist.mean(), dist.std()
    p_pos = float(dist.pmf[dist.outcomes > 0].sum())
    numbers = [
        ("mean", _num(mean)),
        ("sd", _num(sd)),
        ("range", f"{dist.min()}..{dist.max()}"),
        ("P(> 0)", f"{p_pos:.2%}"),
    ]
    title = f"mean {_num(mean)}, sd {_num(sd)}, {dist.min()}..{dist.max()}"
    chart = _bar_chart(title, [{"value": x, "probability": p} for x, p in zip(xs, ps)], "value", "probability")
    return bundle(repr(dist), "Dist", numbers, chart, include, exclude)


def duel_bundle(result: Any, include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """The bundle of a :class:`~workbench.duel_result.DuelResult`: who wins in which round, the win chances."""
    numbers = [
        (f"{result.a} wins", f"{result.p_a_wins:.2%}"),
        (f"{result.b} wins", f"{result.p_b_wins:.2%}"),
        ("neither", f"{result.p_draw:.2%}"),
        ("method", "exact" if result.exact else f"simulated, {result.fights:,} fights"),
        ("first", result.first),
    ]
    rows: list[dict[str, Any]] = []
    frame = result.rounds
    for side, column in ((result.a, "p_a_wins"), (result.b, "p_b_wins")):
        for rnd, p in zip(frame["round"].to_list()[:MAX_POINTS], frame[column].to_list()[:MAX_POINTS]):
            if p > 0:
                rows.append({"round": int(rnd), "probability": float(p), "winner": side})
    title = f"{result.a} {result.p_a_wins:.1%} · {result.b} {result.p_b_wins:.1%} · neither {result.p_draw:.1%}"
    chart = _bar_chart(title, rows, "round", "probability", color="winner")
    return bundle(repr(result), f"{result.a} vs {result.b}", numbers, chart, include, exclude)


def explanation_bundle(info: Any, markdown: str, include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """The bundle of an explanation (:func:`workbench.explain`): its ``markdown``
    (:func:`workbench.explanations.explanation_markdown`, given by the caller: this module imports
    nothing of the workbench), the compare row's key numbers and a chart of the rounds it takes
    (10/50/90 % quantiles and the mean)."""
    r = info["row"]
    numbers = [
        ("method", str(info["method"])),
        ("mean damage of one use", _num(r["mean_damage"])),
        ("mean turn damage", _num(r["mean_turn_damage"])),
        ("P(down in one turn)", _num(r["p_kill_one_turn"])),
        ("mean rounds", _num(r["mean_rounds"])),
        ("rounds 10/50/90 %", f"{_num(r['rounds_q10'])}/{_num(r['rounds_q50'])}/{_num(r['rounds_q90'])}"),
    ]
    rows = [
        {"statistic": name, "rounds": float(v)}
        for name, v in (
            ("10 %", r["rounds_q10"]),
            ("median", r["rounds_q50"]),
            ("mean", r["mean_rounds"]),
            ("90 %", r["rounds_q90"]),
        )
        if v is not None and math.isfinite(float(v))
    ]
    chart = {
        "$schema": _SCHEMA,
        "title": {"text": f"{r['attacker']} vs {r['target']}: rounds to down", "fontSize": 11, "anchor": "start"},
        "width": _WIDTH,
        "height": 80,
        "data": {"values": rows},
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {
            "y": {"field": "statistic", "type": "nominal", "sort": None, "title": None},
            "x": {"field": "rounds", "type": "quantitative"},
        },
    }
    caption = f"{r['attacker']}, {r['attack']}, against {r['target']}"
    return bundle(markdown, caption, numbers, chart, include, exclude, text_markdown=markdown)
