"""``DamagePanel``: the live damage distribution of one attack by an attacker on a target.

``value`` is the damage :class:`~workbench.dist.Dist` from ``system.damage(...)``; the panel shows
it as a chart (PMF bars with the mean, or the "at least X" curve) and a table of mean, sd,
P(any damage) and the median.
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import altair as alt
import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.dist import Dist
from workbench.errors import RulesError
from workbench.turns import best_plan

from .attack import attack_builder
from .base import FOLLOW_UP, Background, Panel, _children, guarded, log, prevalidated, same_numbers
from .creature import CreatureEditor
from .situation import OptionsPanel, SituationPanel

__all__ = [
    "DamagePanel",
    "stats_html",
    "events_html",
    "fight_summary",
    "fight_html",
    "fight_frames",
    "idle_fields",
    "FIGHT_FIGHTS",
    "IDLE_HINT",
]

#: fights simulated for the Damage tab's fight when its state forces a simulation (a preview: the
#: Duel tab and ``wb.rounds_to_kill`` run 100,000); its standard error is shown beside it
FIGHT_FIGHTS = 4_000
#: beside a situation control that changes nothing in the matchup shown (see idle_fields)
IDLE_HINT = '<span class="wb-idle" style="color:#8c959f;font-size:90%">no effect in this matchup</span>'


def stats_html(dist: Dist) -> str:
    """Return an HTML table of a damage Dist's mean, sd, P(any damage), median and range."""
    rows = [
        ("mean", "mean", f"{dist.mean():.3f}"),
        ("sd", "sd", f"{dist.std():.3f}"),
        ("any", "P(any damage)", f"{dist.sf(1):.2%}"),
        ("median", "median", f"{dist.quantile(0.5)}"),
        ("range", "range", f"{dist.min()}–{dist.max()}"),
    ]
    cells = "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{label}</th>'
        f'<td style="text-align:right" class="wb-{key}">{v}</td></tr>'
        for key, label, v in rows
    )
    return f'<table class="wb-stats">{cells}</table>'


def events_html(outcomes: Any) -> str:
    """Return one line of the chance, per use, of every event in an outcome table that can happen
    (its true/false columns with a chance above 0: a crit, a Choke, a status ...), or "" if none."""
    import polars as pl

    flags = [c for c, t in outcomes.schema.items() if t == pl.Boolean]
    if not flags:
        return ""
    p = outcomes.select([(pl.col("probability") * pl.col(c).cast(pl.Float64)).sum().alias(c) for c in flags]).row(
        0, named=True
    )
    # each "P(event) value" kept on one line (a narrow column broke "P(fumble)" from its 2.78 %)
    shown = [
        f'<span style="white-space:nowrap">P({html.escape(c.replace("_", " "))}) {v:.2%}</span>'
        for c, v in p.items()
        if v > 0
    ]
    if not shown:
        return ""
    return '<div class="wb-events" style="color:#57606a;line-height:1.5">per use: ' + " · ".join(shown) + "</div>"


def fight_words(err: RulesError) -> str:
    """Return why a fight cannot be fought in words: the message without the code's field name or a
    rules file the reader does not have, with the docs page of its rule (issue 36, item 4)."""
    from workbench.errors import docs_page

    from .base import rule_words

    text = err.message
    rule, page = rule_words(err.rule), docs_page(err.rule)
    if rule:
        text += f" \u2014 rule: {rule}"
    return text + (f" (see {page})" if page else "")


def _one_fight(
    attacker: Any, target: Any, options: Any, situation: Any, fights: int, sys: Any, plan: Any
) -> dict[str, Any]:
    """Return the numbers of one fight of ``attacker`` against a passive ``target`` playing ``plan``
    (None: the best plan, ``wb.turn_plans``; else an attack, used as often as the turn allows:
    ``workbench.attack_plans``): ``plan`` (its label), ``turn`` (one turn's damage Dist),
    ``turn_mean``, ``p_first``, ``mean``, ``median``, ``unresolved``, ``exact``, ``forced_by``,
    ``fights``, ``se`` and ``frame`` (``wb.rounds_to_kill``); ``{"error": message}`` when it cannot
    be fought (the attack refused here, or a turn that never hurts)."""
    import numpy as np

    import workbench as wb
    from workbench.attack_plans import attack_plan
    from workbench.simulate import state_effects

    try:
        if plan is None:
            plans = wb.turn_plans(attacker, target, options, situation)
            label = best_plan(plans) if plans else ""
            turn = plans[label] if plans else None
            who, run = attacker, None
        else:
            who, run = attack_plan(attacker, plan, options, sys)
            label = plan.name if len(run) == 1 else f"{plan.name} \u00d7{len(run)}"
            turn = wb.turn_damage(who, target, options, situation, plan=run)
        frame = wb.rounds_to_kill(
            who, target, options=options, situation=situation, plan=run, fights=fights, progress=False
        )
    except RulesError as err:
        return {"error": fight_words(err)}
    at, by = frame["p_killed_at"].to_numpy(), frame["p_killed_by"].to_numpy()
    rounds = frame["round"].to_numpy()
    resolved = float(by[-1]) if by.size else 0.0
    half = np.flatnonzero(by >= 0.5)
    exact = bool(frame["exact"][0])
    return dict(
        plan=label,
        turn=turn,
        turn_mean=None if turn is None else turn.mean(),
        p_first=float(by[0]) if by.size else 0.0,
        mean=float((rounds * at).sum() / resolved) if resolved > 0 else None,
        median=int(rounds[half[0]]) if half.size else None,
        unresolved=max(0.0, 1.0 - resolved),
        exact=exact,
        forced_by=() if exact else tuple(sorted(state_effects(who, target, options, situation, run))),
        fights=frame["fights"][0],
        se=float(cast(float, frame["standard_error"].max())),
        frame=frame,
    )


def fight_summary(
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    fights: int = FIGHT_FIGHTS,
    system: Any = None,
    attack: Any = None,
) -> dict[str, Any]:
    """Return the fight of ``attacker`` against a passive ``target`` as the Damage tab shows it.

    With ``attack`` (the attack on screen) the fight plays that attack as often as the action
    economy allows (``wb.rounds_to_kill(..., plan=attack)``), and ``reference`` holds the same
    numbers for the attacker's best plan (``wb.turn_plans``, the plan ``wb.rounds_to_kill`` plays
    by default); without it, the best plan is the fight. Keys (:func:`_one_fight`): ``plan`` (its
    label), ``turn`` (one turn's damage Dist), ``turn_mean``, ``p_first`` (P(down in round 1)),
    ``mean`` and ``median`` rounds, ``unresolved`` (left at the last round), ``exact``,
    ``forced_by``, ``fights``, ``se``, ``frame``; plus ``attacker``, ``target``, ``pools`` and
    ``attack`` (the attack's name, or None). A fight that cannot end (the attack never hurts the
    target, or the rules refuse it here) has ``error`` instead of the numbers; its ``reference``
    still stands."""
    from workbench.systems import system_of

    out: dict[str, Any] = {"attacker": attacker.name, "target": target.name, "pools": (), "attack": None}
    sys = system or system_of(attacker)
    try:
        out["pools"] = sys.hit_pools(target)
    except RulesError as err:
        return {**out, "error": fight_words(err)}
    best = _one_fight(attacker, target, options, situation, fights, sys, None)
    if attack is None:
        return {**out, **best}
    mine = _one_fight(attacker, target, options, situation, fights, sys, attack)
    return {**out, **mine, "attack": attack.name, "reference": best}


def idle_fields(system: Any, attack: Any, attacker: Any, target: Any, options: Any, situation: Any) -> list[str]:
    """Return the true/false and choice fields of the Situation that change nothing in this matchup:
    every other value of the field leaves one use's damage distribution as it is (to 1e-12) and the
    attack usable (a value the rules refuse is an effect, not "nothing"). For the "no effect here"
    hints beside the situation controls (issue 17: "controls that do nothing in the matchup say so")."""
    from workbench.fields import specs

    sit = system.defaults(options, situation)[1]
    base = system.damage(attack, attacker, target, options, sit)
    idle = []
    for name, fs in specs(type(sit)).items():
        if fs.kind == "bool":
            others = [not getattr(sit, name)] if getattr(sit, name) is not None else [True, False]
        elif fs.kind == "choice":
            others = [v for v in fs.options() if v != getattr(sit, name)]
        else:
            continue
        same = True
        for v in others:
            try:
                d = system.damage(attack, attacker, target, options, sit.replace(**{name: v}))
            except RulesError:
                same = False
                break
            if not d.isclose(base, 1e-12):
                same = False
                break
        if same and others:
            idle.append(name)
    return idle


def _method(f: dict[str, Any]) -> str:
    if f["exact"]:
        return "exact"
    return f"simulated: {f['fights']:,} fights, s.e. {f['se']:.4f}" + (
        f" (state: {html.escape(', '.join(f['forced_by']))})" if f.get("forced_by") else ""
    )


#: the fight table's rows: key, label, how a fight's value is shown
_FIGHT_ROWS = (
    ("plan", "plan each turn", lambda f: html.escape(f["plan"])),
    ("turn", "mean damage per turn", lambda f: "" if f["turn_mean"] is None else f"{f['turn_mean']:.3f}"),
    ("p1", "P(down in round 1)", lambda f: f"{f['p_first']:.2%}"),
    ("rtk-mean", "mean rounds to down", lambda f: "none downed" if f["mean"] is None else f"{f['mean']:.2f}"),
    ("rtk-median", "median rounds", lambda f: "past the last round" if f["median"] is None else str(f["median"])),
    ("unresolved", "still standing at the last round", lambda f: f"{f['unresolved']:.2%}"),
    ("method", "method", _method),
)


def fight_html(f: dict[str, Any]) -> str:
    """Return the Damage tab's fight table (see :func:`fight_summary`): with an attack, a column for
    the attack on screen and one for the attacker's best plan (the reference), each labelled."""
    pools = f" ({' + '.join(str(p) for p in f['pools'])} HP)" if f["pools"] else ""
    ref = f.get("reference")
    columns: list[tuple[str, str, dict[str, Any]]] = []
    if f.get("attack") is not None:
        what = f"{html.escape(f['attack'])} as often as each turn allows, beside its best plan"
        columns.append(("wb-fight-attack", "this attack", f))
        if ref is not None:
            columns.append(("wb-fight-best", "best plan (reference)", ref))
    else:
        what = "its best plan each turn"
        columns.append(("wb-fight-best", "best plan", f))
    head = (
        f'<div style="margin-top:6px"><b>The fight</b>: {html.escape(f["attacker"])} against '
        f"{html.escape(f['target'])}{pools}, {what}</div>"
    )
    if all("error" in c for _, _, c in columns):
        return head + f'<div class="wb-fight-none" style="color:#57606a">{html.escape(f["error"])}</div>'
    unresolved = any("error" not in c and c["unresolved"] > 1e-9 for _, _, c in columns)
    th = "".join(f'<th style="text-align:right;padding-left:1em" class="{k}">{t}</th>' for k, t, _ in columns)
    body = []
    for key, label, show in _FIGHT_ROWS:
        if key == "unresolved" and not unresolved:
            continue
        cells = []
        for cls, _, c in columns:
            if "error" in c:
                v = "–" if key != "plan" else f'<span class="wb-fight-none">{html.escape(c["error"])}</span>'
            else:
                v = show(c)
            cells.append(f'<td style="text-align:right;padding-left:1em" class="wb-{key} {cls}">{v}</td>')
        body.append(f'<tr><th style="text-align:left;padding-right:1em">{label}</th>{"".join(cells)}</tr>')
    return head + f'<table class="wb-stats wb-fight"><tr><th></th>{th}</tr>{"".join(body)}</table>'


def fight_frames(f: dict[str, Any]) -> dict[str, Any]:
    """Return the rounds frames of a :func:`fight_summary` to overlay, by legend label: the attack
    on screen ("<attack> (on screen)") and the best plan ("best plan: <label>"), or the best plan
    alone; one curve, "<attack> (on screen, the best plan too)", where the two fights' P(down by
    round t) are the same (two curves would lie on each other); a fight in error is left out."""
    out = {}
    if "error" not in f:
        out[f"{f['plan']} (on screen)" if f.get("attack") is not None else f"best plan: {f['plan']}"] = f["frame"]
    ref = f.get("reference")
    if ref is not None and "error" not in ref:
        if out and same_numbers(f["frame"], ref["frame"], ["round", "p_killed_by"]):
            return {f"{f['plan']} (on screen, the best plan too)": f["frame"]}
        out[f"best plan: {ref['plan']}"] = ref["frame"]
    return out


class Editors(Mapping[str, Panel]):
    """The editors of a panel's inputs on the tabs of ``tabs``, each built when its tab is first
    opened or it is first looked up (``editors["target"]``): a panel opens with one editor's
    widgets, not every tab's (issue 38, item 6: the Damage tab's four hidden editors were 158 of
    the 268 widgets the browser drew before the first chart). Built by ``panel._editor(name)``.

    ``name in editors`` does not build; :meth:`built` returns an editor only if it exists."""

    def __init__(self, panel: Any, names: Sequence[str]) -> None:
        self.panel, self.names = panel, tuple(names)
        self._built: dict[str, Panel] = {}
        self.tabs = W.Tab(children=[W.VBox() for _ in self.names], titles=self.names)
        self.tabs.observe(self._opened, names="selected_index")

    def __getitem__(self, name: str) -> Panel:
        if name not in self.names:
            raise KeyError(name)
        if name not in self._built:
            editor = self._built[name] = self.panel._editor(name)
            # the panel's sub-panels in tab order whatever was opened first: an error naming a field
            # that two editors hold ("hp": attacker and target) goes to the first, as it always did
            rank = {id(e): self.names.index(n) for n, e in self._built.items()}
            self.panel._subpanels.sort(key=lambda p: rank.get(id(p), len(self.names)))
            i = self.names.index(name)
            self.tabs.children[i].children = (editor,)

            def mark(_: Any = None) -> None:  # "⚠ situation" while its editor shows an error
                self.tabs.set_title(i, f"\u26a0 {name}" if editor.problem else name)

            editor.observe(mark, names="problem")
            mark()
        return self._built[name]

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def built(self, name: str) -> Panel | None:
        """Return the editor of ``name`` if it was built, else None (builds nothing)."""
        return self._built.get(name)

    def build_all(self) -> None:
        """Build every editor not built yet."""
        for name in self.names:
            self[name]

    def _opened(self, change: dict) -> None:
        if change["new"] is None:
            return
        try:
            self[self.names[change["new"]]]
        except Exception as exc:  # (never into the widget's event loop: shown on the panel)
            self.panel.show_unexpected(exc)


class DamagePanel(Panel):
    """Damage of one use of ``attack`` by ``attacker`` on ``target`` under ``options`` and ``situation``.

    The five inputs are traits: link other panels into them (``traitlets.dlink``), or use the
    editors the panel builds when ``controls=True`` (tabs: attack, attacker, target, situation,
    options; ``panel.editors[name]``, each built when its tab is first opened or it is first looked
    up: :class:`Editors`). Missing inputs default to the catalog: its first creature
    attacks the second with its first attack. A RulesError from the engine is shown beside the
    control it names; the last valid distribution and chart stay.

    The panel starts with its first distribution drawn; with ``wait_fight=True`` (the default) also
    with its fight (``panel.fight``), else the fight follows on its worker
    (``panel.fight_background.wait()`` blocks until it is shown): the app's Damage tab, whose chart
    then shows before the fight is worked out.
    """

    attacker = T.Any(allow_none=True)
    target = T.Any(allow_none=True)
    attack = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    view = T.Unicode("distribution", help='"distribution" (PMF bars) or "at least" (P(damage >= x))')

    def __init__(
        self,
        system: Any,
        attacker: Any = None,
        target: Any = None,
        attack: Any = None,
        *,
        options: Any = None,
        situation: Any = None,
        controls: bool = True,
        title: str | None = None,
        fight: bool = True,
        wait_fight: bool = True,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self._ready = False
        attacker, target, attack = self._defaults(attacker, target, attack)
        self.options = self.system.Options() if options is None else options
        self.situation = self.system.Situation() if situation is None else situation
        self.attacker, self.target, self.attack = attacker, target, attack
        self.custom_title = title
        self.editors: Editors | dict[str, Panel] = {}
        tabs = None
        if controls:
            self.editors = Editors(self, ("attack", "attacker", "target", "situation", "options"))
            tabs = self.editors.tabs
            self.editors["attack"]  # the tab shown at start; the others are built when first opened
        self.tabs = tabs
        self.view_toggle = W.ToggleButtons(
            options=["distribution", "at least"], value=self.view, style={"button_width": "8em"}
        )
        T.link((self.view_toggle, "value"), (self, "view"))
        self.stats = W.HTML()
        self.events = W.HTML()
        self.fight_stats = W.HTML()
        self.fight_stats.add_class("wb-fight-stats")
        self.fight_chart: Any = None
        self.fight: dict[str, Any] | None = None  # the last fight_summary shown
        self.idle: list[str] = []  # the situation fields with no effect in the matchup shown
        self.show_fight = fight
        self.redraw_seconds = float("nan")
        self.background = Background(self)
        # the fight follows each distribution on its own worker: a simulated one (seconds) never
        # holds up the next redraw, and a newer edit supersedes it
        self.fight_background = Background(self, inline=0.5, executor=FOLLOW_UP)
        self._ready = True
        self.refresh()
        self.background.wait()  # the panel starts with its first distribution (or its error)
        if self.value is None:
            raise RulesError(self.error or "these inputs give no damage distribution", field="attack")
        self.fight_box = W.VBox([self.fight_background.box])
        if wait_fight:  # (the app does not: its first chart shows at once, the fight follows it)
            self.fight_background.wait(30)
        self._place_fight_chart()
        # inputs and results side by side, so an edit shows its effect without scrolling (issue 17:
        # "the chart starts at the bottom edge of the window"); on a narrow page the results wrap
        # below the inputs
        numbers = W.HBox(
            [W.VBox([self.stats, self.events], layout=W.Layout(max_width="260px"))],
            layout=W.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="16px"),
        )
        # the fight's two columns (the attack on screen, the best plan) take the results' width
        self.results = W.VBox(
            _children(
                self.view_toggle,
                self.background.box,
                self.stale_banner,
                self.chart,
                numbers,
                self.fight_stats,
                self.fight_box,
            ),
            layout=W.Layout(flex="0 1 560px", min_width="0"),
        )
        self.results.add_class("wb-damage-results")
        inputs = _children(self.tabs)
        if inputs:
            self.inputs = W.VBox(inputs, layout=W.Layout(flex="1 1 560px", min_width="420px", max_width="780px"))
            self.inputs.add_class("wb-damage-inputs")
            body: W.Widget = W.HBox(
                [self.inputs, self.results],
                layout=W.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="12px"),
            )
        else:
            body = self.results
        self.children = _children(self.error_box, body)

    def _editor(self, name: str) -> Panel:
        """Return a new editor of input ``name`` showing its value now, adopted by the panel (its
        errors mark its tab and the banner) and linked both ways to the panel's trait."""
        if name == "attack":
            editor: Panel = attack_builder(self.system, self.attack, attacker=self.attacker)
        elif name in ("attacker", "target"):
            editor = CreatureEditor(self.system, getattr(self, name))
        elif name == "situation":
            editor = SituationPanel(self.system, self.situation)
        else:
            editor = OptionsPanel(self.system, self.options)
        self._adopt(editor)
        before, ready = getattr(self, name), self._ready
        self._ready = False  # (the editor holds the panel's value: linking it redraws nothing)
        try:
            T.link((editor, "value"), (self, name))
        finally:
            self._ready = ready
        if ready and getattr(self, name) != before:  # (an editor that reads its value its own way)
            self.refresh()
        if name == "attack":
            T.dlink((self, "attacker"), (editor, "attacker"))
        if name == "situation":
            self._show_idle(self.idle, editor)
        return editor

    def show_error(self, err: RulesError | str) -> None:
        """Show ``err`` beside its control (:meth:`Panel.show_error`), first building the editors
        not opened yet: the control it names may be on one of them."""
        if isinstance(self.editors, Editors):
            try:
                self.editors.build_all()
            except Exception:  # (an editor that cannot be built: the error still shows, on the panel)
                log.exception("building the editors of %s", type(self).__name__)
        super().show_error(err)

    def _defaults(self, attacker: Any, target: Any, attack: Any) -> tuple[Any, Any, Any]:
        creatures = list(self.system.catalog().creatures.values())
        if attacker is None:
            attacker = creatures[0] if creatures else self.system.Creature()
        if target is None:
            target = creatures[1] if len(creatures) > 1 else attacker
        if attack is None:
            own = self.system.attacks_of(attacker)
            pool = own or list(self.system.catalog().attacks.values())
            if not pool:
                raise RulesError(f"{getattr(attacker, 'name', 'the attacker')} has no attack to show", field="attack")
            attack = pool[0]
        return attacker, target, attack

    @T.observe("attacker", "target", "attack", "options", "situation", "view")
    @guarded
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    def update(self, **inputs: Any) -> Dist | None:
        """Set several inputs (attacker, target, attack, options, situation, view) with one redraw."""
        unknown = set(inputs) - {"attacker", "target", "attack", "options", "situation", "view"}
        if unknown:
            raise RulesError(f"unknown input(s) {sorted(unknown)}", field=sorted(unknown)[0])
        self._ready = False
        try:
            for name, v in inputs.items():
                setattr(self, name, v)
        finally:
            self._ready = True
        return self.refresh()

    def title_text(self) -> str:
        """Return the chart title: "<attack>: <attacker> vs <target>" unless a title was given."""
        if self.custom_title:
            return self.custom_title
        name = lambda m, d: getattr(m, "name", d)  # noqa: E731
        return f"{name(self.attack, 'attack')}: {name(self.attacker, 'attacker')} vs {name(self.target, 'target')}"

    def refresh(self) -> Dist | None:
        """Recompute the distribution and redraw; return the Dist when that took under
        :data:`~workbench.widgets.base.INLINE_SECONDS`, else None.

        The work runs off the kernel's message loop (:class:`~workbench.widgets.base.Background`): longer
        work shows "computing..." with a Cancel button and redraws when done, and a newer edit
        supersedes it. On a RulesError the error is shown and the last chart stays.
        """
        start = time.perf_counter()
        inputs = (self.attack, self.attacker, self.target, self.options, self.situation)
        view, title = self.view, self.title_text()

        def work() -> tuple[Dist, Any, str]:
            dist = self.system.damage(*inputs)
            events = events_html(self.system.outcomes(*inputs))
            if view == "at least":
                return dist, charts.at_least_chart(dist, title=title), events
            return dist, charts.damage_chart(dist, title=title), events

        def apply(result: tuple[Dist, Any, str]) -> Dist:
            dist, chart, events = result
            self.set_chart(chart)
            self.stats.value = stats_html(dist)
            self.events.value = events
            self.clear_message(self.error)
            self.value = dist
            self.redraw_seconds = time.perf_counter() - start
            self.refresh_fight()
            return dist

        return self.background.run(work, apply, label="computing the distribution...")

    def refresh_fight(self) -> dict[str, Any] | None:
        """Recompute the fight (:func:`fight_summary`: the attack on screen as often as each turn
        allows until the target is down, beside the attacker's best plan) on the follow-up worker and show it under the chart; return it when done
        within half a second, else None (``panel.fight_background.wait()`` blocks until then)."""
        if not self.show_fight:
            return None
        a, t, o, s, x = self.attacker, self.target, self.options, self.situation, self.attack
        hints = "situation" in self.editors

        def work() -> tuple[dict[str, Any], Any, list[str]]:
            f = fight_summary(a, t, o, s, system=self.system, attack=x)
            frames = fight_frames(f)
            chart = None
            if frames:
                chart = charts.rounds_chart(
                    frames, title=f"Rounds for {f['attacker']} to down {f['target']}", legend_title="Plan"
                ).configure_legend(orient="bottom", direction="vertical", labelLimit=360)  # labels whole
            return f, chart, idle_fields(self.system, x, a, t, o, s) if hints else []

        def apply(result: tuple[dict[str, Any], Any, list[str]]) -> dict[str, Any]:
            f, chart, idle = result
            self._show_idle(idle)
            self.fight = f
            self.fight_stats.value = fight_html(f)
            if chart is not None:
                if self.fight_chart is None:
                    self.fight_chart = alt.JupyterChart(prevalidated(chart))
                    self.fight_chart.add_class("wb-fight-chart")
                    self._place_fight_chart()
                else:
                    self.fight_chart.chart = prevalidated(chart)
            if self.fight_chart is not None:
                self.fight_chart.layout.display = None if chart is not None else "none"
            return f

        return self.fight_background.run(work, apply, label="fighting it out...")

    def _show_idle(self, idle: list[str], form: Panel | None = None) -> None:
        """Put "no effect here" beside each situation control in ``idle`` (where no error is shown)
        and take it away from the others, on ``form`` (default: the situation editor if built)."""
        self.idle = idle
        if form is None and isinstance(self.editors, Editors):
            form = self.editors.built("situation")
        if form is None:  # (not opened yet: it shows them when built)
            return
        for name, slot in form._slots.items():
            if name in idle and not slot.value:
                slot.value = IDLE_HINT
            elif name not in idle and slot.value == IDLE_HINT:
                slot.value = ""

    def _place_fight_chart(self) -> None:
        box = getattr(self, "fight_box", None)
        if box is not None and self.fight_chart is not None and self.fight_chart not in box.children:
            box.children = [self.fight_background.box, self.fight_chart]
