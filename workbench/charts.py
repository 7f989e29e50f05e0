"""Charts of workbench results: data in, ``alt.Chart`` out (no display, no widgets).

Every function takes a :class:`~workbench.dist.Dist` or a polars frame and returns an Altair
chart with a title, axis labels, tooltips and the workbench theme (:func:`apply_theme`). Pass
``themed=False`` to get an unconfigured chart for layering or concatenation (Altair only accepts
``config`` on the top-level chart), then theme the composite with :func:`apply_theme`.

Altair refuses more than 5,000 rows per chart: distributions lose their far tails (below
``TAIL`` of probability) and, if still too wide, are binned (:func:`dist_frame`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import altair as alt
import numpy as np
import polars as pl

from .dist import Dist
from .errors import RulesError
from .extras import vl_convert

__all__ = [
    "PALETTE",
    "MAX_ROWS",
    "TAIL",
    "theme_config",
    "apply_theme",
    "dist_frame",
    "damage_chart",
    "at_least_chart",
    "at_most_chart",
    "rounds_chart",
    "round_ticks",
    "sweep_chart",
    "race_chart",
    "variant_heatmap",
    "cost_front_chart",
    "references_chart",
    "pinned_chart",
    "PINNED_VIEWS",
    "heatmap",
    "duel_chart",
    "difficulty_chart",
    "compare_bars",
    "save_png",
    "save_svg",
]

#: one colour per build/creature, in order (colour-blind-safe Tableau 10)
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
ACCENT = "#e15759"
#: Altair's row limit is 5,000; stay under it
#: every chart these functions return (a type alias, for annotations)
AnyChart = (
    alt.Chart
    | alt.LayerChart
    | alt.HConcatChart
    | alt.VConcatChart
    | alt.ConcatChart
    | alt.FacetChart
    | alt.RepeatChart
)

MAX_ROWS = 4_999
#: outcomes in the far tails beyond this much probability are not drawn
TAIL = 1e-9
WIDTH, HEIGHT = 440, 240


def theme_config() -> dict[str, Any]:
    """Return the workbench theme as a Vega-Lite ``config``: fonts, sizes, palette, light grid."""
    return {
        "font": "Helvetica, Arial, sans-serif",
        "background": "white",
        "range": {"category": list(PALETTE)},
        "title": {"fontSize": 15, "anchor": "start", "subtitleFontSize": 12, "subtitleColor": "#555"},
        "axis": {
            "labelFontSize": 11,
            "titleFontSize": 12,
            "gridColor": "#e6e6e6",
            "domainColor": "#888",
            "tickColor": "#888",
            "titleFontWeight": "normal",
        },
        "legend": {"labelFontSize": 11, "titleFontSize": 12, "orient": "right"},
        "view": {"stroke": None},
    }


def _number(value: Any) -> float:
    """Return a polars column aggregate (``Series.min()``, ``max()``: typed as any Python scalar) as a float."""
    return float(value)


def apply_theme(chart: AnyChart) -> AnyChart:
    """Return a copy of ``chart`` with the workbench theme (:func:`theme_config`) as its config."""
    chart = chart.copy(deep=False)
    chart.config = theme_config()
    return chart


def _finish(chart: AnyChart, themed: bool) -> AnyChart:
    if themed:
        chart.config = theme_config()  # a fresh chart: set in place, no copy
    return chart


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(text: str, subtitle: str | Sequence[str] | None = None) -> alt.TitleParams:
    return alt.TitleParams(text, subtitle=subtitle) if subtitle else alt.TitleParams(text)


# --------------------------------------------------------------------------- data preparation
def dist_frame(dist: Dist | pl.DataFrame, max_rows: int = MAX_ROWS, tail: float = TAIL) -> pl.DataFrame:
    """Return a frame ``damage, probability, at_least, at_most`` of a Dist, small enough to chart.

    Outcomes in either tail with less than ``tail`` cumulative probability are dropped; if more than
    ``max_rows`` outcomes remain they are merged into equal-width bins, each labelled by its lowest
    damage (``damage_hi`` gives its highest). A frame with ``damage`` and ``probability`` columns is
    read as a distribution (probabilities summed per damage).
    """
    dist = as_polars(dist)
    if isinstance(dist, pl.DataFrame):
        dist = _dist_of_frame(dist)
    if not isinstance(dist, Dist):
        raise RulesError(
            f"expected a Dist or a frame with damage and probability, not {type(dist).__name__}", field="dist"
        )
    x: np.ndarray = dist.outcomes
    p: np.ndarray = dist.pmf
    cdf = np.cumsum(p)
    sf = np.clip(np.cumsum(p[::-1])[::-1], 0.0, 1.0)
    keep = (cdf >= tail) & (sf >= tail)
    keep[np.argmax(p)] = True
    lo, hi = np.flatnonzero(keep)[[0, -1]]
    x, p = x[lo : hi + 1], p[lo : hi + 1]
    width = int(np.ceil(x.size / max_rows))
    if width > 1:
        idx = (x - x[0]) // width
        p = np.bincount(idx, weights=p)
        x = x[0] + np.arange(p.size) * width
    hi_x = x + width - 1
    mass = np.concatenate(([0.0], np.cumsum(p)))
    below = dist.cdf(x[0] - 1)
    return pl.DataFrame(
        {
            "damage": x.astype(np.int64),
            "damage_hi": hi_x.astype(np.int64),
            "probability": p,
            "at_least": np.clip(1.0 - below - mass[:-1], 0.0, 1.0),
            "at_most": np.clip(below + mass[1:], 0.0, 1.0),
        }
    )


def _dist_of_frame(frame: pl.DataFrame) -> Dist:
    frame = as_polars(frame)
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(
            f"expected a Dist or a frame with damage and probability, not {type(frame).__name__}", field="dist"
        )
    missing = {"damage", "probability"} - set(frame.columns)
    if missing:
        raise RulesError(f"frame lacks column(s) {sorted(missing)}", field="dist")
    g = frame.group_by("damage").agg(pl.col("probability").sum())
    return Dist.from_outcomes(g["damage"].to_numpy(), g["probability"].to_numpy())


def as_polars(frame: Any) -> Any:
    """Return a pandas DataFrame as a polars one (``pl.from_pandas``); anything else as it is. Every
    chart that takes a frame takes a pandas one too."""
    if type(frame).__name__ == "DataFrame" and type(frame).__module__.startswith("pandas"):
        try:
            return pl.from_pandas(frame)
        except Exception as exc:  # noqa: BLE001 - anything pandas cannot hand over is a bad input
            raise RulesError(f"cannot read this pandas frame: {exc}", field="frame") from None
    return frame


def _named(dists: Any, default_name: str) -> dict[str, Dist | pl.DataFrame]:
    if isinstance(dists, Mapping):
        if not dists:
            raise RulesError("nothing to chart: no distributions given", field="dist")
        return {k: as_polars(v) for k, v in dists.items()}
    return {default_name: as_polars(dists)}


# --------------------------------------------------------------------------- damage
def damage_chart(
    dist: Dist | pl.DataFrame | Mapping[str, Dist | pl.DataFrame],
    title: str = "Damage per attack",
    *,
    subtitle: str | None = None,
    mean: bool = True,
    color: str = PALETTE[0],
    x_title: str = "Damage",
    themed: bool = True,
) -> AnyChart:
    """Return PMF bars of a damage distribution, with a rule and label at its mean; or, given several
    named distributions (a mapping of two or more), their PMFs overlaid as lines with points, one
    colour per name (legend "Build", in the mapping's order), each with a dashed rule at its mean.

    Tooltips give P(exactly), P(at least) and P(at most) each damage. The subtitle defaults to
    "mean · sd · P(any damage)" (for several: "dashed: each build's mean").
    """
    if isinstance(dist, Mapping):
        named = _named(dist, "damage")
        if len(named) > 1:
            return _damage_lines(named, title, subtitle, x_title, themed)
        dist = next(iter(named.values()))
    d = dist if isinstance(dist, Dist) else _dist_of_frame(dist)
    frame = dist_frame(d)
    binned = bool((frame["damage_hi"] != frame["damage"]).any())
    if subtitle is None:
        subtitle = f"mean {d.mean():.2f} · sd {d.std():.2f} · P(any damage) {d.sf(1):.1%}"
    tooltip = [
        alt.Tooltip("damage:Q", title="damage" + (" from" if binned else "")),
        *([alt.Tooltip("damage_hi:Q", title="to")] if binned else []),
        alt.Tooltip("probability:Q", title="P(exactly)", format=".2%"),
        alt.Tooltip("at_least:Q", title="P(at least)", format=".2%"),
        alt.Tooltip("at_most:Q", title="P(at most)", format=".2%"),
    ]
    x_scale = alt.Scale(
        domain=[int(_number(frame["damage"].min())) - 0.5, int(_number(frame["damage_hi"].max())) + 0.5],
        nice=False,
        zero=False,
    )
    gap = 0.1 if frame.height <= 60 else 0.0
    frame = frame.with_columns(left=pl.col("damage") - 0.5 + gap, right=pl.col("damage_hi") + 0.5 - gap)
    bars = (
        alt.Chart(frame)
        .mark_bar(color=color)
        .encode(
            x=alt.X("left:Q", title=x_title, scale=x_scale, axis=alt.Axis(tickMinStep=1, format="d")),
            x2="right:Q",
            y=alt.Y("probability:Q", title="Probability", axis=alt.Axis(format="%"), scale=alt.Scale(zero=True)),
            y2=alt.datum(0),
            tooltip=tooltip,
        )
    )
    layers: list[alt.Chart] = [bars]
    if mean:
        m = pl.DataFrame({"mean": [d.mean()], "label": [f"mean {d.mean():.2f}"], "value": [d.mean()]})
        base = alt.Chart(m).encode(
            x=alt.X("mean:Q"), tooltip=[alt.Tooltip("value:Q", title="mean damage", format=".3f")]
        )
        layers += [
            base.mark_rule(color=ACCENT, strokeWidth=2, strokeDash=[5, 3]),
            base.mark_text(color=ACCENT, align="left", dx=4, dy=-4, baseline="bottom", fontSize=11).encode(
                text="label:N", y=alt.value(0)
            ),
        ]
    chart = alt.layer(*layers).properties(title=_title(title, subtitle), width=WIDTH, height=HEIGHT)
    return _finish(chart, themed)


#: an overlay's damage axis ends where this much of every build's distribution lies below
BULK = 0.995


def bulk_cut(dists: Mapping[str, Dist], q: float = BULK) -> tuple[int | None, str]:
    """Return where an overlay's damage axis should end, and the note that marks what lies beyond:
    the largest ``q`` quantile of the builds, when the farthest drawn damage is more than 1.5 times
    it (e.g. one build's long tail to 130 where the mass is below 20: the others would be squeezed
    into the left edge); else ``(None, "")``. The note names each build's probability beyond the
    cut and its farthest damage (issue 36, item 4: "outliers clipped and marked")."""
    if not dists:
        return None, ""
    cut = max(int(d.quantile(q)) for d in dists.values())
    far = max(int(_number(dist_frame(d)["damage_hi"].max())) for d in dists.values())
    if far <= max(1.5 * cut, cut + 5):
        return None, ""
    beyond = [f"{name} {d.sf(cut + 1):.1%} (to {d.max()})" for name, d in dists.items() if d.sf(cut + 1) > 0]
    return cut, f"axis cut at {cut} damage; beyond it: " + ", ".join(beyond)


def _damage_lines(
    named: Mapping[str, Dist | pl.DataFrame], title: str, subtitle: str | None, x_title: str, themed: bool
) -> AnyChart:
    """The PMFs of several named distributions as coloured lines with points and mean rules; the
    damage axis fitted to the bulk of them (:func:`bulk_cut`: a long tail is cut and named in the
    subtitle)."""
    frames, means = [], []
    dists = {str(n): (d if isinstance(d, Dist) else _dist_of_frame(d)) for n, d in named.items()}
    cut, note = bulk_cut(dists)
    for name, d in dists.items():
        f = dist_frame(d).with_columns(build=pl.lit(name))
        frames.append(f if cut is None else f.filter(pl.col("damage") <= cut))
        means.append({"build": name, "mean": d.mean()})
    frame = pl.concat(frames)
    if frame.height > MAX_ROWS:
        raise RulesError(f"{frame.height} points is more than a chart holds; chart fewer builds", field="dists")
    order = [str(n) for n in named]
    colour = alt.Color("build:N", title="Build", scale=alt.Scale(range=PALETTE), sort=order)
    lines = (
        alt.Chart(frame)
        .mark_line(point=frame.height <= 240, strokeWidth=2, interpolate="linear")
        .encode(
            x=alt.X("damage:Q", title=x_title, axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("probability:Q", title="Probability", axis=alt.Axis(format="%"), scale=alt.Scale(zero=True)),
            color=colour,
            tooltip=[
                alt.Tooltip("build:N", title="build"),
                alt.Tooltip("damage:Q", title="damage"),
                alt.Tooltip("probability:Q", title="P(exactly)", format=".2%"),
                alt.Tooltip("at_least:Q", title="P(at least)", format=".2%"),
                alt.Tooltip("at_most:Q", title="P(at most)", format=".2%"),
            ],
        )
    )
    rules = (
        alt.Chart(pl.DataFrame(means))
        .mark_rule(strokeWidth=1.5, strokeDash=[5, 3])
        .encode(
            x=alt.X("mean:Q"),
            color=colour,
            tooltip=[alt.Tooltip("build:N", title="build"), alt.Tooltip("mean:Q", title="mean damage", format=".3f")],
        )
    )
    sub = subtitle or "dashed: each build's mean"
    chart = alt.layer(lines, rules).properties(
        title=_title(title, [sub, note] if note else sub), width=WIDTH, height=HEIGHT
    )
    return _finish(chart, themed)


def at_least_chart(
    dists: Dist | pl.DataFrame | Mapping[str, Dist | pl.DataFrame],
    title: str = "Chance of at least X damage",
    *,
    subtitle: str | None = None,
    x_title: str = "Damage (at least)",
    quantity: str = "damage",
    legend: str = "Build",
    themed: bool = True,
) -> AnyChart:
    """Return the "at least X damage" curve P(X >= x) of one Dist or of several named ones overlaid
    (``legend`` names what each line is, ``quantity`` what X is, on the y axis: "P(damage ≥ x)")."""
    return _tail_chart(dists, "at_least", title, subtitle, x_title, quantity, legend, themed)


def at_most_chart(
    dists: Dist | pl.DataFrame | Mapping[str, Dist | pl.DataFrame],
    title: str = "Chance of at most X",
    *,
    subtitle: str | None = None,
    x_title: str = "Outcome (at most)",
    quantity: str = "value",
    legend: str = "Expression",
    themed: bool = True,
) -> AnyChart:
    """Return the "at most x" curve P(X <= x) of one Dist or of several named ones overlaid (the
    mirror of :func:`at_least_chart`; the dice box's "at most" view)."""
    return _tail_chart(dists, "at_most", title, subtitle, x_title, quantity, legend, themed)


def _tail_chart(
    dists: Dist | pl.DataFrame | Mapping[str, Dist | pl.DataFrame],
    column: str,
    title: str,
    subtitle: str | None,
    x_title: str,
    quantity: str,
    legend: str,
    themed: bool,
) -> AnyChart:
    """Return the step curve of ``column`` ("at_least": P(X >= x), closed by a 0 past the largest
    value, its long tail cut when several are overlaid; "at_most": P(X <= x), opened by a 0 before
    the smallest) of each named Dist."""
    least = column == "at_least"
    named = _named(dists, quantity)
    cut, note = (
        bulk_cut({str(n): (d if isinstance(d, Dist) else _dist_of_frame(d)) for n, d in named.items()})
        if least and len(named) > 1
        else (None, "")
    )
    frames = []
    for name, d in named.items():
        f = dist_frame(d).select("damage", column)
        edge = int(_number(f["damage"].max())) + 1 if least else int(_number(f["damage"].min())) - 1
        pad = pl.DataFrame({"damage": [edge], column: [0.0]})
        f = (pl.concat([f, pad]) if least else pl.concat([pad, f])).with_columns(build=pl.lit(str(name)))
        frames.append(f if cut is None else f.filter(pl.col("damage") <= cut))
    shown_sub: str | list[str] | None = subtitle
    if note:
        shown_sub = [subtitle, note] if subtitle else note
    frame = pl.concat(frames)
    if frame.height > MAX_ROWS:
        raise RulesError(f"{frame.height} points is more than a chart holds; chart fewer builds", field="dists")
    many = len(named) > 1
    sign = "≥" if least else "≤"
    chart = (
        alt.Chart(frame)
        .mark_line(interpolate="step-before" if least else "step-after", point=frame.height <= 120, strokeWidth=2)
        .encode(
            x=alt.X("damage:Q", title=x_title, axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y(
                f"{column}:Q",
                title=f"P({quantity} {sign} x)",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=(
                alt.Color("build:N", title=legend, scale=alt.Scale(range=PALETTE), sort=list(map(str, named)))
                if many
                else alt.value(PALETTE[0])
            ),
            tooltip=[
                alt.Tooltip("build:N", title=legend.lower()),
                alt.Tooltip("damage:Q", title=column.replace("_", " ")),
                alt.Tooltip(f"{column}:Q", title="probability", format=".2%"),
            ],
        )
        .properties(title=_title(title, shown_sub), width=WIDTH, height=HEIGHT)
    )
    return _finish(chart, themed)


# --------------------------------------------------------------------------- combat
def round_ticks(max_round: int, most: int = 12) -> list[int]:
    """Return the whole-round ticks of an axis from 0 to ``max_round``: every round, or every 2nd,
    5th, 10th, 20th, 50th ... (the 1-2-5 steps), so that at most ``most`` + 1 ticks show."""
    step, scale = 1, 1
    while max_round // step > most:
        step = next(m * scale for m in (1, 2, 5, 10) if m * scale > step)
        if step == 10 * scale:
            scale *= 10
    return list(range(0, max_round + 1, step))


def rounds_chart(
    frames: pl.DataFrame | Mapping[str, pl.DataFrame],
    title: str = "Rounds to kill",
    *,
    subtitle: str | None = "chance the target is down by the end of each round",
    survival: bool = False,
    max_round: int | None = None,
    y_title: str | None = None,
    legend_title: str = "Build",
    themed: bool = True,
) -> AnyChart:
    """Return rounds-to-kill curves (columns ``round``, ``p_killed_by``), several builds overlaid.

    ``survival=True`` plots the target's survival ``1 - p_killed_by`` instead. Rounds stop where
    every curve has reached 1 - 1e-4 (or at ``max_round``).
    """
    named = _named(frames, "build")
    parts = []
    for name, f in named.items():
        if not isinstance(f, pl.DataFrame) or not {"round", "p_killed_by"} <= set(f.columns):
            raise RulesError(f"{name!r}: expected a frame with columns round and p_killed_by", field="frames")
        parts.append(
            f.select(pl.col("round").cast(pl.Int64), pl.col("p_killed_by").cast(pl.Float64)).with_columns(
                build=pl.lit(str(name))
            )
        )
    frame = pl.concat(parts)
    if max_round is None:
        done = frame.filter(pl.col("p_killed_by") < 1 - 1e-4)
        max_round = int(_number(done["round"].max())) + 1 if done.height else int(_number(frame["round"].min()))
    frame = frame.filter(pl.col("round") <= max_round)
    # start every curve at round 0 with nothing killed, so the first step is visible
    zero = pl.DataFrame(
        {"round": [0] * len(named), "p_killed_by": [0.0] * len(named), "build": [str(n) for n in named]}
    )
    frame = pl.concat([zero, frame]).sort("build", "round")
    frame = frame.with_columns(
        p_alive=1.0 - pl.col("p_killed_by"),
        p_killed_at=pl.col("p_killed_by").diff().over("build").fill_null(0.0),
    )
    if frame.height > MAX_ROWS:
        raise RulesError(f"{frame.height} points is more than a chart holds; lower max_round", field="max_round")
    y_field, default_y = ("p_alive", "P(target still standing)") if survival else ("p_killed_by", "P(killed by round)")
    y_title = y_title or default_y
    many = len(named) > 1
    chart = (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", strokeWidth=2, point=frame.height <= 150)
        .encode(
            x=alt.X(
                "round:Q",
                title="Round",
                # whole rounds only: Vega's own ticks fall on halves over a short range, and "d"
                # then prints 0, 1, 1, 2, 2
                axis=alt.Axis(values=round_ticks(max_round), format="d"),
                scale=alt.Scale(domain=[0, max_round]),
            ),
            y=alt.Y(f"{y_field}:Q", title=y_title, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
            color=(
                alt.Color("build:N", title=legend_title, scale=alt.Scale(range=PALETTE), sort=list(map(str, named)))
                if many
                else alt.value(PALETTE[0])
            ),
            tooltip=[
                alt.Tooltip("build:N", title=legend_title.lower()),
                alt.Tooltip("round:Q", title="round"),
                alt.Tooltip("p_killed_at:Q", title="P(killed in this round)", format=".2%"),
                alt.Tooltip("p_killed_by:Q", title="P(killed by this round)", format=".2%"),
            ],
        )
        .properties(title=_title(title, subtitle), width=WIDTH, height=HEIGHT)
    )
    return _finish(chart, themed)


def duel_chart(
    p_a: float,
    p_b: float,
    p_draw: float = 0.0,
    names: Sequence[str] = ("A", "B"),
    title: str = "Who wins the duel",
    *,
    subtitle: str | None = None,
    themed: bool = True,
) -> AnyChart:
    """Return one stacked bar splitting 100 % into "A wins", "draw" and "B wins", labelled in %."""
    probs = np.array([p_a, p_draw, p_b], dtype=np.float64)
    if np.any(probs < -1e-12) or abs(probs.sum() - 1.0) > 1e-6:
        raise RulesError(f"win chances must be non-negative and sum to 1, not {probs.sum():.6g}", field="p_a")
    a, b = (str(n) for n in names)
    if a == b:
        a, b = f"{a} (A)", f"{b} (B)"
    labels = [f"{a} wins", "draw", f"{b} wins"]
    start = np.concatenate(([0.0], np.cumsum(probs)[:-1]))
    frame = pl.DataFrame(
        {
            "outcome": labels,
            "probability": probs.clip(0, 1),
            "start": start,
            "end": start + probs,
            "order": [0, 1, 2],
            "mid": start + probs / 2,
            "text": [f"{p:.1%}" if p >= 0.06 else "" for p in probs],
        }
    )
    colors = alt.Scale(domain=labels, range=[PALETTE[0], "#bab0ac", PALETTE[1]])
    base = alt.Chart(frame)
    bar = base.mark_bar(height=46).encode(
        x=alt.X("start:Q", title="Probability", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        x2="end:Q",
        color=alt.Color("outcome:N", title=None, scale=colors, sort=labels, legend=alt.Legend(orient="bottom")),
        tooltip=[
            alt.Tooltip("outcome:N", title="outcome"),
            alt.Tooltip("probability:Q", title="probability", format=".2%"),
        ],
    )
    text = base.mark_text(color="white", fontWeight="bold", fontSize=13).encode(x="mid:Q", text="text:N")
    if subtitle is None:
        subtitle = f"{a} {p_a:.1%} · draw {p_draw:.1%} · {b} {p_b:.1%}"
    chart = alt.layer(bar, text).properties(title=_title(title, subtitle), width=WIDTH, height=60)
    return _finish(chart, themed)


def difficulty_chart(
    difficulty: Any,
    title: str | None = None,
    *,
    subtitle: str | None = None,
    themed: bool = True,
) -> AnyChart:
    """Return P(party wins) against the number of foe copies of a :func:`workbench.encounter_difficulty`
    result: points joined by a line, ±1.96 standard errors as error bars on the simulated points (an
    exact point has none), and a dashed rule at each of its levels labelled with the most copies the
    party beats that often. The tooltip gives each point's P(party wins), P(foes win) and how it was
    computed."""
    from .encounters import Difficulty, side_name

    if not isinstance(difficulty, Difficulty):
        raise RulesError(
            f"give the result of wb.encounter_difficulty, not {type(difficulty).__name__}", field="difficulty"
        )
    curve = difficulty.curve
    if curve.height == 0:
        raise RulesError("the difficulty's curve has no points", field="difficulty")
    party, foe = side_name(difficulty.party), difficulty.foe
    data = curve.select("copies", "p_party_wins", "p_foes_win", "exact", "standard_error").with_columns(
        method=pl.when(pl.col("exact")).then(pl.lit("exact")).otherwise(pl.lit("simulated")),
        how=pl.when(pl.col("exact"))
        .then(pl.lit("exact"))
        .otherwise(pl.lit("simulated, s.e. ") + (pl.col("standard_error") * 100).round(2).cast(pl.String) + " %"),
        lo=(pl.col("p_party_wins") - 1.96 * pl.col("standard_error")).clip(0.0, 1.0),
        hi=(pl.col("p_party_wins") + 1.96 * pl.col("standard_error")).clip(0.0, 1.0),
    )
    most = int(_number(data["copies"].max()))
    x = alt.X(
        "copies:Q",
        title=f"copies of {foe}",
        axis=alt.Axis(values=list(range(1, most + 1)), format="d"),
        scale=alt.Scale(domain=[0.5, most + 0.5]),
    )
    y = alt.Y("p_party_wins:Q", title="P(party wins)", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1]))
    tips = [
        alt.Tooltip("copies:Q", title=f"copies of {foe}"),
        alt.Tooltip("p_party_wins:Q", title="P(party wins)", format=".2%"),
        alt.Tooltip("p_foes_win:Q", title="P(foes win)", format=".2%"),
        alt.Tooltip("how:N", title="computed"),
    ]
    levels = sorted(difficulty.copies.items())
    last = data.row(data.height - 1, named=True)

    def beaten(level: float, n: int) -> tuple[str, bool]:
        """The most copies beaten with P >= level, and whether more might be: the scan stopped at
        its last copy with the party still at or above the level."""
        more = bool(n) and n == last["copies"] and last["p_party_wins"] >= level
        return (f"{n} cop{'y' if n == 1 else 'ies'}" if n else "not even 1 copy"), more

    labels = []
    for level, n in levels:
        text, more = beaten(level, n)
        labels.append(
            f"P ≥ {level:.0%}: " + (f"{text} or more (the most tried)" if more else f"up to {text}" if n else text)
        )
    rules = pl.DataFrame(
        {"level": [float(level) for level, _ in levels], "label": labels},
        schema={"level": pl.Float64, "label": pl.String},
    )
    level_y = alt.Y("level:Q", scale=alt.Scale(domain=[0, 1]))
    layers: list[Any] = [
        alt.Chart(rules).mark_rule(color="#888", strokeDash=[4, 4]).encode(y=level_y),
        alt.Chart(rules)
        # under the rule at the left: the curve falls from the left, so it is seldom there
        .mark_text(align="left", baseline="top", dx=4, dy=3, color="#555", fontSize=11)
        .encode(y=level_y, x=alt.value(0), text="label:N"),
    ]
    simulated = data.filter(~pl.col("exact"))
    if simulated.height:  # behind the points: a simulated point is hollow, so its bar shows through it
        layers.append(
            alt.Chart(simulated)
            .mark_errorbar(ticks=alt.TickConfig(size=12, thickness=1.5), color="#333", thickness=1.5)
            .encode(
                x=x,
                y=alt.Y("lo:Q", title="P(party wins)", scale=alt.Scale(domain=[0, 1])),
                y2="hi:Q",
                tooltip=tips
                + [
                    alt.Tooltip("lo:Q", title="−1.96 s.e.", format=".2%"),
                    alt.Tooltip("hi:Q", title="+1.96 s.e.", format=".2%"),
                ],
            )
        )
    # the legend names only the methods on the chart (an all-simulated curve shows no "exact")
    shown = [
        (m, mark, fill)
        for m, mark, fill in [("exact", "circle", PALETTE[0]), ("simulated", "diamond", "white")]
        if m in set(data["method"])
    ]
    methods = [m for m, _, _ in shown]
    legend = alt.Legend(orient="bottom") if simulated.height else None
    base = alt.Chart(data)
    layers.append(base.mark_line(color=PALETTE[0], strokeWidth=2).encode(x=x, y=y))
    layers.append(
        base.mark_point(filled=True, size=70, opacity=1, stroke=PALETTE[0], strokeWidth=1.5).encode(
            x=x,
            y=y,
            shape=alt.Shape(
                "method:N", title=None, scale=alt.Scale(domain=methods, range=[m for _, m, _ in shown]), legend=legend
            ),
            fill=alt.Fill(
                "method:N", title=None, scale=alt.Scale(domain=methods, range=[f for _, _, f in shown]), legend=legend
            ),
            tooltip=tips,
        )
    )
    if subtitle is None:
        most_beaten = ", ".join(
            f"{text}{' or more' if more else ''} with P ≥ {level:.0%}"
            for level, n in reversed(levels)
            for text, more in [beaten(level, n)]
        )
        how = "every point exact" if not simulated.height else f"{simulated.height} simulated: bars ±1.96 s.e."
        subtitle = f"most beaten: {most_beaten} · {how}"
    chart = alt.layer(*layers).properties(
        title=_title(title or f"{party} against copies of {foe}", subtitle), width=WIDTH, height=HEIGHT
    )
    return _finish(chart, themed)


# --------------------------------------------------------------------------- comparison
def heatmap(
    frame: pl.DataFrame,
    x: str,
    y: str,
    value: str,
    title: str | None = None,
    *,
    subtitle: str | Sequence[str] | None = None,
    value_title: str | None = None,
    fmt: str = ".2f",
    scheme: Any = "viridis",
    reverse: bool = False,
    select: str | None = None,
    selected: tuple[Any, Any] | None = None,
    extra: Sequence[str] = (),
    symmetric: bool = False,
    clip: bool = True,
    themed: bool = True,
) -> AnyChart:
    """Return a grid of coloured cells (e.g. builds × creatures), each labelled with its value.

    ``clip`` (default): the colour scale is fitted to the bulk of the values (:func:`colour_domain`):
    cells past it (one 242-round cell among values under 20) keep their number, take the end
    colour, are outlined in red, and the subtitle says so; the others keep their contrast.

    One row per (x, y) is expected; duplicates are averaged. Cells whose value is null, NaN or
    infinite are grey (Vega-Lite holds no inf/NaN), labelled "∞" if infinite and "–" otherwise. ``extra`` names more columns for the tooltip;
    a compare frame's ``method``, ``se`` and ``forced_by`` are always in it, and its subtitle
    (unless given) says how many cells were simulated and which state forced it; an explore frame's
    (``state_ignored`` too) says the cells are exact one-turn statistics and how many rank without
    the state their fight carries (:func:`workbench.exploration.method_line`). ``reverse=True`` flips the colour
    scheme (for "lower is better" values such as rounds to kill). ``select="cell"`` adds click
    selections of a cell's (x, y): ``cell`` on the cells and ``cell_label`` on their labels;
    ``selected=(x_value, y_value)`` outlines that cell. ``symmetric=True`` makes the colour domain
    symmetric about 0 (for differences on a diverging scheme: 0 is the middle colour).
    """
    frame = as_polars(frame)
    missing = {x, y, value, *extra} - set(frame.columns)
    if missing:
        raise RulesError(f"frame lacks column(s) {sorted(missing)}", field="frame")
    # how each cell was computed (compare's method / se / forced_by; explore's state_ignored) is
    # always in the tooltip
    how = ("method", "se", "forced_by", "state_ignored")
    extra = [*extra, *[c for c in how if c in frame.columns and c not in extra]]
    scale = alt.Scale(scheme=scheme, reverse=reverse)
    if symmetric:
        values = frame[value].cast(pl.Float64)
        finite = values.filter(values.is_finite())
        m = float(finite.abs().max() or 0.0) if finite.len() else 0.0  # type: ignore[arg-type]
        scale = alt.Scale(scheme=scheme, reverse=reverse, domain=[-m, m] if m > 0 else [-1.0, 1.0])
    half = 0.5 * m if symmetric and m > 0 else 0.5
    if subtitle is None and "state_ignored" in frame.columns:  # an explore frame: one turn, exact
        from .exploration import method_line as explore_line

        subtitle = explore_line(frame)
    elif subtitle is None and "method" in frame.columns:
        from .fight_rows import method_line

        subtitle = method_line(frame)
    data = frame.group_by(x, y, maintain_order=True).agg(
        pl.col(value).cast(pl.Float64).mean(), *[pl.col(c).first() for c in extra]
    )
    # Vega-Lite cannot hold inf or NaN (vl-convert: 'Unrecognized signal name: "inf"'): such cells
    # become null (grey); an infinite one (e.g. mean rounds of a turn that never damages) reads "∞".
    infinite = data[value].is_infinite().fill_null(False)
    data = data.with_columns(
        pl.when(pl.col(value).is_finite()).then(pl.col(value)).otherwise(None).alias(value), infinite.alias("_infinite")
    )
    if data.height > MAX_ROWS:
        raise RulesError(f"{data.height} cells is more than a chart holds; filter the grid first", field="frame")
    nx, ny = data[x].n_unique(), data[y].n_unique()
    cell = max(18, min(48, 600 // max(nx, 1)))
    vmin, vmax = data[value].min(), data[value].max()
    clipped_note = ""
    if clip and not symmetric:
        domain = colour_domain(data[value])
        if domain is not None:
            lo, hi = domain
            scale = alt.Scale(scheme=scheme, reverse=reverse, domain=[lo, hi], clamp=True)
            data = data.with_columns(_clipped=(pl.col(value) > hi).fill_null(False))
            n_out = int(data["_clipped"].sum())
            clipped_note = (
                f"colours fitted to values up to {format(hi, fmt)}; {n_out} cell{'s' if n_out != 1 else ''} "
                f"above (to {format(_number(vmax), fmt)}) outlined red"
            )
            vmax = hi
            subtitle = [*([subtitle] if isinstance(subtitle, str) else list(subtitle or [])), clipped_note]
    mid = (_number(vmin) + _number(vmax)) / 2 if vmin is not None else 0.0
    value_title = value_title or value.replace("_", " ")
    base = alt.Chart(data).encode(
        x=alt.X(f"{x}:N", title=x.replace("_", " "), sort=None, axis=alt.Axis(labelAngle=-40, labelLimit=160)),
        y=alt.Y(f"{y}:N", title=y.replace("_", " "), sort=None, axis=alt.Axis(labelLimit=180)),
    )
    tooltip = [
        alt.Tooltip(f"{x}:N"),
        alt.Tooltip(f"{y}:N"),
        alt.Tooltip(f"{value}:Q", title=value_title, format=fmt),
        *[
            alt.Tooltip(f"{c}:Q", title=c.replace("_", " "), format=".4f")
            if frame.schema[c].is_numeric()
            else alt.Tooltip(f"{c}:N", title=c.replace("_", " "))
            for c in extra
        ],
    ]
    valid = f"isValid(datum['{value}'])"
    blank = base.transform_filter(f"!{valid}")
    rect = base.mark_rect(stroke="white", strokeWidth=1).encode(
        **(
            {
                "stroke": alt.condition("datum._clipped", alt.value("#d1242f"), alt.value("white")),
                "strokeWidth": alt.condition("datum._clipped", alt.value(2.5), alt.value(1)),
            }
            if clipped_note
            else {}
        ),
        color=alt.Color(
            f"{value}:Q",
            title=value_title,
            scale=scale,
        ),
        tooltip=tooltip,
    )
    if selected is not None:
        mark = pl.DataFrame({x: [selected[0]], y: [selected[1]]}).cast({x: data.schema[x], y: data.schema[y]})
        outline = (
            alt.Chart(mark)
            .mark_rect(fill=None, stroke="#111", strokeWidth=3)
            .encode(x=alt.X(f"{x}:N", sort=None), y=alt.Y(f"{y}:N", sort=None))
        )
    if select:
        rect = rect.add_params(alt.selection_point(name=select, fields=[x, y], on="click", clear="dblclick"))
    layers = [rect]
    if data[value].null_count():
        layers.append(blank.mark_rect(fill="#eeeeee", stroke="white", strokeWidth=1).encode(tooltip=tooltip))
        layers.append(
            blank.mark_text(fontSize=10, color="#888").encode(
                text=alt.condition("datum._infinite", alt.value("∞"), alt.value("–"))
            )
        )
    if nx * ny <= 400:
        # dark text on the light end of the scheme, light text on the dark end
        light_high = not reverse
        cond = f"datum['{value}'] {'>' if light_high else '<'} {mid}"
        if symmetric:  # a diverging scheme is light in the middle, dark at both ends
            cond = f"abs(datum['{value}']) < {half}"
        text = (
            base.transform_filter(valid)
            .mark_text(fontSize=10)
            .encode(
                text=alt.Text(f"{value}:Q", format=fmt),
                color=alt.condition(cond, alt.value("black"), alt.value("white")),
                tooltip=tooltip,
            )
        )
        if select:
            text = text.add_params(
                alt.selection_point(name=f"{select}_label", fields=[x, y], on="click", clear="dblclick")
            )
        layers.append(text)
    if selected is not None:
        layers.append(outline)
    chart = alt.layer(*layers).properties(
        title=_title(title or _cap(f"{value_title} by {x.replace('_', ' ')} and {y.replace('_', ' ')}"), subtitle),
        width=cell * nx,
        height=max(18, min(36, 400 // max(ny, 1))) * ny,
    )
    return _finish(chart, themed)


def colour_domain(values: pl.Series) -> tuple[float, float] | None:
    """Return the colour domain (low, high) that fits the bulk of ``values`` when a few lie far
    above it, else None (the full range reads well). The bulk ends at the largest value within
    Q3 + 3 IQR (and at least the 90th percentile); it is used only when the largest value is more
    than twice as far from the low end as that."""
    s = values.cast(pl.Float64)
    v = s.filter(s.is_finite()).to_numpy()
    if v.size < 4:
        return None
    lo = float(v.min())
    q1, q3, q90 = (float(np.quantile(v, q)) for q in (0.25, 0.75, 0.9))
    fence = max(q3 + 3 * (q3 - q1), q90)
    hi = float(v[v <= fence].max())
    if hi <= lo or float(v.max()) - lo <= 2 * (hi - lo):
        return None
    return lo, hi


def compare_bars(
    frame: pl.DataFrame,
    category: str,
    value: str,
    group: str | None = None,
    title: str | None = None,
    *,
    subtitle: str | None = None,
    value_title: str | None = None,
    error: str | None = None,
    fmt: str = ".2f",
    themed: bool = True,
) -> AnyChart:
    """Return bars of ``value`` per ``category``, grouped side by side by ``group`` (e.g. builds per creature).

    ``error`` names an optional column (e.g. the sd) drawn as ± whiskers.
    """
    frame = as_polars(frame)
    needed = {category, value} | {c for c in (group, error) if c}
    missing = needed - set(frame.columns)
    if missing:
        raise RulesError(f"frame lacks column(s) {sorted(missing)}", field="frame")
    if frame.height > MAX_ROWS:
        raise RulesError(f"{frame.height} bars is more than a chart holds; filter first", field="frame")
    data = frame.select([c for c in frame.columns if c in needed])  # in the frame's column order
    value_title = value_title or value.replace("_", " ")
    if error:
        data = data.with_columns(lo=pl.col(value) - pl.col(error), hi=pl.col(value) + pl.col(error))
    tooltip = (
        [alt.Tooltip(f"{category}:N")]
        + ([alt.Tooltip(f"{group}:N")] if group else [])
        + [alt.Tooltip(f"{value}:Q", title=value_title, format=fmt)]
        + ([alt.Tooltip(f"{error}:Q", format=fmt)] if error else [])
    )
    enc: dict[str, Any] = dict(
        x=alt.X(
            f"{category}:N", title=category.replace("_", " "), sort=None, axis=alt.Axis(labelAngle=-30, labelLimit=160)
        ),
        y=alt.Y(f"{value}:Q", title=value_title),
        tooltip=tooltip,
    )
    if group:
        enc["color"] = alt.Color(f"{group}:N", title=group.replace("_", " "), scale=alt.Scale(range=PALETTE))
        enc["xOffset"] = alt.XOffset(f"{group}:N", sort=None)
    else:
        enc["color"] = alt.value(PALETTE[0])
    base = alt.Chart(data)
    layers = [base.mark_bar().encode(**enc)]
    if error:
        werr = {k: v for k, v in enc.items() if k in ("x", "xOffset", "tooltip")}
        layers.append(base.mark_rule(color="#333").encode(y="lo:Q", y2="hi:Q", **werr))
    n_cat = data[category].n_unique()
    n_grp = data[group].n_unique() if group else 1
    chart = alt.layer(*layers).properties(
        title=_title(title or _cap(f"{value_title} by {category.replace('_', ' ')}"), subtitle),
        width=max(WIDTH, min(900, n_cat * max(n_grp, 1) * 22)),
        height=HEIGHT,
    )
    return _finish(chart, themed)


# --------------------------------------------------------------------------- export
def _spec(chart: AnyChart | dict) -> dict:
    return chart if isinstance(chart, dict) else chart.to_dict()


def save_png(chart: AnyChart | dict, path: str | Path, scale: float = 2.0) -> Path:
    """Write ``chart`` as a PNG (offline, through vl-convert) and return the path; a
    RulesError names what to install when vl-convert-python (the ``export`` extra) is missing."""
    vlc = vl_convert("saving a chart as PNG")

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(vlc.vegalite_to_png(_spec(chart), scale=scale))
    return path


def save_svg(chart: AnyChart | dict, path: str | Path) -> Path:
    """Write ``chart`` as an SVG (offline, through vl-convert) and return the path; a
    RulesError names what to install when vl-convert-python (the ``export`` extra) is missing."""
    vlc = vl_convert("saving a chart as SVG")

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(vlc.vegalite_to_svg(_spec(chart)))
    return path


def sweep_chart(
    frame: pl.DataFrame,
    value: str = "mean_rounds",
    title: str | None = None,
    *,
    band: bool | None = None,
    subtitle: str | None = None,
    label: str | None = None,
    themed: bool = True,
) -> AnyChart:
    """Return one line per build (attacker · attack) of ``value`` against the swept parameter of a
    :func:`workbench.sweeps.sweep` frame, with the 10-90 % band of the rounds (``rounds_q10`` to
    ``rounds_q90``) behind it when ``value`` is a rounds column (``band`` forces it on or off).
    ``label`` names a column of the frame that names each line instead (e.g. a pinned build's
    label). Rows whose value is null or infinite (a build that never downs the target) leave a gap."""
    frame = as_polars(frame)
    needed = {"parameter", "value", "attacker", "attack", value} | ({label} if label else set())
    missing = needed - set(frame.columns)
    if missing:
        raise RulesError(f"frame lacks column(s) {sorted(missing)}: give a wb.sweep frame", field="frame")
    if band is None:
        band = value in ("mean_rounds", "rounds_q50")
    cols = ["value", "attacker", "attack", value] + (["rounds_q10", "rounds_q90"] if band else [])
    named = frame.select(cols + ([label] if label and label not in cols else [])).with_columns(
        build=pl.col(label).cast(pl.String) if label else pl.col("attacker") + " · " + pl.col("attack")
    )
    parameter = str(frame["parameter"][0]) if frame.height else "value"
    never = _never_note(named, value, parameter.split(".", 1)[-1].replace("_", " "))
    data = named.with_columns(pl.when(pl.col(value).is_infinite()).then(None).otherwise(pl.col(value)).alias(value))
    if data.height > MAX_ROWS:
        raise RulesError(f"{data.height} points is more than a chart holds; sweep fewer values", field="frame")
    value_title = value.replace("_", " ")
    builds = list(dict.fromkeys(data["build"].to_list()))
    # (the legend's symbols opaque: they are the band's, pale, otherwise)
    colour = alt.Color(
        "build:N", title="Build", scale=alt.Scale(range=PALETTE), sort=builds, legend=alt.Legend(symbolOpacity=1)
    )
    x = alt.X("value:Q", title=parameter.split(".", 1)[-1].replace("_", " "))
    base = alt.Chart(data)
    layers = []
    if band:
        layers.append(
            base.mark_area(opacity=0.18).encode(
                x=x, y=alt.Y("rounds_q10:Q", title=value_title), y2="rounds_q90:Q", color=colour
            )
        )
    layers.append(
        base.mark_line(point=data.height <= 300).encode(
            x=x,
            y=alt.Y(f"{value}:Q", title=value_title),
            color=colour,
            tooltip=[
                alt.Tooltip("build:N"),
                alt.Tooltip("value:Q", title=parameter),
                alt.Tooltip(f"{value}:Q", title=value_title, format=".3f"),
                *(
                    [alt.Tooltip("rounds_q10:Q", title="10 %"), alt.Tooltip("rounds_q90:Q", title="90 %")]
                    if band
                    else []
                ),
            ],
        )
    )
    default_sub: str | list[str] = "line: " + value_title + (", band: 10-90 % of the rounds" if band else "")
    if never:
        default_sub = [str(default_sub), *never]
    chart = alt.layer(*layers).properties(
        title=_title(title or f"{value_title} against {parameter}", subtitle or default_sub), width=WIDTH, height=HEIGHT
    )
    return _finish(chart, themed)


def _never_note(data: pl.DataFrame, value: str, parameter: str) -> list[str]:
    """Return the subtitle lines saying where a line of a sweep chart has a gap because its build
    never downs the target (``value`` infinite: rounds to kill of a turn that cannot damage), one
    per build, the swept values of ``parameter`` run together ("toughness 4 to 11"); [] where there
    is none."""
    if data.is_empty() or not data.schema[value].is_float():
        return []
    swept = sorted(set(data["value"].to_list()))
    place = {v: i for i, v in enumerate(swept)}
    lines = []
    for build in dict.fromkeys(data["build"].to_list()):
        rows = data.filter((pl.col("build") == build) & pl.col(value).is_infinite())
        if rows.is_empty():
            continue
        at = sorted(place[v] for v in rows["value"].to_list())
        # a run: values next to each other in the sweep, evenly spaced (4, 5, ..., 11 but not 11, 13)
        runs: list[list[int]] = []
        for i in at:
            r = runs[-1] if runs else []
            step = swept[r[1]] - swept[r[0]] if len(r) > 1 else None
            if r and i == r[-1] + 1 and (step is None or swept[i] - swept[r[-1]] == step):
                r.append(i)
            else:
                runs.append([i])
        parts = [
            ", ".join(f"{swept[i]:g}" for i in r) if len(r) < 3 else f"{swept[r[0]]:g} to {swept[r[-1]]:g}"
            for r in runs
        ]
        lines.append(f"no point where {build} never downs the target: {parameter} {', '.join(parts)}")
    return lines


def race_chart(row: pl.DataFrame, title: str | None = None, *, themed: bool = True) -> AnyChart:
    """Return the two builds' rounds-to-kill curves of a :func:`workbench.races.head_to_head` row
    made with ``curves=True``, subtitled with who downs the target first how often and which curve
    dominates (the higher curve everywhere is the faster build)."""
    row = as_polars(row)
    need = {"a", "b", "target", "p_killed_by_a", "p_killed_by_b", "p_a_first", "p_b_first", "p_tie"}
    if not isinstance(row, pl.DataFrame) or row.height != 1 or not need <= set(row.columns):
        raise RulesError("give the one-row frame of wb.head_to_head(..., curves=True)", field="row")
    r = row.row(0, named=True)
    a, b = (r["a"], r["b"]) if r["a"] != r["b"] else (f"{r['a']} (A)", f"{r['b']} (B)")
    frames = {
        name: pl.DataFrame({"round": range(1, len(by) + 1), "p_killed_by": by})
        for name, by in ((a, r["p_killed_by_a"]), (b, r["p_killed_by_b"]))
    }
    dom = r.get("rounds_dominance", "")
    faster = {"a": a, "b": b, r["a"]: a, r["b"]: b}.get(dom) if dom not in ("equal", "neither") else None
    sub = f"{a} first {r['p_a_first']:.1%} · same round {r['p_tie']:.1%} · {b} first {r['p_b_first']:.1%}" + (
        f"; {faster} is faster at every round" if faster else "; the curves cross: neither is faster at every round"
    )
    return rounds_chart(
        frames,
        title=title or f"Who downs {r['target']} first",
        subtitle=sub,
        legend_title="Build",
        themed=themed,
    )


def variant_heatmap(
    frame: pl.DataFrame, variant: str, value: str = "mean_rounds", title: str | None = None, *, themed: bool = True
) -> AnyChart:
    """Return the builds × targets grid of one rule variant's difference from the baseline (a
    :func:`workbench.rule_variants.variants` frame's ``delta_<value>``), on a diverging scale centred
    on 0: blue where the variant is better for the attacker (more damage, fewer rounds), red where
    worse."""
    frame = as_polars(frame)
    col = f"delta_{value}"
    if "variant" not in frame.columns or col not in frame.columns:
        raise RulesError(f"give a wb.variants frame with column {col}", field="frame")
    rows = frame.filter(pl.col("variant") == variant)
    if rows.height == 0:
        raise RulesError(
            f"no variant {variant!r}; the frame has {', '.join(frame['variant'].unique(maintain_order=True))}",
            field="variant",
        )
    rows = rows.with_columns(build=pl.col("attacker") + " · " + pl.col("attack"))
    lower_is_better = value in ("mean_rounds", "rounds_q10", "rounds_q50", "rounds_q90")
    base = str(frame["baseline"][0]) if "baseline" in frame.columns else "the baseline"
    subtitle = ["blue: better for the attacker, red: worse"]
    extra: tuple[str, ...] = ()
    if value in frame.columns and "baseline" in frame.columns:
        # a grey cell ("–") has no change to show: the build never downs the target under one rule
        # set or both (rounds infinite); said in the subtitle and in the cell's tooltip
        key = ["attacker", "attack", "target"]
        ref = frame.filter(pl.col("variant") == pl.col("baseline")).select(*key, pl.col(value).alias("_base"))
        rows = rows.join(ref, on=key, how="left", maintain_order="left")
        never_here, never_base = pl.col(value).is_infinite(), pl.col("_base").is_infinite()
        rows = rows.with_columns(
            why=pl.when(never_here & never_base)
            .then(pl.lit("never downs the target under either rule set"))
            .when(never_here)
            .then(pl.lit(f"never downs the target under {variant}"))
            .when(never_base)
            .then(pl.lit(f"downs the target only under {variant}"))
            .otherwise(None)
        ).drop("_base")
        counts = rows["why"].drop_nulls().value_counts().sort(["count", "why"], descending=[True, False])
        if counts.height:
            extra = ("why",)
            said = ", ".join(f"{n} cell{'s' if n != 1 else ''} where it {w}" for w, n in counts.iter_rows())
            subtitle.append(f"grey (–): no change to show, {said}")
    return heatmap(
        rows,
        "target",
        "build",
        col,
        title or f"{variant} against {base}: change in {value.replace('_', ' ')}",
        subtitle=subtitle,
        value_title=f"change in {value.replace('_', ' ')}",
        scheme="redblue",
        reverse=lower_is_better,
        symmetric=True,
        extra=extra,
        themed=themed,
    )


def cost_front_chart(
    frame: pl.DataFrame, by: str = "mean_turn_damage", title: str | None = None, *, themed: bool = True
) -> AnyChart:
    """Return a scatter of cost (x) against ``by`` (y) of an explore frame's rows, one colour per
    target, with each target's Pareto front (:func:`workbench.exploration.cost_front`) drawn as
    larger points joined by a line; the tooltip names the build, its sets and what it stands for."""
    from .exploration import cost_front

    front = cost_front(frame, by)  # checks the columns
    keep = [c for c in ("name", "target", "cost", by, "sets", "same_as") if c in frame.columns]
    data = frame.select(keep).with_columns(pl.lit(False).alias("front"))
    data = pl.concat([data, front.select(keep).with_columns(pl.lit(True).alias("front"))], how="vertical_relaxed")
    if data.height > MAX_ROWS:
        raise RulesError(f"{data.height} points is more than a chart holds; give fewer rows", field="frame")
    label = by.replace("_", " ")
    targets = list(dict.fromkeys(frame["target"].to_list()))
    # (the legend's symbols opaque: they are the pale points' otherwise)
    colour = alt.Color(
        "target:N", title="Target", scale=alt.Scale(range=PALETTE), sort=targets, legend=alt.Legend(symbolOpacity=1)
    )
    tips = [alt.Tooltip(f"{c}:N" if c in ("name", "target") else f"{c}:Q") for c in keep if c != by]
    tips.insert(2, alt.Tooltip(f"{by}:Q", title=label, format=".4f"))
    x = alt.X("cost:Q", title="cost", scale=alt.Scale(zero=False), axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y(f"{by}:Q", title=label)
    base = alt.Chart(data)
    points = (
        base.transform_filter("!datum.front")
        .mark_circle(size=36, opacity=0.35)
        .encode(x=x, y=y, color=colour, tooltip=tips)
    )
    line = (
        base.transform_filter("datum.front")
        .mark_line(point=alt.OverlayMarkDef(size=80, filled=True))
        .encode(x=x, y=y, color=colour, tooltip=tips)
    )
    chart = alt.layer(points, line).properties(
        title=_title(title or f"Cost front: {label} per cost", "joined: the Pareto front per target (cheapest best)"),
        width=WIDTH,
        height=HEIGHT,
    )
    return _finish(chart, themed)


#: how far past its tolerance a published figure is drawn (further ones sit at the edge, marked)
REFERENCE_CLIP = 3.0


def references_chart(frame: pl.DataFrame | None = None, title: str | None = None, *, themed: bool = True) -> AnyChart:
    """Return one point per published figure of :func:`workbench.published.references` (default:
    all of them): x = (engine - published) / tolerance, the deviation in units of the source's own
    rounding (the shaded band, -1 to 1, is agreement; points past ±REFERENCE_CLIP sit at the edge
    as a triangle), one row per figure grouped by section; the colour says whether the figure is
    within its rounding, published wrong as docs/references.md explains, or NOT reproduced."""
    from .published import references

    frame = references() if frame is None else frame
    need = {"section", "source", "figure", "published", "engine", "tolerance", "within", "agrees", "reproduced"}
    if not isinstance(frame, pl.DataFrame) or not need <= set(frame.columns) or frame.height == 0:
        raise RulesError("give the frame of wb.references()", field="frame")
    scaled = (pl.col("engine") - pl.col("published")) / pl.col("tolerance")
    status = (
        pl.when(~pl.col("reproduced"))
        .then(pl.lit("NOT reproduced"))
        .when(pl.col("within"))
        .then(pl.lit("within the source's rounding"))
        .otherwise(pl.lit("published wrong (explained)"))
    )
    data = frame.with_columns(
        (pl.col("source").str.split(",").list.first() + ": " + pl.col("figure")).alias("label"),
        scaled.clip(-REFERENCE_CLIP, REFERENCE_CLIP).alias("x"),
        (scaled.abs() > REFERENCE_CLIP).alias("clipped"),
        status.alias("status"),
    ).select(
        "section",
        "label",
        "source",
        "figure",
        "published",
        "engine",
        "tolerance",
        "unit",
        "note",
        "x",
        "clipped",
        "status",
    )
    order = data["label"].to_list()
    statuses = ["within the source's rounding", "published wrong (explained)", "NOT reproduced"]
    colour = alt.Color(
        "status:N", title=None, scale=alt.Scale(domain=statuses, range=[PALETTE[2], PALETTE[1], PALETTE[3]])
    )
    x = alt.X(
        "x:Q",
        title="(engine − published) / the source's rounding",
        scale=alt.Scale(domain=[-REFERENCE_CLIP, REFERENCE_CLIP]),
    )
    y = alt.Y("label:N", title=None, sort=order, axis=alt.Axis(labelLimit=320))
    tips = [
        alt.Tooltip("source:N"),
        alt.Tooltip("figure:N"),
        alt.Tooltip("published:Q"),
        alt.Tooltip("engine:Q", format=".8g"),
        alt.Tooltip("tolerance:Q", title="± (rounding)"),
        alt.Tooltip("unit:N"),
        alt.Tooltip("note:N"),
    ]
    band = (
        alt.Chart(pl.DataFrame({"lo": [-1.0], "hi": [1.0]}))
        .mark_rect(opacity=0.12, color=PALETTE[2])
        .encode(x="lo:Q", x2="hi:Q")
    )
    shape = alt.Shape(
        "clipped:N", legend=None, scale=alt.Scale(domain=[False, True], range=["circle", "triangle-right"])
    )
    points = alt.Chart(data).mark_point(filled=True, size=60).encode(x=x, y=y, color=colour, shape=shape, tooltip=tips)
    n_in = int(frame["within"].sum())
    sub = (
        f"{int(frame['reproduced'].sum())} of {frame.height} reproduced: {n_in} within the source's rounding, "
        f"{int((~frame['agrees']).sum())} published wrong (docs/references.md says why)"
    )
    chart = alt.layer(band, points).properties(
        title=_title(title or "Published numbers against the engine", sub),
        width=WIDTH,
        height=alt.Step(14),
    )
    return _finish(chart, themed)


#: the views of :func:`pinned_chart`'s damage half
PINNED_VIEWS = ("distribution", "at least")


def pinned_chart(
    dists: Mapping[str, Dist | pl.DataFrame],
    frames: Mapping[str, pl.DataFrame],
    title: str = "Pinned builds",
    *,
    view: str = "distribution",
    damage_title: str = "Damage per turn",
    themed: bool = True,
) -> AnyChart:
    """Return several named builds side by side in two overlays, one colour per name (the legend
    "Build", in the order of ``dists``): on the left their damage distributions
    (:func:`damage_chart` of several; ``view="at least"``: :func:`at_least_chart`), on the right
    their rounds-to-kill curves (:func:`rounds_chart`; ``frames`` may lack a name whose fight
    cannot end)."""
    if view not in PINNED_VIEWS:
        raise RulesError(f"must be one of {', '.join(PINNED_VIEWS)}, not {view!r}", field="view")
    named = _named(dists, "damage")
    if not frames:
        raise RulesError("nothing to chart: no rounds-to-kill frames given", field="frames")
    unknown = [n for n in frames if n not in named]
    if unknown:
        raise RulesError(f"rounds given for {unknown} but no damage", field="frames")
    if view == "at least":
        left = at_least_chart(named, damage_title + ": at least X", subtitle="P(damage ≥ x)", themed=False)
    elif len(named) > 1:
        left = damage_chart(named, damage_title, themed=False)
    else:
        left = _damage_lines(named, damage_title, None, "Damage", themed=False)
    order = [n for n in named if n in frames]
    right = rounds_chart({n: frames[n] for n in order}, "Rounds to kill", themed=False)
    if len(order) == 1:  # one curve: still coloured and in the legend as that build
        right = right.encode(
            color=alt.Color("build:N", title="Build", scale=alt.Scale(range=PALETTE), sort=list(map(str, named)))
        )
    chart = alt.hconcat(left, right, title=_title(title)).resolve_scale(color="shared")
    return _finish(chart, themed)
