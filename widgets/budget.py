"""``BudgetSearchPanel``: the best builds within a budget against a target (``wb.explore``), with
the cost front (issue 17: "the Build tab has no chart and no budget search"; issue 18, item 4).

``value`` is the :func:`workbench.explore` frame; the chart is
:func:`workbench.charts.cost_front_chart` (cost against the chosen figure, the Pareto front
joined). Before a search the panel says how many upgrade combinations the budget walks
(:func:`workbench.exploration.estimate`), against the count a search walks without asking
(``limits.MAX_COMBINATIONS``); past it a search is refused, as ``explore`` refuses it: counted, the
same on every machine (docs/limits.md, bounded work). Searching runs off the kernel's message loop
(Background), so the app stays responsive. Inputs are traits (``attacker``, ``target``,
``options``, ``situation``, ``budget``, ``by``) for linking.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded

__all__ = ["BudgetSearchPanel", "RANK_BY", "has_build_space", "default_budget"]

#: what a search ranks by, with its label (higher is better)
RANK_BY = {
    "mean damage per turn": "mean_turn_damage",
    "P(kill in one turn)": "p_kill_one_turn",
    "P(kill within 3 rounds)": "p_kill_within_3",
    "mean damage per use": "mean_damage",
    "P(any damage)": "p_any_damage",
}


def has_build_space(system: Any) -> bool:
    """Return True when ``system`` has a build space: its own ``RuleSystem.build_space`` (a build
    economy: Annulus Experience) or declared ``build_choices`` (the generic choice space)."""
    from workbench.systems.base import RuleSystem

    return type(system).build_space is not RuleSystem.build_space or system.build_choices() is not None


def default_budget(system: Any) -> int:
    """Return the budget a search starts at: 3 in a build economy (three Experience), 1 in a
    choice space (one change to a catalog attack: a choice space grows fast with the budget)."""
    return 1 if system.build_choices() is not None else 3


class BudgetSearchPanel(Panel):
    """Every legal build within ``budget`` used by ``attacker`` against ``target``, the best
    ``top_k`` by ``by`` and the cost front; ``value`` is the ``wb.explore`` frame."""

    attacker = T.Any(allow_none=True)
    target = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    budget = T.Int(3)
    by = T.Unicode("mean_turn_damage")

    def __init__(
        self,
        system: Any,
        attacker: Any = None,
        target: Any = None,
        *,
        budget: int | None = None,
        by: str = "mean_turn_damage",
        top_k: int = 10,
        options: Any = None,
        situation: Any = None,
        search: bool = True,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        if not has_build_space(self.system):
            raise RulesError(
                f"budget search is defined for systems with a build space; {self.system.name} has none "
                "(use the Compare or Sweep tab)",
                field="budget",
            )
        budget = default_budget(self.system) if budget is None else budget
        self.top_k = top_k
        creatures = list(self.system.catalog().creatures.values())
        self.attacker = attacker if attacker is not None else creatures[0]
        self.target = target if target is not None else creatures[min(1, len(creatures) - 1)]
        self.options, self.situation = options, situation
        self.budget, self.by = budget, by
        style = {"description_width": "7em"}
        self.controls = {
            "budget": W.BoundedIntText(value=budget, min=1, max=40, description="budget", style=style),
            "by": W.Dropdown(options=list(RANK_BY.items()), value=by, description="rank by", style=style),
        }
        for name, w in self.controls.items():
            T.link((w, "value"), (self, name))
        self.search_button = W.Button(
            description="Search", icon="search", tooltip="every legal build within the budget"
        )
        self.search_button.add_class("wb-budget-search")
        self.search_button.on_click(self.guard(lambda _: self.search()))
        self.estimate_line = W.HTML()
        self.estimate_line.add_class("wb-budget-estimate")
        self.table = W.HTML()
        self.table.add_class("wb-budget-table")
        self.results = W.VBox([self.table])
        self.background = Background(self)
        self._say_estimate()
        if search:
            self.search()
            self.background.wait()
        rows = [W.HBox([w, self._error_slot(k)]) for k, w in self.controls.items()]
        self.children = _children(
            W.VBox(rows),
            W.HBox([self.search_button, self.estimate_line]),
            self.background.box,
            self.error_box,
            self.results,
        )
        self.add_class("wb-budget")

    @T.observe("attacker", "target", "options", "budget")
    @guarded
    def _on_input(self, change: dict) -> None:
        if hasattr(self, "estimate_line"):
            self._say_estimate()

    def _say_estimate(self) -> dict[str, Any]:
        """Show (and return) how much work a search of the budget is, before any is done."""
        from workbench.exploration import estimate
        from workbench.limits import MAX_COMBINATIONS

        est = estimate(self.system, targets=[self.target], budget=self.budget, options=self.options)
        n = est["combinations"]
        self.estimate_line.value = f"budget {self.budget}: " + (
            "the combinations are counted as the search walks them"
            if n is None
            else f"{n:,} {self.system.build_combinations_noun} of the {MAX_COMBINATIONS:,} a search walks "
            "without asking"
            + (" (past them a search is refused; give a smaller budget)" if n > MAX_COMBINATIONS else "")
        )
        return est

    def search(self) -> Any:
        """Search off the message loop (Background) and redraw; a RulesError (a budget past its counted
        bound, a build the target cannot be hit by) is shown beside its control and the last result stays."""
        from workbench.exploration import explore

        kw = dict(
            targets=[self.target],
            budget=self.budget,
            base=self.attacker,
            by=self.by,
            top_k=self.top_k,
            options=self.options,
            situation=self.situation,
            progress=False,
            say=False,
        )
        by = self.by

        def work() -> tuple[Any, Any]:
            frame = explore(self.system, **kw)
            return frame, charts.cost_front_chart(frame, by, f"Builds within {kw['budget']} against {self.target.name}")

        def apply(result: tuple[Any, Any]) -> Any:
            frame, chart = result
            self.set_chart(chart)
            if self.chart is not None:
                self.chart.add_class("wb-budget-chart")
            self.results.children = _children(self.table, self.chart)  # the list, then its front
            top = frame.filter(frame["rank"] <= self.top_k).sort("rank").head(self.top_k)
            cells = "".join(
                f"<tr><td>{r['rank']}</td><td>{html.escape(str(r['name']))}</td><td>{r['cost']}</td>"
                f"<td>{r[by]:.4f}</td><td>{r['same_as']}</td></tr>"
                for r in top.iter_rows(named=True)
            )
            self.table.value = (
                f"<table><tr><th>rank</th><th>build</th><th>cost</th><th>{html.escape(by.replace('_', ' '))}</th>"
                f"<th>stands for</th></tr>{cells}</table>"
            )
            self.clear_message(self.error)
            self.value = frame
            return frame

        return self.background.run(work, apply, "searching...")
