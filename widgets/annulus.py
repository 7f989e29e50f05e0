"""``AnnulusAttackBuilder``: build an Annulus attack set from its seed and upgrades.

The seed is one of Agility, Toughness or Insight Damage (annulus-attacks.txt: "You must choose
only one"); the upgrades are picked by category (general, trigger, alteration, area) from the
system's upgrade catalogue (``wb.system("annulus").upgrades()``), with a rank box for each
stackable upgrade (Precise, Range, Reckless, Giant, Assassin). The model validates every choice:
an illegal set (e.g. Flashy with Stealth, two alterations) is explained beside the upgrades and
``value`` keeps the last legal set. The Experience cost (seed + one per rank, CLARIFICATIONS.md)
is shown below.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench.errors import RulesError

from .attack_builders import BUILDERS
from .base import Panel, _children, guarded

__all__ = ["AnnulusAttackBuilder"]

_CATEGORIES = ("general", "trigger", "alteration", "area")
_SEEDS = ("agility", "toughness", "insight")


class AnnulusAttackBuilder(Panel):
    """Build one Annulus attack set; ``value`` is the last legal ``Attack``.

    Controls (``builder.controls``): ``picker`` (the attacker's sets, then the catalog's),
    ``name``, ``defense`` (the seed), ``counter_type``, one ``SelectMultiple`` per upgrade category
    (``"general"``, ``"trigger"``, ``"alteration"``, ``"area"``) and one ``IntText`` rank per
    stackable upgrade (``"rank:Precise"``, ...). ``experience`` shows the set's Experience cost.
    """

    attacker = T.Any(allow_none=True, help="the creature whose attack sets are offered first")
    CUSTOM = "(custom)"

    def __init__(
        self,
        system: Any = "annulus",
        value: Any = None,
        *,
        attacker: Any = None,
        title: str | None = None,
        options: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self.options = options
        annulus: Any = self.system  # the Annulus system: upgrades(), experience()
        table = annulus.upgrades()
        self.upgrade_info = {r["name"]: r for r in table.iter_rows(named=True)}
        self.entries = self._entries(attacker)
        if value is None:
            value = next(iter(self.entries.values()), None) or annulus.Attack("Attack")
        style, wide = {"description_width": "9em"}, W.Layout(width="22em")
        c: dict[str, W.Widget] = {}
        c["picker"] = W.Dropdown(
            options=[self.CUSTOM, *self.entries], description="attack set", style=style, layout=wide
        )
        c["name"] = W.Text(description="name", style=style, layout=wide)
        c["defense"] = W.ToggleButtons(
            options=[(s.capitalize(), s) for s in _SEEDS],
            description="seed (Damage)",
            style={"description_width": "9em", "button_width": "6.5em"},
        )
        # "" stands for no counter type: a Dropdown whose value is None shows blank in the browser.
        c["counter_type"] = W.Dropdown(
            options=[("(none)", ""), *[(s.capitalize(), s) for s in _SEEDS]],
            description="counter type",
            style=style,
            layout=wide,
        )
        boxes = []
        self._stackable = [n for n, r in self.upgrade_info.items() if r["stackable"]]
        for cat in _CATEGORIES:
            names = [n for n, r in self.upgrade_info.items() if r["category"] == cat and not r["stackable"]]
            c[cat] = W.SelectMultiple(
                options=names,
                rows=min(10, len(names)),
                description=cat,
                style={"description_width": "6.2em"},
                layout=W.Layout(width="15.7em"),
            )
            c[cat].add_class(f"wb-upgrades-{cat}")
            boxes.append(c[cat])
        ranks = []
        for n in self._stackable:
            c[f"rank:{n}"] = W.BoundedIntText(
                value=0,
                min=0,
                max=99,
                description=n,
                style={"description_width": "6.2em"},
                layout=W.Layout(width="10.7em"),
            )
            ranks.append(c[f"rank:{n}"])
        self.controls = c
        for k, w in c.items():
            if k != "picker":
                w.observe(self._on_control, names="value")
        c["picker"].observe(self._on_pick, names="value")
        self.upgrades_box = W.VBox(
            [
                W.HBox(boxes, layout=W.Layout(flex_flow="row wrap")),
                W.HTML("<i>ranks of stackable upgrades (0 = none)</i>"),
                W.HBox(ranks, layout=W.Layout(flex_flow="row wrap")),
                self._error_slot("upgrades"),
            ]
        )
        self.upgrades_box.add_class("wb-upgrades")
        self.experience = W.HTML()
        self.experience.add_class("wb-experience")
        self.about = W.HTML()
        self._syncing = False
        self.value = value
        self._write(value)
        self.attacker = attacker
        self.title = W.HTML(f"<b>{html.escape(title)}</b>") if title else None
        self.children = _children(
            self.title,
            c["picker"],
            W.HBox([c["name"], self._error_slot("name")]),
            W.HBox([c["defense"], self._error_slot("defense")]),
            W.HBox([c["counter_type"], self._error_slot("counter_type")]),
            self.upgrades_box,
            self.experience,
            self.about,
            self.error_box,
        )

    # -- entries
    def _entries(self, attacker: Any) -> dict[str, Any]:
        own = self.system.attacks_of(attacker) if attacker is not None else []
        entries = {str(a.name): a for a in own}
        for name, a in self.system.catalog().attacks.items():
            entries.setdefault(name, a)
        return entries

    def _name_of(self, model: Any) -> str:
        return next((n for n, e in self.entries.items() if e == model), self.CUSTOM)

    @T.observe("attacker")
    @guarded
    def _on_attacker(self, change: dict) -> None:
        old_own = self.system.attacks_of(change["old"]) if change["old"] is not None else []
        new_own = self.system.attacks_of(change["new"]) if change["new"] is not None else []
        self.entries = self._entries(change["new"])
        self._set_picker()
        if new_own and any(a == self.value for a in old_own) and not any(a == self.value for a in new_own):
            self.value = new_own[0]

    # -- controls ↔ model
    def _set_picker(self) -> None:
        p = self.controls["picker"]
        p.unobserve(self._on_pick, names="value")
        try:
            p.options = [self.CUSTOM, *self.entries]
            p.value = self._name_of(self.value)
        finally:
            p.observe(self._on_pick, names="value")

    def _write(self, attack: Any) -> None:
        """Show ``attack`` in the controls (no rebuild)."""
        self._syncing = True
        try:
            c = self.controls
            c["name"].value = attack.name
            c["defense"].value = attack.defense
            c["counter_type"].value = attack.counter_type or ""
            for cat in _CATEGORIES:
                c[cat].value = tuple(n for n in attack.upgrades if n in c[cat].options)
            for n in self._stackable:
                c[f"rank:{n}"].value = int(attack.upgrades.get(n, 0))
        finally:
            self._syncing = False
        self._set_picker()
        self._show_cost(attack)

    def read_upgrades(self) -> dict[str, int]:
        """Return ``{upgrade: rank}`` as the controls show it now (categories, then stackable ranks)."""
        ups: dict[str, int] = {}
        for cat in _CATEGORIES:
            ups.update({n: 1 for n in self.controls[cat].value})
        for n in self._stackable:
            r = self.controls[f"rank:{n}"].value
            if r:
                ups[n] = int(r)
        return ups

    @guarded
    def _on_control(self, change: dict) -> None:
        if not self._syncing:
            self.rebuild()

    def rebuild(self) -> Any:
        """Build the Attack from the controls; show a RulesError beside its field or store ``value``."""
        c = self.controls
        annulus: Any = self.system  # the Annulus system: its Attack takes the set's fields
        try:
            attack = annulus.Attack(
                c["name"].value,
                defense=c["defense"].value,
                upgrades=self.read_upgrades(),
                counter_type=c["counter_type"].value or None,
            )
        except RulesError as err:
            self.show_error(err)
            self._show_about(self.read_upgrades())
            return None
        self.clear_error()
        self._syncing = True
        try:
            self.value = attack
        finally:
            self._syncing = False
        self._set_picker()
        self._show_cost(attack)
        return attack

    @guarded
    def _on_pick(self, change: dict) -> None:
        if change["new"] != self.CUSTOM:
            self.value = self.entries[change["new"]]

    @T.observe("value")
    def _on_value(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.clear_error()
            self._write(change["new"])

    def _show_cost(self, attack: Any) -> None:
        annulus: Any = self.system  # the Annulus system
        xp = annulus.experience(attack, self.options)
        self.experience.value = (
            f'<span class="wb-xp">Experience: <b>{xp}</b></span> '
            f'<span style="color:#555">(seed 1 + one per upgrade rank)</span>'
        )
        self._show_about(attack.upgrades)

    def _show_about(self, upgrades: dict[str, int]) -> None:
        lines = []
        for n, r in upgrades.items():
            info = self.upgrade_info.get(n)
            if info:
                rank = f" {r}" if info["stackable"] else ""
                lines.append(
                    f"<li><b>{html.escape(n)}{rank}</b> ({info['category']}): "
                    f"{html.escape(str(info['description'] or ''))}</li>"
                )
        self.about.value = f'<ul style="margin:0;font-size:90%">{"".join(lines)}</ul>' if lines else ""


BUILDERS["annulus"] = AnnulusAttackBuilder
