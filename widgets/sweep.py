"""``SweepPanel``: builds against a target as one of its number fields runs over a range.

``value`` is the :func:`workbench.sweep` frame; the chart is :func:`workbench.charts.sweep_chart`
(a line per build, the 10-90 % band of the rounds behind a rounds line). Inputs are traits
(``attackers``, ``target``, ``options``, ``situation``, ``parameter``, ``low``, ``high``,
``step``, ``show``, ``builds``) for linking; the controls edit ``parameter`` to ``show``.

``builds`` (pinned builds, :class:`workbench.widgets.pins.Pin`: a label, an attacker, its options and
situation), when not empty, replaces ``attackers``: one line per build, named by its label, each
swept under its own options and situation (one ``wb.sweep`` per distinct pair), with a ``build``
column in ``value`` holding the label.
"""

from __future__ import annotations

import html
import warnings
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded, same_numbers

__all__ = ["SweepPanel", "SHOWN", "PREFERRED", "flat_builds", "lively_parameter"]

#: the fields a new sweep starts on, the first the target has (what designers sweep most: AC,
#: armour, a defense, evasion, then HP)
PREFERRED = ("ac", "armor", "physical_defense", "evasion", "toughness", "agility", "defense", "hp")

#: the columns a sweep chart can show, with their labels
SHOWN = {
    "mean rounds to kill": "mean_rounds",
    "median rounds to kill": "rounds_q50",
    "mean damage per turn": "mean_turn_damage",
    "P(kill in one turn)": "p_kill_one_turn",
    "mean damage per use": "mean_damage",
}


def flat_builds(frame: Any, show: str, label: str = "attacker", best_only: bool = True) -> list[str]:
    """Return the builds (by ``label``) whose ``show`` column does not move over the swept values
    (every finite value within 1e-9 of the others, or none finite): a parameter with no effect on
    them, said beside the chart instead of flat lines with no note (issue 36, item 5). With
    ``best_only`` only the best-plan rows count where there are any (a sweep frame's lines);
    without it every row does (the frame of the lines drawn)."""
    import polars as pl

    best = frame.filter(pl.col("attack") == "best plan") if best_only else frame
    shown = best if best.height else frame
    out = []
    for name in shown[label].unique(maintain_order=True).to_list():
        v = shown.filter(pl.col(label) == name)[show].cast(pl.Float64)
        finite = v.filter(v.is_finite())
        spread = float(finite.max() - finite.min()) if finite.len() else 0.0
        if finite.len() == v.len() and spread <= 1e-9 or finite.len() == 0:
            out.append(str(name))
    return out


def lively_parameter(
    attackers: list[Any], target: Any, names: list[str], options: Any, situation: Any, show: str, tries: int = 6
) -> str | None:
    """Return the first of ``names`` (at most ``tries`` of them) whose change (the target's own
    value, then 10 more) moves ``show`` for the attackers, or None when none does."""
    from workbench.sweeps import sweep

    for name in names[:tries]:
        here = getattr(target, name, None)
        if not isinstance(here, (int, float)) or isinstance(here, bool):
            continue
        try:
            frame = sweep(
                list(attackers), target, name, [here, here + 10], options=options, situation=situation, progress=False
            )
        except RulesError:
            continue
        if not flat_builds(frame, show):
            return name
    return None


class SweepPanel(Panel):
    """``attackers`` (creatures: each gets its best-plan line) against ``target`` while the target's
    ``parameter`` runs from ``low`` to ``high`` by ``step``; ``value`` is the ``wb.sweep`` frame.
    With ``attack`` (the app: the Damage tab's attack, edited or not) the first attacker plays that
    attack as often as each turn allows, its best plan beside it as a reference line."""

    attack = T.Any(allow_none=True)
    attackers: T.List[Any] = T.List()
    target = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    parameter = T.Unicode("")
    low = T.Float(0.0)
    high = T.Float(10.0)
    step = T.Float(1.0)
    show = T.Unicode("mean_rounds")
    builds: T.List[Any] = T.List(help="pinned builds (label, attacker, options, situation): one line each")

    def __init__(
        self,
        system: Any,
        attackers: list[Any] | None = None,
        target: Any = None,
        *,
        parameter: str | None = None,
        low: float | None = None,
        high: float | None = None,
        step: float = 1.0,
        show: str = "mean_rounds",
        options: Any = None,
        situation: Any = None,
        attack: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.sweeps import sweep_parameters
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self._ready = False
        creatures = list(self.system.catalog().creatures.values())
        self.attackers = list(attackers) if attackers else creatures[:1]
        self.attack = attack
        self.target = target if target is not None else (creatures[1] if len(creatures) > 1 else creatures[0])
        self.options, self.situation = options, situation
        names = sweep_parameters(self.target)
        # the first defense-like field the target has, else its first number field
        liked = [n for n in PREFERRED if n in names]
        if parameter is None:
            # the first of them whose change shows (issue 36, item 5: a sweep opening on flat lines)
            order = [*liked, *[n for n in names if n not in liked]]
            playing = self.attackers if attack is None else [(self.attackers[0], attack)]
            parameter = lively_parameter(playing, self.target, order, options, situation, show) or order[0]
        self.parameter = parameter
        here = float(getattr(self.target, self.parameter) or 0)
        self.low = here if low is None else low
        self.high = here + 10 * step if high is None else high
        self.step, self.show = step, show
        style = {"description_width": "7em"}
        self.controls = {
            "parameter": W.Dropdown(options=names, value=self.parameter, description="sweep", style=style),
            "low": W.FloatText(value=self.low, description="from", style=style, layout=W.Layout(width="14em")),
            "high": W.FloatText(value=self.high, description="to", style=style, layout=W.Layout(width="14em")),
            "step": W.FloatText(value=self.step, description="step", style=style, layout=W.Layout(width="14em")),
            "show": W.Dropdown(options=list(SHOWN.items()), value=show, description="show", style=style),
        }
        for name, w in self.controls.items():
            T.link((w, "value"), (self, name))
        self.controls["parameter"].observe(self.guard(self._on_parameter), names="value")
        self.note = W.HTML()
        self.note.add_class("wb-sweep-note")
        self.background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()
        if self.value is None:
            raise RulesError(self.error or "nothing to sweep", field="parameter")
        assert self.chart is not None
        self.chart.add_class("wb-sweep-chart")
        rows = [W.HBox([w, self._error_slot(k)]) for k, w in self.controls.items()]
        self.children = _children(W.VBox(rows), self.background.box, self.error_box, self.note, self.chart)
        self.add_class("wb-sweep")

    def _on_parameter(self, change: dict) -> None:
        """A new parameter starts its range at the target's own value."""
        here = getattr(self.target, change["new"], None)
        if isinstance(here, (int, float)) and not isinstance(here, bool):
            self._ready = False
            try:
                self.low, self.high = float(here), float(here) + 10 * self.step
            finally:
                self._ready = True
            self.refresh()

    def values(self) -> list[float]:
        """Return the swept values: low, low + step, ... up to high (RulesError for a bad range)."""
        from workbench.sweeps import MAX_SWEEP_VALUES

        if not self.step > 0:
            raise RulesError(f"must be above 0, not {self.step:g}", field="step")
        if self.high < self.low:
            raise RulesError(f"must be at least from ({self.low:g}), not {self.high:g}", field="high")
        n = int((self.high - self.low) / self.step + 1e-9) + 1
        if n > MAX_SWEEP_VALUES:
            raise RulesError(f"{n} values; a sweep takes at most {MAX_SWEEP_VALUES}: widen the step", field="step")
        return [self.low + i * self.step for i in range(n)]

    @T.observe("attackers", "attack", "target", "options", "situation", "low", "high", "step", "show", "builds")
    @guarded
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    def refresh(self) -> Any:
        """Recompute the sweep off the message loop (Background) and redraw; a RulesError is shown
        beside its control and the last chart stays."""
        from workbench.sweeps import sweep

        values = self.values()
        values = [int(v) if float(v).is_integer() else v for v in values]
        args = (list(self.attackers), self.target, self.parameter, values)
        kw = dict(options=self.options, situation=self.situation, progress=False)
        show, builds, attack = self.show, list(self.builds), self.attack

        def work() -> tuple[Any, Any, Any]:
            if builds:
                return self._sweep_builds(builds, show, *args[1:])
            if attack is not None:
                return self._sweep_attack(attack, show, *args, **kw)
            frame = sweep(*args, **kw)
            best = frame.filter(frame["attack"] == "best plan")
            shown = best if best.height else frame
            return frame, shown.with_columns(build=shown["attacker"]), charts.sweep_chart(shown, show)

        parameter, low, high = self.parameter, values[0], values[-1]

        def apply(result: tuple[Any, Any, Any]) -> Any:
            frame, shown, chart = result
            self.set_chart(chart)
            # (the lines drawn, by the names on the chart)
            flat = flat_builds(shown, SHOWN.get(show, show) if show in SHOWN else show, "build", best_only=False)
            words = next((k for k, v in SHOWN.items() if v == show), show)
            self.note.value = (
                '<div class="wb-no-effect" style="color:#9a6700">no effect: '
                f"{html.escape(parameter)} from {low:g} to {high:g} leaves the {html.escape(words)} of "
                f"{html.escape(', '.join(flat))} as it is (pick another parameter)</div>"
                if flat
                else ""
            )
            self.clear_message(self.error)
            with warnings.catch_warnings():  # traitlets compares the old frame with == first
                warnings.simplefilter("ignore")
                self.value = frame
            return frame

        return self.background.run(work, apply, "sweeping...")

    def _sweep_attack(
        self, attack: Any, show: str, attackers: list[Any], target: Any, parameter: str, values: list[Any], **kw: Any
    ) -> tuple[Any, Any, Any]:
        """Return (the sweep frame, the lines drawn, the chart) of the first attacker playing
        ``attack`` as often as each turn allows (the pair ``(attacker, attack)``: an edited attack in
        place of its own) and, as a reference line, of its best plan; ``build`` names each line."""
        import polars as pl

        from workbench.sweeps import sweep

        a, others = attackers[0], attackers[1:]
        mine = sweep([(a, attack)], target, parameter, values, **kw)
        mine = mine.with_columns(build=pl.lit(f"{a.name} · {attack.name}"))
        ref = sweep([a], target, parameter, values, **kw).filter(pl.col("attack") == "best plan")
        ref = ref.with_columns(build=pl.lit(f"{a.name} · best plan (reference)"))
        rest = mine.clear()  # the other attackers: their best plans, as without an attack
        if others:
            rest = sweep(others, target, parameter, values, **kw).filter(pl.col("attack") == "best plan")
            rest = rest.with_columns(build=pl.col("attacker") + " · best plan")
        frame = pl.concat([mine, ref, rest], how="vertical_relaxed")
        if same_numbers(mine, ref, [show, "rounds_q10", "rounds_q90"]):
            # the attack is the best plan: one line, said so (two lines would lie on each other)
            one = mine.with_columns(build=pl.lit(f"{a.name} · {attack.name} (its best plan too)"))
            shown = pl.concat([one, rest], how="vertical_relaxed")
            return frame, shown, charts.sweep_chart(shown, show, label="build")
        return frame, frame, charts.sweep_chart(frame, show, label="build")

    def _sweep_builds(
        self, builds: list[Any], show: str, target: Any, parameter: str, values: list[Any]
    ) -> tuple[Any, Any, Any]:
        """Return (the sweep frame, the lines drawn, the chart) of ``builds`` (one ``wb.sweep`` per
        distinct options and situation), one line per build: its attack as often as each turn
        allows (the pair of its attacker, named by its label so that two builds of one creature stay
        apart, and its attack; ``build`` holds the label), as the pins play it everywhere."""
        import polars as pl

        from workbench.sweeps import sweep

        groups: dict[tuple, list[Any]] = {}
        for b in builds:
            groups.setdefault((b.options, b.situation), []).append(b)
        parts = []
        for (options, situation), members in groups.items():
            named = [(b.attacker.replace(name=b.label), b.attack) for b in members]
            frame = sweep(named, target, parameter, values, options=options, situation=situation, progress=False)
            parts.append(frame.with_columns(build=pl.col("attacker")))
        frame = pl.concat(parts, how="vertical_relaxed")
        order = {b.label: i for i, b in enumerate(builds)}
        frame = frame.sort(pl.col("build").replace_strict(order, return_dtype=pl.Int64), maintain_order=True)
        return frame, frame, charts.sweep_chart(frame, show, label="build")
