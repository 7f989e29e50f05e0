"""Last Odyssey sleights: threshold five without automatic hit, the element ladder option, status
immunity and status on hit (last-odyssey-attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.last_odyssey.builders import A, C, O, by_die, p


def test_sleight_threshold_five_and_no_automatic_hit():
    """Sleights: die − Status Accuracy + Resistance <= 5 lands; no automatic hit on a 1."""
    user = C("U", 10, status_accuracy=3)
    target = C("T", 10, resistance=4)
    poison = A("Poison", kind="sleight", status="Poisoned", ability_type="ranged")
    faces = by_die(poison, user, target)
    # die − 3 + 4 <= 5 ⇔ die <= 4
    assert [faces[d][2] for d in range(1, 11)] == [d <= 4 for d in range(1, 11)]
    assert all(faces[d][1] == 0 for d in faces)
    table = wb.outcomes(poison, user, target)
    assert p(table, status=True) == pytest.approx(0.4, abs=1e-12)
    # resistance 20: die − 3 + 20 >= 18 > 5 on every face, a 1 included: never lands
    assert p(wb.outcomes(poison, user, target.replace(resistance=20)), status=True) == 0.0


def test_sleight_element_ladder_option():
    """Options.sleight_elements="ladder": an elemental sleight's threshold follows its element
    multiplier (×0.25 immune, ×0.5 <= 3, ×1 <= 5, ×2 <= 7, ×4 cannot evade); "none" keeps 5."""
    user = C("U", 10, status_accuracy=0)
    ladder = O(sleight_elements="ladder")
    cases = {"Wind": 0.0, "Water": 0.3, "Light": 0.5, "Wood": 0.7, "Ice": 1.0}  # Fire sleight vs these
    burn = A("Burn", kind="sleight", status="Burned", element="Fire", ability_type="ranged")
    for element, expected in cases.items():
        target = C("T", 10, element=element, resistance=0)
        # Fire vs Wind 0.25, Water 0.5, Light 1, Wood 2, Ice 4; die <= threshold with acc 0, res 0
        assert p(wb.outcomes(burn, user, target, ladder), status=True) == pytest.approx(expected, abs=1e-12)
        assert p(wb.outcomes(burn, user, target), status=True) == pytest.approx(0.5, abs=1e-12)


def test_status_immunity_and_status_on_hit():
    """A target immune to a status never gains it; a strike that names a status inflicts it on a hit."""
    user = C("U", 10, status_accuracy=10, physical_accuracy=10, physical_attack=3)
    paladin_like = C("T", 10, immune_statuses=["Taunted"])
    assert p(wb.outcomes(A("Challenge", kind="sleight", status="Taunted"), user, paladin_like), status=True) == 0
    dagger = A("Poison Dagger", status="Poisoned")
    table = wb.outcomes(dagger, user, C("T2", 10))
    assert p(table, status=True) == pytest.approx(1.0) and p(table, status=True, hit=False) == 0
