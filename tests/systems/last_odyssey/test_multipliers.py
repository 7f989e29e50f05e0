"""Last Odyssey damage multipliers: element and ability multipliers, rounding options, immunity,
nonlethal damage, Lean In (last-odyssey-attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.last_odyssey.builders import A, C, O, S, by_die, p
from workbench.systems.last_odyssey import Shell  # noqa: E402


def test_element_multiplier_uses_shell_element_and_rounding_options():
    """Element table (CLARIFICATIONS.md); a Shell's element stands in for the target's; final
    damage rounded half up by default, floor as the option."""
    user = C("U", 10, magical_accuracy=10, magical_attack=4)
    # Water target with a Fire Shell: Fire spell vs the Shell's element Fire ×1, Shell ×2.
    t = C("T", 10, element="Water", magical_defense=0, shell=Shell(10, "Fire"))
    fire = A("Fire", kind="spell", element="Fire")
    assert by_die(fire, user, t)[1][1] == (4 + 1) * 2 * 1
    # Without a Shell, Fire vs Water ×0.5, spell ×1: base 5 → 2.5 → 3 (half up) or 2 (floor)
    bare = t.replace(shell=None)
    assert by_die(fire, user, bare)[1][1] == 3
    assert by_die(fire, user, bare, O(rounding="floor"))[1][1] == 2
    # Wind vs Water ×0.25: base 5 → 1.25 → 1; base 4 (MA 3) → 1.0 → 1; base 2 → 0.5 → 1 half up, 0 floor
    wind = A("Gust", kind="spell", element="Wind")
    weak = user.replace(magical_attack=1)
    assert by_die(wind, user, bare)[1][1] == 1
    assert by_die(wind, weak, bare)[1][1] == 1            # 2 × 0.25 = 0.5 → 1
    assert by_die(wind, weak, bare, O(rounding="floor"))[1][1] == 0   # a 0 stays 0
    assert by_die(wind, weak, bare, O(rounding="floor"))[1][0] is True  # but it hit


def test_ability_multiplier_and_element_immunity():
    """An ability's own multiplier (e.g. Gore ×1.5) multiplies the base; ×0 for an immune element."""
    user = C("U", 10, physical_accuracy=10, physical_attack=3)
    t = C("T", 10, physical_defense=0, shell=Shell(5))
    gore = A("Gore", multiplier=1.5)
    # die 2: base 5 × 1.5 = 7.5 → 8 half up, 7 floor
    assert by_die(gore, user, t)[2][1] == 8 and by_die(gore, user, t, O(rounding="floor"))[2][1] == 7
    ice_proof = C("W", 10, element="Ice", immune_elements=["Ice"], shell=Shell(5, "Ice"))
    assert {v[1] for v in by_die(A("Spike", kind="spell", element="Ice"), user, ice_proof).values()} == {0}


def test_nonlethal_damage_as_if_die_were_one():
    """Nonlethal Attacks: damage as though the die were 1; the hit check uses the real die."""
    user = C("U", 10, physical_accuracy=3, physical_attack=6)
    t = C("T", 10, evasion=3, physical_defense=2)
    faces = by_die(A("Knock", nonlethal=True), user, t)
    # die − 3 + 3 <= 7 ⇔ die <= 7; damage (6 − 2 + 1) × 2 = 10 on each hit
    assert [faces[d][1] for d in range(1, 11)] == [10] * 7 + [0] * 3


def test_lean_in_always_hits():
    """Leaning In: the target may choose to be hit even when the die says miss."""
    user = C("U", 10, physical_accuracy=0, physical_attack=2)
    t = C("T", 10, evasion=10)
    assert p(wb.outcomes(A("X"), user, t, situation=S(lean_in=True)), hit=True) == pytest.approx(1.0)
    assert p(wb.outcomes(A("X"), user, t), hit=True) == pytest.approx(0.1)
