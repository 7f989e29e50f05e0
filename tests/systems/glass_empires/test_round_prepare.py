"""The Glass Empires round builds a level of many fights' plan tables at once (workbench/systems/
glass_empires/round.py ``GlassEmpiresRound.prepare_turns``, read by workbench/fight/chain.py's walk):
a compare's frame is the same with the hook and without it, and the rows' plan outcomes are resolved
in far fewer ``resolve`` calls."""

from __future__ import annotations

import importlib

import numpy as np

import workbench as wb
from workbench.memo import MEMO
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


def _compare(monkeypatch, hook: bool):
    """Return (the frame of NAMES against NAMES, the matchups of each resolve call), memo cleared."""
    calls = []
    real = resolve_module.resolve

    def counted(segments, ap0, hp, options):
        calls.append(len(ap0))
        return real(segments, ap0, hp, options)

    with monkeypatch.context() as m:
        m.setattr(resolve_module, "resolve", counted)
        if not hook:
            m.setattr(GlassEmpiresRound, "prepare_turns", None)
        cat = wb.system("glass_empires").catalog()
        cs = [cat.creature(n) for n in NAMES]
        MEMO.clear()
        frame = wb.compare(cs, cs, progress=False, confirm=True)
    return frame, calls


def test_the_same_frame_in_fewer_calls(monkeypatch):
    with_hook, calls = _compare(monkeypatch, hook=True)
    without, alone = _compare(monkeypatch, hook=False)
    assert with_hook.columns == without.columns and with_hook.height == without.height
    for col, dtype in with_hook.schema.items():
        if dtype.is_float():
            np.testing.assert_allclose(
                with_hook[col].to_numpy(), without[col].to_numpy(), rtol=1e-12, atol=1e-12, equal_nan=True
            )
        else:
            assert with_hook[col].to_list() == without[col].to_list(), col
    # the same outcomes (a state's outcome is kept under its numbers, so none is resolved twice),
    # in fewer calls
    assert len(calls) * 2 < len(alone), (len(calls), len(alone))
    assert sum(calls) <= sum(alone), (sum(calls), sum(alone))


def test_many_outcomes_are_each_matchups_own():
    """``PlanOutcome.many`` of one resolve frame of several matchups (the Bear against targets in
    armor and without) equals ``PlanOutcome.of`` of each matchup's
    part: the same table and the same score, to the last bit (the damage play compares scores)."""
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
        one = PlanOutcome.of(parts[(j,)])
        assert got.score == one.score
        assert got.table.keys() == one.table.keys()
        for c in one.table:
            assert np.array_equal(got.table[c], one.table[c]), c
