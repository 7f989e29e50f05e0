"""arguments.reporting: long work tells a listener how far it got (a panel's progress line) and
stops when the listener raises (a panel's Cancel)."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.arguments import check_time, reporting


class Stop(BaseException):
    pass


def test_a_simulation_reports_fights_decided_round_by_round():
    cat = wb.system("annulus").catalog()
    heard = []
    with reporting(lambda done, total, unit: heard.append((done, total, unit))):
        wb.duel(cat.creature("Ogre"), cat.creature("Berserker"), fights=5_000, simulate=True)
    assert heard and {t for _, t, _ in heard} == {5_000} and {u for *_, u in heard} == {"fights decided"}
    done = [d for d, _, _ in heard]
    assert done == sorted(done) and 0 <= done[0] <= done[-1] <= 5_000  # fights decided only grow


def test_a_listener_that_raises_stops_the_work_at_its_next_check():
    cat = wb.system("annulus").catalog()
    calls = []

    def listener(done, total, unit):
        calls.append(done)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop), reporting(listener):
        wb.duel(cat.creature("Ogre"), cat.creature("Berserker"), fights=5_000, simulate=True)
    assert len(calls) == 3


def test_outside_a_block_nobody_hears_and_the_listener_is_reset():
    heard = []
    with reporting(lambda *a: heard.append(a)):
        check_time("x", 1, 2, "rows")
    check_time("y", 1, 2, "rows")
    assert heard == [(1, 2, "rows")]
