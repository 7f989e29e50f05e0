"""Hostile and careless arguments to the engine's entry points over models (issue 21).

Generated VALID models of the four systems (creatures, attacks, options, situations: the generators
of tests/hostile/test_input.py, a valid keyword set with up to four fields replaced, keeping the
models that construct) meet odd arguments (``max_rounds``, ``fights``, ``seed``, ``first``,
``plan``, ``hp``, ``simulate``, ``progress`` of wrong types or sizes). Every call must raise
RulesError or return a valid result (probabilities finite, in [0, 1], summing to 1 within 1e-9;
frames with the documented columns), within 2 GB of peak memory growth (tests/bounds.py). No
time is asserted (issue 34): each call's work is counted and bounded before it starts.

``EXAMPLES`` examples per (entry point, system): 2,000 under the "ci" profile (what CI runs), 250
under the default "dev" profile (a quick local run), 10,000 under ``HYPOTHESIS_PROFILE=long``, or
``ENTRY_EXAMPLES=N`` for any other count (docs/limits.md, Running the property suite). Below the
properties, one regression test per finding.
"""

from __future__ import annotations

import functools
import math
import os

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import workbench as wb
from tests.bounds import assert_bounded, measure
from tests.hostile.test_input import HUGE, ODD, model_kwargs
from workbench import Dist, limits
from workbench.comparison import COLUMNS
from workbench.errors import RulesError

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
EXAMPLES = int(os.environ.get("ENTRY_EXAMPLES") or {"long": 10_000, "ci": 2_000}.get(PROFILE, 250))
ENTRY = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=PROFILE != "long",
                 phases=[Phase.explicit, Phase.generate] + ([] if os.environ.get("ENTRY_NO_SHRINK") else [Phase.shrink]), suppress_health_check=list(HealthCheck))
SYSTEMS = wb.systems()
TOL = 1e-9

# --------------------------------------------------------------------------- checking one call
def report(entry: str, seen: dict) -> None:
    """Assert an entry point ran its examples; append the counts to ``$HOSTILE_REPORT`` if set (the
    format of tests/hostile/test_input.py)."""
    total = sum(seen.values())
    assert total >= EXAMPLES, f"{entry}: only {total} of {EXAMPLES} examples ran"
    if os.environ.get("HOSTILE_REPORT"):
        with open(os.environ["HOSTILE_REPORT"], "a") as fh:
            fh.write(f"{entry}\t{total}\t" + "\t".join(f"{k}={v}" for k, v in seen.items()) + "\n")



def outcome(call):
    """Return the result of ``call()`` or its RulesError; any other exception, or a call over
    2 GB of peak memory growth (tests/bounds.py), fails the test."""
    m = measure(call, RulesError)
    if m.error is not None:
        assert m.error.message, "a RulesError says what is wrong"
    assert_bounded(m)
    return m.error if m.error is not None else m.result


def probabilities(values, what: str) -> np.ndarray:
    """Assert ``values`` are finite probabilities in [0, 1] (within TOL); return them."""
    p = np.asarray(values, dtype=np.float64)
    assert np.all(np.isfinite(p)), f"{what}: not finite"
    assert np.all(p >= -TOL) and np.all(p <= 1 + TOL), f"{what}: outside [0, 1]: {p.min()}..{p.max()}"
    return p


def valid_dist(d) -> None:
    assert isinstance(d, Dist)
    p = probabilities(d.pmf, "pmf")
    assert abs(p.sum() - 1.0) <= TOL


def valid_rounds_frame(f) -> None:
    assert isinstance(f, pl.DataFrame)
    assert f.columns == ["round", "p_killed_at", "p_killed_by", "exact", "fights", "standard_error"]
    assert f.height >= 1
    by = probabilities(f["p_killed_by"].to_numpy(), "p_killed_by")
    probabilities(f["p_killed_at"].to_numpy(), "p_killed_at")
    assert np.all(np.diff(by) >= -TOL)
    assert f["round"].to_list() == list(range(1, f.height + 1))


def valid_duel(r) -> None:
    assert isinstance(r, wb.DuelResult)
    p = probabilities([r.p_a_wins, r.p_b_wins, r.p_draw], "duel")
    assert abs(p.sum() - 1.0) <= TOL
    assert r.rounds.columns == ["round", "p_a_wins", "p_b_wins"] and r.rounds.height == r.max_rounds
    probabilities(r.rounds["p_a_wins"].to_numpy(), "p_a_wins")
    probabilities(r.rounds["p_b_wins"].to_numpy(), "p_b_wins")
    assert r.hp_left.columns == ["side", "hp_left", "probability"]
    left = probabilities(r.hp_left["probability"].to_numpy(), "hp_left")
    assert left.sum() <= p[0] + p[1] + TOL


def valid_compare(f, chain: bool = False) -> None:
    assert isinstance(f, pl.DataFrame)
    assert f.columns == COLUMNS + (["p_killed_by"] if chain else [])
    for c in ("p_any_damage", "p_kill_one_turn"):
        probabilities(f[c].drop_nulls().to_numpy(), c)
    assert np.all(f["target_hp"].to_numpy() >= 1)


EXPLORE_TAIL = ["target", "target_hp", "mean_damage", "p_any_damage", "mean_turn_damage", "p_kill_one_turn",
                "rank", "pareto", "method", "se", "p_unresolved", "forced_by", "state_ignored"]


def valid_explore(f) -> None:
    assert isinstance(f, pl.DataFrame)
    tail = [c for c in f.columns if c in EXPLORE_TAIL]
    assert tail == EXPLORE_TAIL, f.columns
    for c in ("p_any_damage", "p_kill_one_turn"):
        probabilities(f[c].to_numpy(), c)
    assert f["rank"].min() >= 1
    # one turn, exact, no fight: nothing simulated, no round limit; state_ignored iff forced_by
    assert f["method"].to_list() == ["exact, one turn"] * f.height
    assert f["se"].null_count() == f["p_unresolved"].null_count() == f.height
    assert (f["state_ignored"] == (f["forced_by"] != "")).all()


# --------------------------------------------------------------------------- strategies
def _model_or_none(cls):
    def make(kwargs):
        try:
            return cls.from_dict(kwargs)
        except RulesError:
            return None
    return make


#: distinct generated valid models per (system, kind) in the pool the entry points draw from
POOL = int(os.environ.get("ENTRY_POOL") or max(300, EXAMPLES // 5))


@functools.cache
def model_pool(system: str, kind: str) -> tuple:
    """Return up to POOL distinct valid models of ``system``'s ``kind``, generated once per run by
    the constructor suite's keyword sets (tests/hostile/test_input.py ``model_kwargs``) and kept
    when they construct.

    Drawing a model afresh for every example cost about 70 % of this file's time (five hypothesis
    model draws per example, most refused); the entry points' own arguments are still drawn per
    example, and the pool is as wide as the constructor suite makes it (derandomised in CI).
    """
    cls = getattr(wb.system(system), kind)
    make = _model_or_none(cls)
    found: dict[str, object] = {}

    @settings(ENTRY, max_examples=3 * POOL, phases=[Phase.generate])
    @given(kwargs=model_kwargs(system, kind, cls))
    def collect(kwargs):
        model = make(kwargs) if len(found) < POOL else None
        if model is not None:
            found.setdefault(repr(model), model)

    collect()
    assert found, f"no valid {system} {kind} generated"
    return tuple(found.values())


def valid_models(system: str, kind: str):
    """Strategy: valid models of ``system``'s ``kind``: the catalog's and the generated pool."""
    cls = getattr(wb.system(system), kind)
    cat = wb.system(system).catalog()
    known = list(cat.creatures.values()) if kind == "Creature" else \
        list(cat.attacks.values()) if kind == "Attack" else [cls()]
    return st.one_of(st.sampled_from(known), st.sampled_from(model_pool(system, kind)))


#: odd values of any argument: hostile scalars and objects (never an unbounded plain int)
WRONG = st.one_of(HUGE, ODD, st.sampled_from([None, True, False, -1, 0, "3", "a", "", 2.5, np.int64(3),
                                              np.float64(2.0), np.array([1, 2]), [1], {"a": 1}]))
#: an argument left out (its default), a plausible value or an odd one
DEFAULT = object()


def arg(*good):
    """Strategy: left out (2 in 7), a listed value (4 in 7) or an odd one (1 in 7), so that an
    example with several arguments is often wholly valid."""
    branches = {"default": st.just(DEFAULT), "listed": st.sampled_from(list(good)), "wrong": WRONG}
    return st.sampled_from(["default"] * 2 + ["listed"] * 4 + ["wrong"]).flatmap(branches.__getitem__)


MAX_ROUNDS = arg(1, 2, 5, 20, 100, limits.MAX_ROUNDS + 1)
FIGHTS = arg(1, 10, 200, 500, limits.MAX_FIGHTS + 1)
SEED = arg(0, 1, 7, 2**31, -1, 2**200)
FIRST = arg("a", "b", "random", "A", "c")
SIMULATE = arg(None, True, False)
PROGRESS = arg(None, False)
HP = arg(1, 3, 20, 150, limits.MAX_HP, limits.MAX_HP + 1, 10**6)


def kwargs_of(**kw) -> dict:
    return {k: v for k, v in kw.items() if v is not DEFAULT}


@st.composite
def matchups(draw, system: str):
    """(attacker, target, attack, options, situation) of ``system``: valid models, and sometimes
    the attack of the attacker itself."""
    a = draw(valid_models(system, "Creature"))
    b = draw(valid_models(system, "Creature"))
    own = wb.system(system).attacks_of(a)
    atk = draw(st.sampled_from(own)) if own and draw(st.booleans()) else draw(valid_models(system, "Attack"))
    return a, b, atk, draw(valid_models(system, "Options")), draw(valid_models(system, "Situation"))


def plans(attacker, attack):
    """Strategy: a ``plan`` argument: default, a list of attacks or names, or an odd value."""
    names = [attack, getattr(attack, "name", "x")] + wb.system_of(attacker).attacks_of(attacker)[:2]
    return st.one_of(st.just(DEFAULT), st.just(None), st.lists(st.sampled_from(names), min_size=1, max_size=3),
                     st.sampled_from(["Bite", "no such plan", lambda d: next(iter(d)), lambda d: Dist.die(4),
                                      lambda d: 3]), WRONG)


def small_dists():
    return st.one_of(st.builds(lambda lo, n: Dist.uniform(lo, lo + n), st.integers(0, 6), st.integers(0, 12)),
                     st.sampled_from([Dist.constant(0), Dist.die(6), Dist.bernoulli(0.01), Dist.uniform(-2, 3)]))


def run_property(name: str, strategy, check) -> None:
    """Run ``check(example)`` over ``strategy``; count valid and refused results; report them."""
    seen = {"valid": 0, "refused": 0}

    @ENTRY
    @given(example=strategy)
    def run(example):
        result = check(example)
        seen["refused" if isinstance(result, RulesError) else "valid"] += 1

    run()
    report(name, seen)


# --------------------------------------------------------------------------- one use and one turn
@pytest.mark.parametrize("system", SYSTEMS)
def test_outcomes_and_damage(system):
    def check(m):
        a, b, atk, o, s = m
        table = outcome(lambda: wb.outcomes(atk, a, b, o, s))
        if not isinstance(table, RulesError):
            assert {"probability", "damage"} <= set(table.columns)
            p = probabilities(table["probability"].to_numpy(), "outcomes")
            assert abs(p.sum() - 1.0) <= TOL
        d = outcome(lambda: wb.damage(atk, a, b, o, s))
        if not isinstance(d, RulesError):
            valid_dist(d)
            assert not isinstance(table, RulesError)
            assert abs(d.mean() - float((table["probability"] * table["damage"]).sum())) <= 1e-9 * max(1, d.mean())
        return d

    run_property(f"outcomes+damage.{system}", matchups(system), check)


@pytest.mark.parametrize("system", SYSTEMS)
def test_turn_plans_and_turn_damage(system):
    @st.composite
    def examples(draw):
        m = draw(matchups(system))
        return m, draw(plans(m[0], m[2]))

    def check(example):
        (a, b, atk, o, s), plan = example
        got = outcome(lambda: wb.turn_plans(a, b, o, s))
        if not isinstance(got, RulesError):
            assert isinstance(got, dict) and got
            for label, d in got.items():
                assert isinstance(label, str)
                valid_dist(d)
        d = outcome(lambda: wb.turn_damage(a, b, o, s, **kwargs_of(plan=plan)))
        if not isinstance(d, RulesError):
            valid_dist(d)
        return d

    run_property(f"turn_plans+turn_damage.{system}", examples(), check)


# --------------------------------------------------------------------------- rounds to kill
@pytest.mark.parametrize("system", SYSTEMS)
def test_rounds_to_kill_of_creatures(system):
    @st.composite
    def examples(draw):
        m = draw(matchups(system))
        return m, kwargs_of(plan=draw(plans(m[0], m[2])), max_rounds=draw(MAX_ROUNDS), fights=draw(FIGHTS),
                            seed=draw(SEED), simulate=draw(SIMULATE), progress=draw(PROGRESS),
                            hp=draw(st.one_of(st.just(DEFAULT), HP)))

    def check(example):
        (a, b, _, o, s), kw = example
        kw.setdefault("fights", 500)  # the default 100,000 fights is a speed claim, not a hostile input
        kw.setdefault("progress", False)
        f = outcome(lambda: wb.rounds_to_kill(a, b, options=o, situation=s, **kw))
        if not isinstance(f, RulesError):
            valid_rounds_frame(f)
        return f

    run_property(f"rounds_to_kill.{system}", examples(), check)


def test_rounds_to_kill_and_mean_of_a_turn():
    ex = st.tuples(small_dists(), st.one_of(HP, st.lists(st.integers(1, 50), min_size=1, max_size=4)),
                   MAX_ROUNDS)

    def check(example):
        turn, hp, max_rounds = example
        f = outcome(lambda: wb.rounds_to_kill(turn, **kwargs_of(hp=hp, max_rounds=max_rounds)))
        if not isinstance(f, RulesError):
            valid_rounds_frame(f)
        m = outcome(lambda: wb.mean_rounds_to_kill(turn, None if hp is DEFAULT else hp))
        if not isinstance(m, RulesError):
            mm = np.atleast_1d(np.asarray(m, dtype=np.float64))
            assert np.all(np.isfinite(mm)) and np.all(mm >= 1 - TOL)
        return f

    run_property("rounds_to_kill(turn)+mean_rounds_to_kill", ex, check)


# --------------------------------------------------------------------------- duels
@pytest.mark.parametrize("system", SYSTEMS)
def test_duel_of_creatures(system):
    @st.composite
    def examples(draw):
        m = draw(matchups(system))
        return m, kwargs_of(first=draw(FIRST), max_rounds=draw(MAX_ROUNDS), fights=draw(FIGHTS), seed=draw(SEED),
                            simulate=draw(SIMULATE), progress=draw(PROGRESS), plan_a=draw(plans(m[0], m[2])))

    def check(example):
        (a, b, _, o, s), kw = example
        kw.setdefault("fights", 500)
        kw.setdefault("progress", False)
        r = outcome(lambda: wb.duel(a, b, o, s, **kw))
        if not isinstance(r, RulesError):
            valid_duel(r)
        return r

    run_property(f"duel.{system}", examples(), check)


def test_duel_of_two_dists():
    ex = st.tuples(small_dists(), small_dists(), HP, HP, FIRST, MAX_ROUNDS)

    def check(example):
        a, b, hp_a, hp_b, first, max_rounds = example
        r = outcome(lambda: wb.duel(a, b, **kwargs_of(hp_a=hp_a, hp_b=hp_b, first=first, max_rounds=max_rounds)))
        if not isinstance(r, RulesError):
            valid_duel(r)
        return r

    run_property("duel(Dist, Dist)", ex, check)


# --------------------------------------------------------------------------- compare and its helpers
@pytest.mark.parametrize("system", SYSTEMS)
def test_compare_rank_pivot_export(system, tmp_path_factory):
    folder = tmp_path_factory.mktemp("entry_export")
    creature, attack = valid_models(system, "Creature"), valid_models(system, "Attack")
    ex = st.tuples(st.lists(st.one_of(creature, attack), min_size=1, max_size=3), st.lists(creature, min_size=1,
                   max_size=3), valid_models(system, "Options"), valid_models(system, "Situation"), MAX_ROUNDS,
                   arg(None, True, False), arg(False, True), PROGRESS,
                   st.sampled_from(["mean_rounds", "p_kill_one_turn", "nope", 3, None]),
                   st.sampled_from(["target", None, ["attacker", "target"], "nope", 3]),
                   st.sampled_from(["x.csv", "x.parquet", "x.txt", "", 3, None]))

    def check(example):
        att, tgt, o, s, max_rounds, best_plan, chain, progress, by, per, path = example
        kw = kwargs_of(max_rounds=max_rounds, best_plan=best_plan, chain=chain, progress=progress)
        kw.setdefault("progress", False)
        f = outcome(lambda: wb.compare(att, tgt, options=o, situation=s, **kw))
        if isinstance(f, RulesError):
            return f
        valid_compare(f, chain=kw.get("chain") is True)
        r = outcome(lambda: wb.rank(f, by=by, per=per))
        if not isinstance(r, RulesError):
            ranks = r["rank"].drop_nulls()
            assert r.height == f.height and (ranks.len() == 0 or ranks.min() >= 1)
        p = outcome(lambda: wb.pivot(f, value=by if isinstance(by, str) else "mean_rounds"))
        if not isinstance(p, RulesError):
            assert (p.height >= 1) == (f.height >= 1)  # an empty grid (nothing usable) pivots to nothing
        e = outcome(lambda: wb.export(f, folder / path if isinstance(path, str) else path))
        if not isinstance(e, RulesError):
            assert e.exists()
        return f

    run_property(f"compare+rank+pivot+export.{system}", ex, check)


# --------------------------------------------------------------------------- explore
def test_explore_budget_and_vary():
    annulus = wb.system("annulus")
    targets = list(annulus.catalog().creatures.values())

    @st.composite
    def examples(draw):
        kind = draw(st.sampled_from(["budget", "vary"]))
        system = draw(st.sampled_from(SYSTEMS))
        tg = draw(st.lists(valid_models(system, "Creature"), min_size=1, max_size=2)) if kind == "vary" else \
            draw(st.lists(st.sampled_from(targets), min_size=1, max_size=2))
        kw = kwargs_of(top_k=draw(arg(1, 3, 10)), chunk_size=draw(arg(50, 2000)), progress=draw(PROGRESS),
                       by=draw(arg("mean_damage", "p_kill_one_turn")), confirm=draw(arg(False)))
        if kind == "budget":
            kw["budget"] = draw(arg(1, 2, 3, 4, 40, 10**9))
            return "annulus", tg, kw
        base = draw(valid_models(system, "Creature"))
        field = {"annulus": "level", "unbound": "hp", "last_odyssey": "hp", "glass_empires": "power"}[system]
        values = draw(st.sampled_from(["listed"] * 5 + ["huge", "wrong"]).flatmap(
            {"listed": st.lists(st.integers(-2, 30), min_size=1, max_size=4), "huge": st.just(range(10**9)),
             "wrong": WRONG}.__getitem__))
        kw.update(base=base, vary=draw(arg({field: values})))
        own = wb.system(system).attacks_of(base)
        if own:
            kw["attack"] = own[0]
        return system, tg, kw

    def check(example):
        system, tg, kw = example
        kw.setdefault("progress", False)
        if kw.get("confirm") is True and "budget" in kw:
            kw["confirm"] = False  # consent to long work (a budget past 10 s) is not a hostile input
        f = outcome(lambda: wb.explore(system, targets=tg, **kw))
        if not isinstance(f, RulesError):
            valid_explore(f)
        else:
            assert f.field
        return f

    run_property("explore", examples(), check)


# --------------------------------------------------------------------------- regressions (issue 21)
def refused(call, *words) -> RulesError:
    """Assert ``call()`` raises a RulesError mentioning ``words``."""
    result = outcome(call)
    assert isinstance(result, RulesError), f"accepted: {result!r}"
    for w in words:
        assert w in str(result), str(result)
    return result


def _two(system):
    cs = list(wb.system(system).catalog().creatures.values())
    return cs[0], cs[1]


@pytest.mark.parametrize("system", SYSTEMS)
def test_plan_functions_that_fail_or_choose_nonsense(system):
    a, b = _two(system)
    refused(lambda: wb.turn_damage(a, b, plan=float), "plan", "raised TypeError")
    refused(lambda: wb.turn_damage(a, b, plan=lambda d: np.array(["x", "y"])), "plan", "chose")
    refused(lambda: wb.turn_damage(a, b, plan=3), "plan")
    refused(lambda: wb.turn_damage(a, b, plan=[a.name] * (limits.MAX_PLAN + 1)), "plan", "1 to 50")
    # the simulation's own plan chooser (Unbound: the TypeError in duel) goes the same way
    refused(lambda: wb.duel(a, b, plan_a=float, simulate=True, fights=10, progress=False), "plan")
    refused(lambda: wb.duel(a, b, plan_a={"x": 1}, fights=10, progress=False), "plan")


def test_annulus_plan_naming_an_attack_the_creature_lacks():
    a, b = _two("annulus")
    other = next(x for x in wb.system("annulus").catalog().attacks.values() if x not in a.attack_sets)
    refused(lambda: wb.rounds_to_kill(a, b, plan=[other], simulate=True, fights=10, progress=False), "plan")


@pytest.mark.parametrize("kw,words", [
    ({"seed": -1}, ("seed",)), ({"seed": 2**200}, ("seed", "128-bit")), ({"fights": limits.MAX_FIGHTS + 1}, ("fights",)),
    ({"fights": 2.5}, ("fights",)), ({"max_rounds": 10**9}, ("max_rounds", "10,000")), ({"first": np.array(["a"])}, ("first",)),
    ({"progress": np.array([1, 2])}, ("progress",)), ({"simulate": "yes"}, ("simulate",)), ({"confirm": "yes"}, ("confirm",)),
])
def test_duel_arguments_of_wrong_types_and_sizes(kw, words):
    a, b = _two("glass_empires")
    refused(lambda: wb.duel(a, b, **kw), *words)


def test_rounds_to_kill_hp_bounds_and_huge_damage():
    refused(lambda: wb.rounds_to_kill(Dist.die(6), hp=2**62), "hp", "at most 100,000")
    refused(lambda: wb.rounds_to_kill(Dist.die(6), hp=1.5), "hp")
    refused(lambda: wb.mean_rounds_to_kill(Dist.die(6), [3, "4"]), "hp")
    refused(lambda: wb.duel(Dist.die(6), Dist.die(6), hp_a=10**6, hp_b=3), "hp_a")
    # a turn dealing 10**12 (an np.zeros(10**12) before) kills any target at once
    f = outcome(lambda: wb.rounds_to_kill(Dist.constant(10**12), hp=1000))
    assert f["p_killed_by"][0] == 1.0
    assert outcome(lambda: wb.mean_rounds_to_kill(Dist.from_mapping({0: 0.5, 10**6: 0.5}), 5)) \
        == pytest.approx(2.0)


def test_explore_refuses_a_budget_past_the_count_even_with_confirm():
    """A budget of 10**9 with confirm=True spent minutes summing the inert fills of 10**9 ranks."""
    m = measure(lambda: wb.explore("annulus", targets=["annulus:Rat"], budget=10**9, confirm=True, progress=False),
                RulesError)
    assert isinstance(m.error, RulesError) and m.error.field == "budget" and "at most 40" in m.error.message


def test_explore_refuses_a_huge_top_k():
    """The long profile found top_k=10**200 raising OverflowError inside polars (a RulesError now)."""
    m = measure(lambda: wb.explore("annulus", targets=["annulus:Rat"], budget=1, top_k=10**200, progress=False),
                RulesError)
    assert isinstance(m.error, RulesError) and m.error.field == "top_k" and "1,000,000" in m.error.message
    assert wb.explore("annulus", targets=["annulus:Rat"], budget=2, top_k=limits.MAX_TOP_K, progress=False).height


def test_explore_with_free_upgrades_and_past_the_budget():
    annulus = wb.system("annulus")
    wolf = annulus.catalog().creature("Wolf")
    refused(lambda: wb.explore("annulus", targets=[wolf], budget=3, options=annulus.Options(experience_per_rank=0),
                               progress=False), "budget", "experience_per_rank")
    err = refused(lambda: wb.explore("annulus", targets=[wolf], budget=12, progress=False), "budget",
                  "10,863,360 upgrade combinations", "over the 1,000,000", "confirm=True")
    assert err.field == "budget"
    refused(lambda: wb.explore("annulus", targets=[wolf], budget=10**9, progress=False), "at most 40", "days of work")
    refused(lambda: wb.explore("annulus", targets=[wolf], base=wolf, vary={"level": range(10**9)}, progress=False),
            "vary", "100,000")


def test_explore_says_what_it_will_do_counted(capsys):
    """What explore says on stderr before its work is the counts it checks (workbench.work), the
    same as explore_work returns without running it."""
    annulus = wb.system("annulus")
    targets = list(annulus.catalog().creatures.values())[:3]
    wb.explore("annulus", targets=targets, budget=6, say=True)
    said = capsys.readouterr().err
    assert "budget 6 walks 54,537 upgrade combinations" in said and "3,258 distinct builds x 3 targets" in said
    est = wb.explore.__globals__["estimate"]("annulus", targets=targets, budget=6)
    assert est["combinations"] == 54537 and est["builds"] == 3 * 54537
    walk, rows = wb.explore.__globals__["explore_work"]("annulus", targets=targets, budget=6)
    assert (walk.count, rows.count) == (54537, 3258 * 3)
    assert f"of the {walk.bound:,} that run without asking" in said


def test_compare_refuses_a_huge_grid_without_confirm():
    cat = wb.system("unbound").catalog()
    cs = list(cat.creatures.values())
    targets = [cs[i % len(cs)].replace(name=f"t{i}", hp=1 + i % 150) for i in range(2000)]
    err = refused(lambda: wb.compare(cs, targets, progress=False), "budget", "distinct matchups", "confirm=True")
    assert err.rule == limits.BUDGET
    refused(lambda: wb.compare(cs[:2], cs[:2], max_rounds=10_000, chain=True, progress=False, confirm="no"),
            "confirm")
    f = outcome(lambda: wb.compare(cs[:2], cs[:2], progress=False))
    valid_compare(f)
    refused(lambda: wb.rank(f, per=3), "per")
    refused(lambda: wb.pivot(f, index="attacker"), "index")
    refused(lambda: wb.export(f, 3), "path")


def test_a_simulation_past_its_fight_rounds_stops_and_asks(monkeypatch):
    """An Annulus fight without dice (base_pool 0) almost never ends: the simulation used to run
    past 10 s; now its fight-rounds played are counted (the same on every machine: the fights are
    seeded) and past limits.MAX_FIGHT_ROUNDS it stops with a RulesError naming budget and the
    count; it runs to its end with confirm=True."""
    annulus = wb.system("annulus")
    a, b = annulus.catalog().creature("Town Guard"), annulus.catalog().creature("Drake")
    o = annulus.Options(success_on=29, dice_sides=97, base_pool=0, size_free_steps=10, reroll="on_zero", actions=3)
    monkeypatch.setattr(limits, "MAX_FIGHT_ROUNDS", 20_000)
    err = refused(lambda: wb.rounds_to_kill(a, b, options=o, fights=200, max_rounds=3000, progress=False,
                                            simulate=True), "budget", "fight-rounds", "over the 20,000", "confirm=True")
    assert "max_rounds" in err.message and "fights" in err.message
    again = refused(lambda: wb.rounds_to_kill(a, b, options=o, fights=200, max_rounds=3000, progress=False,
                                              simulate=True), "budget")
    assert again.message == err.message  # the same point, every time
    got = outcome(lambda: wb.rounds_to_kill(a, b, options=o, fights=20, max_rounds=300, progress=False, simulate=True,
                                            confirm=True))
    assert isinstance(got, (pl.DataFrame, RulesError))  # ran to its end: a frame, or "never killed"
