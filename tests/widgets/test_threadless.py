"""The panels where threads cannot start (issue 41, item 2: Pyodide raises "can't start new thread").

With ``threading.Thread.start`` made to raise as it does in Pyodide, every panel's work takes the
thread-less path of :mod:`widgets.workers`: at once when no asyncio loop runs (these tests), on the
loop after the asking handler returns when one runs (the tests at the end, under ``asyncio.run``).
The panel tests' key interactions below are the existing tests of the modules in ``SOURCES``, run
again here in that mode (named ``test_<module>__<test>``); the ones left out (``THREADED``) hold a
worker thread at a gate to see the work in flight, which has no meaning without threads.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from importlib import import_module

import pytest

from tests.widget_toy import TOY
from widgets import workers
from widgets.base import Background, Panel

#: the panel test modules run again without threads
SOURCES = [
    "test_app",
    "test_app_selection",
    "test_damage_panel",
    "test_damage_fight",
    "test_pins",
    "test_duel_panel",
    "test_compare_panel",
    "test_sweep_panel",
    "test_race_panel",
    "test_budget_panel",
    "test_variants_panel",
]
#: tests that stop a worker thread at a gate (a threading.Event) to look at work in flight
THREADED = {
    "test_a_simulated_duel_shows_a_preview_first_then_the_full_run",
    "test_a_long_duel_shows_its_progress_and_cancel_stops_it",
    "test_a_result_finishing_after_an_edit_is_marked_stale_with_what_changed",
    "test_a_cancelled_full_run_leaves_no_badge_saying_it_goes_on",
}

_FIXTURES = {"two", "lo_app"}
for _source in SOURCES:
    _module = importlib.import_module(f"tests.widgets.{_source}")
    for _name, _obj in vars(_module).items():
        if _name.startswith("test_") and callable(_obj) and _name not in THREADED:
            globals()[f"test_{_source[5:]}__{_name[5:]}"] = _obj
        elif _name in _FIXTURES:
            globals()[_name] = _obj

registry = import_module("workbench.systems")


def _no_thread(self, *args, **kwargs):
    raise RuntimeError("can't start new thread")


@pytest.fixture(scope="module", autouse=True)
def no_threads():
    """Make thread start fail for this module, as in Pyodide; the worker queues then go inline."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(threading.Thread, "start", _no_thread)
        workers.reset()
        assert not workers.threads_available()
        yield
    workers.reset()


@pytest.fixture
def toy(monkeypatch):
    """The toy system registered (the duel and fight tests ask for it)."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.widget_toy")
    monkeypatch.setitem(registry._LOADED, "toy", TOY)
    return TOY


@pytest.fixture(autouse=True)
def _compare_toy(request, monkeypatch):
    """The compare tests' own fixture registers the toy for each of them (it is autouse there)."""
    if request.node.name.startswith("test_compare_panel__"):
        monkeypatch.setitem(registry._MODULES, "toy", "tests.widget_toy")
        monkeypatch.setitem(registry._LOADED, "toy", TOY)


def test_the_mode_is_thread_less_and_the_app_builds_every_tab():
    from widgets import Workbench

    with pytest.raises(RuntimeError, match="can't start new thread"):
        threading.Thread(target=lambda: None).start()
    app = Workbench("annulus")
    for tab in ("Duel", "Compare", "Sweep", "Race", "Variants"):
        panel = app.build_tab(tab)
        assert not panel.background.threaded and not panel.background.working
        assert panel.value is not None and panel.errors_shown() == {}
    assert app.damage.fight_background.threaded is False
    assert app.damage.value is not None


def test_no_asyncio_loop_runs_the_work_at_once_with_its_progress(monkeypatch):
    """Thread-less with no loop: run() returns apply's value; the engine's progress checks draw
    the busy line while the work runs, as on a worker."""
    from workbench.arguments import check_time

    monkeypatch.setattr("widgets.base.PROGRESS_EVERY", 0.0)  # every check may draw
    bg = Background(Panel())
    lines = []
    bg.busy.observe(lambda c: lines.append(c["new"]), names="value")

    def work():
        for done in range(0, 101, 50):
            check_time(done=done, total=100, unit="fights decided")
        return 42

    assert bg.run(work, lambda r: r + 1, "fighting...") == 43
    assert any("fighting... 50%" in line and "50 of 100 fights decided" in line for line in lines)
    assert bg.busy.value == "" and not bg.working and bg.wait()


def _on_loop(coroutine_function):
    return asyncio.run(coroutine_function())


def test_on_a_running_loop_the_handler_returns_first_and_the_work_follows():
    bg = Background(Panel())
    applied = []

    async def main():
        assert bg.run(lambda: 7, applied.append, "computing...") is None  # the handler returns at once
        assert bg.working and "computing..." in bg.busy.value
        assert bg.cancel_button.layout.display is None  # Cancel offered while it waits
        await asyncio.sleep(0)
        assert applied == [7] and not bg.working and bg.busy.value == ""
        assert bg.cancel_button.layout.display == "none"
        bg.run(lambda: 8, applied.append)
        assert bg.working and bg.wait()  # wait runs the awaited work now (a constructor needs it)
        assert applied == [7, 8]
        await asyncio.sleep(0)
        assert applied == [7, 8]  # and the loop's turn then finds it done
    _on_loop(main)


def test_on_a_running_loop_a_newer_request_supersedes_and_cancel_keeps_the_last_result():
    bg = Background(Panel())
    ran, applied = [], []

    def job(n):
        def work():
            ran.append(n)
            return n

        return work

    async def main():
        bg.run(job(1), applied.append)
        bg.run(job(2), applied.append)  # before the first started: the first never runs
        await asyncio.sleep(0)
        assert ran == [2] and applied == [2]
        bg.run(job(3), applied.append)
        bg.cancel()  # before it started: it never runs, the last result stays
        assert "cancelled" in bg.busy.value and not bg.working
        await asyncio.sleep(0)
        assert ran == [2] and applied == [2]

    _on_loop(main)


def test_on_a_running_loop_a_panel_edit_redraws_after_the_handler():
    from widgets import DamagePanel

    async def main():
        panel = DamagePanel("annulus")  # its first distribution: on the loop too
        await asyncio.sleep(0)
        first = panel.value
        assert first is not None
        other = panel.target
        panel.target = panel.attacker
        assert panel.value is first and panel.background.working  # the edit returned first
        await asyncio.sleep(0)
        assert not panel.background.working and panel.value is not first
        panel.target = other
        await asyncio.sleep(0)
        assert panel.value == first

    _on_loop(main)


def test_on_a_running_loop_the_app_constructs_as_in_a_jupyterlite_cell():
    """pyodide-kernel runs a cell as a coroutine: Workbench() is built with the loop running, and
    each panel's constructor gets its first result from wait() at once."""
    from widgets import Workbench

    async def main():
        app = Workbench("annulus")
        assert app.damage.value is not None and app.errors_shown() == {}
        duel = app.build_tab("Duel")
        assert duel.value is not None
        await asyncio.sleep(0)
        assert not app.damage.background.working

    _on_loop(main)
