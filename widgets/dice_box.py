"""``DiceBox``: type a dice expression ("3d6+2", "2d20kh1+5", "4d6kh3", "2 @ d8", "d20+7 >= 16") and
see it, overlaid on the tab's own distribution, as it is (normal), at least x or at most x, with its
table.

The expression is read by :func:`workbench.dice_expression.parse_dice` (exact); a bad one shows one
line under the box naming the position that is wrong, with the expression and that character
marked. ``base`` is the distribution the tab shows (the Damage tab's damage per attack), drawn first
under ``base_label``; ``expressions`` are the overlaid ones (at most :data:`MAX_SHOWN`).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench import charts
from workbench.dice_expression import EXAMPLES, DiceSyntaxError, parse_dice
from workbench.dist import Dist

from .base import Panel, _children, error_html, guarded

__all__ = ["DiceBox", "MAX_SHOWN", "VIEWS", "dice_table"]

#: the most expressions overlaid at once
MAX_SHOWN = 5
#: the views of the chart
VIEWS = ("normal", "at least", "at most")
#: rows of the table (outcomes past this are binned by workbench.charts.dist_frame)
TABLE_ROWS = 40


def dice_table(dist: Dist, rows: int = TABLE_ROWS) -> str:
    """Return the HTML table of ``dist``: outcome, P(exactly), P(at least), P(at most), after one
    line with its mean, sd and range."""
    frame = charts.dist_frame(dist, max_rows=rows)
    binned = bool((frame["damage_hi"] != frame["damage"]).any())
    head = (
        f"<div class='wb-dice-summary'>mean {dist.mean():.3f} · sd {dist.std():.3f} · "
        f"{dist.min()} to {dist.max()}</div>"
    )
    cells = "".join(
        "<tr>"
        + (f"<td>{lo}–{hi}</td>" if binned and hi != lo else f"<td>{lo}</td>")
        + f"<td>{p:.4%}</td><td>{ge:.4%}</td><td>{le:.4%}</td></tr>"
        for lo, hi, p, ge, le in frame.select("damage", "damage_hi", "probability", "at_least", "at_most").iter_rows()
    )
    return (
        head + "<table class='wb-stats wb-dice-table'><tr><th>outcome</th><th>exactly</th><th>at least</th>"
        f"<th>at most</th></tr>{cells}</table>"
    )


def _marked(text: str, position: int) -> str:
    """``text`` in monospace with the character at ``position`` (or the end) highlighted."""
    before, at, after = text[:position], text[position : position + 1] or "\u2420", text[position + 1 :]
    return (
        "<code class='wb-dice-marked'>"
        f"{html.escape(before)}<mark style='background:#ffd8d3'>{html.escape(at)}</mark>{html.escape(after)}</code>"
    )


class DiceBox(Panel):
    """A text box for dice expressions, a chart overlaying them (and ``base``), and a table.

    ``value`` is ``{expression: Dist}`` of the overlaid expressions; :meth:`add` reads one (a
    RulesError, with its position, is shown on one line under the box and nothing changes).
    """

    base = T.Instance(Dist, allow_none=True, help="the tab's own distribution, drawn first")
    base_label = T.Unicode("this attack", help="the legend's name of base")
    expressions = T.List(T.Unicode(), help="the overlaid expressions, in the order added")
    view = T.Enum(VIEWS, "normal", help="normal (P(exactly)), at least, at most")

    def __init__(
        self,
        expressions: list[str] | None = None,
        *,
        base: Dist | None = None,
        base_label: str = "this attack",
        view: str = "normal",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.input = W.Text(
            value="",
            placeholder="e.g. " + ", ".join(EXAMPLES),
            description="dice",
            continuous_update=False,
            style={"description_width": "3em"},
            layout=W.Layout(width="26em"),
        )
        self.add_button = W.Button(description="Show", icon="plus", tooltip="overlay this expression")
        self.clear_button = W.Button(description="Clear", icon="times", tooltip="remove the typed expressions")
        self.view_toggle = W.ToggleButtons(options=list(VIEWS), value=view, style={"button_width": "6.5em"})
        self.table_of = W.Dropdown(description="table of", style={"description_width": "4.5em"})
        self.table = W.HTML()
        self.help = W.HTML(
            "<span style='color:#57606a'>NdS dice, kh/kl/dh/dl keep or drop, + - * /, "
            "<code>n @ X</code> sums n copies, comparisons (<code>&gt;=</code> ...) give 1 or 0</span>"
        )
        for w, cls in (
            (self.input, "wb-dice-input"),
            (self.add_button, "wb-dice-add"),
            (self.clear_button, "wb-dice-clear"),
            (self.view_toggle, "wb-dice-view"),
            (self.table_of, "wb-dice-table-of"),
            (self.table, "wb-dice-table-box"),
        ):
            w.add_class(cls)
        self.add_button.on_click(self.guard(lambda _: self._submit(self.input.value)))
        self.input.observe(self.guard(lambda ch: self._submit(ch["new"]) if ch["new"].strip() else None), names="value")
        self.clear_button.on_click(self.guard(lambda _: self.clear()))
        T.link((self.view_toggle, "value"), (self, "view"))
        self.table_of.observe(self.guard(lambda _: self._show_table()), names="value")
        self._dists: dict[str, Dist] = {}
        self._want: str | None = None  # the expression whose table to show next
        self.base, self.base_label = base, base_label
        for text in expressions or []:
            self.add(text)
        self._draw()
        assert self.chart is not None
        self.chart.add_class("wb-dice-chart")
        self.children = _children(
            W.HBox([self.input, self.add_button, self.clear_button]),
            self._error_slot("expression"),
            self.help,
            self.view_toggle,
            self.chart,
            self.table_of,
            self.table,
            self.error_box,
        )
        self.add_class("wb-dice-box")

    # -- actions
    def add(self, text: str) -> Dist:
        """Read ``text``, overlay it, show its table and return its Dist; RulesError (shown under the
        box, with the wrong character marked) when it is not a dice expression."""
        text = str(text).strip()
        try:
            dist = parse_dice(text)
        except DiceSyntaxError as err:
            self.show_error(err)
            self._slots["expression"].value = f"{error_html(str(err))} {_marked(text, err.position)}"
            raise
        self.clear_error()
        if text in self._dists:
            self._dists.pop(text)
        self._dists[text] = dist
        while len(self._dists) > MAX_SHOWN:
            self._dists.pop(next(iter(self._dists)))
        self._want = text
        self.expressions = list(self._dists)
        self._draw()  # also when the list is unchanged (the same expression again)
        return dist

    def _submit(self, text: str) -> None:
        """The box's Enter and Show: :meth:`add`, its error already shown under the box."""
        try:
            self.add(text)
        except DiceSyntaxError:
            pass

    def clear(self) -> None:
        """Remove every typed expression (the tab's own distribution stays)."""
        self._dists.clear()
        self.expressions = []
        self.clear_error()

    # -- drawing
    def named(self) -> dict[str, Dist]:
        """Return the distributions drawn, by legend name: ``base`` first, then each expression."""
        out: dict[str, Dist] = {}
        if self.base is not None:
            out[self.base_label] = self.base
        for text, dist in self._dists.items():
            out[text if text != self.base_label else f"{text} (typed)"] = dist
        return out

    @T.observe("expressions", "base", "base_label", "view")
    @guarded
    def _redraw(self, _: Any = None) -> None:
        self._draw()

    def _draw(self) -> None:
        named = self.named()
        self.value = dict(self._dists)
        opts = list(named)
        want, self._want = self._want, None
        pick = next((p for p in (want, self.table_of.value) if p in opts), opts[-1] if opts else None)
        with self.hold_trait_notifications():
            self.table_of.options = opts
            self.table_of.value = pick
        if not named:
            chart = charts.damage_chart(Dist.constant(0), title="Dice box", subtitle="type an expression above")
        elif self.view == "at least":
            chart = charts.at_least_chart(
                named, title="Chance of at least x", x_title="x", quantity="value", legend="Expression"
            )
        elif self.view == "at most":
            chart = charts.at_most_chart(named, title="Chance of at most x", x_title="x")
        else:
            many = named if len(named) > 1 else next(iter(named.values()))
            chart = charts.damage_chart(many, title="Chance of exactly x", x_title="x")
        self.set_chart(chart)
        self._show_table()

    def _show_table(self) -> None:
        named = self.named()
        pick = self.table_of.value
        self.table.value = dice_table(named[pick]) if pick in named else ""
