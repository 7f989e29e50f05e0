"""The simulated encounter (the same round descriptions drawn with a seeded Sampler) agrees with the
exact chain within 4 standard errors on small encounters of every ported system; past the counted
bound the encounter is simulated and says why (Annulus's, simulated always: tests/encounters/test_annulus.py)."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.fight import encounter_chain

CASES = [
    ("glass_empires", ("Moon Rabbit", "Wolf"), ("Spider Lily", "Boar"), "focus"),
    ("glass_empires", ("Commoner", "Commoner"), ("Monkey",), "random"),
    ("last_odyssey", ("Ghost", "Cop"), ("Imp", "Wraith"), "spread"),
    ("unbound", ("Town guard",), ("Battle mage", "Crossbow sniper"), "focus"),
]


def _side(system: str, names: tuple[str, ...]) -> list:
    cat = wb.system(system).catalog()
    return [cat.creature(n) for n in names]


@pytest.mark.parametrize("system, a, b, targeting", CASES)
def test_simulation_agrees_with_the_exact_chain(system, a, b, targeting) -> None:
    sa, sb = _side(system, a), _side(system, b)
    exact = wb.encounter(sa, sb, targeting=targeting, first="random", order="alternate")
    fights = 20_000
    sim = wb.encounter(
        sa, sb, targeting=targeting, first="random", order="alternate", simulate=True, fights=fights, seed=7
    )
    assert exact.exact and not sim.exact and sim.fights == fights
    for p, q in [(exact.p_a_wins, sim.p_a_wins), (exact.p_b_wins, sim.p_b_wins)]:
        assert abs(p - q) <= 4 * np.sqrt(max(p * (1 - p), 0.0) / fights) + 1e-9
    for col in ("p_survives", "p_falls_first"):
        for p, q in zip(exact.creatures[col].to_list(), sim.creatures[col].to_list()):
            assert abs(p - q) <= 4 * np.sqrt(max(p * (1 - p), 0.0) / fights) + 1e-9, col
    mean = float((exact.hp_left["hp_left"] * exact.hp_left["probability"]).sum())
    assert np.isfinite(mean)


def test_past_the_bound_the_encounter_is_simulated_and_says_why(monkeypatch) -> None:
    sa, sb = _side("glass_empires", ("Wolf", "Boar")), _side("glass_empires", ("Monkey",))
    monkeypatch.setattr(encounter_chain, "MAX_CELLS", 100)
    got = wb.encounter(sa, sb, fights=2_000)
    assert not got.exact and got.forced_by and "cells" in got.forced_by[0]
    assert "simulated (2,000 fights" in got.summary()
    with pytest.raises(wb.RulesError, match="simulate=False"):
        wb.encounter(sa, sb, simulate=False)


def test_result_summary_and_frame() -> None:
    sa, sb = _side("glass_empires", ("Wolf", "Wolf")), _side("glass_empires", ("Boar",))
    got = wb.encounter(sa, sb)
    assert got.a == ("Wolf", "Wolf #2") and got.b == ("Boar",)
    assert got.summary().startswith("Wolf x2 vs Boar (exact, a acts first, order sides, targeting focus")
    frame = got.frame()
    assert frame["name"].to_list() == ["Wolf", "Wolf #2", "Boar"]
    assert frame["p_side_wins"].to_list() == pytest.approx([got.p_a_wins] * 2 + [got.p_b_wins])
    total = got.p_a_wins + got.p_b_wins + got.p_draw + got.p_unresolved
    assert total == pytest.approx(1.0, abs=1e-12)
    assert float(got.creatures["p_falls_first"].sum()) == pytest.approx(1 - got.p_unresolved, abs=1e-12)
    for s in ("a", "b"):
        assert float(got.survivors.filter(got.survivors["side"] == s)["probability"].sum()) == pytest.approx(1.0)
    with pytest.raises(wb.RulesError, match="targeting"):
        wb.encounter(sa, sb, targeting="weakest")
    with pytest.raises(wb.RulesError, match="order"):
        wb.encounter(sa, sb, order="initiative")


def test_probabilities_read_as_probabilities():
    """A probability summed from many parts stays in [0, 1]: the Drake beside a Wolf against the
    Berserker (4,000 fights, seed 1) survives every fight, and its P(survives) summed over its HP left
    came to 1.0000000000000002 before it was kept in range; it reads 1.0."""
    cat = wb.system("annulus").catalog()
    got = wb.encounter([cat.creature("Drake"), cat.creature("Wolf")], [cat.creature("Berserker")], simulate=True, fights=4_000, seed=1)
    for col in ("p_survives", "p_falls_first"):
        values = got.creatures[col].to_list()
        assert all(0.0 <= v <= 1.0 for v in values), (col, values)
    assert got.creatures["p_survives"][0] == 1.0
    assert 0.0 <= got.p_a_wins <= 1.0 and 0.0 <= got.p_b_wins <= 1.0
