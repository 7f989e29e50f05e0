"""Panels never let an exception escape (issue 21), headless.

Random sequences of control edits (hypothesis, bounded) on the damage, duel and compare panels and
the app: any control found in the panel's widget tree gets a value of its kind, odd or not (huge
numbers, negative ones, NaN, long text, every dropdown choice), and buttons are clicked. Every
action must return without raising (how long it takes is never asserted, issue 34: a panel's long
work runs in its Background, counted by the engine); the panel must then still hold a valid result. ``PANEL_EXAMPLES`` sequences per panel (default 15, ``HYPOTHESIS_PROFILE=long``: 200).
"""

from __future__ import annotations

import math
import os
import time

import ipywidgets as W
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.widgets.base import Background, Panel
from workbench.widgets.compare import ComparePanel
from workbench.widgets.damage import DamagePanel
from workbench.widgets.duel import DuelPanel

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
EXAMPLES = int(os.environ.get("PANEL_EXAMPLES") or (200 if PROFILE == "long" else 15))
PANELS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=PROFILE != "long",
                  suppress_health_check=list(HealthCheck))

NUMBERS = st.one_of(st.integers(-3, 30), st.sampled_from([0, 1, 10**6, 10**12, -(10**9), 2**63]))
FLOATS = st.one_of(st.floats(-5, 50), st.sampled_from([math.nan, math.inf, 1e308, -0.5, 1e-300]))
TEXTS = st.one_of(st.text(max_size=8), st.sampled_from(["", "1d8", "100d1000", "x" * 300, "\udcff", "all"]))


def controls(widget) -> list:
    """Return the editable controls and buttons under ``widget`` (depth first)."""
    out, stack = [], [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, (W.IntText, W.BoundedIntText, W.FloatText, W.BoundedFloatText, W.Dropdown, W.Checkbox,
                          W.Text, W.SelectMultiple, W.ToggleButtons, W.IntSlider, W.FloatSlider, W.Button,
                          W.Textarea)):
            out.append(w)
        stack.extend(reversed(list(getattr(w, "children", ()))))
    return out


def edit(w, draw):
    """Return a function that applies one random edit to control ``w``."""
    if isinstance(w, W.Button):
        return lambda: w.click()
    if isinstance(w, (W.Dropdown, W.ToggleButtons)):
        opts = list(w.options)
        if not opts:
            return lambda: None
        pick = draw(st.sampled_from(opts))
        value = pick[1] if isinstance(pick, tuple) else pick
        return lambda: setattr(w, "value", value)
    if isinstance(w, W.SelectMultiple):
        names = [o[0] if isinstance(o, tuple) else o for o in w.options]
        value = tuple(draw(st.lists(st.sampled_from(names), max_size=3, unique=True))) if names else ()
        return lambda: setattr(w, "value", value)
    if isinstance(w, W.Checkbox):
        value = draw(st.booleans())
        return lambda: setattr(w, "value", value)
    if isinstance(w, (W.IntText, W.BoundedIntText, W.IntSlider)):
        value = draw(NUMBERS)
        if isinstance(w, (W.BoundedIntText, W.IntSlider)):
            value = min(max(value, w.min), w.max)
        return lambda: setattr(w, "value", int(value))
    if isinstance(w, (W.FloatText, W.BoundedFloatText, W.FloatSlider)):
        value = draw(FLOATS)
        if isinstance(w, (W.BoundedFloatText, W.FloatSlider)):
            value = min(max(value, w.min), w.max) if math.isfinite(value) else w.min
        return lambda: setattr(w, "value", value)
    value = draw(TEXTS)
    return lambda: setattr(w, "value", value)


def backgrounds(panel) -> list[Background]:
    out, stack = [], [panel]
    while stack:
        p = stack.pop()
        if isinstance(getattr(p, "background", None), Background):
            out.append(p.background)
        stack.extend(getattr(p, "_subpanels", []))
    return out


def drive(panel: Panel, draw, steps: int) -> dict:
    """Apply ``steps`` random edits to ``panel``'s controls; each must raise nothing (how long an
    edit takes is not asserted: issue 34; long work runs in the panel's Background). Return counts
    of what happened."""
    seen = {"actions": 0, "errors shown": 0}
    for _ in range(steps):
        ctl = controls(panel)
        w = draw(st.sampled_from(ctl))
        action = edit(w, draw)
        action()  # an exception here escaped the panel's handlers: the test fails
        seen["actions"] += 1
        seen["errors shown"] += bool(panel.errors_shown())
        assert "Unexpected error" not in " ".join(panel.errors_shown().values()), panel.errors_shown()
    # long work (say a Compare grid against groups of many copies) may still run: Cancel, as a
    # designer would, must leave the panel idle with its last result
    for bg in backgrounds(panel):
        bg.cancel()
        assert bg.wait(15.0), "a background job never finished"
    assert "Unexpected error" not in " ".join(panel.errors_shown().values()), panel.errors_shown()
    return seen


SYSTEMS = wb.systems()


@pytest.mark.parametrize("system", SYSTEMS)
def test_damage_panel_survives_random_edits(system):
    panel = DamagePanel(system)

    @PANELS
    @given(data=st.data())
    def run(data):
        drive(panel, data.draw, 8)
        assert panel.value is not None and abs(panel.value.pmf.sum() - 1.0) < 1e-9

    run()


@pytest.mark.parametrize("system", SYSTEMS)
def test_duel_panel_survives_random_edits(system):
    panel = DuelPanel(system, fights=2000)

    @PANELS
    @given(data=st.data())
    def run(data):
        drive(panel, data.draw, 8)
        r = panel.value
        assert r is not None and abs(r.p_a_wins + r.p_b_wins + r.p_draw - 1.0) < 1e-9

    run()


@pytest.mark.parametrize("system", SYSTEMS)
def test_compare_panel_survives_random_edits(system):
    panel = ComparePanel(system)

    @PANELS
    @given(data=st.data())
    def run(data):
        drive(panel, data.draw, 6)
        assert panel.value is not None and panel.value.height >= 1

    run()


def test_background_keeps_the_last_result_supersedes_and_cancels():
    """A slow job shows "working..." and returns at once; a newer request supersedes it; Cancel
    drops the running one and keeps the last result; an error of the work lands in the panel."""
    import threading

    panel = Panel()
    bg = Background(panel, inline=0.05)
    applied = []
    assert bg.run(lambda: 1, applied.append) is None and applied == [1]  # fast: applied at once
    gate = threading.Event()
    bg.run(lambda: gate.wait(5) and 2, applied.append, "fighting...")  # returns while the work waits
    assert bg.working and "fighting..." in bg.busy.value and not gate.is_set()
    assert bg.cancel_button.layout.display is None
    bg.run(lambda: 3, applied.append)   # queued behind the slow one: supersedes it
    gate.set()
    assert bg.wait(5) and applied == [1, 3]
    gate.clear()
    bg.run(lambda: gate.wait(5) and 4, applied.append)
    bg.cancel()
    gate.set()
    assert not bg.working and "cancelled" in bg.busy.value
    time.sleep(0.2)
    assert applied == [1, 3]           # the cancelled result was dropped
    bg.run(lambda: (_ for _ in ()).throw(wb.RulesError("bad", field="hp")), applied.append)
    assert bg.wait(5) and "hp: bad" in panel.error
    bg.run(lambda: 1 / 0, applied.append)
    assert bg.wait(5) and "Unexpected error (ZeroDivisionError" in panel.error
