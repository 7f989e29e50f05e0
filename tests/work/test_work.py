"""workbench/work.py: a counted part of a call's work, its refusal, the decision of a call, and
whether progress is shown; docs/limits.md's table of bounds against workbench/limits.py."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import workbench as wb
from workbench import limits
from workbench.work import Estimate, Work, check, estimate, show_progress

W = Work("compare", 120, 100, "matchup units", "40 rows", ("attackers", "targets"), "confirm=True to run it")


def test_a_part_past_its_bound_is_refused_naming_count_bound_drivers_and_ways():
    assert W.over and W.refused(False) and not W.refused(True)
    with pytest.raises(wb.RulesError) as err:
        check(W, confirm=False)
    assert err.value.field == "budget" and err.value.rule == limits.BUDGET
    assert err.value.message == (
        "compare: 40 rows = 120 matchup units, over the 100 matchup units that run without asking "
        "(driven by attackers, targets); confirm=True to run it"
    )
    assert check(W, confirm=True) is W
    within = Work("compare", 100, 100, "rows", "100 rows", ("targets",), "")
    assert not within.over and check(within, confirm=False) is within


def test_a_hard_part_is_refused_even_when_confirmed():
    hard = Work("explore", 2, 1, "ranks", "2 ranks", ("budget",), "no way on", hard=True)
    assert hard.refused(True)


def test_an_estimate_names_the_first_refused_part():
    ok = Work("compare", 1, 10, "rows", "1 row", ("targets",), "")
    e = Estimate("compare", (ok, W))
    assert e.decision == "refused" and e.count == 120 and e.refusal == W.message()
    assert Estimate("compare", (ok, W), confirm=True).decision == "answer"
    assert Estimate("compare", (ok,)).count is None and Estimate("compare", (ok,)).refusal is None


def test_an_unknown_call_has_no_estimate():
    with pytest.raises(wb.RulesError) as err:
        estimate("damage")
    assert err.value.field == "call"


def test_progress_shows_on_a_terminal_only(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert show_progress(None) is False and show_progress(True) is True and show_progress(False) is False
    monkeypatch.setattr("sys.stderr", Tty())
    assert show_progress(None) is True and show_progress(False) is False


def test_compare_writes_nothing_to_a_captured_stderr(capfd):
    """Output that a test or a program captures never has a progress line in it."""
    wb.compare(["annulus:Ogre", "annulus:Drake"], ["annulus:Wolf", "annulus:Town Guard"])
    out, err = capfd.readouterr()
    assert out == "" and "it/s" not in err and "%|" not in err


def test_the_docs_table_of_bounds_is_the_code():
    text = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text()
    section = text[text.index("## Bounded work") : text.index("## Running the property suite")]
    found = dict(re.findall(r"`(MAX_[A-Z_]+)` = ([\d,]+)", section))
    for name in ("MAX_COMPARE_ROWS", "MAX_MATCHUPS", "MAX_CHAIN_CELLS", "MAX_STATE_ROW_FIGHTS", "MAX_GROUP_ROW_FIGHTS", "MAX_COMBINATIONS",
                 "MAX_EXPLORE_ROWS", "MAX_SIM_FIGHTS", "MAX_FIGHT_ROUNDS", "MAX_TABLE_CELLS", "MAX_SUPPORT"):
        assert int(found[name].replace(",", "")) == getattr(limits, name), name


def test_compare_shows_its_rows_on_a_terminal(monkeypatch):
    """progress=True (or None on a terminal): a bar over the rows on stderr, nothing on stdout."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    frame = wb.compare(["annulus:Ogre", "annulus:Drake"], ["annulus:Wolf", "annulus:Town Guard"], progress=True)
    assert f"compare rows:   0%|          | 0/{frame.height}" in err.getvalue()


def test_ctrl_c_stops_compare_cleanly():
    """A KeyboardInterrupt (Ctrl-C, or a panel's Cancel, raised at a progress check) stops compare
    at its next row: no thread is left behind and the next call gives the answer of a clean run."""
    import threading

    from workbench.arguments import reporting
    from workbench.memo import CALLS

    args = (["last_odyssey:Zombie Hulk", "last_odyssey:Cop"], ["last_odyssey:Troll", "last_odyssey:Wolf"])
    clean = wb.compare(*args, progress=False)
    CALLS.clear()  # (the same call again would answer from its kept frame, with nothing to stop)
    heard = []

    def interrupt(done, total, unit) -> None:
        heard.append((done, total, unit))
        if unit == "rows with state" and done == 1:
            raise KeyboardInterrupt

    threads = threading.active_count()
    with reporting(interrupt), pytest.raises(KeyboardInterrupt):
        wb.compare(*args, progress=False)
    assert "rows with state" in {u for _, _, u in heard} and threading.active_count() == threads
    assert wb.compare(*args, progress=False).equals(clean)
