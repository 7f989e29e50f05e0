"""``ComparePanel``: every attack of some attackers against some targets → a heatmap; click a cell
to see that matchup's damage distribution.

``value`` is the grid (polars: ``build``, ``target``, ``mean``, ``sd``, ``p_any``, ``illegal``, one row
per (attacker's attack, target)), computed by ONE vectorised ``system.damage_dists`` call over all
matchups. The detail below the heatmap is a :class:`~widgets.damage.DamagePanel` (``panel.detail``).
"""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import ipywidgets as W
import numpy as np
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Panel, _children
from .damage import DamagePanel

__all__ = ["ComparePanel", "damage_grid", "METRICS"]

#: metric label → (grid column, number format, lower is better)
METRICS = {
    "mean damage": ("mean", ".2f", False),
    "P(any damage)": ("p_any", ".0%", False),
    "sd of damage": ("sd", ".2f", False),
}


def damage_grid(system: Any, attackers: Sequence[Any], targets: Sequence[Any], options: Any = None,
                situation: Any = None) -> tuple[pl.DataFrame, list[tuple[Any, Any, Any]]]:
    """Return the grid frame and its matchups ``(attack, attacker, target)`` in row order.

    Rows: every attack of every attacker (``system.attacks_of``) against every target, labelled
    ``"<attacker>: <attack>"``; one ``damage_dists`` call resolves them all. If the engine refuses
    the batch, the matchups are tried one by one to find the illegal ones, which get null numbers
    and the engine's message in ``illegal``; the legal rest is again resolved in one call.
    """
    matchups = [(atk, a, t) for a in attackers for atk in system.attacks_of(a) for t in targets]
    if not matchups:
        raise RulesError("no attacker has an attack to compare", field="attackers")
    n = len(matchups)
    illegal: list[str | None] = [None] * n

    def resolve(rows: list[int]):
        attacks, who, whom = zip(*(matchups[i] for i in rows))
        return system.damage_dists(list(attacks), list(who), list(whom), options, situation)

    legal = list(range(n))
    try:
        dists = resolve(legal)
    except RulesError:
        for i in range(n):
            try:
                resolve([i])
            except RulesError as err:
                illegal[i] = str(err)
        legal = [i for i in range(n) if illegal[i] is None]
        if not legal:
            raise RulesError(f"every matchup is illegal, e.g. {illegal[0]}", field="attackers") from None
        dists = resolve(legal)
    mean, sd, p_any = (np.full(n, np.nan) for _ in range(3))
    mean[legal] = [d.mean() for d in dists]
    sd[legal] = [d.std() for d in dists]
    p_any[legal] = [d.sf(1) for d in dists]
    frame = pl.DataFrame({
        "build": [f"{a.name}: {atk.name}" for atk, a, _ in matchups],
        "target": [t.name for *_, t in matchups],
        "mean": mean, "sd": sd, "p_any": p_any,
        "illegal": pl.Series(illegal, dtype=pl.String),
    }).with_columns(pl.col("mean", "sd", "p_any").fill_nan(None))
    return frame, matchups


class ComparePanel(Panel):
    """Compare attackers' attacks against targets; ``value`` is the grid, ``selected`` the clicked cell.

    Inputs ``attackers`` and ``targets`` (lists of creatures; default: the catalog's first 4 and
    first 6), ``options``, ``situation`` and ``metric`` are traits. Clicking a cell (the chart's
    ``cell`` / ``cell_label`` selections) sets ``selected = (build, target)`` and shows that
    matchup in ``panel.detail``.
    """

    attackers = T.List()
    targets = T.List()
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    metric = T.Unicode("mean damage")
    selected = T.Tuple(allow_none=True, default_value=None)

    def __init__(self, system: Any, attackers: Sequence[Any] | None = None, targets: Sequence[Any] | None = None,
                 *, options: Any = None, situation: Any = None, metric: str = "mean damage", **kwargs: Any) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self._ready = False
        creatures = list(self.system.catalog().creatures.values())
        self.attackers = list(attackers) if attackers is not None else creatures[:4]
        self.targets = list(targets) if targets is not None else creatures[:6]
        self.options = self.system.Options() if options is None else options
        self.situation = self.system.Situation() if situation is None else situation
        self.metric = metric
        self._matchups: list[tuple[Any, Any, Any]] = []
        self.metric_picker = W.Dropdown(options=list(METRICS), value=metric, description="colour by",
                                        style={"description_width": "9em"}, layout=W.Layout(width="22em"))
        T.link((self.metric_picker, "value"), (self, "metric"))
        self.detail: DamagePanel | None = None
        self._ready = True
        self.refresh()
        if self.value is None:
            raise RulesError(self.error or "nothing to compare", field="attackers")
        self.children = _children(self.metric_picker, self.error_box, self.chart, self.detail)

    @T.observe("attackers", "targets", "options", "situation", "metric")
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    def refresh(self) -> pl.DataFrame | None:
        """Recompute the grid and redraw; on a RulesError show it and keep the last grid and chart."""
        if self.metric not in METRICS:
            self.show_error(RulesError(f"must be one of {', '.join(METRICS)}", field="metric"))
            return None
        try:
            frame, matchups = damage_grid(self.system, self.attackers, self.targets, self.options, self.situation)
        except RulesError as err:
            self.show_error(err)
            return None
        self._matchups = matchups
        if self._row_of(self.selected, frame) is None:
            first = frame.filter(pl.col("illegal").is_null()).row(0, named=True)
            self.selected = (first["build"], first["target"])
        self._draw(frame)
        self.clear_message(self.error)
        with warnings.catch_warnings():  # traitlets compares the old frame (or None) with == first
            warnings.simplefilter("ignore")
            self.value = frame
        self._show_detail(frame)
        return frame

    def _draw(self, frame: pl.DataFrame) -> None:
        column, fmt, lower_better = METRICS[self.metric]
        n_bad = frame["illegal"].is_not_null().sum()
        note = f"; {n_bad} illegal matchup{'s' if n_bad != 1 else ''} shown grey" if n_bad else ""
        chart = charts.heatmap(frame, x="target", y="build", value=column, value_title=self.metric,
                               title=f"{self.metric} per attack", subtitle="click a cell to see its distribution" + note,
                               fmt=fmt, reverse=lower_better, select="cell", extra=("illegal",) if n_bad else (),
                               selected=None if self.selected is None else (self.selected[1], self.selected[0]))
        self.set_chart(chart)
        if not getattr(self, "_watching", False):
            self.chart.observe(self._on_click, names="_vl_selections")
            self._watching = True

    @staticmethod
    def _row_of(cell: tuple[str, str] | None, frame: pl.DataFrame) -> int | None:
        if cell is None:
            return None
        hits = np.flatnonzero((frame["build"] == cell[0]).to_numpy() & (frame["target"] == cell[1]).to_numpy())
        return int(hits[0]) if hits.size else None

    def _on_click(self, change: dict) -> None:
        """Read the Vega point signal the browser sends ({"vlPoint": {"or": [{build, target}]}})."""
        from altair.utils.selection import PointSelection

        for name in ("cell", "cell_label"):
            raw = change["new"].get(name) or {}
            picked = PointSelection.from_vega(name, raw.get("value"), raw.get("store", [])).value
            if picked:
                cell = (picked[0].get("build"), picked[0].get("target"))
                row = self._row_of(cell, self.value)
                if row is not None and self.value["illegal"][row] is None:
                    self.selected = cell
                return

    @T.observe("selected")
    def _on_selected(self, change: dict) -> None:
        if self._ready and self.value is not None and self._row_of(change["new"], self.value) is not None:
            self._draw(self.value)
            self._show_detail(self.value)

    def _show_detail(self, frame: pl.DataFrame) -> None:
        row = self._row_of(self.selected, frame)
        if row is None:
            return
        attack, attacker, target = self._matchups[row]
        if self.detail is None:
            self.detail = self._adopt(DamagePanel(self.system, attacker, target, attack, options=self.options,
                                                  situation=self.situation, controls=False))
        else:
            self.detail.update(attacker=attacker, target=target, attack=attack, options=self.options,
                               situation=self.situation)
