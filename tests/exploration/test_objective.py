"""explore's objective option (issue 15, item 4; issue 18, item 4: "explore ... takes the objective option
of One fight everywhere"): objective="kill_within_K" ranks builds by P(killed within K rounds), the kill
chain of each build's turn, in a column p_kill_within_K; "damage" is mean turn damage; "rounds" is refused."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.errors import RulesError
from workbench.exploration import explore

A = wb.system("annulus")
C = A.catalog()
TARGETS = [C.creature("Wolf"), C.creature("Ogre")]


def _explore(top_k: int = 5, **kw):
    return explore("annulus", targets=TARGETS, budget=3, top_k=top_k, progress=False, say=False, **kw)


def test_kill_within_k_ranks_by_the_kill_chain_of_the_builds_turn():
    """The best build against the Wolf within 3 Experience by P(killed within 3 rounds) is Agility: Reckless 2;
    compare runs the same stateless fight for that set used by the same neutral attacker (simulate=False, the
    chain with chain=True): its P(killed by round 3) is the row's p_kill_within_3, to the row's rounding."""
    f = _explore(objective="kill_within_3")
    assert "p_kill_within_3" in f.columns
    top = f.filter((pl.col("target") == "Wolf") & (pl.col("rank") == 1)).row(0, named=True)
    assert top["name"] == "Agility: Reckless 2"
    ref = wb.compare([A.Attack("Reckless 2", "agility", {"Reckless": 2})], ["annulus:Wolf"], chain=True,
                     simulate=False, progress=False)
    want = ref.filter(pl.col("attack") == "Reckless 2")["p_killed_by"][0][2]
    assert top["p_kill_within_3"] == pytest.approx(want, abs=1e-12)
    for target in ("Wolf", "Ogre"):  # ranked by it: higher first
        got = f.filter(pl.col("target") == target).sort("rank")["p_kill_within_3"].to_numpy()
        assert np.all(np.diff(got) <= 0)


def test_within_one_round_is_the_one_turn_kill_chance_and_more_rounds_never_less():
    """P(killed within 1) from the chain equals p_kill_one_turn from the turn's tail (two computations), and
    P(killed within K) does not fall as K grows, row by row."""
    one = _explore(by="p_kill_within_1", top_k=50)
    assert one["p_kill_within_1"].to_list() == pytest.approx(one["p_kill_one_turn"].to_list(), abs=1e-12)
    key = ["name", "target"]
    k3 = _explore(by="p_kill_within_3", top_k=50).select(*key, "p_kill_within_3")
    k6 = _explore(by="p_kill_within_6", top_k=50).select(*key, "p_kill_within_6")
    both = k3.join(k6, on=key)
    assert both.height > 10 and (both["p_kill_within_6"] >= both["p_kill_within_3"] - 1e-12).all()


def test_damage_is_mean_turn_damage_and_rounds_is_refused():
    assert _explore(objective="damage")["name"].to_list() == _explore()["name"].to_list()
    with pytest.raises(RulesError) as err:
        _explore(objective="rounds")
    assert err.value.field == "objective" and "kill_within_K" in err.value.message
    with pytest.raises(RulesError) as err:
        _explore(by="p_kill_within_0")
    assert err.value.field == "by"


def test_a_vital_set_can_kill_in_one_turn():
    """Regression: explore's P(kill in one turn) read P(total damage >= Endurance + Vitality), which misses
    Vital damage going straight to Vitality (annulus-attacks.txt, Vital; the two-pool chain). Agility: Vital
    against the Wolf showed 0.0; now it equals compare's p_kill_one_turn for the same set (0.012126...)."""
    f = explore("annulus", targets=[C.creature("Wolf")], budget=2, top_k=200, progress=False, say=False)
    got = f.filter(pl.col("name") == "Agility: Vital")["p_kill_one_turn"][0]
    ref = wb.compare([A.Attack("v", "agility", {"Vital": 1})], ["annulus:Wolf"], simulate=False, progress=False)
    want = ref.filter(pl.col("attack") == "v")["p_kill_one_turn"][0]
    assert want > 0.01 and got == pytest.approx(want, abs=1e-12)
