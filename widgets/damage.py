"""``DamagePanel``: the live damage distribution of one attack by an attacker on a target.

``value`` is the damage :class:`~workbench.dist.Dist` from ``system.damage(...)``; the panel shows
it as a chart (PMF bars with the mean, or the "at least X" curve) and a table of mean, sd,
P(any damage) and the median.
"""

from __future__ import annotations

import time
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.dist import Dist
from workbench.errors import RulesError

from .attack import attack_builder
from .base import Background, Panel, _children, flag_tabs, guarded
from .creature import CreatureEditor
from .situation import OptionsPanel, SituationPanel

__all__ = ["DamagePanel", "stats_html"]


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


class DamagePanel(Panel):
    """Damage of one use of ``attack`` by ``attacker`` on ``target`` under ``options`` and ``situation``.

    The five inputs are traits: link other panels into them (``traitlets.dlink``), or use the
    editors the panel builds when ``controls=True`` (tabs: attack, attacker, target, situation,
    options; ``panel.editors[name]``). Missing inputs default to the catalog: its first creature
    attacks the second with its first attack. A RulesError from the engine is shown beside the
    control it names; the last valid distribution and chart stay.
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
        self.editors: dict[str, Panel] = {}
        tabs = None
        if controls:
            self.editors = {
                "attack": attack_builder(self.system, attack, attacker=attacker),
                "attacker": CreatureEditor(self.system, attacker),
                "target": CreatureEditor(self.system, target),
                "situation": SituationPanel(self.system, self.situation),
                "options": OptionsPanel(self.system, self.options),
            }
            for name, editor in self.editors.items():
                self._adopt(editor)
                T.link((editor, "value"), (self, name))
            T.dlink((self, "attacker"), (self.editors["attack"], "attacker"))
            tabs = W.Tab(children=list(self.editors.values()))
            flag_tabs(tabs, list(self.editors.values()), list(self.editors))
        self.tabs = tabs
        self.view_toggle = W.ToggleButtons(
            options=["distribution", "at least"], value=self.view, style={"button_width": "8em"}
        )
        T.link((self.view_toggle, "value"), (self, "view"))
        self.stats = W.HTML()
        self.redraw_seconds = float("nan")
        self.background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()  # the panel starts with its first distribution (or its error)
        if self.value is None:
            raise RulesError(self.error or "these inputs give no damage distribution", field="attack")
        self.children = _children(
            self.tabs,
            self.error_box,
            self.view_toggle,
            self.background.box,
            self.stale_banner,
            W.HBox([self.chart, self.stats], layout=W.Layout(align_items="flex-start")),
        )

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
        :data:`~widgets.base.INLINE_SECONDS`, else None.

        The work runs off the kernel's message loop (:class:`~widgets.base.Background`): longer
        work shows "computing..." with a Cancel button and redraws when done, and a newer edit
        supersedes it. On a RulesError the error is shown and the last chart stays.
        """
        start = time.perf_counter()
        inputs = (self.attack, self.attacker, self.target, self.options, self.situation)
        view, title = self.view, self.title_text()

        def work() -> tuple[Dist, Any]:
            dist = self.system.damage(*inputs)
            if view == "at least":
                return dist, charts.at_least_chart(dist, title=title)
            return dist, charts.damage_chart(dist, title=title)

        def apply(result: tuple[Dist, Any]) -> Dist:
            dist, chart = result
            self.set_chart(chart)
            self.stats.value = stats_html(dist)
            self.clear_message(self.error)
            self.value = dist
            self.redraw_seconds = time.perf_counter() - start
            return dist

        return self.background.run(work, apply, label="computing the distribution...")
