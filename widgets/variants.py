"""``VariantsPanel``: the same builds against the same targets under two rule variants
(``wb.variants``): the designer's own rules beside the text's.

``value`` is the :func:`workbench.variants` frame (a ``variant`` column, compare's columns and
``delta_<column>`` for each changed figure); the chart is :func:`workbench.charts.variant_heatmap`
of the variant against the baseline (blue: better for the attacker, red: worse). The baseline is
``options`` (in the app, the Damage tab's); the variant is edited in the panel's own Options form,
which starts as a copy of the baseline. Inputs are traits (``attackers``, ``targets``, ``options``,
``situation``, ``show``) for linking.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W
import polars as pl
import traitlets as T

from workbench import charts
from workbench.errors import RulesError

from .base import Background, Panel, _children, guarded, same_numbers
from .forms import ModelForm

__all__ = ["VariantsPanel", "SHOWN", "BASELINE", "VARIANT"]

#: the labels of the two variants
BASELINE, VARIANT = "these rules", "my variant"

#: the figures whose change the heatmap can show, with their labels
SHOWN = {
    "mean rounds to kill": "mean_rounds",
    "mean damage per use": "mean_damage",
    "mean damage per turn": "mean_turn_damage",
    "P(kill in one turn)": "p_kill_one_turn",
}


def changed_fields(base: Any, variant: Any) -> list[str]:
    """Return the Options fields whose value differs between ``base`` and ``variant``, as
    ``field: old → new`` texts in the words of the form ("confirm crits: True → False"), in field
    order."""
    return [
        f"{name.replace('_', ' ')}: {getattr(base, name)!r} → {getattr(variant, name)!r}"
        for name in type(base).model_fields
        if getattr(base, name) != getattr(variant, name)
    ]


def example_variant(
    system: Any, base: Any, attackers: list[Any], targets: list[Any], situation: Any, attack: Any = None
) -> Any:
    """Return ``base`` with its first true/false, choice or whole-number rule changed (a number one
    step either way) whose change moves one use's damage of ``attack`` (else of one of the first
    attacker's first three attacks) against one of the first three ``targets`` (so the Variants tab
    opens on a difference), or None when no such rule is found."""
    from workbench.fields import specs

    if not attackers or not targets:
        return None
    attacker = attackers[0]
    own = [attack] if attack is not None else system.attacks_of(attacker)[:3]
    if not own:
        return None
    for name, fs in specs(type(base)).items():
        now = getattr(base, name)
        others: list[Any]
        if fs.kind == "bool":
            others = [not now]
        elif fs.kind == "choice":
            others = [v for v in fs.options() if v != now]
        elif isinstance(now, int) and not isinstance(now, bool):
            others = [now + 1, now - 1]  # a number rule one step either way (Annulus: success on 5)
        else:
            continue
        for v in others:
            try:
                other = base.replace(**{name: v})
                for attack in own:
                    for t in targets[:3]:
                        if not system.damage(attack, attacker, t, other, situation).isclose(
                            system.damage(attack, attacker, t, base, situation), 1e-12
                        ):
                            return other
            except RulesError:
                continue
    return None


class VariantsPanel(Panel):
    """``attackers`` against ``targets`` under ``options`` (the baseline) and under the variant
    edited in ``form``; ``value`` is the ``wb.variants`` frame, its heatmap the best-plan rows. With
    ``attack`` (the app: the Damage tab's attack, edited or not) the first attacker plays that attack
    as often as each turn allows (the heatmap's first row), its best plan the reference row below."""

    attack = T.Any(allow_none=True)
    attackers: T.List[Any] = T.List()
    targets: T.List[Any] = T.List()
    options = T.Any(allow_none=True)
    situation = T.Any(allow_none=True)
    show = T.Unicode("mean_rounds")

    def __init__(
        self,
        system: Any,
        attackers: list[Any] | None = None,
        targets: list[Any] | None = None,
        *,
        options: Any = None,
        variant: Any = None,
        situation: Any = None,
        show: str = "mean_rounds",
        fights: int = 2_000,
        attack: Any = None,
        **kwargs: Any,
    ) -> None:
        from workbench.systems import system as lookup

        super().__init__(**kwargs)
        self.system = lookup(system)
        self.fights = fights
        self.attack = attack
        self._ready = False
        creatures = list(self.system.catalog().creatures.values())
        self.attackers = list(attackers) if attackers else creatures[:1]
        self.targets = list(targets) if targets else creatures[1:4] or creatures[:1]
        self.options, self.situation, self.show = options, situation, show
        base = options if options is not None else self.system.Options()
        # with no variant given, a starting example: the first rule whose change shows (issue 36,
        # item 5: the tab opened on a copy of the rules, every difference 0)
        self.example = (
            example_variant(self.system, base, self.attackers, self.targets, situation, attack)
            if variant is None
            else None
        )
        start = variant if variant is not None else (self.example or base)
        self.form = ModelForm(type(base), start, system=self.system, title=VARIANT)
        self.form.add_class("wb-variant-form")
        self.form.observe(self.guard(lambda _: self.refresh() if self._ready else None), names="value")
        self._adopt(self.form)
        self.controls = {
            "show": W.Dropdown(
                options=list(SHOWN.items()), value=show, description="show", style={"description_width": "7em"}
            )
        }
        T.link((self.controls["show"], "value"), (self, "show"))
        self.summary = W.HTML()
        self.summary.add_class("wb-variants-summary")
        self.background = Background(self)
        self._ready = True
        self.refresh()
        self.background.wait()
        if self.value is None:
            raise RulesError(self.error or "nothing to compare", field="options")
        assert self.chart is not None
        self.chart.add_class("wb-variants-chart")
        results = W.VBox(
            _children(self.controls["show"], self.background.box, self.error_box, self.summary, self.chart)
        )
        self.children = [W.HBox([self.form, results])]
        self.add_class("wb-variants")

    @property
    def baseline(self) -> Any:
        """The baseline Options (``options``, else the system's defaults)."""
        return self.options if self.options is not None else self.system.Options()

    @T.observe("attackers", "attack", "targets", "options", "situation", "show")
    @guarded
    def _on_input(self, change: dict) -> None:
        if self._ready:
            self.refresh()

    def refresh(self) -> Any:
        """Compare under both variants off the message loop (Background) and redraw; a RulesError is
        shown and the last chart stays."""
        from workbench.rule_variants import variants

        base, mine = self.baseline, self.form.value
        if type(mine) is not type(base):  # the baseline's system changed under the form
            mine = base
        args = (list(self.attackers), list(self.targets), {BASELINE: base, VARIANT: mine})
        kw = dict(situation=self.situation, fights=self.fights, progress=False)
        show, attack = self.show, self.attack
        changed = changed_fields(base, mine)

        def work() -> tuple[Any, Any]:
            if attack is not None and args[0]:
                # the attack on screen (the pair: an edited attack in place of its own), then the
                # attacker's best plan as the reference row
                a, others = args[0][0], args[0][1:]
                mine_rows = variants([(a, attack)], *args[1:], **kw)
                ref = variants([a], *args[1:], **kw).filter(pl.col("attack") == "best plan")
                ref = ref.with_columns(attack=pl.lit("best plan (reference)"))
                rest = mine_rows.clear()  # the other attackers: their best plans, as without an attack
                if others:
                    rest = variants(others, *args[1:], **kw).filter(pl.col("attack") == "best plan")
                frame = pl.concat([mine_rows, ref, rest], how="vertical_relaxed")
                if same_numbers(mine_rows, ref, [show, f"delta_{show}"]):
                    # the attack is the best plan: one row, said so
                    one = mine_rows.with_columns(attack=pl.lit(f"{attack.name} (its best plan too)"))
                    return frame, charts.variant_heatmap(pl.concat([one, rest], how="vertical_relaxed"), VARIANT, show)
                return frame, charts.variant_heatmap(frame, VARIANT, show)
            frame = variants(*args, **kw)
            best = frame.filter(frame["attack"] == "best plan")
            return frame, charts.variant_heatmap(best if best.height else frame, VARIANT, show)

        def apply(result: tuple[Any, Any]) -> Any:
            frame, chart = result
            self.set_chart(chart)
            what = ", ".join(html.escape(c) for c in changed) if changed else "nothing yet: edit a rule on the left"
            if changed and mine == self.example:
                what += " <i>(a starting example: edit or undo it on the left)</i>"
            deltas = [c for c in frame.columns if c.startswith("delta_")]
            flat = bool(changed) and all(
                float(frame[c].cast(pl.Float64).fill_nan(0.0).fill_null(0.0).abs().max() or 0.0) <= 1e-12
                for c in deltas
            )
            if flat:
                what += "<br><span class='wb-no-effect' style='color:#9a6700'>no effect: this change leaves every number here as it is</span>"
            simulated = int((frame["method"] == "simulated").sum()) if "method" in frame.columns else 0
            how = f"{simulated} of {frame.height} rows simulated" if simulated else "all exact"
            self.summary.value = f"changed: {what}<br><i>{how}</i>"
            self.clear_message(self.error)
            self.value = frame
            return frame

        return self.background.run(work, apply, "comparing the variants...")
