"""The duel chain's shortcuts (workbench/fight/duel.py) change no number: a step's plan and its cells
near a fall kept while the pairs alive stay the same give the duel of plans built afresh every step,
to the bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import workbench as wb
from workbench.fight import duel as duel_module


def test_plans_kept_change_no_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hill Giant against Ogre (Annulus: cells near a fall, rows shifted by a product and one by one):
    the same numbers with every plan built afresh."""
    system = wb.system("annulus")
    catalog = system.catalog()
    a, b = catalog.creature("Hill Giant"), catalog.creature("Ogre")
    kept = duel_module.duel_of(system, a, b)
    act = duel_module._Duel.act

    def afresh(self: duel_module._Duel, *args: Any) -> Any:
        self.plans.clear()
        self.near.clear()
        return act(self, *args)

    monkeypatch.setattr(duel_module._Duel, "act", afresh)
    fresh = duel_module.duel_of(system, a, b)
    assert kept is not None and fresh is not None
    for name in ("win_a", "win_b", "left_a", "left_b"):
        assert np.array_equal(getattr(kept, name), getattr(fresh, name)), name
