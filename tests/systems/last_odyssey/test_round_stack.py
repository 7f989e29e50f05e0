"""The Last Odyssey round plays a level of many fights in one call (workbench/systems/last_odyssey/
round.py ``LastOdysseyRound.stack``: each row's round read from its ``fight``, each use id naming a
member's own; workbench/fight/chain.py's walk enumerates a level of a compare's fights through it),
phases between rounds included (``PhasedRound.between``: Miasma's Poison, Foretell Doom after the
third Effect Phase, Dragonslayer's anima): a compare's frame is the same with the stack and without
it (each fight's level enumerated alone), in far fewer calls."""

from __future__ import annotations

from tests.fight.prepared import assert_same_frame, compare_with_and_without
from workbench.systems.last_odyssey.round import LastOdysseyRound, PhasedRound

#: three creatures with phase abilities (Miasma, Dragonslayer, Foretell Doom) among others with
#: Shells and MP
NAMES = [
    "Zombie Hulk",
    "Ser Tarbh of Greenhill, Form 1: War Leader",
    "Prophet",
    "Paladin",
    "Troll",
    "Wraith",
    "Black Mage",
]


def test_the_same_frame_in_fewer_turns(monkeypatch):
    stacked, calls, alone, calls_alone = compare_with_and_without(
        monkeypatch, "last_odyssey", NAMES, LastOdysseyRound, LastOdysseyRound, "turn", lambda a: a[1].size, "stack"
    )
    assert_same_frame(stacked, alone)
    assert sum(calls) == sum(calls_alone), (sum(calls), sum(calls_alone))  # (each level's states once)
    assert len(calls) * 3 < len(calls_alone), (len(calls), len(calls_alone))


def test_the_phases_of_many_fights_in_one_call(monkeypatch):
    stacked, calls, alone, calls_alone = compare_with_and_without(
        monkeypatch, "last_odyssey", NAMES, LastOdysseyRound, PhasedRound, "between", lambda a: a[1].size, "stack"
    )
    assert_same_frame(stacked, alone)
    assert calls_alone and len(calls) * 2 < len(calls_alone), (len(calls), len(calls_alone))
