"""The Last Odyssey round builds a level of many fights' tables at once (workbench/systems/last_odyssey/
round.py ``LastOdysseyRound.prepare_turns``, read by workbench/fight/chain.py's walk): a compare's
frame is the same with the hook and without it, and the hook resolves the rows' abilities in far
fewer ``outcome_tables`` calls."""

from __future__ import annotations

import numpy as np

import workbench as wb
from workbench.memo import MEMO
from workbench.systems.last_odyssey.round import LastOdysseyRound
from workbench.systems.last_odyssey.system import LastOdyssey

NAMES = ["Paladin", "Troll", "Wraith", "Gunner", "Skirmisher", "Black Mage"]


def _compare(monkeypatch, hook: bool):
    """Return (the frame of NAMES against NAMES, the outcome_tables calls it made), the memo cleared."""
    calls = []
    real = LastOdyssey.outcome_tables

    def counted(self, *args, **kwargs):
        calls.append(len(args[0]))
        return real(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(LastOdyssey, "outcome_tables", counted)
        if not hook:
            m.setattr(LastOdysseyRound, "prepare_turns", None)
        cat = wb.system("last_odyssey").catalog()
        cs = [cat.creature(n) for n in NAMES]
        MEMO.clear()
        frame = wb.compare(cs, cs, progress=False, confirm=True)
    return frame, calls


def test_the_same_frame_in_fewer_calls(monkeypatch):
    with_hook, calls = _compare(monkeypatch, hook=True)
    without, alone = _compare(monkeypatch, hook=False)
    assert with_hook.columns == without.columns and with_hook.height == without.height
    for col, dtype in with_hook.schema.items():
        if dtype.is_float():
            np.testing.assert_allclose(
                with_hook[col].to_numpy(), without[col].to_numpy(), rtol=1e-12, atol=1e-12, equal_nan=True
            )
        else:
            assert with_hook[col].to_list() == without[col].to_list(), col
    # the abilities resolved in fewer calls; a level's plans have their tables built for both Shell
    # states up front (as one round's plan does), a few more matchups than the draws alone reach
    assert len(calls) * 2 < len(alone), (len(calls), len(alone))
    assert sum(calls) <= 1.1 * sum(alone), (sum(calls), sum(alone))
