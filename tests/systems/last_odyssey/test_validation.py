"""Last Odyssey model validation: bad inputs raise RulesError naming the field (last-odyssey-
attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.last_odyssey.builders import LO, A, C, O, S
from workbench import RulesError


@pytest.mark.parametrize("build, field", [
    (lambda: C("X", 10, element="Plasma"), "element"),
    (lambda: A("X", element="Plasma"), "element"),
    (lambda: C("X", -3), "hp"),
    (lambda: C("X", 0), "hp"),
    (lambda: A("X", kind="sleight"), "status"),
    (lambda: A("X", kind="punch"), "kind"),
    (lambda: C("X", 10, tier=11), "tier"),
    (lambda: C("X", 10, evasion=1.5), "evasion"),
    (lambda: C("X", 10, shell={"points": -2}), "shell.points"),
    (lambda: C("X", 10, shell={"points": 2, "element": "Aether"}), "shell.element"),
    (lambda: A("X", targets=0), "targets"),
    (lambda: A("X", multiplier=-1), "multiplier"),
    (lambda: A("X", kind="sleight", status="Slowed", nonlethal=True), "nonlethal"),
    (lambda: O(rounding="banker"), "rounding"),
    (lambda: S(target_row="middle"), "target_row"),
    (lambda: C("X", 10, abilities=[{"name": "Bad", "kind": "sleight"}]), "abilities[0].status"),
    (lambda: LO.multi_target_outcomes(A("Solo"), C("U", 5), [C("A", 5), C("B", 5)]), "targets"),
    (lambda: wb.outcomes(A("X"), C("U", 5), C("T", 5), situation=S(target_shell_points=3)), "target_shell_points"),
])
def test_bad_inputs_name_the_field(build, field):
    with pytest.raises(RulesError) as info:
        build()
    assert info.value.field == field
    assert field in str(info.value)
