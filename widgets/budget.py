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
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded
from .encounter import copies_box

__all__ = ["BudgetSearchPanel", "BuildSearchPanel", "RANK_BY", "has_build_space", "default_budget"]

#: what a search ranks by, with its label (higher is better)
#: what a search against a group (copies above 1) ranks by, for each figure of ``RANK_BY``: how fast
#: every copy falls (docs/explore.md, Against a group; a figure of one copy would rank an area set by
#: one creature)
GROUP_RANK_BY = {
    "mean_turn_damage": "mean_rounds",
    "mean_damage": "mean_rounds",
    "p_any_damage": "mean_rounds",
    "p_kill_one_turn": "p_kill_one_turn",
    "p_kill_within_3": "p_kill_within_3",
}
#: what those figures are called on screen against a group
GROUP_HEADINGS = {
    "mean_rounds": "mean rounds to fell every copy (fewest first)",
    "p_kill_one_turn": "P(every copy down in one turn)",
    "p_kill_within_3": "P(every copy down within 3 rounds)",
}
#: simulated fights of each build against a group (explore's ``fights``): the default Annulus budget
#: against 3 copies is 198 builds x 3 x 200 = 118,800 group row-fights, within the counted bound
GROUP_SEARCH_FIGHTS = 200

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


def _set_frame(panel: Panel, frame: Any) -> None:
    """Set ``panel.value`` to a polars frame (traitlets compares the old value with it: a frame
    against None warns; the comparison means nothing here)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        panel.value = frame


def _show_ranking(panel: Any, frame: Any, top: Any, chart: Any, by: str, heading: str, pick: str, front: bool) -> None:
    """Show a search's ranking on ``panel``: ``chart`` (its cost front), the table of ``top`` (rank,
    build, cost, ``by`` under ``heading``, what each stands for; with ``front`` whether it is on the
    Pareto front) and the picker of its rows (their ``pick`` column; the best picked), the frame as
    the panel's value."""
    panel.set_chart(chart)
    if panel.chart is not None:
        panel.chart.add_class("wb-budget-chart")

    def num(v: Any, digits: int = 4) -> str:  # a simulated group fight left unresolved is null
        return "–" if v is None else f"{v:.{digits}f}"

    cells = "".join(
        f"<tr><td>{r['rank']}</td><td>{html.escape(str(r['name']))}</td><td>{r['cost']}</td>"
        f"<td>{num(r[by])}</td><td>{r['same_as']}</td>"
        + (f"<td>{'✓' if r['pareto'] else ''}</td>" if front else "")
        + "</tr>"
        for r in top.iter_rows(named=True)
    )
    # how the figures shown were computed: one turn, and which rows leave out the state their fight
    # carries (a Reckless build's own damage: its turn's damage ranks it, not its fight)
    how = ""
    if "state_ignored" in top.columns and "forced_by" in top.columns and top.height:
        from workbench.exploration import method_line

        how = f"<div class='wb-budget-method' style='color:#57606a'>{html.escape(method_line(top))}</div>"
    panel.table.value = (
        f"<table class='wb-stats'><tr><th>rank</th><th>build</th><th>cost</th><th>{html.escape(heading)}</th>"
        "<th>stands for</th>" + ("<th>on the front</th>" if front else "") + f"</tr>{cells}</table>{how}"
    )
    panel.pick.options = [(f"{r['rank']}. {r['name']} ({num(r[by], 3)})", r[pick]) for r in top.iter_rows(named=True)]
    panel.pick.index = 0 if panel.pick.options else None  # the best, picked
    panel.results.children = _children(panel.table, panel.chart)  # the list, then its front
    panel.clear_error()
    _set_frame(panel, frame)


class BudgetSearchPanel(Panel):
    """Every legal build within ``budget`` used by ``attacker`` against ``target``, the best
    ``top_k`` by ``by`` and the cost front; ``value`` is the ``wb.explore`` frame. ``copies`` above 1
    searches against a group of that many passive copies of the target (explore against a group,
    :data:`GROUP_SEARCH_FIGHTS` fights a build), ranked by how fast every copy falls
    (:data:`GROUP_RANK_BY`)."""

    attacker = T.Any(allow_none=True)
    attack = T.Any(allow_none=True, help="the attack on screen (replaced by the attack set used)")
    target = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    budget = T.Int(3)
    by = T.Unicode("mean_turn_damage")
    copies = T.Int(1)

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
        attack: Any = None,
        on_use: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.attack, self.on_use = attack, on_use
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
            "copies": copies_box(
                "copies of the target",
                "above 1: search against a group of that many copies, ranked by how fast all fall",
                "wb-budget-copies",
            ),
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
        # "Use this build": the picked row's attack set in place of the attack on screen (Annulus)
        self.pick = W.Dropdown(description="build", style={"description_width": "4em"}, layout=W.Layout(width="32em"))
        self.pick.add_class("wb-budget-pick")
        self.use_button = W.Button(
            description="Use this build", icon="check", tooltip="put it in the Damage tab and pin it"
        )
        self.use_button.add_class("wb-budget-use")
        self.use_button.on_click(self.guard(lambda _: self.use()))
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
            W.HBox([self.pick, self.use_button]),
            self.results,
        )
        self.add_class("wb-budget")

    @T.observe("attacker", "target", "options", "budget", "copies")
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
        if self.copies > 1:
            self.estimate_line.value += (
                f"; against {self.copies} x {html.escape(self.target.name)}: each build's group fight "
                f"({GROUP_SEARCH_FIGHTS} fights), ranked by how fast every copy falls"
            )
        return est

    def search(self) -> Any:
        """Search off the message loop (Background) and redraw; a RulesError (a budget past its counted
        bound, a build the target cannot be hit by) is shown beside its control and the last result stays."""
        from workbench.encounters import Group
        from workbench.exploration import explore

        group = self.copies > 1
        by = GROUP_RANK_BY.get(self.by, "mean_rounds") if group else self.by
        target = Group(self.target, self.copies) if group else self.target
        kw = dict(
            targets=[target],
            budget=self.budget,
            base=self.attacker,
            by=by,
            top_k=self.top_k,
            options=self.options,
            situation=self.situation,
            progress=False,
            say=False,
            **({"fights": GROUP_SEARCH_FIGHTS} if group else {}),
        )
        heading = GROUP_HEADINGS[by] if group else by.replace("_", " ")

        def work() -> tuple[Any, Any]:
            frame = explore(self.system, **kw)
            return frame, charts.cost_front_chart(frame, by, f"Builds within {kw['budget']} against {target.name}")

        def apply(result: tuple[Any, Any]) -> Any:
            frame, chart = result
            top = frame.filter(frame["rank"] <= self.top_k).sort("rank").head(self.top_k)
            _show_ranking(self, frame, top, chart, by, heading, "name", front=False)
            return frame

        return self.background.run(work, apply, "searching...")

    def use(self, name: str | None = None) -> tuple[Any, Any, str]:
        """Hand the attack set ``name`` (default: the picked row's), used by the attacker in place of
        the attack on screen, to ``on_use`` as (attacker, attack, label); return them."""
        from workbench.build_levers import annulus_attack, with_attack

        name = self.pick.value if name is None else name
        if not name:
            raise RulesError("search first, then pick a build", field="build")
        attack = annulus_attack(self.system, name)
        old = self.attack if self.attack is not None else next(iter(self.system.attacks_of(self.attacker)), None)
        attacker = with_attack(self.system, self.attacker, old, attack) if old is not None else self.attacker
        label = name if len(name) <= 40 else name[:39] + "…"
        if self.on_use is not None:
            self.on_use(attacker, attack, label)
        return attacker, attack, label


class BuildSearchPanel(Panel):
    """Budget search about the build on screen (:func:`workbench.build_levers.search_builds`): the
    levers of the system varied around ``attacker`` using ``attack`` within ``budget``, identical
    builds merged, ranked by ``by``, the cost front drawn; **Use this build** hands the picked row's
    ``(attacker, attack, label)`` to ``on_use`` (the app puts it in the Damage tab and pins it).
    ``value`` is the ranked frame; ``builds`` maps its ``build`` column to the models. ``copies``
    above 1 searches against a group of that many passive copies of the target (each build's group
    fight, :data:`GROUP_SEARCH_FIGHTS` fights where it is simulated), ranked by how fast every copy
    falls (:data:`GROUP_RANK_BY`)."""

    attacker = T.Any(allow_none=True)
    attack = T.Any(allow_none=True)
    target = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    budget = T.Int(2)
    by = T.Unicode("mean_damage")
    copies = T.Int(1)

    def __init__(
        self,
        system: Any,
        attacker: Any,
        attack: Any,
        target: Any,
        *,
        budget: int = 2,
        by: str = "mean_damage",
        top_k: int = 10,
        options: Any = None,
        situation: Any = None,
        on_use: Any = None,
        search: bool = True,
        **kwargs: Any,
    ) -> None:
        from workbench.build_levers import FIGURES, UNIT_COST_NOTE, levers
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self.top_k, self.on_use = top_k, on_use
        self.builds: dict[int, Any] = {}
        self.attacker, self.attack, self.target = attacker, attack, target
        self.options, self.situation, self.budget, self.by = options, situation, budget, by
        style = {"description_width": "7em"}
        self.controls = {
            "budget": W.BoundedIntText(value=budget, min=0, max=10, description="budget", style=style),
            "by": W.Dropdown(
                options=[(label, col) for col, label in FIGURES.items()], value=by, description="rank by", style=style
            ),
            "copies": copies_box(
                "copies of the target",
                "above 1: search against a group of that many copies, ranked by how fast all fall",
                "wb-build-copies",
            ),
        }
        for name, w in self.controls.items():
            T.link((w, "value"), (self, name))
        self.search_button = W.Button(description="Search", icon="search", tooltip="every build within the budget")
        self.search_button.add_class("wb-budget-search")
        self.search_button.on_click(self.guard(lambda _: self.search()))
        self.levers_line = W.HTML()
        self.levers_line.add_class("wb-budget-levers")
        self.note = W.HTML(f"<span style='color:#57606a'>{html.escape(UNIT_COST_NOTE)}</span>")
        self.table = W.HTML()
        self.table.add_class("wb-budget-table")
        self.pick = W.Dropdown(description="build", style={"description_width": "4em"}, layout=W.Layout(width="32em"))
        self.pick.add_class("wb-budget-pick")
        self.use_button = W.Button(
            description="Use this build", icon="check", tooltip="put it in the Damage tab and pin it"
        )
        self.use_button.add_class("wb-budget-use")
        self.use_button.on_click(self.guard(lambda _: self.use()))
        self.results = W.VBox([self.table])
        self.stale_line = W.HTML()
        self._levers = levers
        self._say_levers()
        self.background = Background(self)
        if search:
            self.search()
            self.background.wait()
        rows = [W.HBox([w, self._error_slot(k)]) for k, w in self.controls.items()]
        self.children = _children(
            W.VBox(rows),
            W.HBox([self.search_button, self.levers_line]),
            self.note,
            self.background.box,
            self.error_box,
            self.stale_line,
            W.HBox([self.pick, self.use_button]),
            self.results,
        )
        self.add_class("wb-budget")

    @T.observe("attacker", "attack", "target", "options", "situation", "budget", "by", "copies")
    @guarded
    def _on_build(self, change: dict) -> None:
        if hasattr(self, "levers_line"):
            self._say_levers()
        if self.value is not None and hasattr(self, "stale_line"):
            self.stale_line.value = (
                "<span class='wb-budget-stale' style='color:#9a6700'>&#9888; the build on screen changed "
                f"({html.escape(change['name'])}): the ranking below is of the one searched before; press Search</span>"
            )

    def _say_levers(self) -> None:
        if self.attacker is None or self.attack is None:
            self.levers_line.value = ""
            return
        lv = self._levers(self.system, self.attacker, self.attack)
        self.levers_line.value = "varies " + "; ".join(
            f"<b>{html.escape(x.name)}</b> ({len(x.alternatives)})" for x in lv
        )

    def search(self) -> Any:
        """Search the builds around the one on screen off the message loop (Background, with Cancel)
        and show the ranking, the front and the picker; a RulesError is shown and the last ranking
        stays. Returns the frame when done within a second (else None: ``background.wait()``)."""
        from workbench.build_levers import FIGURES, search_builds
        from workbench.encounters import Group

        attacker, attack, target, budget, by = self.attacker, self.attack, self.target, self.budget, self.by
        options, situation = self.options, self.situation
        group = self.copies > 1
        if group:  # how fast the group falls, not a figure of one copy (docs/explore.md, Against a group)
            target, by = Group(target, self.copies), GROUP_RANK_BY.get(by, "mean_rounds")
        heading = GROUP_HEADINGS.get(by, by) if group else FIGURES[by]

        def work() -> tuple[Any, Any, Any]:
            frame, builds = search_builds(
                self.system,
                attacker,
                attack,
                target,
                budget=budget,
                by=by,
                options=options,
                situation=situation,
                fights=GROUP_SEARCH_FIGHTS,
            )
            title = f"Builds around {attack.name} within {budget} against {target.name}"
            return frame, builds, charts.cost_front_chart(frame.drop("changes"), by, title)

        def apply(result: tuple[Any, Any, Any]) -> Any:
            frame, builds, chart = result
            self.builds = builds
            top = frame.head(self.top_k)
            if "as on screen" not in top["name"].to_list():  # the build on screen, to compare with
                top = pl.concat([top, frame.filter(frame["name"] == "as on screen")])
            _show_ranking(self, frame, top, chart, by, heading, "build", front=True)
            self.stale_line.value = ""
            return frame

        return self.background.run(work, apply, "searching...")

    def use(self, build: int | None = None) -> tuple[Any, Any, str]:
        """Hand the build ``build`` (default: the picked one) to ``on_use`` as (attacker, attack,
        label); return them. RulesError naming ``build`` before a search."""
        build = self.pick.value if build is None else build
        if build is None or build not in self.builds or self.value is None:
            raise RulesError("search first, then pick a build", field="build")
        row = self.value.filter(self.value["build"] == build).row(0, named=True)
        attacker, attack = self.builds[build]
        label = row["name"] if len(row["name"]) <= 40 else row["name"][:39] + "…"
        if self.on_use is not None:
            self.on_use(attacker, attack, label)
        return attacker, attack, label
