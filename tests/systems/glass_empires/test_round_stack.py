"""The Glass Empires round plays a level of many fights in one call (workbench/systems/glass_empires/
round.py ``GlassEmpiresRound.stack``: each row's round read from its ``fight``; workbench/fight/
chain.py's walk enumerates a level of a compare's fights through it): a compare's frame is the same
with the stack and without it (each fight's level enumerated alone), and the rows' plan outcomes are
resolved in far fewer ``resolve`` calls."""

from __future__ import annotations

import importlib

import numpy as np

import workbench as wb
from tests.fight.prepared import assert_same_frame, compare_with_and_without
from workbench.systems.glass_empires.round import GlassEmpiresRound

# (the module: the package exports a function of the same name)
resolve_module = importlib.import_module("workbench.systems.glass_empires.resolve")

NAMES = [
    "Boar",
    "Bear",
    "Wolf",
    "Warrior King (Level 10, example)",
    "Plate Soldier (Level 2 human, example)",
    "Leather Longswordsman (Level 4 human, example)",
]


def test_the_same_frame_in_fewer_calls(monkeypatch):
    with_hook, calls, without, alone = compare_with_and_without(
        monkeypatch, "glass_empires", NAMES, GlassEmpiresRound, resolve_module, "resolve", lambda a: len(a[1]), "stack"
    )
    assert_same_frame(with_hook, without)
    # the same outcomes (a state's outcome is kept under its numbers, so none is resolved twice),
    # in fewer calls
    assert len(calls) * 2 < len(alone), (len(calls), len(alone))
    assert sum(calls) <= sum(alone), (sum(calls), sum(alone))


def test_many_outcomes_are_each_matchups_own():
    """``PlanOutcome.many`` of one resolve frame of several matchups (the Bear against targets in
    armor and without) equals each matchup's outcome built from its part of the frame alone (its
    probability summed per distinct row by a polars group-by, its score by Series products): the
    same table and the same score, to the last bit (the damage play compares scores)."""
    from workbench.systems.glass_empires.round import PlanOutcome

    ge = wb.system("glass_empires")
    cat = ge.catalog()
    attacker = cat.creature("Bear")
    targets = [cat.creature(n) for n in NAMES]
    opts = ge.Options()
    n = len(targets)
    sits = [ge.Situation()] * n
    weapon = ge.attacks_of(attacker)[0]
    seg = resolve_module.segment([weapon] * n, [attacker] * n, targets, opts, sits)
    ap0, hp = ge._target_state(targets, sits, opts)
    frame = resolve_module.resolve([seg], np.asarray(ap0), np.asarray(hp), opts)
    parts = frame.partition_by("matchup", as_dict=True, include_key=False)
    many = PlanOutcome.many(frame, n)
    assert len(many) == n
    for j, got in enumerate(many):
        one = _alone(parts[(j,)])
        assert got.score == one.score
        assert got.table.keys() == one.table.keys()
        for c in one.table:
            assert np.array_equal(got.table[c], one.table[c]), c


def _alone(part):
    """The outcome of one matchup's part of a resolve frame, on its own (as each was built before
    ``PlanOutcome.many``)."""
    import polars as pl

    from workbench.systems.glass_empires.round import _COLUMNS, PlanOutcome

    cols = list(_COLUMNS)
    g = part.group_by(cols).agg(pl.col("probability").sum()).sort(cols)
    score = tuple(float((part[c] * part["probability"]).sum()) for c in ("damage", "ap_damage", "shield_breaks"))
    return PlanOutcome({c: g[c].to_numpy() for c in (*cols, "probability")}, score)
