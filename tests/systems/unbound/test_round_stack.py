"""The Unbound round plays a level of many fights in one call (workbench/systems/unbound/round.py
``UnboundRound.stack``: each row's round read from its ``fight``; workbench/fight/chain.py's walk
enumerates a level of a compare's fights through it): a compare's frame is the same with the stack
and without it (each fight's level enumerated alone), in far fewer calls of the turn."""

from __future__ import annotations

import workbench as wb
from tests.fight.prepared import assert_same_frame, compare_with_and_without
from workbench.systems.unbound.round import UnboundRound

#: the whole catalog: its fights with state are the Wild Attacks, shield bashes and braced weapons
NAMES = list(wb.system("unbound").catalog().creatures)


def test_the_same_frame_in_fewer_turns(monkeypatch):
    stacked, calls, alone, calls_alone = compare_with_and_without(
        monkeypatch, "unbound", NAMES, UnboundRound, UnboundRound, "turn", lambda a: a[1].size, "stack"
    )
    assert_same_frame(stacked, alone)
    # the same states played (each level's rows once), in under a third of the calls
    assert sum(calls) == sum(calls_alone), (sum(calls), sum(calls_alone))
    assert len(calls) * 3 < len(calls_alone), (len(calls), len(calls_alone))
