"""Hostile input, round 2 (issue 35): the generators of the independent fuzz that found what
tests/hostile/test_input.py and test_entry_points.py did not.

- **Mutated catalog models**: a catalog model of each system with ONE declared field set to an
  extreme value (each side of its declared bound, 0, -1, 10**12 and past it, 1e308, NaN, +-inf,
  wrong types), then one use of each of its attacks and one exact fight against a catalog
  creature. Every construction and call must give RulesError or a valid result.
- **Mixed systems in every fight call**: creatures, attacks, options and situations drawn from all
  four systems and from non-models, in every public fight call; whatever is not one system and the
  right kinds must be refused at the entry with RulesError naming the role ("one fight, one rule
  system", workbench.systems.fight_system), never AttributeError or TypeError from inside.
- **Dist operators with non-Dist and NaN operands**: every operation of a Dist with an operand
  drawn from Dists (huge ones too), numbers (NaN, +-inf, 10**13), arrays, texts and objects.

Every call runs within tests/bounds.py's bound (2 GB of peak memory growth; no time is asserted, issue 34).
``EXAMPLES_2`` examples per entry point: 300 under the "ci" profile, 100 under "dev", 10,000 under
``HYPOTHESIS_PROFILE=long``, or ``ROUND2_EXAMPLES=N`` (docs/limits.md, Running the property suite).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import workbench as wb
from tests.hostile.test_entry_points import PROFILE, outcome, valid_dist, valid_duel, valid_rounds_frame
from workbench import Dist
from workbench.errors import RulesError
from workbench.fields import specs
from workbench.systems import ONE_SYSTEM

EXAMPLES_2 = int(os.environ.get("ROUND2_EXAMPLES") or {"long": 10_000, "ci": 300}.get(PROFILE, 100))
SUITE = settings(
    max_examples=EXAMPLES_2,
    deadline=None,
    database=None,
    derandomize=PROFILE != "long",
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=list(HealthCheck),
)
SYSTEMS = wb.systems()
KINDS = ("Creature", "Attack", "Options", "Situation")


def report(entry: str, seen: dict) -> None:
    """Assert an entry point ran its EXAMPLES_2 examples; append the counts to ``$HOSTILE_REPORT``
    if set (the format of tests/hostile/test_input.py)."""
    total = sum(seen.values())
    assert total >= EXAMPLES_2, f"{entry}: only {total} of {EXAMPLES_2} examples ran"
    if os.environ.get("HOSTILE_REPORT"):
        with open(os.environ["HOSTILE_REPORT"], "a") as fh:
            fh.write(f"{entry}\t{total}\t" + "\t".join(f"{k}={v}" for k, v in seen.items()) + "\n")


def run(name: str, strategy, check) -> None:
    """Run ``check(example)`` (returning a result or a RulesError) over ``strategy``; report counts."""
    seen = {"valid": 0, "refused": 0}

    @SUITE
    @given(example=strategy)
    def go(example):
        seen["refused" if isinstance(check(example), RulesError) else "valid"] += 1

    go()
    report(name, seen)


# --------------------------------------------------------------------------- mutated catalog models
def _catalog(system: str, kind: str) -> list:
    sys, cat = wb.system(system), wb.system(system).catalog()
    if kind == "Creature":
        return list(cat.creatures.values())
    if kind == "Attack":
        return [a for a in cat.attacks.values() if isinstance(a, sys.Attack)]
    return [getattr(sys, kind)()]


WRONG_TYPES = [None, True, "3", "", [], {}, np.array([1, 2]), np.float64("nan"), object(), Dist.die(6)]


def extremes(spec) -> list:
    """Return the extreme values of one declared field: each side of its bounds, 0, -1, past
    10**12, 1e308, NaN, +-inf and wrong types (for a number); the longest text and past it, a lone
    surrogate (for a text); for any other kind, the wrong types."""
    out: list = list(WRONG_TYPES)
    if spec.kind in ("int", "number"):
        for bound in (spec.low(), spec.high()):
            if bound is not None:
                out += [bound, bound - 1, bound + 1]
        out += [0, -1, 10**12, 10**12 + 1, 10**19, 1e308, -1e308, math.nan, math.inf, -math.inf, 0.5, 2**63]
    elif spec.kind == "text":
        n = spec.max_length or 200
        out += ["x" * n, "x" * (n + 1), "\udcff", " "]
    elif spec.kind == "choice":
        out += ["no such choice", 3]
    return out


@st.composite
def mutations(draw, system: str):
    """(a catalog model, the field changed, its extreme value, a catalog creature to fight)."""
    kind = draw(st.sampled_from(KINDS))
    model = draw(st.sampled_from(_catalog(system, kind)))
    declared = specs(type(model))
    field = draw(st.sampled_from(sorted(declared)))
    spec = declared[field]
    near: st.SearchStrategy = st.nothing()
    if spec.kind == "int":  # and whole numbers anywhere near and past its bounds
        lo, hi = spec.low(), spec.high()
        near = st.integers(
            int(lo if lo is not None else -(10**13)) - 1000, int(hi if hi is not None else 10**13) + 1000
        )
    elif spec.kind == "number":
        near = st.floats(allow_nan=True, allow_infinity=True)
    elif spec.kind == "text":
        near = st.text(max_size=8)
    value = draw(st.one_of(st.sampled_from(extremes(spec)), near))
    return model, field, value, draw(st.sampled_from(_catalog(system, "Creature")))


def _fight_with(system: str, model, other):
    """Return the calls a mutated model takes part in: one use of each of its attacks (at most 3) on
    the catalog creature ``other`` (or the first one with an attack) and one exact rounds_to_kill of
    it, or with its options or situation."""
    sys = wb.system(system)
    some = [other, *sys.catalog().creatures.values()]
    fighter = next(c for c in some if sys.attacks_of(c))
    calls = []
    if isinstance(model, sys.Creature):
        for atk in sys.attacks_of(model)[:3]:
            calls.append(lambda atk=atk: wb.damage(atk, model, fighter))
        calls.append(lambda: wb.damage(sys.attacks_of(fighter)[0], fighter, model))
        if sys.attacks_of(model):
            calls.append(lambda: wb.rounds_to_kill(model, fighter, simulate=False, max_rounds=50))
    elif isinstance(model, sys.Attack):
        calls.append(lambda: wb.damage(model, fighter, fighter))
    elif isinstance(model, sys.Options):
        calls.append(lambda: wb.damage(sys.attacks_of(fighter)[0], fighter, fighter, options=model))
    else:
        calls.append(lambda: wb.damage(sys.attacks_of(fighter)[0], fighter, fighter, situation=model))
    return calls


def _valid(result) -> None:
    if isinstance(result, Dist):
        valid_dist(result)
    else:
        valid_rounds_frame(result)


@pytest.mark.parametrize("system", SYSTEMS)
def test_catalog_models_mutated_field_by_field_with_extreme_values(system):
    def check(example):
        model, field, value, other = example
        made = outcome(lambda: model.replace(**{field: value}))
        if isinstance(made, RulesError):
            assert made.field and made.field.split(".")[0].split("[")[0] in set(
                type(model).model_fields
            ) | {model.model_kind, type(model).__name__}, made
            return made
        last = made
        for call in _fight_with(system, made, other):
            got = outcome(call)
            if not isinstance(got, RulesError):
                _valid(got)
            last = got
        return last

    run(f"mutated models ({system})", mutations(system), check)


# --------------------------------------------------------------------------- mixed systems
NOT_MODELS = st.one_of(
    st.sampled_from([None, True, 3, "Cop", Dist.die(6), [1], object(), np.array(3), {"name": "Cop"}]),
    st.integers(),
    st.text(max_size=6),
)
ROLES = ("attacker", "target", "options", "situation")


@st.composite
def mixed(draw):
    """(attacker, target, options, situation, attack): each from any of the four systems, of any
    kind, or not a model; at least one not of the attacker's system and kind."""

    def any_model(kind):
        return st.one_of(
            NOT_MODELS,
            st.sampled_from(SYSTEMS).flatmap(lambda s: st.sampled_from(_catalog(s, kind))),
            st.sampled_from(SYSTEMS)
            .flatmap(lambda s: st.sampled_from(KINDS))
            .flatmap(lambda k: st.sampled_from(SYSTEMS).map(lambda s: _catalog(s, k)[0])),
        )

    attacker = draw(st.sampled_from(SYSTEMS).flatmap(lambda s: st.sampled_from(_catalog(s, "Creature"))))
    target = draw(any_model("Creature"))
    options = draw(st.one_of(st.none(), any_model("Options")))
    situation = draw(st.one_of(st.none(), any_model("Situation")))
    attack = draw(
        st.one_of(st.sampled_from(wb.system_of(attacker).attacks_of(attacker)[:1] or [None]), any_model("Attack"))
    )
    return attacker, target, options, situation, attack


def _right(attacker, target, options, situation, attack, uses_attack: bool) -> bool:
    """Return True when the models are one system's and of the right kinds (``attack`` only when
    the call takes one)."""
    sys = wb.system_of(attacker)
    return (
        isinstance(target, sys.Creature)
        and (options is None or isinstance(options, sys.Options))
        and (situation is None or isinstance(situation, sys.Situation))
        and (not uses_attack or isinstance(attack, sys.Attack))
    )


FIGHT_CALLS = {
    "damage": lambda a, t, o, s, atk: wb.damage(atk, a, t, o, s),
    "outcomes": lambda a, t, o, s, atk: wb.outcomes(atk, a, t, o, s),
    "turn_plans": lambda a, t, o, s, atk: wb.turn_plans(a, t, o, s),
    "turn_damage": lambda a, t, o, s, atk: wb.turn_damage(a, t, o, s),
    "rounds_to_kill": lambda a, t, o, s, atk: wb.rounds_to_kill(a, t, options=o, situation=s, simulate=False),
    "optimal_play": lambda a, t, o, s, atk: wb.optimal_play(a, t, o, s, ignore_state=True),
    "duel": lambda a, t, o, s, atk: wb.duel(a, t, o, s, simulate=False, max_rounds=20),
    "head_to_head": lambda a, t, o, s, atk: wb.head_to_head(a, a, t, options=o, situation=s, max_rounds=20),
    "explain": lambda a, t, o, s, atk: wb.explain(a, t, options=o, situation=s),
}


@pytest.mark.parametrize("entry", list(FIGHT_CALLS))
def test_mixed_systems_and_wrong_kinds_in_every_fight_call(entry):
    call = FIGHT_CALLS[entry]
    uses_attack = entry in ("damage", "outcomes")

    def check(example):
        a, t, o, s, atk = example
        got = outcome(lambda: call(a, t, o, s, atk))
        right = _right(a, t, o, s, atk, uses_attack)
        if not right:
            assert isinstance(got, RulesError), f"{entry} took models of two systems or the wrong kind"
            # refused at the entry, naming the role: by the one check, or for a target that is None
            # or a Dist by the call's own "give a target creature" / "two creatures or two Dists"
            assert got.field in ("attacker", "target", "a", "b", "attack", "options", "situation"), got
            assert got.rule == ONE_SYSTEM or t is None or isinstance(t, Dist), got
        elif not isinstance(got, RulesError):
            if entry == "duel":
                valid_duel(got)
            elif entry in ("damage", "turn_damage"):
                valid_dist(got)
            elif entry == "rounds_to_kill":
                valid_rounds_frame(got)
        return got

    run(f"mixed systems ({entry})", mixed(), check)


# --------------------------------------------------------------------------- Dist operands
OPERANDS = st.one_of(
    st.sampled_from(
        [
            Dist.die(6),
            Dist.constant(-(10**12)),
            Dist.constant(10**12),
            Dist.uniform(1, 10**7),
            Dist.bernoulli(1e-9),
            Dist.uniform(-3, 3),
        ]
    ),
    st.sampled_from(
        [
            3,
            0,
            -1,
            10**13,
            2**63,
            2.5,
            math.nan,
            math.inf,
            -math.inf,
            np.float64("nan"),
            np.int64(4),
            True,
            None,
            "3",
            "",
            b"x",
            [1, 2],
            (1,),
            {1: 0.5},
            np.array([1.0, math.nan]),
            np.array(3),
            np.arange(4),
            object(),
            np.add,
            lambda x, y: x + y,
            np.negative,
            lambda x: x // 2,
            lambda x: x * 10**12,
            lambda x: x / 2,
            lambda x: x[:1],
        ]
    ),
    st.integers(-50, 50),
    st.floats(allow_nan=True, allow_infinity=True),
)
SMALL = st.sampled_from([Dist.die(6), Dist.constant(0), Dist.uniform(-2, 3), Dist.bernoulli(0.25), Dist.dice(2, 4)])
OPS = {
    "max_with": lambda d, x: d.max_with(x),
    "min_with": lambda d, x: d.min_with(x),
    "combine": lambda d, x: d.combine(x, np.add),
    "combine_func": lambda d, x: d.combine(Dist.die(4), x),
    "map": lambda d, x: d.map(x),
    "add": lambda d, x: d + x,
    "sub": lambda d, x: d - x,
    "mul": lambda d, x: d * x,
    "matmul": lambda d, x: x @ d,
    "sum_of": lambda d, x: d.sum_of(x),
    "cdf": lambda d, x: d.cdf(x),
    "sf": lambda d, x: d.sf(x),
    "quantile": lambda d, x: d.quantile(x),
    "probability": lambda d, x: d.probability(x),
    "clip": lambda d, x: d.clip(x, None),
    "scale": lambda d, x: d.scale(x),
    "isclose": lambda d, x: d.isclose(x),
    "mixture": lambda d, x: Dist.mixture([d, x]),
}
#: Python's binary operators return NotImplemented for a type they do not take, and Python then
#: asks the other operand and raises TypeError ("unsupported operand type(s)", "can't multiply
#: sequence by non-int"): the language's own answer to ``d + "3"``, not a crash inside the workbench
BINARY = {"add", "sub", "mul", "matmul"}


@pytest.mark.parametrize("op", list(OPS))
def test_dist_operations_with_non_dist_and_nan_operands(op):
    def check(example):
        d, x = example
        try:
            got = outcome(lambda: OPS[op](d, x))
        except TypeError as exc:
            assert op in BINARY and ("unsupported operand" in str(exc) or "can't multiply" in str(exc)), exc
            whole = isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
            assert not whole and not (isinstance(x, Dist) and op in ("add", "sub")), exc  # those it takes
            return RulesError("unsupported operand")
        if isinstance(got, Dist):
            valid_dist(got)
        elif not isinstance(got, RulesError) and op in ("cdf", "sf", "probability"):
            p = np.asarray(got, dtype=np.float64)
            assert np.all((p >= 0) & (p <= 1)), got
        return got

    run(f"Dist.{op}", st.tuples(SMALL, OPERANDS), check)
