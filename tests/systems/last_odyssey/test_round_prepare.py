"""The Last Odyssey round builds a level of many fights' tables at once (workbench/systems/last_odyssey/
round.py ``LastOdysseyRound.prepare_turns``, read by workbench/fight/chain.py's walk): a compare's
frame is the same with the hook and without it, and the hook resolves the rows' abilities in far
fewer ``outcome_tables`` calls."""

from __future__ import annotations

from tests.fight.prepared import assert_same_frame, compare_with_and_without
from workbench.systems.last_odyssey.round import LastOdysseyRound
from workbench.systems.last_odyssey.system import LastOdyssey

NAMES = ["Paladin", "Troll", "Wraith", "Gunner", "Skirmisher", "Black Mage"]


def test_the_same_frame_in_fewer_calls(monkeypatch):
    with_hook, calls, without, alone = compare_with_and_without(
        monkeypatch, "last_odyssey", NAMES, LastOdysseyRound, LastOdyssey, "outcome_tables", lambda a: len(a[1])
    )
    assert_same_frame(with_hook, without)
    # the abilities resolved in fewer calls; a level's plans have their tables built for both Shell
    # states up front (as one round's plan does), a few more matchups than the draws alone reach
    assert len(calls) * 2 < len(alone), (len(calls), len(alone))
    assert sum(calls) <= 1.1 * sum(alone), (sum(calls), sum(alone))
