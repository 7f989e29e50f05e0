"""``ComparePanel``: every attack of some attackers against some targets → a heatmap; click a cell
to see that matchup's damage distribution.

``value`` is the frame of :func:`workbench.compare` (one row per (attacker, attack, target): damage
per use and per turn, P(kill in one turn), exact mean rounds to kill and its quantiles) with a
``build`` label ("<attacker>: <attack>") and an ``illegal`` column: the engine's reason when the
rules forbid a matchup here (it is then grey). The metric picker only recolours the grid; the
detail below is a :class:`~workbench.widgets.damage.DamagePanel` of the clicked matchup (``panel.detail``)
with a line of its per-turn and rounds-to-kill numbers (``panel.detail_stats``).
"""

from __future__ import annotations

import html
import time
import warnings
from collections.abc import Sequence
from typing import Any

import ipywidgets as W
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded
from .damage import DamagePanel
from .encounter import copies_box

__all__ = ["ComparePanel", "compare_grid", "METRICS"]

#: metric label → (column of the wb.compare frame, number format, lower is better)
#: simulated fights of each group cell (copies above 1): fewer than compare's 2,000 so that the default
#: grid of 4 attackers x 6 groups of 3 stays within the counted bound (MAX_GROUP_ROW_FIGHTS); the
#: detail shows each cell's standard error
GROUP_FIGHTS = 500

METRICS = {
    "mean damage per use": ("mean_damage", ".2f", False),
    "mean damage per turn": ("mean_turn_damage", ".2f", False),
    "P(kill in one turn)": ("p_kill_one_turn", ".0%", False),
    "mean rounds to kill": ("mean_rounds", ".1f", True),
    "P(any damage)": ("p_any_damage", ".0%", False),
}


def _reason(messages: Sequence[str], label: str) -> str | None:
    """Return the reason ``wb.compare`` gave for leaving out ``label`` ("<label> (<reason>)"), if any."""
    key = f"{label} ("
    for m in messages:
        i = m.find(key)
        if i < 0:
            continue
        start = depth = i + len(key)
        depth = 1
        for j in range(start, len(m)):
            depth += {"(": 1, ")": -1}.get(m[j], 0)
            if depth == 0:
                return m[start:j]
        return m[start:]
    return None


def compare_grid(
    system: Any,
    attackers: Sequence[Any],
    targets: Sequence[Any],
    options: Any = None,
    situation: Any = None,
    max_rounds: int = 100,
    copies: int = 1,
) -> tuple[pl.DataFrame, dict[tuple[str, str], tuple]]:
    """Return the grid frame and ``{(build, target): (attack, attacker, target)}``.

    One :func:`workbench.compare` call (``best_plan=False``: one row per attack and target) gives
    every number; a matchup it leaves out as unusable here (out of range, ...) gets null numbers and
    the engine's reason in ``illegal``. RulesError when nothing can be compared. ``copies`` above 1
    makes each target a group of that many passive copies ("3 x Wolf", compare's group rows: the
    rounds until every copy has fallen, :data:`GROUP_FIGHTS` fights where simulated); the cell keeps
    the creature (one copy) for the detail.
    """
    import workbench as wb
    from workbench.encounters import Group, check_group
    from workbench.fight_rows import COMPARE_FIGHTS

    n = int(check_group(Group(None, copies), "copies").copies)
    shown = [Group(t, n) if n > 1 else t for t in targets]
    cells: dict[tuple[str, str], tuple] = {}
    for a in attackers:
        for atk in system.attacks_of(a):
            for t, s in zip(targets, shown):
                cells.setdefault((f"{a.name}: {atk.name}", s.name), (atk, a, t))
    if not cells:
        raise RulesError("no attacker has an attack to compare", field="attackers")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            frame = wb.compare(
                list(attackers),
                shown,
                options=options,
                situation=situation,
                max_rounds=max_rounds,
                best_plan=False,
                fights=GROUP_FIGHTS if n > 1 else COMPARE_FIGHTS,
            )
        except RulesError as err:
            raise RulesError(f"every matchup is illegal: {err.message}", field=err.field, rule=err.rule) from None
    messages = [str(w.message) for w in caught if "not usable" in str(w.message)]
    frame = frame.with_columns(pl.concat_str("attacker", pl.lit(": "), "attack").alias("build"))
    full = pl.DataFrame({"build": [k[0] for k in cells], "target": [k[1] for k in cells]})
    out = full.join(
        frame.unique(["build", "target"], keep="first", maintain_order=True),
        on=["build", "target"],
        how="left",
        maintain_order="left",
    )
    missing = out["mean_turn_damage"].is_null().to_list()
    illegal = [
        (_reason(messages, f"{b}") or _reason(messages, f"{b} vs {t}") or "not usable here") if miss else None
        for b, t, miss in zip(out["build"], out["target"], missing)
    ]
    if all(missing):
        raise RulesError(f"every matchup is illegal, e.g. {illegal[0]}", field="attackers")
    return out.with_columns(pl.Series("illegal", illegal, dtype=pl.String)), cells


def default_cell(frame: pl.DataFrame) -> tuple[str, str]:
    """Return the (build, target) the detail opens on: a legal matchup of an attacker against
    another creature (not Rat against Rat) whose fight takes a few rounds (a finite mean above 1.5,
    so its rounds curve shows something), the one with the median mean rounds among them; else any
    legal matchup of two creatures; else the first legal one (issue 36, item 5)."""
    legal = frame.filter(pl.col("illegal").is_null()).with_columns(_who=pl.col("build").str.split(": ").list.first())
    others = legal.filter(pl.col("_who") != pl.col("target"))
    lively = others.filter(pl.col("mean_rounds").is_finite() & (pl.col("mean_rounds") > 1.5)).sort(
        "mean_rounds", maintain_order=True
    )
    pick = lively if lively.height else (others if others.height else legal)
    row = pick.row(pick.height // 2 if pick is lively else 0, named=True)
    return row["build"], row["target"]


def best_plan_line(attacker: Any, target: Any, options: Any, situation: Any, system: Any) -> str:
    """Return the reference line under a Compare cell's numbers: the attacker's best plan against
    the target, its mean damage a turn and mean rounds (:func:`workbench.widgets.damage.fight_summary`)."""
    from .damage import fight_summary

    f = fight_summary(attacker, target, options, situation, system=system)
    if "error" in f:
        return f"<br><span class='wb-compare-best' style='color:#57606a'>best plan (reference): {html.escape(f['error'])}</span>"
    rounds = "never" if f["mean"] is None else f"{f['mean']:.2f}"
    how = "" if f["exact"] else f", simulated: {f['fights']:,} fights"
    return (
        "<br><span class='wb-compare-best' style='color:#57606a'>reference, "
        f"{html.escape(attacker.name)}'s best plan ({html.escape(f['plan'])}): mean "
        f"{f['turn_mean']:.2f} damage a turn, mean rounds to kill {rounds}{how}</span>"
    )


class ComparePanel(Panel):
    """Compare attackers' attacks against targets; ``value`` is the grid, ``selected`` the clicked cell.

    Inputs ``attackers`` and ``targets`` (lists of creatures; default: the catalog's first 4 and
    first 6), ``options``, ``situation``, ``metric`` (a key of :data:`METRICS`) and ``copies`` (1 to
    50: above 1 each target is a group of that many passive copies, "3 x Wolf", and the kill columns
    are the rounds until every copy has fallen; docs/compare.md, Against a group) are traits.
    Clicking a cell (the chart's ``cell`` / ``cell_label`` selections) sets
    ``selected = (build, target)`` and shows that matchup in ``panel.detail``.
    """

    attackers: T.List[Any] = T.List()
    targets: T.List[Any] = T.List()
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    metric = T.Unicode("mean damage per use")
    copies = T.Int(1)
    selected = T.Tuple(allow_none=True, default_value=None)

    def __init__(
        self,
        system: Any,
        attackers: Sequence[Any] | None = None,
        targets: Sequence[Any] | None = None,
        *,
        options: Any = None,
        situation: Any = None,
        metric: str = "mean damage per use",
        max_rounds: int = 100,
        **kwargs: Any,
    ) -> None:
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
        self.max_rounds = max_rounds
        self._cells: dict[tuple[str, str], tuple] = {}
        self.metric_picker = W.Dropdown(
            options=list(METRICS),
            value=metric,
            description="colour by",
            style={"description_width": "9em"},
            layout=W.Layout(width="24em"),
        )
        self.metric_picker.add_class("wb-compare-metric")
        T.link((self.metric_picker, "value"), (self, "metric"))
        self.copies_box = copies_box(
            "copies of each target",
            "above 1: each target is a group of passive copies; the rounds are until every copy has fallen",
            "wb-compare-copies",
        )
        T.link((self.copies_box, "value"), (self, "copies"))
        # Which creatures to compare: the catalog plus any creature passed in, picked by name.
        self._known = {c.name: c for c in [*creatures, *self.attackers, *self.targets]}
        self.attacker_picker, self.target_picker = (
            W.SelectMultiple(
                options=list(self._known),
                value=[c.name for c in chosen],
                rows=6,
                description=label,
                style={"description_width": "6em"},
                layout=W.Layout(width="30em"),
            )
            for label, chosen in (("attackers", self.attackers), ("targets", self.targets))
        )
        self.attacker_picker.add_class("wb-compare-attackers")
        self.target_picker.add_class("wb-compare-targets")
        self.attacker_picker.observe(self.guard(lambda ch: self._pick("attackers", ch["new"])), "value")
        self.target_picker.observe(self.guard(lambda ch: self._pick("targets", ch["new"])), "value")
        self.detail: DamagePanel | None = None
        self.detail_stats = W.HTML()
        self.detail_stats.add_class("wb-compare-detail-stats")
        # "copy as Python": wb.* calls that give the selected cell's rounds to kill again
        self.python = W.Textarea(layout=W.Layout(width="100%", height="14em"))
        self.python.add_class("wb-compare-python")
        self.python_box = W.Accordion([self.python], titles=("how computed: copy as Python",), selected_index=None)
        self.redraw_seconds = float("nan")
        self.background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()  # the first grid: a panel is built with a result
        if self.value is None:
            raise RulesError(self.error or "nothing to compare", field="attackers")
        assert self.chart is not None and self.detail is not None  # refresh() drew both
        self.chart.add_class("wb-compare-chart")
        self.detail.add_class("wb-compare-detail")
        self.children = _children(
            W.HBox(
                [self.attacker_picker, self._error_slot("attackers"), self.target_picker, self._error_slot("targets")]
            ),
            W.HBox([self.metric_picker, self.copies_box]),
            self.background.box,
            self.error_box,
            self.chart,
            self.detail_stats,
            self.python_box,
            self.detail,
        )

    def prepend(self, *widgets: W.Widget) -> None:
        """Show ``widgets`` above the panel's own controls (the app's "add my attacker" buttons)."""
        # through the trait API: mypy cannot infer the type of a traitlets attribute read here
        current = tuple(getattr(self, "children"))  # noqa: B009
        self.set_trait("children", (*widgets, *current))

    def add(self, creature: Any, role: str = "attackers") -> str:
        """Put ``creature`` (your own build, e.g. the Damage tab's attacker) into the pickers and the
        grid as one of the ``role`` ("attackers" or "targets"); return the name it is listed under.
        A different creature with a name already listed is listed as "NAME (yours)", "(yours 2)", ...;
        the same creature is just selected."""
        if role not in ("attackers", "targets"):
            raise RulesError(f"role must be attackers or targets, not {role!r}", field="role")
        if not isinstance(creature, self.system.Creature):
            raise RulesError(f"expected a {self.system.title} creature, not {type(creature).__name__}", field=role)
        given: Any = creature  # a Creature model of the system: it has a name
        name: str = given.name
        if name in self._known and self._known[name] != creature:
            # the same build listed before under another name ("NAME (yours)"): select that one
            match = next((n for n, c in self._known.items() if c.replace(name=given.name) == creature), None)
            if match is not None:
                name = match
            else:
                k = 1
                while (name := f"{given.name} (yours{'' if k == 1 else f' {k}'})") in self._known:
                    k += 1
                creature = creature.replace(name=name)
        self._known[name] = creature
        picker = self.attacker_picker if role == "attackers" else self.target_picker
        for p in (self.attacker_picker, self.target_picker):
            if name not in p.options:
                # new options reset a SelectMultiple's selection: keep what was picked
                kept, self._relisting = p.value, True
                try:
                    p.options = [*p.options, name]
                    p.value = kept
                finally:
                    self._relisting = False
        if name not in picker.value:
            picker.value = (*picker.value, name)  # the picker's observer recomputes the grid
        return name

    def _pick(self, role: str, names: Sequence[str]) -> None:
        """Compare the creatures picked by name; an empty pick is explained and the grid kept."""
        if getattr(self, "_relisting", False):
            return  # add() is listing a new name; the pick is put back at once
        if not names:
            self.show_error(RulesError("pick at least one creature", field=role))
            return
        setattr(self, role, [self._known[n] for n in names])

    @T.observe("attackers", "targets", "options", "situation", "copies")
    @guarded
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    @T.observe("metric")
    @guarded
    def _on_metric(self, change: dict) -> None:
        if not self._ready or self.value is None:
            return
        if change["new"] not in METRICS:
            self.show_error(RulesError(f"must be one of {', '.join(METRICS)}", field="metric"))
            return
        start = time.perf_counter()
        self._draw(self.value)
        self.clear_message(self.error)
        self.redraw_seconds = time.perf_counter() - start

    def refresh(self) -> pl.DataFrame | None:
        """Recompute the grid and redraw; on a RulesError show it and keep the last grid and chart.

        The grid is computed off the kernel's message loop (:class:`~workbench.widgets.base.Background`): a
        grid done within a second is drawn at once and returned; a longer one shows "comparing..."
        with a Cancel button, keeps the last grid on screen and is drawn when done (None is returned;
        ``panel.background.wait()`` blocks until then). A newer edit supersedes an older grid."""
        start = time.perf_counter()
        if self.metric not in METRICS:
            self.show_error(RulesError(f"must be one of {', '.join(METRICS)}", field="metric"))
            return None
        args = (self.system, list(self.attackers), list(self.targets), self.options, self.situation, self.max_rounds)
        copies = self.copies
        return self.background.run(
            lambda: compare_grid(*args, copies=copies), lambda got: self._apply(got, start), "comparing..."
        )

    def _apply(self, got: tuple[pl.DataFrame, dict], start: float) -> pl.DataFrame:
        frame, cells = got
        self._cells = cells
        if self._row_of(self.selected, frame) is None:
            self.selected = default_cell(frame)
        self._draw(frame)
        self.clear_message(self.error)
        with warnings.catch_warnings():  # traitlets compares the old frame (or None) with == first
            warnings.simplefilter("ignore")
            self.value = frame
        self._show_detail(frame)
        self.redraw_seconds = time.perf_counter() - start
        return frame

    def _draw(self, frame: pl.DataFrame) -> None:
        column, fmt, lower_better = METRICS[self.metric]
        n_bad = frame["illegal"].is_not_null().sum()
        n_inf = int(frame[column].is_infinite().fill_null(False).sum())
        note = f"; {n_bad} illegal matchup{'s' if n_bad != 1 else ''} shown grey" if n_bad else ""
        if n_inf:
            note += "; ∞ = never kills (the turn cannot damage)"
        if frame["target"].str.contains(r"^\d+ x ").all():  # groups (copies above 1)
            note += (
                "; rounds until every copy is down"
                if column in ("mean_rounds", "p_kill_one_turn")
                else "; against one copy"
            )
        chart = charts.heatmap(
            frame,
            x="target",
            y="build",
            value=column,
            value_title=self.metric,
            title=f"{self.metric} by attack and target",
            subtitle="click a cell to see its distribution" + note,
            fmt=fmt,
            reverse=lower_better,
            select="cell",
            extra=("illegal",) if n_bad else (),
            selected=None if self.selected is None else (self.selected[1], self.selected[0]),
        )
        self.set_chart(chart)
        if not getattr(self, "_watching", False):
            assert self.chart is not None  # set_chart() made it
            self.chart.observe(self._on_click, names="_vl_selections")
            self._watching = True

    @staticmethod
    def _row_of(cell: tuple[str, str] | None, frame: pl.DataFrame) -> int | None:
        if cell is None:
            return None
        hits = ((frame["build"] == cell[0]) & (frame["target"] == cell[1])).arg_true()
        return int(hits[0]) if hits.len() else None

    @staticmethod
    def _picked_cell(message: Any, name: str) -> tuple[str, str] | None:
        """Return the (build, target) of selection ``name`` in a browser message, or None.

        The message is untrusted (a buggy or hostile front end can send anything): every level of
        ``{name: {"value": {"vlPoint": {"or": [{"build": str, "target": str}]}}}}`` is checked, and
        anything malformed (``{'cell': None}``, a list where a point is expected) reads as no click.
        """
        raw = message.get(name) if isinstance(message, dict) else None
        signal = raw.get("value") if isinstance(raw, dict) else None
        point = signal.get("vlPoint") if isinstance(signal, dict) else None
        points = point.get("or") if isinstance(point, dict) else None
        if not isinstance(points, list) or not points or not isinstance(points[0], dict):
            return None
        build, target = points[0].get("build"), points[0].get("target")
        if not isinstance(build, str) or not isinstance(target, str):
            return None
        return build, target

    @guarded
    def _on_click(self, change: dict) -> None:
        """Read the Vega point signal the browser sends ({"vlPoint": {"or": [{build, target}]}}).

        A malformed message is ignored (nothing raises out of this observer)."""
        message = change.get("new") if isinstance(change, dict) else None
        for name in ("cell", "cell_label"):
            cell = self._picked_cell(message, name)
            if cell is not None:
                if self.value is None or cell not in self._cells:
                    return
                row = self._row_of(cell, self.value)
                if row is not None and self.value["illegal"][row] is None:
                    self.selected = cell
                return

    @T.observe("selected")
    @guarded
    def _on_selected(self, change: dict) -> None:
        if self._ready and self.value is not None and self._row_of(change["new"], self.value) is not None:
            self._draw(self.value)
            self._show_detail(self.value)

    def _show_detail(self, frame: pl.DataFrame) -> None:
        row = self._row_of(self.selected, frame)
        if row is None:
            return
        attack, attacker, target = self._cells[self.selected]
        if self.detail is None:
            self.detail = self._adopt(
                DamagePanel(
                    self.system,
                    attacker,
                    target,
                    attack,
                    options=self.options,
                    situation=self.situation,
                    controls=False,
                    fight=False,  # the row's own fight is in detail_stats; the panel's would be the best plan's
                )
            )
        else:
            self.detail.update(
                attacker=attacker, target=target, attack=attack, options=self.options, situation=self.situation
            )
        from workbench.explanations import python_snippet

        self.python.value = python_snippet(attacker, target, attack, self.options, self.situation)
        group = self.selected[1] != target.name  # "3 x Wolf": the cell's target is one copy
        if group:
            self.python.value += (
                f"\n\n# against the group: the rounds until every copy has fallen\n"
                f"wb.compare([(attacker, attack)], [wb.encounters.Group(target, {self.copies})], "
                f"options=options, situation=situation, best_plan=False, fights={GROUP_FIGHTS})"
            )
        r = frame.row(row, named=True)
        q = " / ".join("–" if r[f"rounds_q{p}"] is None else str(r[f"rounds_q{p}"]) for p in (10, 50, 90))
        if r["mean_rounds"] is None:  # a simulated row whose fights did not all end within max_rounds
            mean_rounds = f"not resolved ({r.get('p_unresolved') or 0:.1%} of fights still going)"
        elif r["mean_rounds"] == float("inf"):
            mean_rounds = "never"
        else:
            mean_rounds = f"{r['mean_rounds']:.2f}"
        how = r.get("method") or "exact"
        if how == "simulated":
            se = "" if r.get("se") is None else f", s.e. {r['se']:.3f}"
            how = f"simulated{se}; state: {html.escape(r.get('forced_by') or '')}"
        turn_mean = "–" if r["mean_turn_damage"] is None else f"{r['mean_turn_damage']:.2f}"
        kill_one = "–" if r["p_kill_one_turn"] is None else f"{r['p_kill_one_turn']:.1%}"
        if group:
            # compare's group row: the use and turn columns are one copy's, the kill columns the group's
            self.detail_stats.value = (
                f"<b>{html.escape(self.selected[0])}</b> vs <b>{html.escape(self.selected[1])}</b> "
                f"({r['target_hp']} HP in all; passive copies, each turn striking the copy with the fewest HP "
                f"left), this attack as often as a turn allows: "
                f"{r['uses_per_turn'] if r['uses_per_turn'] is not None else '?'} use(s) a turn, "
                f"mean <span class='wb-turn-mean'>{turn_mean}</span> damage a turn to one copy, "
                f"P(every copy down in one turn) {kill_one}, mean rounds until every copy is down "
                f"<span class='wb-mean-rounds'>{mean_rounds}</span> (10% / 50% / 90%: {q}) "
                f"<span class='wb-method'>({how})</span>. The chart below is one use against one copy."
            )
            return
        self.detail_stats.value = (
            f"<b>{html.escape(self.selected[0])}</b> vs <b>{html.escape(self.selected[1])}</b> "
            f"({r['target_hp']} HP), this attack as often as a turn allows: "
            f"{r['uses_per_turn'] if r['uses_per_turn'] is not None else '?'} use(s) a turn, "
            f"mean <span class='wb-turn-mean'>{turn_mean}</span> damage a turn, "
            f"P(kill in one turn) {kill_one}, mean rounds to kill "
            f"<span class='wb-mean-rounds'>{mean_rounds}</span> (10% / 50% / 90%: {q}) "
            f"<span class='wb-method'>({how})</span>"
        ) + best_plan_line(attacker, target, self.options, self.situation, self.system)
