"""One creature per side is exactly a duel (CLARIFICATIONS.md, Encounters: "an encounter of one against
one equals wb.duel"): on a sample of catalog pairs of Glass Empires, Unbound and Last Odyssey, P(a
wins), P(b wins), P(draw), the rounds each side wins in and the winner's HP left agree to 1e-12."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import workbench as wb


def _pairs(system: str, k: int, max_hp: int) -> list[tuple[str, str]]:
    sys_ = wb.system(system)
    names = [n for n, c in sys_.catalog().creatures.items() if sys_.hit_points(c) <= max_hp]
    rng = random.Random(39)
    return [(system, a, b) for a, b in rng.sample(list(itertools.product(names, names)), k)]


PAIRS = _pairs("glass_empires", 6, 60) + _pairs("unbound", 5, 62) + _pairs("last_odyssey", 6, 60)


@pytest.mark.parametrize("system, a, b", PAIRS)
@pytest.mark.parametrize("first", ["a", "random"])
def test_one_against_one_equals_duel(system: str, a: str, b: str, first: str) -> None:
    cat = wb.system(system).catalog()
    A, B = cat.creature(a), cat.creature(b)
    d = wb.duel(A, B, first=first)
    if not d.exact:
        pytest.skip("the duel is simulated")
    e = wb.encounter([A], [B], first=first)
    assert e.exact
    assert abs(e.p_a_wins - d.p_a_wins) < 1e-12
    assert abs(e.p_b_wins - d.p_b_wins) < 1e-12
    assert abs(e.p_draw + e.p_unresolved - d.p_draw) < 1e-12
    for col in ("p_a_wins", "p_b_wins"):
        assert np.abs(e.rounds[col].to_numpy() - d.rounds[col].to_numpy()).max() < 1e-12
    # the winner's HP left: the duel's per side, the encounter's in the fights that side won
    for side, name, outcome in (("a", d.a, "a wins"), ("b", d.b, "b wins")):
        want = d.hp_left.filter(d.hp_left["side"] == name)
        got = e.hp_left.filter((e.hp_left["side"] == side) & (e.hp_left["outcome"] == outcome))
        w = dict(zip(want["hp_left"].to_list(), want["probability"].to_list()))
        g = dict(zip(got["hp_left"].to_list(), got["probability"].to_list()))
        for h in set(w) | set(g):
            assert abs(w.get(h, 0.0) - g.get(h, 0.0)) < 1e-12, (side, h)
