"""``DuelPanel``: two creatures attack each other until one falls → win chances and the rounds it takes.

``value`` is the :class:`~workbench.duel_result.DuelResult` of ``wb.duel(a, b, ...)`` (exact absorbing
chains, docs/combat.md); the chart stacks the win/draw split over the chance each side has won
by each round.
"""

from __future__ import annotations

import html
from typing import Any

import altair as alt
import ipywidgets as W
import numpy as np
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, flag_tabs, guarded
from .creature import CreatureEditor
from .forms import ModelForm
from .situation import OptionsPanel, SituationPanel

__all__ = ["DuelPanel", "duel_figure", "fight_figure", "duel_html", "duel_badge", "PREVIEW_FIGHTS", "OBJECTIVE_CHOICES"]

#: the objectives the Duel panel offers for choosing each side's plan (label -> wb.duel objective)
OBJECTIVE_CHOICES = {
    "highest mean damage": "damage",
    "fewest expected rounds": "rounds",
    "P(kill within 1 round)": "kill_within_1",
    "P(kill within 3 rounds)": "kill_within_3",
}

#: the fights of a simulated duel's preview, drawn first while the full run goes on (about 1/50 of
#: the default 100,000: s.e. about 0.011 on a win chance near one half)
PREVIEW_FIGHTS = 2_000


def duel_figure(result: Any) -> charts.AnyChart:
    """Return the win/draw bar above the "won by round t" curves of a DuelResult (one themed chart)."""
    a, b = (result.a, result.b) if result.a != result.b else (f"{result.a} (A)", f"{result.b} (B)")
    return fight_figure(a, b, result.p_a_wins, result.p_b_wins, result.p_draw, result.rounds, result.max_rounds)


def fight_figure(
    a: str, b: str, p_a: float, p_b: float, p_none: float, rounds: pl.DataFrame, max_rounds: int
) -> charts.AnyChart:
    """Return the bar of P(side ``a`` wins), P(side ``b`` wins) and P(no winner) above the curves of
    the chance each side has won by the end of each round (``rounds``: round, p_a_wins, p_b_wins, the
    chance of winning in that round), drawn up to the round by which nearly every decided fight is
    (one themed chart; a duel's, an encounter's)."""
    bar = charts.duel_chart(p_a, p_b, p_none, (a, b), title=f"{a} vs {b}", themed=False)
    r = rounds
    won_a = np.cumsum(r["p_a_wins"].to_numpy())
    won_b = np.cumsum(r["p_b_wins"].to_numpy())
    decided = won_a + won_b
    late = np.flatnonzero(decided < decided[-1] - 1e-4)
    last = int(r["round"][int(late[-1]) + 1]) + 1 if late.size else 2
    rounds_ = r["round"].to_numpy()
    frames = {
        f"{a} wins": pl.DataFrame({"round": rounds_, "p_killed_by": won_a}),
        f"{b} wins": pl.DataFrame({"round": rounds_, "p_killed_by": won_b}),
    }
    nobody = decided[-1] <= 0.0
    if nobody:  # flat lines at 0 would read as a broken chart: say it in words, over a few rounds
        last = min(10, int(rounds_[-1]))
    curves = charts.rounds_chart(
        frames,
        title="Won by round",
        subtitle=(
            f"no fight is decided within {max_rounds} rounds: neither side can win"
            if nobody
            else "chance each side has won by the end of each round"
        ),
        max_round=min(last, int(rounds_[-1])),
        y_title="P(won by round)",
        legend_title="Side",
        themed=False,
    )
    return charts.apply_theme(alt.vconcat(bar, curves, spacing=24))


def _duel_rows(result: Any) -> list[tuple[str, str, str]]:
    r = result.rounds
    decided = result.p_a_wins + result.p_b_wins
    mean = float((r["round"] * (r["p_a_wins"] + r["p_b_wins"])).sum()) / decided if decided else None
    rows = [
        ("a", f"P({result.a} wins)", f"{result.p_a_wins:.2%}"),
        ("b", f"P({result.b} wins)", f"{result.p_b_wins:.2%}"),
        ("draw", f"no winner in {result.max_rounds} rounds", f"{result.p_draw:.2%}"),
        ("rounds", "mean rounds (decided)", "none decided" if mean is None else f"{mean:.2f}"),
        ("exact", "method", "exact" if result.exact else "simulated"),
    ]
    if not result.exact:
        rows += [
            ("fights", "fights simulated", f"{result.fights:,}"),
            ("se", "standard error", f"{result.standard_error:.4f}"),
        ]
    return rows


def duel_html(result: Any, reference: Any = None, attack: str | None = None) -> str:
    """Return an HTML table of a DuelResult: each side's win chance, no winner, mean length. With
    ``attack`` (side A plays that attack, as often as each turn allows) and ``reference`` (the duel
    with A on its best plan), two labelled columns: the attack's and the best plan's."""
    rows = _duel_rows(result)
    if reference is None:
        cells = "".join(
            f'<tr><th style="text-align:left;padding-right:1em">{html.escape(label)}</th>'
            f'<td style="text-align:right" class="wb-{key}">{v}</td></tr>'
            for key, label, v in rows
        )
        return f'<table class="wb-stats">{cells}</table>'
    ref = {k: v for k, _, v in _duel_rows(reference)}
    head = (
        '<tr><th></th><th style="text-align:right;padding-left:1em" class="wb-duel-attack">'
        f"A plays {html.escape(attack or 'its attack')}</th>"
        '<th style="text-align:right;padding-left:1em" class="wb-duel-best">A on its best plan (reference)</th></tr>'
    )
    cells = "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{html.escape(label)}</th>'
        f'<td style="text-align:right;padding-left:1em" class="wb-{key}">{v}</td>'
        f'<td style="text-align:right;padding-left:1em;color:#57606a" class="wb-ref-{key}">{ref.get(key, "")}</td></tr>'
        for key, label, v in rows
    )
    return f'<table class="wb-stats">{head}{cells}</table>'


def duel_badge(result: Any, preview: bool = False, running: bool = True) -> str:
    """Return the HTML badge saying how a DuelResult was computed: "exact" (absorbing chains) or
    "simulated" with its number of fights and the standard error of the win chances; ``preview``:
    "preview", the quick first run of a simulated duel, "the full run is going on" while it does
    (``running``), else "the full run did not finish" (cancelled, failed or superseded)."""
    if result.exact:
        text, colour, tip = "exact", "#1a7f37", "exact absorbing chains: no sampling error"
    else:
        text = f"simulated: {result.fights:,} fights, s.e. {result.standard_error:.4f}"
        colour, tip = "#9a6700", "seeded simulation (asked for, or a stateful effect is in play); ± 2 s.e. covers ~95%"
        if result.forced_by:  # the rules that needed the simulation (DuelResult.forced_by)
            text += f"; forced by {', '.join(result.forced_by)}"
            tip = "seeded simulation: what these rules carry does not fit an exact chain; ± 2 s.e. covers ~95%"
        if preview:
            text = f"preview: {text}; " + ("the full run is going on" if running else "the full run did not finish")
            colour, tip = "#6e7781", "a quick first run of the simulation, drawn while the full run goes on"
    return (
        f'<span class="wb-duel-badge" title="{html.escape(tip)}" style="display:inline-block;'
        f'padding:2px 8px;border-radius:10px;color:white;background:{colour};font-size:90%">'
        f"{html.escape(text)}</span>"
    )


class DuelPanel(Panel):
    """A duel of creature ``a`` against creature ``b`` of one system; ``value`` is the DuelResult.

    Inputs are traits (``a``, ``b``, ``options``, ``situation``, ``first``, ``max_rounds``,
    ``objective``) for linking; with ``controls=True`` the panel builds editors for them
    (``panel.editors``) and the ``first`` / ``max_rounds`` / ``objective`` controls
    (``panel.controls``; "plans by": how each side's plan is chosen, :data:`OBJECTIVE_CHOICES`). Defaults: the catalog's first two creatures.
    ``badge`` says whether the result is exact or simulated (fights, standard error). With
    ``auto=False`` a change only marks the result stale and the **Run duel** button
    (``panel.run_button``) recomputes it (a simulated duel takes seconds). ``fights`` is the number
    of simulated fights when the engine has to simulate (a stateful effect in play).
    """

    a = T.Any(allow_none=True)
    b = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    first = T.Unicode("a", help='who acts first each round: "a", "b" or "random"')
    max_rounds = T.Int(100)
    tactics_a = T.Any(allow_none=True, help="side A's tactics (the system's tactics_class), None: the default")
    tactics_b = T.Any(allow_none=True, help="side B's tactics (the system's tactics_class), None: the default")
    attack_a = T.Any(
        allow_none=True, help="the attack side A plays, as often as each turn allows (None: A's best plan)"
    )
    attack_owner = T.Any(
        allow_none=True,
        help="the creature attack_a was picked for (the app: the Damage tab's attacker); another side A "
        "picked on the Duel tab itself plays its best plan. None: attack_a is A's whatever A is",
    )
    objective = T.Unicode(
        "damage", help='how each side\'s plan is chosen (wb.duel objective): "damage", "rounds" or "kill_within_K"'
    )

    @T.validate("objective")
    def _valid_objective(self, proposal: dict) -> str:
        from workbench.turns import check_objective

        value = proposal["value"]
        check_objective(value)  # RulesError, field objective, for anything else
        picker = getattr(self, "controls", {}).get("objective")
        if picker is not None and value not in [v for _, v in picker.options]:
            picker.options = [*picker.options, (value, value)]  # e.g. kill_within_5, set from code
        return value

    def __init__(
        self,
        system: Any,
        a: Any = None,
        b: Any = None,
        *,
        options: Any = None,
        situation: Any = None,
        first: str = "a",
        max_rounds: int = 100,
        controls: bool = True,
        auto: bool = True,
        fights: int = 100_000,
        tactics_a: Any = None,
        tactics_b: Any = None,
        objective: str = "damage",
        attack_a: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self._ready = False
        self.objective = objective
        self.attack_a = attack_a
        self.attack_owner = None
        self.reference: Any = None  # the duel with side A on its best plan, beside attack_a's
        self._shown: dict[str, Any] = {}  # the inputs of the result on screen
        self._preview: Any = None  # the preview on screen while its full run goes on
        creatures = list(self.system.catalog().creatures.values())
        self.a = a if a is not None else (creatures[0] if creatures else self.system.Creature())
        self.b = b if b is not None else (creatures[1] if len(creatures) > 1 else self.a)
        self.options = self.system.Options() if options is None else options
        self.situation = self.system.Situation() if situation is None else situation
        self.first, self.max_rounds = first, max_rounds
        tactics_class = self.system.tactics_class
        if tactics_class is not None:
            # a system with tactics (how a simulated side spends actions beyond its plan) gets a
            # form per side; the defaults are the system's own, so an untouched form changes nothing
            self.tactics_a = tactics_class() if tactics_a is None else tactics_a
            self.tactics_b = tactics_class() if tactics_b is None else tactics_b
        elif tactics_a is not None or tactics_b is not None:
            raise RulesError(f"the {self.system.title} simulation takes no tactics", field="tactics")
        self.editors: dict[str, Panel] = {}
        self.controls: dict[str, W.Widget] = {}
        tabs = None
        if controls:
            self.editors = {
                "a": CreatureEditor(self.system, self.a),
                "b": CreatureEditor(self.system, self.b),
                "situation": SituationPanel(self.system, self.situation),
                "options": OptionsPanel(self.system, self.options),
            }
            titles = ["side A", "side B", "situation", "options"]
            if tactics_class is not None:
                self.editors["tactics_a"] = ModelForm(tactics_class, self.tactics_a, system=self.system)
                self.editors["tactics_b"] = ModelForm(tactics_class, self.tactics_b, system=self.system)
                titles += ["tactics A", "tactics B"]
            for name, editor in self.editors.items():
                self._adopt(editor)
                T.link((editor, "value"), (self, name))
            tabs = W.Tab(children=list(self.editors.values()))
            self.editor_titles = dict(zip(self.editors, titles))
            flag_tabs(tabs, list(self.editors.values()), titles)
            style, layout = {"description_width": "9em"}, W.Layout(width="22em")
            self.controls = {
                "first": W.Dropdown(
                    options=[("A acts first", "a"), ("B acts first", "b"), ("coin toss", "random")],
                    value=first,
                    description="initiative",
                    style=style,
                    layout=layout,
                ),
                "max_rounds": W.IntText(value=max_rounds, description="max rounds", style=style, layout=layout),
                "objective": W.Dropdown(
                    options=[(label, v) for label, v in OBJECTIVE_CHOICES.items()]
                    + ([] if objective in OBJECTIVE_CHOICES.values() else [(objective, objective)]),
                    value=objective,
                    description="plans by",
                    style=style,
                    layout=layout,
                ),
            }
            self.controls["objective"].add_class("wb-duel-objective")
            T.link((self.controls["objective"], "value"), (self, "objective"))
            self.controls["first"].observe(self.guard(lambda ch: setattr(self, "first", ch["new"])), names="value")
            self.controls["max_rounds"].observe(self._on_max_rounds, names="value")
        self.tabs = tabs
        self.auto = auto
        self.fights = fights
        self.stats = W.HTML()
        self.stats.add_class("wb-duel-stats")
        self.badge = W.HTML()
        self.tactics_note = W.HTML()
        self.tactics_note.add_class("wb-duel-tactics-note")
        self.stale = W.HTML()
        self.run_button = W.Button(
            description="Run duel",
            icon="play",
            button_style="primary",
            tooltip="compute the duel with the current inputs",
        )
        self.run_button.add_class("wb-duel-run")
        self.run_button.on_click(self.guard(lambda _: self.refresh()))
        self.background = Background(self)
        self.background.on_idle.append(self._on_idle)
        self._ready = True
        self.refresh()
        self.background.wait()  # the first duel: a panel is built with a result
        if self.value is None:
            raise RulesError(self.error or "these creatures cannot duel", field="a")
        assert self.chart is not None  # a result was drawn
        self.chart.add_class("wb-duel-chart")
        rows = [W.HBox([w, self._error_slot(k)]) for k, w in self.controls.items()]
        result = W.VBox(
            [
                self.stale_banner,
                self.badge,
                self.tactics_note,
                W.HBox([self.chart, self.stats], layout=W.Layout(align_items="flex-start")),
            ]
        )
        result.add_class("wb-duel-result")
        self.children = _children(
            self.tabs, rows, W.HBox([self.run_button, self.stale, self.background.box]), self.error_box, result
        )

    @guarded
    def _on_max_rounds(self, change: dict) -> None:
        if change["new"] < 1:
            self.show_error(RulesError(f"must be a whole number >= 1, not {change['new']}", field="max_rounds"))
            return
        if self._slots.get("max_rounds") is not None and self._slots["max_rounds"].value:
            self.clear_message(self.error)
        self.max_rounds = change["new"]

    #: the inputs a duel result depends on, and how a change of each is named on screen
    INPUTS = {
        "a": "side A",
        "b": "side B",
        "attack_a": "A's attack",
        "options": "options",
        "situation": "situation",
        "first": "initiative",
        "max_rounds": "max rounds",
        "tactics_a": "tactics A",
        "tactics_b": "tactics B",
        "objective": "plans by",
    }

    def playing(self) -> Any:
        """Return the attack side A plays now: ``attack_a``, unless it was picked for another
        creature than side A (``attack_owner``: side A changed on the Duel tab itself), else None
        (A's best plan)."""
        if self.attack_a is None or (self.attack_owner is not None and self.attack_owner != self.a):
            return None
        return self.attack_a

    def inputs(self) -> dict[str, Any]:
        """Return the inputs a duel is run on now (see :data:`INPUTS`)."""
        return {k: getattr(self, k) for k in self.INPUTS}

    def changed_since(self, shown: dict[str, Any]) -> list[str]:
        """Return, in words, what changed between the inputs ``shown`` and the current ones
        ("side B: Basilisk → Drake", "options"), [] when nothing did."""
        now = self.inputs()
        out = []
        for key, words in self.INPUTS.items():
            old, new = shown.get(key), now[key]
            if old is new or old == new:
                continue
            names = getattr(old, "name", None), getattr(new, "name", None)
            if key in ("a", "b", "attack_a") and all(isinstance(n, str) for n in names) and names[0] != names[1]:
                out.append(f"{words}: {names[0]} \u2192 {names[1]}")
            elif key in ("first", "max_rounds", "objective"):
                out.append(f"{words}: {old} \u2192 {new}")
            else:
                out.append(f"{words} edited")
        return out

    def _mark_stale(self) -> None:
        """Say over the result whether it is for the inputs on screen: if not, what changed."""
        changed = self.changed_since(self._shown) if self._shown else []
        if not changed:
            self.stale.value = ""
            return
        what = html.escape("; ".join(changed))
        self.stale.value = (
            f'<i class="wb-duel-stale" style="color:#9a6700">inputs changed since the result shown ({what}): '
            + ("it is being recomputed</i>" if self.auto else "press Run duel</i>")
        )

    @T.observe(*INPUTS)
    @guarded
    def _on_input(self, change: dict) -> None:
        if not self._ready:
            return
        if self.auto:
            self.refresh()
        self._mark_stale()

    def refresh(self) -> Any:
        """Recompute the duel and redraw; on a RulesError show it and keep the last result and chart.

        The duel runs off the kernel's message loop (:class:`~workbench.widgets.base.Background`): one done
        within a second is drawn at once and returned; a longer one (a simulated duel) shows
        "fighting..." with a Cancel button, keeps the last result on screen and is drawn when done
        (None is returned; ``panel.background.wait()`` blocks until then). A newer edit supersedes
        an older duel."""
        from workbench.combat import duel

        shown = self.inputs()
        attack = self.playing()
        a, b, o, s, first, rounds, fights, ta, tb, objective = (
            self.a,
            self.b,
            self.options,
            self.situation,
            self.first,
            self.max_rounds,
            self.fights,
            self.tactics_a,
            self.tactics_b,
            self.objective,
        )

        def one(n: int, plan: Any) -> Any:
            return duel(
                a,
                b,
                o,
                s,
                first=first,
                max_rounds=rounds,
                fights=n,
                tactics_a=ta,
                tactics_b=tb,
                progress=False,
                objective=objective,
                plan_a=plan,
            )

        def run(n: int) -> Any:
            # A's attack as often as each turn allows, and A's best plan beside it for reference (a
            # simulated reference runs PREVIEW_FIGHTS fights: it is a yardstick, its s.e. shown)
            if attack is None:
                return one(n, None), None
            main = one(n, attack)
            return main, one(n if main.exact else min(n, PREVIEW_FIGHTS), None)

        def apply(pair: Any, preview: bool = False) -> Any:
            return self._apply(pair[0], preview=preview, reference=pair[1], shown=shown)

        if fights <= PREVIEW_FIGHTS:
            return self.background.run(lambda: run(fights), apply, "fighting...")
        # a simulated duel shows PREVIEW_FIGHTS fights first (an exact duel is the answer at once)
        return self.background.run(
            lambda: run(fights),
            apply,
            f"preview of {PREVIEW_FIGHTS:,} fights shown; fighting all {fights:,}...",
            preview=(
                lambda: run(PREVIEW_FIGHTS),
                lambda r: bool(r[0].exact),
                lambda r: apply(r, preview=True),
            ),
        )

    def _tactics_note(self, result: Any) -> str:
        """Return the hint shown when tactics were changed but the duel is exact: tactics only act in
        a simulated fight (recovery checks need a condition, Blood Price needs Vitality to track),
        so in an exact duel they change nothing ("" otherwise)."""
        tactics_class = self.system.tactics_class
        if tactics_class is None or not result.exact:
            return ""
        changed = [s for s, t in (("A", self.tactics_a), ("B", self.tactics_b)) if t != tactics_class()]
        if not changed:
            return ""
        return (
            f'<i style="color:#57606a">tactics of side {" and ".join(changed)} change nothing here: '
            "this duel has no condition to recover from and no Blood Price set, so it is exact</i>"
        )

    def _apply(
        self, result: Any, preview: bool = False, reference: Any = None, shown: dict[str, Any] | None = None
    ) -> Any:
        """Draw ``result`` (with ``reference``, A's best plan, beside it when A plays an attack); a
        ``preview`` (the first PREVIEW_FIGHTS fights of a simulated duel) is drawn with its badge
        saying so, and ``value`` keeps the last full result. ``shown``: the inputs it was run on;
        when they are no longer the inputs on screen (an edit while it ran) the result is shown
        marked stale with what changed, never as the duel on screen (issue 36, item 3)."""
        self._shown = dict(shown) if shown is not None else self.inputs()
        attack = self._shown.get("attack_a") if reference is not None else None
        self.set_chart(duel_figure(result))
        self.stats.value = duel_html(result, reference, None if attack is None else attack.name)
        self.badge.value = duel_badge(result, preview=preview)
        self.reference = reference
        self._preview = result if preview else None
        self._mark_stale()
        if preview:
            return result
        self.tactics_note.value = self._tactics_note(result)
        self.clear_message(self.error)
        self.value = result
        return result

    def _on_idle(self) -> None:
        """No duel runs any more: a preview still on screen says its full run did not finish."""
        if self._preview is not None:
            self.badge.value = duel_badge(self._preview, preview=True, running=False)
