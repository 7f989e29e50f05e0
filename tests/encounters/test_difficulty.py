"""wb.encounter_difficulty: how many copies of a foe a party beats, checked against a brute-force scan
of wb.encounter over every number of copies."""

from __future__ import annotations

import pytest

import workbench as wb


def test_difficulty_equals_a_scan() -> None:
    cat = wb.system("glass_empires").catalog()
    party = [cat.creature("Wolf"), cat.creature("Boar")]
    foe = cat.creature("Spider Lily")
    got = wb.encounter_difficulty(party, foe, levels=(0.5, 0.9), max_copies=4)
    scan = [wb.encounter(party, [foe] * n).p_a_wins for n in range(1, 5)]
    curve = got.curve["p_party_wins"].to_list()
    assert curve == pytest.approx(scan[: len(curve)], abs=1e-12)
    for level in (0.5, 0.9):
        assert got.copies[level] == max([n for n, p in enumerate(scan, 1) if p >= level], default=0)
    assert all(got.curve["exact"].to_list())
    assert "against copies of Spider Lily" in got.summary()
    with pytest.raises(wb.RulesError, match="levels"):
        wb.encounter_difficulty(party, foe, levels=(1.5,))
