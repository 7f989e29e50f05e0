"""``EncounterPanel``: a side of creatures against another (``wb.encounter``) → who wins, who stands,
and the rounds it takes; ``SideEditor``: one side, as rows of (creature, copies).

``value`` is the :class:`~workbench.encounters.EncounterResult`; the chart is the win/no-winner bar
above the "won by round" curves (:func:`~workbench.widgets.duel.fight_figure`, as the Duel tab's), the
table beside it one row per creature (P(survives), mean HP left, P(falls first)). The group rules are
the encounter's named options (CLARIFICATIONS.md, "Encounters: groups against groups"): who acts
first, the turn order, targeting, and each where its system has the rule: Unbound flanking, Glass
Empires' refunded action, the allies an Annulus area set strikes.
"""

from __future__ import annotations

import html
from typing import Any

import altair as alt
import ipywidgets as W
import traitlets as T

from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded, prevalidated

__all__ = ["EncounterPanel", "SideEditor", "encounter_html", "encounter_badge", "copies_box", "BUILD"]

#: the row key of "your build" (the Damage tab's attacker) in a side's creature picker
BUILD = "\u2605 build"
#: copies of one creature a row may hold (a side holds at most workbench.encounters.MAX_SIDE)
MAX_COPIES = 20

TARGETING_CHOICES = {
    "the weakest living foe (focus)": "focus",
    "the least attacked foe this round (spread)": "spread",
    "a living foe at random": "random",
}
ORDER_CHOICES = {"side by side (sides)": "sides", "alternating (a1, b1, a2, ...)": "alternate"}
FIRST_CHOICES = {"side A acts first": "a", "side B acts first": "b", "coin toss": "random"}
FLANKING_CHOICES = {
    "auto (an ally in melee on the same foe)": "auto",
    "never": "never",
    "always": "always",
}


def copies_box(description: str, tooltip: str, css: str) -> W.BoundedIntText:
    """Return the box of a number of copies (1 to the encounter's MAX_SIDE) that makes a target a group
    of passive copies ("3 x Wolf": the Compare and Build tabs), 1 to start, with the CSS class ``css``."""
    from workbench.encounters import MAX_SIDE

    box = W.BoundedIntText(
        value=1,
        min=1,
        max=MAX_SIDE,
        description=description,
        tooltip=tooltip,
        style={"description_width": "11em"},
        layout=W.Layout(width="16em"),
    )
    box.add_class(css)
    return box


class SideEditor(Panel):
    """One side of an encounter: rows of (creature, copies); ``value`` is the list of creatures,
    each repeated by its copies. ``rows`` holds the (key, copies) pairs, a key a name of
    ``creatures`` or :data:`BUILD` (``build``, the Damage tab's attacker in the app)."""

    rows: T.List[tuple[str, int]] = T.List(help="the side's (creature name or BUILD, copies) pairs, in listed order")
    build = T.Any(allow_none=True, help="the creature a BUILD row stands for (None: no build offered)")

    def __init__(
        self, creatures: dict[str, Any], rows: list[tuple[str, int]], *, build: Any = None, label: str = "side"
    ):
        super().__init__()
        self.creatures = dict(creatures)
        self.label = label
        self.box = W.VBox()
        self.build = build
        self.add_button = W.Button(description="add a creature", icon="plus", tooltip=f"another row on {label}")
        self.add_button.add_class("wb-side-add")
        self.add_button.on_click(self.guard(lambda _: self.add(next(iter(self.creatures)), 1)))
        self.rows = [(k, int(n)) for k, n in rows]
        self.children = _children(self.box, W.HBox([self.add_button, self._error_slot("rows")]), self.error_box)
        self.add_class("wb-side")

    def choices(self) -> list[tuple[str, str]]:
        """Return the creature picker's (label, key) choices: the build first when there is one."""
        own = [] if self.build is None else [(f"your build: {self.build.name}", BUILD)]
        return own + [(n, n) for n in self.creatures]

    def add(self, key: str, copies: int = 1) -> None:
        """Add a row of ``copies`` of ``key`` (a creature's name or BUILD)."""
        self.rows = [*self.rows, (key, copies)]

    def remove(self, i: int) -> None:
        """Remove row ``i``; a side keeps at least one row (RulesError naming ``rows``)."""
        if len(self.rows) <= 1:
            raise RulesError(f"{self.label} needs at least one creature", field="rows")
        self.rows = [r for k, r in enumerate(self.rows) if k != i]

    def creature(self, key: str) -> Any:
        """Return the creature of a row's key (RulesError naming ``rows`` for an unknown one)."""
        if key == BUILD and self.build is not None:
            return self.build
        if key not in self.creatures:
            raise RulesError(f"{key!r} is not a creature of this catalog", field="rows")
        return self.creatures[key]

    @T.observe("rows", "build")
    @guarded
    def _on_rows(self, change: dict) -> None:
        rows = [(k if (k != BUILD or self.build is not None) else next(iter(self.creatures)), n) for k, n in self.rows]
        if rows != self.rows:
            self.rows = rows  # the build left: its rows fall back to the catalog's first creature
            return
        self.box.children = [self._row(i, k, n) for i, (k, n) in enumerate(rows)]
        value = [self.creature(k) for k, n in rows for _ in range(n)]
        self.clear_message(self.error)
        self.value = value

    def _row(self, i: int, key: str, copies: int) -> W.Widget:
        pick = W.Dropdown(options=self.choices(), value=key, layout=W.Layout(width="16em"))
        count = W.BoundedIntText(
            value=copies, min=1, max=MAX_COPIES, description="\u00d7", layout=W.Layout(width="8em")
        )
        count.style.description_width = "1.5em"
        drop = W.Button(icon="times", tooltip="remove this row", layout=W.Layout(width="2.5em"))
        pick.add_class("wb-side-creature")
        count.add_class("wb-side-copies")
        drop.add_class("wb-side-remove")

        def edit(_: Any) -> None:
            rows = list(self.rows)
            rows[i] = (pick.value, int(count.value))
            self.rows = rows

        pick.observe(self.guard(edit), names="value")
        count.observe(self.guard(edit), names="value")
        drop.on_click(self.guard(lambda _: self.remove(i)))
        return W.HBox([pick, count, drop])


def _mean_rounds(result: Any) -> float | None:
    r = result.rounds
    decided = result.p_a_wins + result.p_b_wins + result.p_draw
    if decided <= 0:
        return None
    return float((r["round"] * (r["p_a_wins"] + r["p_b_wins"] + r["p_draw"])).sum()) / decided


def encounter_html(result: Any) -> str:
    """Return an HTML table of an EncounterResult: each side's win chance, a draw (both sides fall in
    one turn), no winner within the round limit, the mean length of a decided fight; then one row per
    creature: P(survives), mean HP left, P(falls first)."""
    mean = _mean_rounds(result)
    sides = [
        ("a", "P(side A wins)", f"{result.p_a_wins:.2%}"),
        ("b", "P(side B wins)", f"{result.p_b_wins:.2%}"),
        ("draw", "both sides fall in one turn", f"{result.p_draw:.2%}"),
        ("unresolved", f"no winner in {result.max_rounds} rounds", f"{result.p_unresolved:.2%}"),
        ("rounds", "mean rounds (decided)", "none decided" if mean is None else f"{mean:.2f}"),
    ]
    top = "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{html.escape(label)}</th>'
        f'<td style="text-align:right" class="wb-{key}">{v}</td></tr>'
        for key, label, v in sides
    )
    head = "".join(
        f'<th style="text-align:right;padding-left:1em">{h}</th>'
        for h in ("HP", "P(survives)", "mean HP left", "P(falls first)")
    )
    rows = "".join(
        f'<tr><th style="text-align:left">{"A" if r["side"] == "a" else "B"}: {html.escape(r["name"])}</th>'
        f'<td style="text-align:right">{r["hp"]}</td>'
        f'<td style="text-align:right">{r["p_survives"]:.1%}</td>'
        f'<td style="text-align:right">{r["mean_hp_left"]:.2f}</td>'
        f'<td style="text-align:right">{r["p_falls_first"]:.1%}</td></tr>'
        for r in result.creatures.iter_rows(named=True)
    )
    return (
        f'<table class="wb-stats">{top}</table>'
        f'<table class="wb-encounter-creatures" style="margin-top:8px"><tr><th></th>{head}</tr>{rows}</table>'
    )


def encounter_badge(result: Any) -> str:
    """Return the HTML badge saying how an EncounterResult was computed: "exact" (the chain over every
    creature's state) or "simulated" with its fights, standard error and what forced it."""
    if result.exact:
        text, colour, tip = "exact", "#1a7f37", "the exact chain over every creature's state: no sampling error"
    else:
        text = f"simulated: {result.fights:,} fights, s.e. {result.standard_error:.4f}"
        if result.forced_by:
            text += f"; forced by {', '.join(result.forced_by)}"
        colour, tip = "#9a6700", "seeded simulation from the same round descriptions; ± 2 s.e. covers ~95%"
    return (
        f'<span class="wb-encounter-badge" title="{html.escape(tip)}" style="display:inline-block;'
        f'padding:2px 8px;border-radius:10px;color:white;background:{colour};font-size:90%">'
        f"{html.escape(text)}</span>"
    )


class EncounterPanel(Panel):
    """Side A against side B, creatures of one system; ``value`` is the EncounterResult.

    Inputs are traits (``side_a`` and ``side_b``: lists of creatures, ``options``, ``situation``,
    ``first``, ``order``, ``targeting``, ``flanking``, ``refund``, ``allies_in_area``, ``max_rounds``);
    ``editors`` holds
    the two :class:`SideEditor` panels (rows of creature and copies, linked to the sides) and
    ``controls`` the group rules' pickers (flanking, refund and allies in an area only for a system
    with the rule). ``build`` (the app: the Damage tab's attacker) is offered in
    both sides' pickers as "your build"; with ``build_attack`` (the app: the Damage tab's attack) it
    plays that attack as often as a turn allows, the attack on screen. Defaults: two of the catalog's
    first creature against one of its second. Every other creature plays its best plan against the
    foe it targets (as in a duel). A
    simulated encounter (Annulus always; a joint state past the exact bound) runs ``fights`` fights.
    """

    side_a: T.List[Any] = T.List(help="side A's creatures, in listed order")
    side_b: T.List[Any] = T.List(help="side B's creatures, in listed order")
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    build = T.Any(allow_none=True, help="the creature offered as 'your build' in the side pickers")
    build_attack = T.Any(allow_none=True, help="the attack your build plays (None: its best plan)")
    first = T.Enum(tuple(FIRST_CHOICES.values()), "a", help="the side acting first")
    order = T.Enum(tuple(ORDER_CHOICES.values()), "sides", help="the turn order within a round")
    targeting = T.Enum(tuple(TARGETING_CHOICES.values()), "focus", help="the foe each creature attacks")
    flanking = T.Enum(tuple(FLANKING_CHOICES.values()), "auto", help="Unbound flanking (+2 in melee)")
    refund = T.Bool(True, help="Glass Empires: a killing Strike refunds its Attack's action")
    allies_in_area = T.Int(0, help="Annulus: the allies an area set also strikes (first in listed order)")
    max_rounds = T.Int(100, help="rounds after which a fight still going is unresolved")

    #: the inputs an encounter result depends on
    INPUTS = (
        "side_a",
        "side_b",
        "options",
        "situation",
        "first",
        "order",
        "targeting",
        "flanking",
        "refund",
        "allies_in_area",
        "max_rounds",
        "build_attack",
    )

    def __init__(
        self,
        system: Any,
        side_a: list[Any] | None = None,
        side_b: list[Any] | None = None,
        *,
        options: Any = None,
        situation: Any = None,
        build: Any = None,
        build_attack: Any = None,
        fights: int = 20_000,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self.fights = fights
        self._ready = False
        self.catalog = dict(self.system.catalog().creatures)
        names = list(self.catalog)
        first, second = self.catalog[names[0]], self.catalog[names[min(1, len(names) - 1)]]
        self.options, self.situation, self.build = options, situation, build
        self.build_attack = build_attack
        side_a, side_b = side_a or [first, first], side_b or [second]
        rows = {"side_a": self._rows(side_a), "side_b": self._rows(side_b)}
        labels = {"side_a": "side A", "side_b": "side B"}
        # (the catalog holds every creature the sides were given, edited ones under their own key)
        self.editors = {n: SideEditor(self.catalog, rows[n], build=build, label=labels[n]) for n in rows}
        for name, editor in self.editors.items():
            self._adopt(editor)
            editor.add_class(f"wb-encounter-{name.replace('_', '-')}")
            T.dlink((editor, "value"), (self, name))
            T.dlink((self, "build"), (editor, "build"))
        style, layout = {"description_width": "10em"}, W.Layout(width="34em")
        self.controls: dict[str, W.Widget] = {
            "first": W.Dropdown(
                options=list(FIRST_CHOICES.items()), description="initiative", style=style, layout=layout
            ),
            "order": W.Dropdown(
                options=list(ORDER_CHOICES.items()), description="turn order", style=style, layout=layout
            ),
            "targeting": W.Dropdown(
                options=list(TARGETING_CHOICES.items()), description="each attacks", style=style, layout=layout
            ),
            "flanking": W.Dropdown(
                options=list(FLANKING_CHOICES.items()), description="Unbound flanking", style=style, layout=layout
            ),
            "refund": W.Checkbox(description="a kill refunds the action (Glass Empires)", indent=False),
            "max_rounds": W.BoundedIntText(min=1, max=10_000, description="max rounds", style=style, layout=layout),
        }
        # a rule's control only where the system has the rule (its round's hook), so that no control
        # on screen changes nothing
        probe = self.system.fight_round(first, second)
        if getattr(probe, "flanked", None) is None:
            del self.controls["flanking"]
        if getattr(probe, "refunds", None) is None:
            del self.controls["refund"]
        if getattr(probe, "has_area", None) is not None:
            # (a system with area sets: Annulus's "can and will harm the user's allies")
            self.controls["allies_in_area"] = W.BoundedIntText(
                min=0,
                max=50,
                description="allies in an area",
                tooltip="an area set also strikes this many of its user's allies, the first in listed order",
                style=style,
                layout=layout,
            )
            self.controls["max_rounds"] = self.controls.pop("max_rounds")  # (max rounds stays last)
        for name, control in self.controls.items():
            control.add_class(f"wb-encounter-{name.replace('_', '-')}")
            T.link((self, name), (control, "value"))
        self.badge = W.HTML()
        self.stats = W.HTML()
        self.stats.add_class("wb-encounter-stats")
        self.note = W.HTML()
        self.note.add_class("wb-encounter-note")
        self._say_plays()
        self.background = Background(self)
        # how many foes: side A against 1, 2, ... copies of a foe (wb.encounter_difficulty), on demand
        own = list(dict.fromkeys(k for k, _ in rows["side_b"] if k != BUILD))
        foes = own + [n for n in self.catalog if n not in own]
        self.difficulty: Any = None
        self.difficulty_chart: Any = None
        self.difficulty_controls = {
            "foe": W.Dropdown(options=foes, description="copies of", style=style, layout=W.Layout(width="26em")),
            "max_copies": W.BoundedIntText(
                value=6, min=1, max=MAX_COPIES, description="at most", style=style, layout=W.Layout(width="16em")
            ),
        }
        self.difficulty_controls["foe"].add_class("wb-difficulty-foe")
        self.difficulty_button = W.Button(
            description="How many?",
            icon="users",
            tooltip="side A against 1, 2, ... copies of the foe: the most it beats half the time and 9 times in 10",
        )
        self.difficulty_button.add_class("wb-difficulty-run")
        self.difficulty_button.on_click(self.guard(lambda _: self.find_difficulty()))
        self.difficulty_summary = W.HTML()
        self.difficulty_summary.add_class("wb-difficulty-summary")
        self.difficulty_box = W.VBox()
        self.difficulty_background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()  # a panel is built with a result
        if self.value is None:
            raise RulesError(self.error or "these sides cannot fight", field="side_a")
        assert self.chart is not None
        self.chart.add_class("wb-encounter-chart")
        sides = W.HBox(
            [
                W.VBox([W.HTML("<b>Side A</b>"), self.editors["side_a"]]),
                W.VBox([W.HTML("<b>Side B</b>"), self.editors["side_b"]], layout=W.Layout(margin="0 0 0 24px")),
            ]
        )
        rules = W.VBox([W.HBox([c, self._error_slot(k)]) for k, c in self.controls.items()])
        result = W.VBox(
            [self.stale_banner, self.badge, W.HBox([self.chart, self.stats], layout=W.Layout(align_items="flex-start"))]
        )
        result.add_class("wb-encounter-result")
        how_many = W.VBox(
            [
                W.HTML("<b>How many foes make it deadly?</b> Side A against more and more copies of one foe"),
                W.HBox([self.difficulty_controls["foe"], self.difficulty_controls["max_copies"]]),
                W.HBox([self.difficulty_button, self._error_slot("foe"), self.difficulty_background.box]),
                self.difficulty_summary,
                self.difficulty_box,
            ],
            layout=W.Layout(margin="16px 0 0 0"),
        )
        how_many.add_class("wb-difficulty")
        self.children = _children(sides, rules, self.note, self.background.box, self.error_box, result, how_many)
        self.add_class("wb-encounter")

    def _rows(self, side: list[Any]) -> list[tuple[str, int]]:
        """Return a side's creatures as rows (key, copies): runs of one creature merged; the build is
        BUILD, a creature the catalog does not hold is added to it (an edited one as "NAME (edited)")."""
        rows: list[tuple[str, int]] = []
        for c in side:
            if self.build is not None and c == self.build:
                key = BUILD
            else:
                key = c.name
                if key in self.catalog and self.catalog[key] != c:
                    key = f"{c.name} (edited)"
                self.catalog[key] = c
                for editor in getattr(self, "editors", {}).values():
                    editor.creatures[key] = c
            if rows and rows[-1][0] == key:
                rows[-1] = (key, rows[-1][1] + 1)
            else:
                rows.append((key, 1))
        return rows

    def rules(self) -> dict[str, Any]:
        """Return the keyword arguments of ``wb.encounter`` on screen: the group rules (every input
        but the sides and the build's attack), the options and situation, and the fights of a
        simulation."""
        return {k: getattr(self, k) for k in self.INPUTS[2:-1]} | {"fights": self.fights}

    def played(self, side: list[Any]) -> list[Any]:
        """Return a side as ``wb.encounter`` plays it: your build as (build, the attack on screen)
        when ``build_attack`` is set (it plays that attack, as the Damage tab shows it), every other
        creature bare (its best plan)."""
        if self.build is None or self.build_attack is None:
            return list(side)
        return [(c, self.build_attack) if c is self.build else c for c in side]

    @T.observe("build", "build_attack")
    def _say_plays(self, change: Any = None) -> None:
        """Say what the creatures play: your build the attack on screen, the others their best plan."""
        if not hasattr(self, "note"):
            return
        rules = "the group rules are CLARIFICATIONS.md\u2019s \u201cEncounters\u201d"
        if self.build is not None and self.build_attack is not None:
            plays = (
                f"your build ({html.escape(self.build.name)}) plays <b>{html.escape(self.build_attack.name)}</b> "
                "as often as a turn allows, as on the Damage tab; every other creature its best plan"
            )
        else:
            plays = "each creature plays its best plan against the foe it attacks, as in a duel"
        self.note.value = f'<i style="color:#57606a">{plays}; {rules}</i>'

    @T.observe(*INPUTS)
    @guarded
    def _on_input(self, change: dict) -> None:
        editor = getattr(self, "editors", {}).get(change["name"])
        if editor is not None and change["new"] != editor.value:  # a side set from code: its rows follow
            editor.rows = self._rows(change["new"])  # (its value comes back equal: no second run)
        if self._ready:
            self.refresh()

    def refresh(self) -> Any:
        """Fight the encounter off the message loop (Background, with Cancel) and redraw; a RulesError
        is shown beside its field and the last result stays on screen."""
        from workbench.encounters import encounter

        a, b = self.played(self.side_a), self.played(self.side_b)
        kw = self.rules()

        def apply(result: Any) -> Any:
            from workbench.encounters import side_name

            from .duel import fight_figure

            names = (side_name(result.a), side_name(result.b))
            self.set_chart(
                fight_figure(
                    f"A: {names[0]}",
                    f"B: {names[1]}",
                    result.p_a_wins,
                    result.p_b_wins,
                    result.p_draw + result.p_unresolved,
                    result.rounds,
                    result.max_rounds,
                )
            )
            self.stats.value = encounter_html(result)
            self.badge.value = encounter_badge(result)
            self.clear_message(self.error)
            self.value = result
            return result

        return self.background.run(lambda: encounter(a, b, **kw), apply, "fighting...")

    def find_difficulty(self) -> Any:
        """Return (and draw, off the message loop) ``wb.encounter_difficulty`` of side A against
        copies of the picked foe, up to the picked number, by the group rules on screen: the curve of
        P(side A wins) (:func:`workbench.charts.difficulty_chart`) and, at 50 % and 90 %, the most
        copies it beats. None while it runs past a second (``difficulty_background.wait()``)."""
        from workbench import charts
        from workbench.encounters import encounter_difficulty

        party, foe = self.played(self.side_a), self.catalog[self.difficulty_controls["foe"].value]
        copies = int(self.difficulty_controls["max_copies"].value)
        kw = self.rules()

        def work() -> tuple[Any, Any]:
            got = encounter_difficulty(party, foe, max_copies=copies, **kw)
            return got, charts.difficulty_chart(got)

        def apply(result: tuple[Any, Any]) -> Any:
            got, chart = result
            if self.difficulty_chart is None:
                self.difficulty_chart = alt.JupyterChart(prevalidated(chart))
                self.difficulty_chart.add_class("wb-difficulty-chart")
                self.difficulty_box.children = [self.difficulty_chart]
            else:
                self.difficulty_chart.chart = prevalidated(chart)
            self.difficulty_summary.value = html.escape(got.summary())
            self.clear_message(self.error)
            self.difficulty = got
            return got

        return self.difficulty_background.run(work, apply, "fighting more and more foes...")
