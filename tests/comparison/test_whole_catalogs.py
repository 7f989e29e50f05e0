"""Every catalog pair of Last Odyssey and Glass Empires: compare's mean rounds and P(kill within 1, 2, 3
rounds) equal rounds_to_kill's for the row's plan (issue 15, "Done when": to 1e-9 where exact,
identically where simulated with the same seed and fights), with the checks of test_one_fight.py.
Measured here: Last Odyssey 5,080 of 5,080 rows exact (the Shell, the MP and the phase abilities
Miasma, Dragonslayer and Foretell Doom chained; before the phase chain 4,691), about 160-250 s;
Glass Empires 3,000 of 3,000 exact (armor points, jams and the Ray Shield chained), about 20 s."""

from __future__ import annotations

import pytest

from tests.comparison.test_one_fight import _catalog, _check_frame, _compare


@pytest.mark.parametrize("system", ["last_odyssey", "glass_empires"])
def test_every_catalog_row_is_rounds_to_kills_fight(system):
    sys, cs, att = _catalog(system)
    frame = _compare(att, cs)
    seen = _check_frame(sys, frame, cs)
    assert seen["exact"] + seen["simulated"] == frame.height > 0
    # Last Odyssey's Shell, MP and phase abilities and Glass Empires' armor points, jams and Ray Shield
    # fit the chain over the state: every row exact
    assert seen["simulated"] == 0
