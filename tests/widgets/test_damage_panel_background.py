"""The Damage panel computes off the kernel's message loop (issue 21, item 3: panels "never freeze:
work that can take long runs off the kernel's message loop ... and the last valid result stays on
screen"). A slow distribution shows "computing..." with a Cancel button and the edit returns at
once; a newer edit supersedes it; Cancel keeps the last chart."""

from __future__ import annotations

import threading
import time

from workbench.widgets import DamagePanel
from workbench.widgets.base import INLINE_SECONDS


def slow_damage(panel, gate: threading.Event):
    """Make ``panel``'s system wait for ``gate`` before each distribution (the real maths after)."""
    real = type(panel.system).damage

    def damage(*args, **kwargs):
        gate.wait(10)
        return real(panel.system, *args, **kwargs)

    panel.system.damage = damage  # an instance attribute: the system class is untouched
    return real


def test_a_slow_distribution_runs_off_the_loop_and_keeps_the_last_result():
    panel = DamagePanel("annulus")
    first = panel.value
    chart = panel.chart.chart.to_dict()
    gate = threading.Event()
    slow_damage(panel, gate)
    try:
        other = panel.target
        panel.target = panel.attacker  # an edit: its distribution now waits for the gate
        assert not gate.is_set()  # the edit returned while its work still waits: it did not wait for it
        assert panel.background.working and "computing" in panel.background.busy.value
        assert panel.background.cancel_button.layout.display is None
        assert panel.value is first and panel.chart.chart.to_dict() == chart  # last result stays
        gate.set()
        assert panel.background.wait(10)
        assert panel.value is not first and panel.background.busy.value == ""
        assert panel.background.cancel_button.layout.display == "none"
    finally:
        del panel.system.damage
        panel.target = other


def test_cancel_keeps_the_last_chart_and_a_newer_edit_wins():
    panel = DamagePanel("unbound")
    first = panel.value
    gate = threading.Event()
    slow_damage(panel, gate)
    try:
        panel.view = "at least"
        assert panel.background.working
        panel.background.cancel()
        gate.set()
        time.sleep(0.3)
        assert panel.value is first and "cancelled" in panel.background.busy.value
        gate.clear()
        panel.view = "distribution"  # superseded by the next edit before it finishes
        panel.target = panel.attacker
        gate.set()
        assert panel.background.wait(10)
        assert panel.value is not first
        assert panel.title_text().endswith(f"vs {panel.attacker.name}")
    finally:
        del panel.system.damage


def test_an_error_in_the_background_lands_beside_its_field_and_the_chart_stays():
    panel = DamagePanel("annulus")
    first = panel.value
    gate = threading.Event()
    gate.set()
    slow_damage(panel, gate)
    try:
        from workbench.errors import RulesError

        def failing(*args, **kwargs):
            time.sleep(INLINE_SECONDS + 0.2)
            raise RulesError("too far", field="situation")

        panel.system.damage = failing
        panel.view = "at least"
        assert panel.background.wait(10)
        assert "too far" in panel.error and panel.value is first
    finally:
        del panel.system.damage


def test_a_panel_built_by_another_panels_background_result_does_not_wait_for_itself():
    """The Compare panel builds its detail DamagePanel when its grid arrives, on the one worker
    thread; that panel's own first distribution must then run there, not queue behind itself."""
    from workbench.widgets.base import Background, Panel

    host = Panel()
    bg = Background(host, inline=0.0)  # every result arrives on the worker
    built = []
    gate = threading.Event()

    def work():
        gate.wait(5)
        return "annulus"

    bg.run(work, lambda system: built.append(DamagePanel(system, controls=False)))
    gate.set()
    assert bg.wait(20), "the nested panel waited for the worker it runs on"
    assert len(built) == 1 and built[0].value is not None and not built[0].background.working


def test_one_panels_long_work_does_not_hold_up_another():
    """Issue 17 item 4, "no tab blocked by another": each panel has its own worker, so while one
    panel's work waits (a long simulated duel, here a gate), another panel's edit is drawn inline."""
    slow, quick = DamagePanel("unbound"), DamagePanel("glass_empires")  # the gate is on the Unbound system
    gate = threading.Event()
    slow_damage(slow, gate)
    try:
        slow.view = "at least"
        assert slow.background.working
        before = quick.value
        quick.view = "at least"
        # drawn (inline or on its own worker), not queued behind the gate, which is still shut
        assert quick.background.wait(10) and not gate.is_set()
        assert not quick.background.working and quick.value is not before
    finally:
        gate.set()
        del slow.system.damage
    assert slow.background.wait(10)
