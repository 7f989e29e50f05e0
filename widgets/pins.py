"""``PinsPanel``: pinned builds overlaid against one target, with deltas against a reference pin
(issue 17, item 5: "pin up to six builds and overlay them (damage, at least, rounds-to-kill
curves) with deltas against the pinned one").

A :class:`Pin` is a snapshot of a build as the Damage tab holds it (the attacker creature, its
attack, the options and the situation) with a label. The panel's inputs are traits (``attacker``,
``attack``, ``options``, ``situation``: what **Pin this build** snapshots; ``target``: what every
pin is fought against; ``pins``, ``reference``, ``view``), so the app links them to the Damage tab.
Each pin's numbers are :func:`widgets.damage.fight_summary`, the Damage tab's own fight
(``wb.turn_plans`` and ``wb.rounds_to_kill``), plus ``system.damage`` for one use of its attack;
they are computed off the kernel's loop (:class:`~widgets.base.Background`) and kept per (pin,
target), so pinning a build computes only that build and changing the target recomputes them all.
``value`` is the delta frame (:func:`pin_deltas`), None while nothing is pinned.
"""

from __future__ import annotations

import html
import warnings
from dataclasses import dataclass
from typing import Any

import ipywidgets as W
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded
from .damage import fight_summary
from .workers import Worker

__all__ = ["Pin", "PinsPanel", "MAX_PINS", "KILL_WITHIN", "VIEWS", "pin_summary", "pin_deltas"]

#: the most builds pinned at once (one colour each, a legible overlay)
MAX_PINS = 6
#: the delta table's P(kill within k rounds)
KILL_WITHIN = (1, 2, 3)
#: the overlay's damage views: label → (which distribution, chart view)
VIEWS = {
    "damage per turn": ("turn", "distribution"),
    "at least (per turn)": ("turn", "at least"),
    "damage per use": ("damage", "distribution"),
}
#: the delta table's figures: column → (label, format, lower is better)
FIGURES = {
    "mean_damage": ("mean damage per use", ".3f", False),
    "mean_turn_damage": ("mean damage per turn", ".3f", False),
    **{f"p_kill_{k}": (f"P(kill within {k} round{'s' if k > 1 else ''})", ".2%", False) for k in KILL_WITHIN},
    "mean_rounds": ("mean rounds to kill", ".2f", True),
    "median_rounds": ("median rounds to kill", "d", True),
}
# the pins' fights run on their own worker: six simulated fights never hold up a Damage redraw
PIN_WORKER = Worker("workbench-pins")


@dataclass(frozen=True)
class Pin:
    """A pinned build: ``label`` and the Damage tab's ``attacker``, ``attack``, ``options`` and
    ``situation`` when it was pinned."""

    label: str
    attacker: Any
    attack: Any
    options: Any = None
    situation: Any = None

    def key(self, target: Any) -> tuple:
        """Return what this pin's numbers against ``target`` depend on (the label does not)."""
        return (self.attacker, self.attack, self.options, self.situation, target)


def pin_summary(pin: Pin, target: Any, system: Any = None) -> dict[str, Any]:
    """Return :func:`~widgets.damage.fight_summary` of ``pin`` against ``target`` (the pin's attack
    as often as each turn allows: its ``turn`` Dist, ``frame`` of ``wb.rounds_to_kill``; the
    attacker's best plan in ``reference``; ``{"error"}`` for a fight that cannot end)
    with ``label``, ``damage`` (the Dist of one use of the pin's attack, ``system.damage``; None
    when the rules refuse that attack here, the reason in ``damage_error``) and ``p_kill_k`` for k in
    :data:`KILL_WITHIN` (P(down by the end of round k), 0 for a fight that cannot end)."""
    from workbench.systems import system_of

    sys = system or system_of(pin.attacker)
    out = fight_summary(pin.attacker, target, pin.options, pin.situation, system=sys, attack=pin.attack)
    out["label"] = pin.label
    try:
        out["damage"] = sys.damage(pin.attack, pin.attacker, target, pin.options, pin.situation)
    except RulesError as err:
        out["damage"], out["damage_error"] = None, str(err)
    frame = out.get("frame")
    for k in KILL_WITHIN:
        if frame is None or frame.height == 0:
            out[f"p_kill_{k}"] = 0.0
            continue
        upto = frame.filter(pl.col("round") <= k)
        out[f"p_kill_{k}"] = float(upto["p_killed_by"][-1]) if upto.height else 0.0
    return out


def pin_deltas(summaries: list[dict[str, Any]], reference: str) -> pl.DataFrame:
    """Return one row per pin (in order) of :data:`FIGURES` (``mean_damage``, ``mean_turn_damage``,
    ``p_kill_1`` ... ``p_kill_3``, ``mean_rounds``, ``median_rounds``; null where a fight cannot end
    or the attack is refused), ``label``, ``reference`` (True for the reference pin's row), ``exact``,
    per figure ``d_<figure>`` (the pin's minus the reference's) and ``r_<figure>`` (the pin's
    over the reference's; null when either is null or the reference's shows as zero, :func:`ratio`),
    and ``best_plan`` / ``best_mean_rounds``: the pin's attacker's best plan and its mean rounds (a
    reference beside the pin's own attack). RulesError when ``reference`` is no pin's label."""
    labels = [s["label"] for s in summaries]
    if reference not in labels:
        raise RulesError(f"no pinned build is labelled {reference!r}", field="reference")
    rows = []
    for s in summaries:
        error = "error" in s
        rows.append(
            {
                "label": s["label"],
                "reference": s["label"] == reference,
                "exact": None if error else s["exact"],
                "mean_damage": None if s.get("damage") is None else s["damage"].mean(),
                "mean_turn_damage": None if error else s["turn_mean"],
                **{f"p_kill_{k}": s[f"p_kill_{k}"] for k in KILL_WITHIN},
                "mean_rounds": None if error else s["mean"],
                "median_rounds": None if error else s["median"],
                "best_plan": (s.get("reference") or {}).get("plan"),
                "best_mean_rounds": (s.get("reference") or {}).get("mean"),
            }
        )
    ref = rows[labels.index(reference)]
    for r in rows:
        for f in FIGURES:
            v, base = r[f], ref[f]
            r[f"d_{f}"] = None if v is None or base is None else float(v - base)
            r[f"r_{f}"] = ratio(v, base, FIGURES[f][1])
    schema: dict[str, Any] = {"label": pl.String, "reference": pl.Boolean, "exact": pl.Boolean}
    schema.update({f: pl.Int64 if f == "median_rounds" else pl.Float64 for f in FIGURES})
    schema.update({f"{p}_{f}": pl.Float64 for f in FIGURES for p in ("d", "r")})
    schema.update({"best_plan": pl.String, "best_mean_rounds": pl.Float64})
    return pl.DataFrame(rows, schema=schema)


def ratio(value: Any, base: Any, fmt: str) -> float | None:
    """Return ``value / base``, or None when either is missing or ``base`` shows as zero in
    ``fmt`` (0.00 %, 0.000): a ratio against a reference that rounds to nothing reads as
    "x12711864" and says nothing; the difference alone is shown then (issue 36, item 4)."""
    if value is None or base is None:
        return None
    digits = int(fmt[1:-1]) if fmt[1:-1].isdigit() else 0
    scale = 100 if fmt.endswith("%") else 1
    if abs(base) * scale < 0.5 * 10.0**-digits:
        return None
    return float(value / base)


def _cell(value: Any, fmt: str) -> str:
    if value is None:
        return "–"
    return format(value, fmt)


def deltas_html(frame: pl.DataFrame) -> str:
    """Return the delta table: one column per pin, one row per figure; under each figure of a pin
    that is not the reference its difference from the reference (Δ, in points for chances) and
    ratio (×), green where better for the pin, red where worse."""
    head = "".join(
        f'<th style="text-align:right;padding:0 0.8em">{html.escape(r["label"])}'
        + (" <i style='font-weight:normal;color:#57606a'>(reference)</i>" if r["reference"] else "")
        + "</th>"
        for r in frame.iter_rows(named=True)
    )
    body = []
    for f, (label, fmt, lower) in FIGURES.items():
        cells = []
        for r in frame.iter_rows(named=True):
            main = _cell(r[f], fmt)
            note = ""
            if not r["reference"] and r[f"d_{f}"] is not None:
                d, ratio = r[f"d_{f}"], r[f"r_{f}"]
                delta = f"{d * 100:+.1f} pts" if fmt.endswith("%") else f"{d:+.3f}".rstrip("0").rstrip(".")
                better = d < 0 if lower else d > 0
                colour = "#57606a" if abs(d) < 1e-12 else ("#1a7f37" if better else "#b42318")
                times = "" if ratio is None else f" · ×{ratio:.3f}"
                note = (
                    f' <span class="wb-pin-delta" style="color:{colour};font-size:85%;white-space:nowrap">'
                    f"Δ {delta}{times}</span>"
                )
            cells.append(f'<td style="text-align:right;padding:0 0.8em" class="wb-pin-{f}">{main}{note}</td>')
        body.append(f'<tr><th style="text-align:left;padding-right:1em">{label}</th>{"".join(cells)}</tr>')
    if "best_plan" in frame.columns and frame["best_plan"].drop_nulls().len():
        best = "".join(
            '<td style="text-align:right;padding:0 0.8em;color:#57606a" class="wb-pin-best">'
            + (
                "–"
                if r["best_plan"] is None
                else f"{html.escape(r['best_plan'])}: "
                + ("never" if r["best_mean_rounds"] is None else f"{r['best_mean_rounds']:.2f}")
            )
            + "</td>"
            for r in frame.iter_rows(named=True)
        )
        body.append(
            '<tr><th style="text-align:left;padding-right:1em;color:#57606a">best plan (reference): mean rounds</th>'
            f"{best}</tr>"
        )
    return f'<table class="wb-stats wb-pin-table"><tr><th></th>{head}</tr>{"".join(body)}</table>'


class PinsPanel(Panel):
    """Up to :data:`MAX_PINS` pinned builds (``pins``, a list of :class:`Pin`) against ``target``:
    the overlay chart (:func:`workbench.charts.pinned_chart`: damage per turn, at least or per use,
    and rounds to kill, one colour per pin) and the delta table against the ``reference`` pin (its
    label; the first pin's when unset or removed). ``pin()`` snapshots ``attacker``, ``attack``,
    ``options`` and ``situation``; ``unpin(label)`` removes a pin. ``value`` is :func:`pin_deltas`."""

    pins: T.List[Any] = T.List()
    reference = T.Unicode("", help="the label of the pin the deltas are against")
    view = T.Unicode("damage per turn", help="one of VIEWS")
    attacker = T.Any(allow_none=True)
    attack = T.Any(allow_none=True)
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    target = T.Any(allow_none=True)

    def __init__(
        self,
        system: Any,
        attacker: Any = None,
        attack: Any = None,
        target: Any = None,
        *,
        options: Any = None,
        situation: Any = None,
        pins: list[Pin] | None = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self._ready = False
        self.attacker, self.attack, self.target = attacker, attack, target
        self.options, self.situation = options, situation
        self._cache: dict[tuple, dict[str, Any]] = {}
        self.summaries: list[dict[str, Any]] = []  # the pin summaries shown, in pin order
        # the bar: what the app puts beside the Damage tab's chart
        self.pin_button = W.Button(description="Pin this build", icon="thumb-tack", tooltip="snapshot this build")
        self.pin_button.add_class("wb-pin")
        self.pin_button.on_click(self.guard(lambda _: self.pin()))
        self.label_box = W.Text(placeholder="label (blank: attacker / attack)", layout=W.Layout(width="16em"))
        self.label_box.add_class("wb-pin-label")
        self.count = W.HTML()
        self.count.add_class("wb-pin-count")
        self.bar = W.HBox(
            [self.pin_button, self.label_box, self._error_slot("pin_label"), self.count, self._error_slot("pins")],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.bar.add_class("wb-pin-bar")
        # the list: one row per pin with its colour and a remove button; the reference picker
        self.pin_list = W.VBox()
        self.pin_list.add_class("wb-pin-list")
        self.reference_picker = W.Dropdown(
            description="deltas against", style={"description_width": "8em"}, layout=W.Layout(width="24em")
        )
        self.reference_picker.add_class("wb-pin-reference")
        self.reference_picker.observe(self.guard(self._on_pick_reference), names="value")
        self.view_toggle = W.ToggleButtons(options=list(VIEWS), value=self.view, style={"button_width": "10em"})
        self.view_toggle.add_class("wb-pin-view")
        T.link((self.view_toggle, "value"), (self, "view"))
        self.heading = W.HTML()
        self.heading.add_class("wb-pin-heading")
        self.table = W.HTML()
        self.table.add_class("wb-pin-deltas")
        self.background = Background(self, executor=PIN_WORKER)
        self.chart_box = W.VBox()
        self.results = W.VBox([self.view_toggle, self.chart_box, self.table])
        self.results.add_class("wb-pin-results")
        self.children = _children(
            self.heading,
            W.HBox([self.pin_list, W.VBox([self.reference_picker, self._error_slot("reference")])]),
            self.background.box,
            self.error_box,
            self.results,
        )
        self.add_class("wb-pins")
        self._ready = True
        if pins:
            self.pins = list(pins)
        else:
            self._show_list()
            self.refresh()

    # -- pinning
    def pin(self, label: str | None = None) -> Pin | None:
        """Pin the current build (``attacker``, ``attack``, ``options``, ``situation``) as ``label``
        (else the label box's text, else "attacker / attack", numbered when taken) and return the
        pin; with :data:`MAX_PINS` pinned already, or that very build pinned, say so beside the pin
        button and return None (nothing raises)."""
        try:
            return self._pin(label)
        except RulesError as err:
            self.show_error(err)
            return None

    def _pin(self, label: str | None) -> Pin:
        if self.attacker is None or self.attack is None:
            raise RulesError("there is no build to pin: pick an attacker and an attack", field="pins")
        if len(self.pins) >= MAX_PINS:
            raise RulesError(
                f"{MAX_PINS} builds are pinned, the most one overlay shows: remove one to pin this build",
                field="pins",
            )
        snapshot = Pin("", self.attacker, self.attack, self.options, self.situation)
        same = next((p for p in self.pins if p.key(None) == snapshot.key(None)), None)
        if same is not None:
            raise RulesError(f"this build is pinned already, as {same.label!r}", field="pins")
        taken = {p.label for p in self.pins}
        text = (label if label is not None else self.label_box.value).strip()
        if text:
            if len(text) > 60:
                raise RulesError(f"a label has at most 60 characters, not {len(text)}", field="pin_label")
            if text in taken:
                raise RulesError(f"{text!r} labels another pin already; give another label", field="pin_label")
        else:
            base = f"{getattr(self.attacker, 'name', 'attacker')} / {getattr(self.attack, 'name', 'attack')}"
            text, k = base, 2
            while text in taken:
                text, k = f"{base} ({k})", k + 1
        pin = Pin(text, self.attacker, self.attack, self.options, self.situation)
        self.clear_message(self.error)
        self.label_box.value = ""
        self.pins = [*self.pins, pin]
        return pin

    def unpin(self, label: str) -> None:
        """Remove the pin labelled ``label`` (RulesError naming ``pins`` if there is none)."""
        if label not in {p.label for p in self.pins}:
            raise RulesError(f"no pinned build is labelled {label!r}", field="pins")
        self.pins = [p for p in self.pins if p.label != label]

    @T.validate("pins")
    def _check_pins(self, proposal: dict) -> list[Pin]:
        pins = list(proposal["value"])
        if len(pins) > MAX_PINS:
            raise T.TraitError(f"at most {MAX_PINS} pins, not {len(pins)}")
        if not all(isinstance(p, Pin) for p in pins) or len({p.label for p in pins}) != len(pins):
            raise T.TraitError("pins must be Pin objects with distinct labels")
        return pins

    @T.observe("pins")
    @guarded
    def _on_pins(self, change: dict) -> None:
        labels = [p.label for p in self.pins]
        if self.reference not in labels:
            ready, self._ready = self._ready, False  # the refresh below draws the new deltas
            try:
                self.reference = labels[0] if labels else ""  # the first pin
            finally:
                self._ready = ready
        if len(self.pins) < MAX_PINS and "builds are pinned" in self.error:
            self.clear_message(self.error)
        self._show_list()
        if self._ready:
            self.refresh()

    def _on_pick_reference(self, change: dict) -> None:
        if change["new"] is not None and change["new"] != self.reference:
            self.reference = change["new"]

    @T.observe("reference")
    @guarded
    def _on_reference(self, change: dict) -> None:
        labels = [p.label for p in self.pins]
        if change["new"] and change["new"] not in labels:
            ready, self._ready = self._ready, False
            try:
                self.reference = change["old"] if change["old"] in labels else (labels[0] if labels else "")
            finally:
                self._ready = ready
            self.show_error(RulesError(f"no pinned build is labelled {change['new']!r}", field="reference"))
            return
        if self.reference_picker.value != change["new"] and change["new"] in self.reference_picker.options:
            self.reference_picker.value = change["new"]
        if self._ready and self.summaries:
            self._draw()  # the same fights, other deltas: no recomputation

    def _show_list(self) -> None:
        rows = []
        for i, p in enumerate(self.pins):
            colour = charts.PALETTE[i % len(charts.PALETTE)]
            name = W.HTML(
                f'<span style="display:inline-block;width:0.9em;height:0.9em;background:{colour};'
                f'border-radius:2px;margin-right:0.4em"></span>{html.escape(p.label)}',
                layout=W.Layout(min_width="14em"),
            )
            remove = W.Button(description="remove", icon="times", tooltip=f"unpin {p.label}")
            remove.layout.width = "7em"
            remove.add_class("wb-pin-remove")
            remove.on_click(self.guard(lambda _, label=p.label: self.unpin(label)))
            rows.append(W.HBox([name, remove]))
        self.pin_list.children = rows
        labels = [p.label for p in self.pins]
        self.reference_picker.options = labels
        if labels:
            self.reference_picker.value = self.reference if self.reference in labels else labels[0]
        self.reference_picker.layout.display = None if labels else "none"
        self.count.value = (
            f'<span style="color:#57606a">{len(self.pins)} of {MAX_PINS} pinned'
            + (" (overlay below)" if self.pins else "")
            + "</span>"
        )

    # -- computing
    @T.observe("target", "view")
    @guarded
    def _on_input(self, change: dict) -> None:
        if not self._ready:
            return
        if change["name"] == "view":
            if change["new"] not in VIEWS:
                self.show_error(RulesError(f"must be one of {', '.join(VIEWS)}", field="view"))
                return
            if self.summaries:
                self._draw()
            return
        self.refresh()

    def refresh(self) -> pl.DataFrame | None:
        """Fight every pin against ``target`` (those not fought against it before) off the kernel's
        loop and redraw; return the delta frame when that took under a second, else None
        (``panel.background.wait()`` blocks until it is drawn). With no pins: a hint, no chart."""
        pins, target = list(self.pins), self.target
        if not pins or target is None:
            self.summaries = []
            with warnings.catch_warnings():  # traitlets compares the old frame with None
                warnings.simplefilter("ignore")
                self.value = None
            self.results.layout.display = "none"
            self.heading.value = (
                "<b>Pinned builds</b>: <span style='color:#57606a'>press <i>Pin this build</i> beside the "
                f"chart to keep a build here; pin up to {MAX_PINS} and edit on, to overlay them and see "
                "the differences</span>"
            )
            return None
        cache, system = self._cache, self.system

        def work() -> list[dict[str, Any]]:
            out = []
            for p in pins:
                got = cache.get(p.key(target))
                if got is None:
                    got = pin_summary(p, target, system)
                    if len(cache) > 64:
                        cache.clear()
                    cache[p.key(target)] = got
                out.append({**got, "label": p.label})
            return out

        def apply(summaries: list[dict[str, Any]]) -> pl.DataFrame:
            self.summaries = summaries
            return self._draw()

        n = len(pins)
        return self.background.run(work, apply, f"fighting {n} pinned build{'s' if n > 1 else ''}...")

    def _draw(self) -> pl.DataFrame:
        labels = [s["label"] for s in self.summaries]
        reference = self.reference if self.reference in labels else labels[0]
        frame = pin_deltas(self.summaries, reference)
        which, view = VIEWS[self.view]
        dists = {s["label"]: s[which] for s in self.summaries if s.get(which) is not None}
        frames = {s["label"]: s["frame"] for s in self.summaries if "error" not in s}
        target = getattr(self.target, "name", "the target")
        pools = self.summaries[0].get("pools") or ()
        hp = f" ({' + '.join(str(p) for p in pools)} HP)" if pools else ""
        self.heading.value = (
            f"<b>Pinned builds against {html.escape(target)}</b>{hp}: each build's attack as often as a turn allows "
            "(its attacker's best plan in the last row, for reference); "
            f"deltas against <b>{html.escape(reference)}</b>"
        )
        if dists and frames:
            chart = charts.pinned_chart(
                dists,
                frames,
                f"Pinned builds against {target}",
                view=view,
                damage_title="Damage per use" if which == "damage" else "Damage per turn",
            )
            self.set_chart(chart)
            assert self.chart is not None
            self.chart.add_class("wb-pin-chart")
            self.chart_box.children = [self.chart]
        else:
            self.chart_box.children = [W.HTML("<i>no pinned build can hurt this target: nothing to draw</i>")]
        notes = [
            f"{html.escape(s['label'])}: {html.escape(s['error'] if 'error' in s else s.get('damage_error', ''))}"
            for s in self.summaries
            if "error" in s or s.get("damage_error")
        ]
        simulated = [s for s in self.summaries if "error" not in s and not s["exact"]]
        if simulated:  # as the Damage tab's fight says it: fights, standard error, the state that forced it
            notes.append(
                "simulated (seeded fights, as the Damage tab's fight): "
                + "; ".join(
                    f"{html.escape(s['label'])} ({s['fights']:,} fights, s.e. {s['se']:.4f}"
                    + (f", state: {html.escape(', '.join(s['forced_by']))}" if s.get("forced_by") else "")
                    + ")"
                    for s in simulated
                )
            )
        self.table.value = deltas_html(frame) + "".join(
            f'<div class="wb-pin-note" style="color:#57606a">{n}</div>' for n in notes
        )
        self.results.layout.display = None
        self.clear_message(self.error)
        with warnings.catch_warnings():  # traitlets compares the old frame (or None) with == first
            warnings.simplefilter("ignore")
            self.value = frame
        return frame
