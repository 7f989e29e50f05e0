"""``Workbench``: the whole app — a system selector over Damage, Duel, Compare, Build, Sweep, Race, Variants and Encounter tabs, with
save / load / share below.

Switching the system rebuilds every tab with that system's catalog defaults. Only the Damage tab
is built up front, its chart first (the fight under it follows on its worker, and its dice box is
built when its section is first opened); the others are built the first time they are selected
(``workbench.build_tab``), their modules imported then.
Controls carry CSS classes (``wb-...``, listed in docs/panels.md) so a browser test can find them
in Voilà.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W
import traitlets as T

from workbench.attack_plans import holding
from workbench.dist import Dist
from workbench.errors import RulesError

from .base import Panel, _children, guarded
from .damage import DamagePanel
from .files import FilePanel
from .pins import MAX_PINS, Pin, PinsPanel

if TYPE_CHECKING:
    from .dice_box import DiceBox

# The panels of the tabs not shown at start (Duel, Compare, Build, Sweep, Race, Variants, Encounter) and the
# dice box are imported when first built: the app's first view needs only the Damage tab's modules
# (issue 38, item 6).

__all__ = ["Workbench", "TABS"]

TABS = ("Damage", "Duel", "Compare", "Build", "Sweep", "Race", "Variants", "Encounter")
#: the matchup (attacker, target) a system opens on where the catalog's first two creatures show
#: little (Glass Empires: the Vegetable Sprite's Tiny Fists deal 0.44 a use to the Porcelain Doll);
#: the Wolf against the Bear, whose attacks differ visibly (issue 36, item 5)
OPENING = {"glass_empires": ("Wolf", "Bear")}


#: the Files panel's slot of the whole setup, the one a link carries
SETUP_SLOT = "whole setup (attacker, target, attack, options, situation)"


def setup_from_query(query: str | None) -> str | None:
    """Return the share code of ``?setup=wb1:...`` in a URL's query string (Voilà puts the page's
    in the kernel's ``QUERY_STRING``), or None when there is none."""
    from urllib.parse import parse_qs

    if not query:
        return None
    values = parse_qs(query.lstrip("?")).get("setup")
    return values[0] if values else None


class Workbench(Panel):
    """The workbench app. ``value`` is ``{"system", "attacker", "target", "attack", "options",
    "situation"}``: the system's name and the models of the Damage tab (the Build tab edits the
    same attack). ``panels`` holds the built panels by tab name (``"Damage"``, ``"Duel"``,
    ``"Compare"``, ``"Build"``); ``files`` is the :class:`~workbench.widgets.files.FilePanel`.

    ``pins`` holds the pinned builds (:class:`~workbench.widgets.pins.Pin`, at most six): **Pin this build**
    beside the Damage chart (or :meth:`pin`) snapshots the Damage tab's attacker, attack, options and
    situation; ``pinned`` (a :class:`~workbench.widgets.pins.PinsPanel` under the Damage tab's columns)
    overlays them against the Damage tab's target with deltas against ``reference`` (a pin's
    label, the first pin's by default); the Sweep tab draws one line per pin, and Compare's
    **add pinned builds** adds them to its grid. Switching the system clears the pins.

    ``setup`` is a share code to open on (:meth:`open_setup`; ``?setup=`` of a link); ``link_page``
    the page the Files panel's share link opens, relative to this one ("" this page, as in Voilà; the
    JupyterLite site's app page, lite/build.py).
    """

    system_name = T.Unicode("annulus", help="the rule system shown")
    pins: T.List[Pin] = T.List(help=f"the pinned builds (workbench.widgets.pins.Pin), at most {MAX_PINS}")
    reference = T.Unicode("", help="the label of the pin the deltas are against")

    def __init__(
        self,
        system: str = "annulus",
        *,
        duel_auto: bool = False,
        setup: str | None = None,
        link_page: str = "",
        **kwargs: Any,
    ) -> None:
        import workbench as wb

        super().__init__(**kwargs)
        names = wb.systems()
        if system not in names:
            raise RulesError(f"must be one of {', '.join(names)}; not {system!r}", field="system")
        self.duel_auto = duel_auto
        self.system_select = W.Dropdown(
            options=[(wb.system(n).title, n) for n in names],
            value=system,
            description="rule system",
            style={"description_width": "7em"},
            layout=W.Layout(width="22em"),
        )
        self.system_select.add_class("wb-system-select")
        self.tabs = W.Tab()
        self.tabs.add_class("wb-tabs")
        self.tabs.observe(self._on_tab, names="selected_index")
        self.files = FilePanel(
            {
                SETUP_SLOT: (self._setup_models, self.apply_models),
                "attacker": (lambda: self.damage.attacker, lambda m: self._apply_one(m, "attacker")),
                "target": (lambda: self.damage.target, lambda m: self._apply_one(m, "target")),
                "attack": (lambda: self.damage.attack, lambda m: self._apply_one(m, "attack")),
            },
            link_slot=SETUP_SLOT,
            link_page=link_page,
            link_code=self.link_code,
        )
        self._adopt(self.files)
        self.build_seconds: dict[str, float] = {}
        self._pin_links: list[Any] = []
        self.system_name = system
        self._build(system)
        self.system_select.observe(self.guard(lambda ch: setattr(self, "system_name", ch["new"])), names="value")
        self.open_setup(setup)
        self.observe(
            self.guard(lambda _: self.files.refresh_link(self.link_code())), names=["value", "pins", "reference"]
        )
        self.guard(lambda: self.files.refresh_link(self.link_code()))()
        header = W.HBox([W.HTML("<h3 style='margin:0 1em 0 0'>Rules Workbench</h3>"), self.system_select])
        self.children = _children(header, self.error_box, self.tabs, W.HTML("<b>Save, load, share</b>"), self.files)
        self.add_class("wb-app")

    def open_setup(self, setup: str | None) -> bool:
        """Apply a link's setup (``?setup=...`` in the app's URL): a ``wb2:`` setup code (models, pins
        and the reference pin) or an older ``wb1:`` share code (models only); return True when it
        was applied, False when there is none or it is bad (then explained; the app stays up)."""
        from workbench.links import read_setup_code

        if not setup:
            return False
        try:
            link = read_setup_code(setup)
            self.apply_models(link.models)
        except RulesError as err:
            self.show_error(RulesError(f"the link's setup could not be used: {err}", field="setup"))
            return False
        if link.pins:
            self.pins = [Pin(label, att, atk, opt, sit) for label, att, atk, opt, sit in link.pins][:MAX_PINS]
            labels = [p.label for p in self.pins]
            self.reference = link.reference if link.reference in labels else labels[0]
        return True

    # -- building
    @property
    def system(self) -> Any:
        import workbench as wb

        return wb.system(self.system_name)

    @T.observe("system_name")
    @guarded
    def _on_system(self, change: dict) -> None:
        if getattr(self, "panels", None) is None or change["new"] == change["old"]:
            return
        if self.system_select.value != change["new"]:
            self.system_select.value = change["new"]
        self._build(change["new"])

    def _build(self, name: str) -> None:
        """(Re)build the tabs for system ``name``: the Damage tab now, the rest on first selection."""
        start = time.perf_counter()
        self.panels: dict[str, Panel] = {}
        self._boxes = {t: W.VBox([W.HTML(f"<i>building the {t} tab…</i>")]) for t in TABS}
        for box, t in zip(self._boxes.values(), TABS):
            box.add_class(f"wb-tab-{t.lower()}")
        cat = self.system.catalog().creatures
        opening = [cat.get(n) for n in OPENING.get(self.system.name, ())]
        # the chart first: the fight follows on its worker (panel.fight_background.wait())
        start_on = opening if opening and all(opening) else []
        damage = DamagePanel(self.system, *start_on, wait_fight=False)
        assert damage.chart is not None  # a DamagePanel draws on construction
        damage.chart.add_class("wb-damage-chart")
        damage.stats.add_class("wb-damage-stats")
        damage.view_toggle.add_class("wb-damage-view")
        damage.add_class("wb-damage")
        damage.observe(self._on_models, names=["attacker", "target", "attack", "options", "situation"])
        self.panels["Damage"] = damage
        self.pinned = self._make_pins(damage)
        self._dice: DiceBox | None = None  # built when its section is first opened (self.dice)
        self._dice_section = self.dice_section(None, label="this attack")
        self._dice_section.observe(self._open_dice, names="selected_index")
        self._boxes["Damage"].children = [damage, self.pinned, self._dice_section]
        self.tabs.unobserve(self._on_tab, names="selected_index")
        try:
            self.tabs.children = list(self._boxes.values())
            damage.observe(self._mark_tabs, names="problem")
            self._mark_tabs()
            self.tabs.selected_index = 0
        finally:
            self.tabs.observe(self._on_tab, names="selected_index")
        self.clear_error()
        self._on_models()
        self.build_seconds[name] = time.perf_counter() - start

    @property
    def dice(self) -> DiceBox:
        """The Damage tab's dice box: built the first time its section is opened (or this is read)."""
        if self._dice is None:
            self._dice = self._make_dice_box(self.damage, "wb-dice-damage")
            self._dice_section.children = [self._dice]
        return self._dice

    @guarded
    def _open_dice(self, change: dict) -> None:
        if change["new"] is not None:
            self.dice  # noqa: B018 - builds it

    def _make_dice_box(self, d: DamagePanel, css: str, label: str = "this attack") -> DiceBox:
        """Return a dice box overlaying typed expressions on ``d``'s damage per attack (the Damage
        tab's, or Compare's clicked matchup), drawn as ``label``."""
        from .dice_box import DiceBox

        box = DiceBox(base=d.value if isinstance(d.value, Dist) else None, base_label=label)
        box.add_class(css)
        T.dlink((d, "value"), (box, "base"), transform=lambda v: v if isinstance(v, Dist) else None)
        return box

    @staticmethod
    def dice_section(box: DiceBox | None, label: str | None = None) -> W.Accordion:
        """Return ``box`` in a closed section titled "Dice box" (opened by a click); with no box, an
        empty section whose title names ``label`` (the box is put in when it is built)."""
        section = W.Accordion(children=[box if box is not None else W.VBox()], selected_index=None)
        label = box.base_label if box is not None else label
        section.set_title(0, f"Dice box: type 3d6+2, 4d6kh3, d20+7 >= 16 ... and see it beside {label}")
        section.add_class("wb-dice-section")
        return section

    def _make_pins(self, d: DamagePanel) -> PinsPanel:
        """Return the Damage tab's pins panel, linked to the Damage tab and to ``pins`` and
        ``reference`` (the pins of the system shown before are dropped); its bar (Pin this build)
        goes above the Damage chart."""
        for link in self._pin_links:
            link.unlink()
        self.pins, self.reference = [], ""  # the reference too: a label of the old pins names no pin now
        pinned = PinsPanel(self.system, d.attacker, d.attack, d.target, options=d.options, situation=d.situation)
        self._pin_links = [
            T.dlink((d, n), (pinned, n)) for n in ("attacker", "attack", "target", "options", "situation")
        ]
        self._pin_links += [T.link((self, n), (pinned, n)) for n in ("pins", "reference")]
        d.results.children = (pinned.bar, *d.results.children)
        return pinned

    def pin(self, label: str | None = None) -> Pin | None:
        """Pin the Damage tab's build (see :meth:`workbench.widgets.pins.PinsPanel.pin`): return the pin, or
        None with the reason beside the pin button (six pinned already, the same build pinned)."""
        return self.pinned.pin(label)

    def use_build(self, attacker: Any, attack: Any, label: str) -> Pin | None:
        """Put ``attacker`` using ``attack`` (a budget search's result) in the Damage tab and pin it
        as ``label``; return the pin (None with the reason beside the pin button when refused)."""
        self.damage.update(attacker=attacker, attack=attack)
        return self.pin(label)

    def unpin(self, label: str) -> None:
        """Remove the pin labelled ``label`` (RulesError naming ``pins`` if there is none)."""
        self.pinned.unpin(label)

    @property
    def damage(self) -> DamagePanel:
        """The Damage tab's panel (always built)."""
        return self.panels["Damage"]

    @guarded
    def _on_tab(self, change: dict) -> None:
        if change["new"] is not None:
            self.build_tab(TABS[change["new"]])

    def build_tab(self, tab: str) -> Panel:
        """Return the panel of ``tab``, building it now if it was not yet (what selecting the tab does)."""
        if tab in self.panels:
            return self.panels[tab]
        builders: dict[str, Callable[[], Panel]] = {
            "Duel": self._make_duel,
            "Compare": self._make_compare,
            "Sweep": self._make_sweep,
            "Race": self._make_race,
            "Variants": self._make_variants,
            "Encounter": self._make_encounter,
            "Build": self._make_build,
        }
        try:
            panel = builders[tab]()
        except RulesError as err:
            self._boxes[tab].children = [W.HTML(f"<i>{tab} is not available for these models.</i>")]
            self.show_error(err)
            raise
        self.panels[tab] = panel
        self._boxes[tab].children = [panel]
        panel.observe(self._mark_tabs, names="problem")
        self._mark_tabs()
        return panel

    def _mark_tabs(self, _: Any = None) -> None:
        """Title each tab, with a warning mark while its panel shows an error (on any of its own
        sub-tabs too: the panel's ``problem`` holds it), so an error out of sight is never silent."""
        for i, t in enumerate(TABS):
            panel = self.panels.get(t)
            self.tabs.set_title(i, f"\u26a0 {t}" if panel is not None and panel.problem else t)

    def _make_duel(self) -> Panel:
        from .duel import DuelPanel

        d = self.damage
        duel = DuelPanel(
            self.system,
            d.attacker,
            d.target,
            options=d.options,
            situation=d.situation,
            auto=self.duel_auto,
            attack_a=d.attack,
        )
        duel.attack_owner = d.attacker
        duel.add_class("wb-duel")
        # one selection for the whole app: the Duel follows the Damage tab's attacker, target,
        # options and situation (with auto=False it marks itself stale until Run duel is pressed)
        # A plays the Damage tab's attack (as often as each turn allows), its best plan beside it
        for src, dst in (
            ("attacker", "a"),
            ("target", "b"),
            ("attack", "attack_a"),
            ("attacker", "attack_owner"),  # a side A picked on the Duel tab plays its best plan
            ("options", "options"),
            ("situation", "situation"),
        ):
            T.dlink((d, src), (duel, dst))
        return duel

    def _make_compare(self) -> Panel:
        from .compare import ComparePanel

        d = self.damage
        # the catalog's first creatures with the Damage tab's attacker and target among them, the
        # detail on the Damage tab's matchup when the grid holds it (issue 36, item 5)
        cat = list(self.system.catalog().creatures.values())
        attackers = [d.attacker, *[c for c in cat[:4] if c.name != d.attacker.name]][:4]
        targets = [d.target, *[c for c in cat[:6] if c.name != d.target.name]][:6]
        cmp = ComparePanel(self.system, attackers, targets, options=d.options, situation=d.situation)
        # the Damage tab's matchup, else the attacker's first attack in the grid against its target
        own = [f"{d.attacker.name}: {getattr(a, 'name', '')}" for a in (d.attack, *self.system.attacks_of(d.attacker))]
        here = next(
            (
                (b, d.target.name)
                for b in own
                if cmp.value is not None and cmp._row_of((b, d.target.name), cmp.value) is not None
            ),
            None,
        )
        if here is not None:
            cmp.selected = here
        cmp.add_class("wb-compare")
        for name in ("options", "situation"):
            T.dlink((d, name), (cmp, name))
        # your own builds: the Damage tab's attacker or target into the grid
        add_attacker = W.Button(
            description="add my attacker", icon="plus", tooltip="the Damage tab's attacker, with its attack as edited"
        )
        add_target = W.Button(description="add my target", icon="plus", tooltip="the Damage tab's target")
        add_attacker.add_class("wb-compare-add-attacker")
        add_target.add_class("wb-compare-add-target")
        add_pins = W.Button(description="add pinned builds", icon="thumb-tack", tooltip="each pin, named by its label")
        add_attacker.add_class("wb-compare-add-attacker")
        add_target.add_class("wb-compare-add-target")
        add_pins.add_class("wb-compare-add-pins")
        # (the attacker carrying the attack on screen: an edited attack in place of its own)
        add_attacker.on_click(cmp.guard(lambda _: cmp.add(holding(d.attacker, d.attack, self.system), "attackers")))
        add_target.on_click(cmp.guard(lambda _: cmp.add(d.target, "targets")))
        add_pins.on_click(cmp.guard(lambda _: self.add_pins_to_compare()))
        cmp.add_buttons = (add_attacker, add_target, add_pins)
        cmp.prepend(W.HBox([add_attacker, add_target, add_pins]))
        if cmp.detail is not None:  # a dice box beside the clicked matchup's damage
            cmp.dice = self._make_dice_box(cmp.detail, "wb-dice-compare", "this matchup")
            cmp.set_trait("children", (*getattr(cmp, "children"), self.dice_section(cmp.dice)))  # noqa: B009
        return cmp

    def add_pins_to_compare(self) -> list[str]:
        """Add every pinned build's attacker (named by its pin's label) to the Compare tab's attackers
        (building the tab if needed); return the names they are listed under. The grid uses the
        Damage tab's options and situation. RulesError naming ``attackers`` when nothing is pinned."""
        from .compare import ComparePanel

        cmp = self.build_tab("Compare")
        assert isinstance(cmp, ComparePanel)
        if not self.pins:
            raise RulesError("no build is pinned: press Pin this build on the Damage tab first", field="attackers")
        # each pin's attacker carrying its attack (an edited attack in place of its own), so the grid
        # has the pinned build's attack, as edited
        return [
            cmp.add(holding(p.attacker, p.attack, self.system).replace(name=p.label), "attackers") for p in self.pins
        ]

    def _make_sweep(self) -> Panel:
        from .sweep import SweepPanel

        d = self.damage
        panel = SweepPanel(
            self.system, [d.attacker], d.target, options=d.options, situation=d.situation, attack=d.attack
        )
        panel.add_class("wb-tab-sweep-panel")
        # it follows the Damage tab: its attacker playing the attack on screen is the swept build
        # (its best plan a reference line), its target the one varied; with builds pinned, one line
        # per pin instead (its attack, under its own options and situation)
        T.dlink((d, "attacker"), (panel, "attackers"), transform=lambda a: [a])
        for name in ("attack", "target", "options", "situation"):
            T.dlink((d, name), (panel, name))
        T.dlink((self, "pins"), (panel, "builds"))
        return panel

    def _make_race(self) -> Panel:
        from .race import RacePanel

        d = self.damage
        panel = RacePanel(
            self.system, d.attacker, target=d.target, options=d.options, situation=d.situation, attack_a=d.attack
        )
        panel.add_class("wb-tab-race-panel")
        # the Damage tab's attacker (playing its attack) races a rival picked here, against its target
        for src, dst in (
            ("attacker", "a"),
            ("attack", "attack_a"),
            ("target", "target"),
            ("options", "options"),
            ("situation", "situation"),
        ):
            T.dlink((d, src), (panel, dst))
        return panel

    def _make_variants(self) -> Panel:
        from .variants import VariantsPanel

        d = self.damage
        others = [c for c in self.system.catalog().creatures.values() if c.name != d.target.name][:3]
        panel = VariantsPanel(
            self.system, [d.attacker], [d.target, *others], options=d.options, situation=d.situation, attack=d.attack
        )
        panel.add_class("wb-tab-variants-panel")
        # the baseline is the Damage tab's rules; the Damage attacker playing the attack on screen is
        # the build (its best plan the reference row), its target first
        T.dlink((d, "attacker"), (panel, "attackers"), transform=lambda a: [a])
        T.dlink((d, "target"), (panel, "targets"), transform=lambda t: [t, *[x for x in others if x.name != t.name]])
        for name in ("attack", "options", "situation"):
            T.dlink((d, name), (panel, name))
        return panel

    def _make_encounter(self) -> Panel:
        from .encounter import EncounterPanel

        d = self.damage
        # two of the Damage tab's attacker (offered as "your build" in both sides' pickers, and
        # followed when it changes, it and its attack) against its target
        panel = EncounterPanel(
            self.system,
            [d.attacker, d.attacker],
            [d.target],
            options=d.options,
            situation=d.situation,
            build=d.attacker,
            build_attack=d.attack,
        )
        panel.add_class("wb-tab-encounter-panel")
        # your build plays the attack on screen (the Damage tab's), as the Damage tab computes it
        for src, dst in (
            ("attacker", "build"),
            ("attack", "build_attack"),
            ("options", "options"),
            ("situation", "situation"),
        ):
            T.dlink((d, src), (panel, dst))
        return panel

    def _make_build(self) -> Panel:
        from .attack import attack_builder
        from .budget import BudgetSearchPanel, BuildSearchPanel, has_build_space

        d = self.damage
        builder = attack_builder(self.system, d.attack, attacker=d.attacker, title="Attack set")
        builder.add_class("wb-builder")
        T.link((builder, "value"), (d, "attack"))
        T.dlink((d, "attacker"), (builder, "attacker"))
        summary = W.HTML()
        summary.add_class("wb-build-summary")

        def show(_: Any = None) -> None:
            if d.value is not None:
                summary.value = (
                    f"<b>{d.title_text()}</b>: mean damage "
                    f"<span class='wb-build-mean'>{d.value.mean():.3f}</span>, "
                    f"P(any damage) {d.value.sf(1):.1%} (the Damage tab shows the chart)"
                )

        d.observe(d.guard(show), names="value")
        show()
        box = Panel()
        box._adopt(builder)
        T.link((builder, "value"), (box, "value"))
        box.builder, box.summary = builder, summary
        box.search = None
        box.dice = self._make_dice_box(d, "wb-dice-build")
        parts: list[W.Widget] = [builder, summary, self.dice_section(box.dice)]
        from workbench.build_levers import levers

        search: Any = None
        if levers(self.system, d.attacker, d.attack):
            # the builds around the one on screen (its levers, each with its cost); "Use this build"
            # puts one in the Damage tab and pins it
            search = BuildSearchPanel(
                self.system,
                d.attacker,
                d.attack,
                d.target,
                options=d.options,
                situation=d.situation,
                on_use=self.use_build,
            )
            heading = "Budget search around this build"
        elif has_build_space(self.system):
            # the best builds within a budget for the Damage tab's attacker against its target
            search = BudgetSearchPanel(
                self.system,
                d.attacker,
                d.target,
                options=d.options,
                situation=d.situation,
                attack=d.attack,
                on_use=self.use_build,
            )
            heading = "Budget search"
        if search is not None:  # it follows the build on screen
            for name in ("attacker", "attack", "target", "options", "situation"):
                T.dlink((d, name), (search, name))
            box._adopt(search)
            box.search = search
            parts.append(W.VBox([W.HTML(f"<b>{heading}</b>"), search]))
        box.children = parts
        return box

    # -- value and models
    @guarded
    def _on_models(self, change: dict | None = None) -> None:
        d = self.damage
        self.value = {
            "system": self.system_name,
            "attacker": d.attacker,
            "target": d.target,
            "attack": d.attack,
            "options": d.options,
            "situation": d.situation,
        }

    def link_code(self) -> str:
        """Return the short code of a link to this setup (:func:`workbench.links.setup_code`): the
        Damage tab's models and the pins, catalog entries by name and only the edited fields."""
        from workbench.links import setup_code

        return setup_code(self._setup_models(), self.pins, self.reference)

    def _setup_models(self) -> list[Any]:
        d = self.damage
        return [d.attacker, d.target, d.attack, d.options, d.situation]

    def _switch_to(self, model: Any) -> None:
        from workbench.systems import system_of

        name = system_of(model).name
        if name != self.system_name:
            self.system_name = name

    def apply_models(self, models: Any) -> None:
        """Put loaded models into the Damage tab (switching system if they belong to another):
        the first creature is the attacker, the second the target; an attack, options and a
        situation go to their places. RulesError if the models mix systems."""
        from workbench.systems import system_of

        items = list(models) if isinstance(models, (list, tuple)) else [models]
        if not items:
            raise RulesError("the file holds no models", field="path")
        systems = {system_of(m).name for m in items}
        if len(systems) > 1:
            raise RulesError(f"the models mix rule systems ({', '.join(sorted(systems))})", field="path")
        self._switch_to(items[0])
        sys = self.system
        new: dict[str, Any] = {}
        creatures = [m for m in items if isinstance(m, sys.Creature)]
        for slot, c in zip(("attacker", "target"), creatures):
            new[slot] = c
        for m in items:
            for slot, cls in (("attack", sys.Attack), ("options", sys.Options), ("situation", sys.Situation)):
                if isinstance(m, cls):
                    new[slot] = m
        self._update(new)

    def _apply_one(self, model: Any, slot: str) -> None:
        if isinstance(model, (list, tuple)):
            raise RulesError(f"this holds {len(model)} models; choose 'whole setup' to load them", field="path")
        kind = getattr(type(model), "model_kind", type(model).__name__)
        want = "attack" if slot == "attack" else "creature"
        if kind != want:
            raise RulesError(
                f"this holds a {kind}, not a{'n' if want == 'attack' else ''} {want} for the {slot}", field="path"
            )
        self._switch_to(model)
        self._update({slot: model})

    def _update(self, new: dict[str, Any]) -> None:
        d = self.damage
        if "attacker" in new and "attack" not in new:
            own = self.system.attacks_of(new["attacker"])
            if own and d.attack not in own:
                new["attack"] = own[0]
        d.update(**new)  # the Duel and Compare tabs follow by their links (_make_duel, _make_compare)
        if d.error:
            raise RulesError(d.error, field="path")
