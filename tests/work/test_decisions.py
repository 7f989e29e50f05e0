"""Same call, same answer, on every machine (issue 34, done when): the decision of each public call
below (an answer, or a refusal with its count) is computed before its work by
``workbench.work.estimate``, is the decision the call itself takes, and is the same on an idle
machine, beside CPU-burning processes, and under a clock that jumps an hour at every reading. No
time is asserted anywhere: the counts decide."""

from __future__ import annotations

import time

import numpy as np
import pytest

import workbench as wb
from workbench.work import estimate

from tests.busy import busy

A, U, L, G = (wb.system(n) for n in ("annulus", "unbound", "last_odyssey", "glass_empires"))


def _annulus_creatures(n: int, seed: int = 1) -> list:
    """The 500 creatures of benchmarks/bench_compare.py (the 50 x 500 grid of issue 34)."""
    rng = np.random.default_rng(seed)
    return [
        A.Creature(
            f"C{i}",
            size=int(rng.integers(3, 8)),
            level=int(rng.integers(1, 10)),
            endurance=int(rng.integers(2, 30)),
            agility=int(rng.integers(0, 4)),
            toughness=int(rng.integers(0, 4)),
            insight=int(rng.integers(0, 4)),
            awareness=str(rng.choice(["alert", "alert", "suspicious", "clueless"])),
        )
        for i in range(n)
    ]


def _grid_50_x_500() -> tuple[list, list]:
    from workbench.systems.annulus import annulus_builds

    targets = _annulus_creatures(500)
    builds, _ = annulus_builds(4, targets)
    rng = np.random.default_rng(2)
    return [builds["build"][int(i)] for i in rng.choice(builds.height, 50, replace=False)], targets


def _calls() -> dict[str, tuple]:
    """Return name -> (call, args, kwargs): the README's and docs' examples, the cases of issue 34."""
    cat = {n: list(wb.system(n).catalog().creatures.values()) for n in ("annulus", "last_odyssey", "glass_empires")}
    lo = L.catalog().creatures
    attackers, targets = _grid_50_x_500()
    return {
        # README.md, "Compare, explore, duel" (and `workbench compare annulus -a Ogre Drake -t Wolf "Town Guard"`)
        "readme compare": ("compare", (["annulus:Ogre", "annulus:Drake"], ["annulus:Wolf", "annulus:Town Guard"]), {}),
        "readme explore": ("explore", ("annulus",), dict(targets=["annulus:Wolf"], budget=3, top_k=5)),
        "readme sweep": (
            "sweep",
            (["unbound:Town guard"], "unbound:Veteran duelist", "ac", range(10, 31, 5)),
            {},
        ),
        "readme duel": ("duel", (A.catalog().creature("Ogre"), A.catalog().creature("Drake")), {}),
        # docs/cli.md's compares and docs/compare.md's
        "cli compare annulus": ("compare", (["annulus:Wolf", "annulus:Town Guard"], ["annulus:Rat", "annulus:Wolf"]), {}),
        "cli compare annulus catalog": ("compare", (["annulus:Wolf"], cat["annulus"]), {}),
        "cli compare glass_empires": ("compare", (cat["glass_empires"], ["glass_empires:Porcelain Doll"]), {}),
        "cli compare last_odyssey": ("compare", (["last_odyssey:Cop"], cat["last_odyssey"]), {}),
        "cli compare unbound": ("compare", (["unbound:Town guard"], ["unbound:Veteran duelist"]), {}),
        "docs compare": ("compare", (["annulus:Wolf", "annulus:Ogre"], ["annulus:Rat", "annulus:Hill Giant"]), {}),
        "docs explore budget 5": ("explore", ("annulus",), dict(targets=["annulus:Wolf", "annulus:Ogre"], budget=5)),
        # issue 34's cases
        "6 x 3 compare": ("compare", (cat["annulus"][:6], cat["annulus"][:3]), {}),
        "Imp vs Ser Tarbh": ("duel", (lo["Imp"], lo["Ser Tarbh of Greenhill, Form 1: War Leader"]), {}),
        "50 x 500 compare": ("compare", (attackers, targets), dict(chain=True)),
        "50 x 500 compare, state ignored": ("compare", (attackers, targets), dict(chain=True, simulate=False)),
        "explore budget 5": ("explore", ("annulus",), dict(targets=["annulus:Wolf"], budget=5)),
        "explore budget 12": ("explore", ("annulus",), dict(targets=["annulus:Wolf"], budget=12)),
        "duel, 10,000,000 fights": ("duel", (A.catalog().creature("Ogre"), A.catalog().creature("Drake")), dict(fights=10_000_000)),
        "rounds_to_kill, 10,000,000 fights, confirmed": (
            "rounds_to_kill",
            (A.catalog().creature("Ogre"), A.catalog().creature("Drake")),
            dict(fights=10_000_000, confirm=True),
        ),
    }


#: the decisions, fixed: what each call above answers (None) or the count its refusal names
EXPECTED = {
    "readme compare": None,
    "readme explore": None,
    "readme sweep": None,
    "readme duel": None,
    "cli compare annulus": None,
    "cli compare annulus catalog": None,
    "cli compare glass_empires": None,
    "cli compare last_odyssey": None,
    "cli compare unbound": None,
    "docs compare": None,
    "docs explore budget 5": None,
    "6 x 3 compare": None,
    "Imp vs Ser Tarbh": None,
    "50 x 500 compare": "row-fights",
    "50 x 500 compare, state ignored": None,
    "explore budget 5": None,
    "explore budget 12": "upgrade combinations",
    "duel, 10,000,000 fights": "simulated fights",
    "rounds_to_kill, 10,000,000 fights, confirmed": None,
}


def _decisions() -> dict[str, tuple]:
    """Return name -> (decision, unit of the refused part or None, its count or None, its message)."""
    out = {}
    for name, (call, args, kwargs) in _calls().items():
        e = estimate(call, *args, **kwargs)
        w = e.refused_work
        out[name] = (e.decision, None if w is None else w.unit, e.count, e.refusal)
    return out


@pytest.fixture(scope="module")
def idle() -> dict[str, tuple]:
    return _decisions()


def test_each_call_is_answered_or_refused_as_counted(idle):
    assert set(idle) == set(EXPECTED)
    for name, unit in EXPECTED.items():
        decision, refused_unit, count, message = idle[name]
        assert decision == ("answer" if unit is None else "refused"), (name, message)
        assert refused_unit == unit, name
        if unit is not None:
            assert f"{count:,} {unit}" in message and "confirm=True" in message, message
    # the counts of the refusals, from the sizes alone
    assert idle["explore budget 12"][2] == 10_863_360
    assert idle["duel, 10,000,000 fights"][2] == 10_000_000
    rows_with_state = idle["50 x 500 compare"][2] // 2000
    assert idle["50 x 500 compare"][2] == rows_with_state * 2000 and 0 < rows_with_state <= 25_000


def test_a_refusal_is_the_one_the_estimate_names(idle):
    """The calls refuse exactly as estimated: the same RulesError message, before their work."""
    calls = _calls()
    for name in ("50 x 500 compare", "explore budget 12", "duel, 10,000,000 fights"):
        call, args, kwargs = calls[name]
        with pytest.raises(wb.RulesError) as err:
            getattr(wb, call)(*args, progress=False, **kwargs)
        assert err.value.field == "budget"
        assert err.value.message == idle[name][3]


def test_small_calls_answer_as_estimated():
    calls = _calls()
    for name in ("readme compare", "6 x 3 compare", "Imp vs Ser Tarbh", "explore budget 5", "cli compare unbound"):
        call, args, kwargs = calls[name]
        got = getattr(wb, call)(*args, **kwargs)
        assert got is not None


def test_the_decisions_are_the_same_beside_busy_processes(idle):
    """Beside 2 CPU-burning processes (as many as this machine's cores are often shared with), the
    same decisions and counts; each burner ends by itself after 300 s at the latest."""
    with busy(2, 300.0) as procs:
        assert all(p.poll() is None for p in procs)  # they burn while the decisions are taken
        loaded = _decisions()
    assert all(p.poll() is not None for p in procs)  # and none outlives the block
    assert loaded == idle


def test_the_decisions_do_not_read_the_clock(idle, monkeypatch):
    """A clock that jumps an hour at every reading (the slowest machine there is) changes nothing."""
    ticks = [0.0]

    def hour() -> float:
        ticks[0] += 3600.0
        return ticks[0]

    monkeypatch.setattr(time, "perf_counter", hour)
    monkeypatch.setattr(time, "monotonic", hour)
    monkeypatch.setattr(time, "time", hour)
    assert _decisions() == idle
