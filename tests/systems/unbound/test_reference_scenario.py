"""The reference scenario (benchmarks/README.md) three ways: the Unbound system, the Foundation benchmark's Dist
build, and icepool (mean per attack, per turn, exact mean rounds-to-kill), all to 1e-12."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import workbench as wb

from tests.oracles import assert_dist_close, from_icepool

_spec = importlib.util.spec_from_file_location(
    "reference", Path(__file__).resolve().parents[3] / "benchmarks" / "reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)


def unbound_attack():
    U = wb.system("unbound")
    cat = U.catalog()
    bruiser = cat.creature("Reference bruiser")
    return U.damage(cat.attack("Reference greatsword"), bruiser, bruiser,
                    U.Options(confirm_crits=False), U.Situation(advantage=True))


def test_unbound_system_matches_the_benchmark_build_and_icepool():
    ours = unbound_attack()
    assert_dist_close(ours, reference.wb_attack())
    assert_dist_close(ours, from_icepool(reference.ice_attack()))
    assert_dist_close(4 @ ours, reference.wb_turn())
    assert abs(ours.mean() - 10.3) < 1e-12  # (0.84 - 0.19) * 10 + 0.19 * 20, worked by hand


def test_reference_mean_rounds_to_kill_matches_icepool_mean_time_to_sum():
    turn = 4 @ unbound_attack()
    exact = float(reference.ice_turn().mean_time_to_sum(reference.HP))
    assert abs(wb.mean_rounds_to_kill(turn, reference.HP) - exact) < 1e-12
    assert abs(reference.wb_rounds() - exact) < 1e-12


def test_reference_rounds_distribution_matches_icepool_time_to_sum():
    turn = 4 @ unbound_attack()
    frame = wb.rounds_to_kill(turn, hp=reference.HP)
    oracle = reference.ice_turn().time_to_sum(reference.HP, max_time=12)
    for t in range(1, 12):
        assert abs(frame["p_killed_at"][t - 1] - float(oracle.probability(t))) < 1e-12

