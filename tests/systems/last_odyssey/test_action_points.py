"""Last Odyssey action points by tier, melee rows, plan damage and turn plans (last-odyssey-
attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.last_odyssey.builders import LO, A, C, S, p
from workbench import RulesError
from workbench.systems.last_odyssey import Shell  # noqa: E402


def test_action_points_by_tier():
    """CLARIFICATIONS.md: 2 action points at tiers 1-5, 3 at tiers 6-10."""
    assert [LO.actions_per_turn(C("X", 5, tier=t)) for t in range(1, 11)] == [2] * 5 + [3] * 5


def test_melee_rows():
    """Ability Types, Melee: only from the front row and only against front-row targets."""
    user = C("U", 10, physical_accuracy=5, physical_attack=2)
    t = C("T", 10)
    with pytest.raises(RulesError, match="target_row"):
        wb.outcomes(A("Claw"), user, t, situation=S(target_row="back"))
    with pytest.raises(RulesError, match="attacker_row"):
        wb.outcomes(A("Claw"), user, t, situation=S(attacker_row="back"))
    # a ranged ability reaches the back row; melee reaches it once the front row has fallen
    assert p(wb.outcomes(A("Shot", ability_type="ranged"), user, t, situation=S(target_row="back")), hit=True) > 0
    fallen = S(target_row="back", target_front_row_standing=False)
    assert wb.damage(A("Claw"), user, t, situation=fallen).isclose(wb.damage(A("Claw"), user, t))


def test_plan_damage_and_turn_plans():
    """A turn spends the tier's action points; each ability rolls its own hit die."""
    user = C("U", 10, tier=2, physical_accuracy=10, physical_attack=1,
             abilities=[A("Jab"), A("Heavy", ap_cost=2, multiplier=2.0)])
    t = C("T", 100, shell=Shell(50))
    jab = wb.damage(A("Jab"), user, t)   # uniform 2..11 (1 − 0 + die, ×1 vs Shell)
    assert LO.plan_damage(user, t, ["Jab", "Jab"]).isclose(jab + jab)
    with pytest.raises(RulesError, match="attacks"):
        LO.plan_damage(user, t, ["Jab", "Heavy"])  # 3 AP > 2
    plans = LO.turn_plans(user, t)
    assert set(plans) == {"Jab + Jab", "Heavy"}
    assert plans["Heavy"].mean() == pytest.approx(2 * 6.5, abs=1e-12)
    assert plans["Jab + Jab"].mean() == pytest.approx(13.0, abs=1e-12)
