"""``RacePanel``: two builds race to down the same target (``wb.head_to_head``).

``value`` is the one-row :func:`workbench.head_to_head` frame (with its curves); the chart is
:func:`workbench.charts.race_chart` (each build's P(target down by round t)), and the line above it
says who downs the target first how often, who out-damages whom in one turn, which curve dominates,
and, where the system prices builds, how often the cheaper build does better. Inputs are traits
(``a``, ``b``, ``target``, ``options``, ``situation``, ``attack_a``) for linking; the control
picks ``b``, the rival, from the catalog. With ``attack_a`` (the app: the Damage tab's attack) build A
plays that attack as often as each turn allows (``plan_a=attack_a``) and a reference line gives A on
its best plan.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded

__all__ = ["RacePanel", "race_line"]


def race_line(row: dict[str, Any], attack: str | None = None, reference: dict[str, Any] | None = None) -> str:
    """Return the race's numbers in words (HTML): who first, one turn, dominance, the cheaper build,
    and how the numbers were computed (exact, or simulated with its standard error). ``attack``: the
    attack A plays (named in the first line); ``reference``: the race with A on its best plan, in a
    last grey line labelled as the reference."""
    a, b = html.escape(str(row["a"])), html.escape(str(row["b"]))
    parts = []
    if attack is not None:
        parts.append(
            f"<span class='wb-race-attack'>{a} plays <b>{html.escape(attack)}</b> as often as each turn allows; "
            f"{b} its best plan</span>"
        )
    parts += [
        f"<b>{a}</b> downs its {html.escape(str(row['target']))} first <b>{row['p_a_first']:.1%}</b>, "
        f"the same round {row['p_tie']:.1%}, <b>{b}</b> first <b>{row['p_b_first']:.1%}</b>",
        f"one turn: {a} deals more {row['p_a_outdamages']:.1%}, equal {row['p_equal_turn']:.1%}, "
        f"{b} more {row['p_b_outdamages']:.1%}",
        f"faster at every round: {html.escape(str(row['rounds_dominance']))}",
    ]
    if row.get("cheaper") is not None:
        parts.append(
            f"cheaper build: {html.escape(str(row['cheaper']))} ({min(row['cost_a'], row['cost_b'])} vs "
            f"{max(row['cost_a'], row['cost_b'])}), first {row['p_cheaper_first']:.1%}"
        )
    how = "exact" if row["method"] == "exact" else f"simulated, s.e. about {row['se']:.4f}"
    parts.append(f"<i>{how}</i>")
    if reference is not None:
        parts.append(
            "<span class='wb-race-reference' style='color:#57606a'>reference, "
            f"{a} on its best plan: first {reference['p_a_first']:.1%}, mean rounds "
            f"{reference['mean_rounds_a']:.2f} (with {html.escape(attack or 'the attack')}: "
            f"{row['mean_rounds_a']:.2f})</span>"
        )
    return "<br>".join(parts)


class RacePanel(Panel):
    """Build ``a`` against build ``b``, each against its own copy of ``target``; ``value`` is the
    ``wb.head_to_head(a, b, target, curves=True)`` row."""

    a = T.Any(allow_none=True)
    b = T.Any(allow_none=True)
    target = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    attack_a = T.Any(allow_none=True, help="the attack build A plays (None: its best plan)")

    def __init__(
        self,
        system: Any,
        a: Any = None,
        b: Any = None,
        target: Any = None,
        *,
        options: Any = None,
        situation: Any = None,
        fights: int = 20_000,
        attack_a: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self.fights = fights
        self._ready = False
        self.attack_a = attack_a
        self.reference: Any = None  # the race with A on its best plan, when A plays attack_a
        self.catalog = dict(self.system.catalog().creatures)
        names = list(self.catalog)
        self.a = a if a is not None else self.catalog[names[0]]
        self.target = target if target is not None else self.catalog[names[min(1, len(names) - 1)]]
        rival = b if b is not None else self.catalog[names[min(2, len(names) - 1)]]
        if rival.name not in self.catalog:
            self.catalog[rival.name] = rival
        self.b = rival
        self.options, self.situation = options, situation
        self.controls = {
            "b": W.Dropdown(
                options=list(self.catalog), value=rival.name, description="against", style={"description_width": "7em"}
            )
        }
        self.controls["b"].observe(self.guard(self._on_pick), names="value")
        self.summary = W.HTML()
        self.summary.add_class("wb-race-summary")
        self.background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()
        if self.value is None:
            raise RulesError(self.error or "nothing to race", field="b")
        assert self.chart is not None
        self.chart.add_class("wb-race-chart")
        self.children = _children(
            W.HBox([self.controls["b"], self._error_slot("b")]),
            self.background.box,
            self.error_box,
            self.summary,
            self.chart,
        )
        self.add_class("wb-race")

    def _on_pick(self, change: dict) -> None:
        self.b = self.catalog[change["new"]]

    @T.observe("a", "b", "target", "options", "situation", "attack_a")
    @guarded
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    def refresh(self) -> Any:
        """Race off the message loop (Background) and redraw; a RulesError is shown and the last
        chart stays."""
        from workbench.races import head_to_head

        args = (self.a, self.b, self.target)
        attack = self.attack_a
        kw = dict(options=self.options, situation=self.situation, fights=self.fights, progress=False)

        def work() -> tuple[Any, Any, Any]:
            row = head_to_head(*args, plan_a=attack, curves=True, **kw)
            ref = None if attack is None else head_to_head(*args, **kw)
            return row, charts.race_chart(row), ref

        def apply(result: tuple[Any, Any, Any]) -> Any:
            row, chart, ref = result
            self.set_chart(chart)
            self.reference = ref
            self.summary.value = race_line(
                row.row(0, named=True),
                None if attack is None else attack.name,
                None if ref is None else ref.row(0, named=True),
            )
            self.clear_message(self.error)
            self.value = row
            return row

        return self.background.run(work, apply, "racing...")
