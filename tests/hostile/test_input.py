"""Hostile and careless input (issue 21): every model constructor, every Dist constructor, ``load``
and ``from_share_code`` raise only RulesError or return a valid result, promptly.

The property tests run ``EXAMPLES`` examples per entry point: 2,000 under the default and "ci"
profiles, 10,000 under ``HYPOTHESIS_PROFILE=long`` (a local run, see docs/limits.md). Each example
must grow the peak memory by under 2 GB (tests/bounds.py): a guard against runaway allocations; no
time is asserted (issue 34: work is bounded by counting it, speed lives in benchmarks/). Below them, one
regression test per finding of issue 21 that concerns models and distributions; tests/io/test_hostile.py
holds the files, codes, CLI and panels.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench import Dist
from workbench import io as wio
from workbench import limits
from workbench.errors import RulesError

from tests.bounds import assert_bounded, measure

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES") or (10_000 if PROFILE == "long" else 2_000))
HOSTILE = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=PROFILE != "long",
                   phases=[Phase.explicit, Phase.generate, Phase.shrink],
                   suppress_health_check=list(HealthCheck))

SYSTEMS = wb.systems()
KINDS = ("Creature", "Attack", "Options", "Situation")
MODEL_CLASSES = [(s, k, getattr(wb.system(s), k)) for s in SYSTEMS for k in KINDS]
MODEL_CLASSES += [("unbound", "Action", importlib.import_module("workbench.systems.unbound.models").Action),
                  ("last_odyssey", "Shell", importlib.import_module("workbench.systems.last_odyssey.models").Shell)]


def report(entry: str, seen: dict) -> None:
    """Assert an entry point ran its examples; append the counts to ``$HOSTILE_REPORT`` if set."""
    total = sum(seen.values())
    assert total >= EXAMPLES, f"{entry}: only {total} of {EXAMPLES} examples ran"
    if os.environ.get("HOSTILE_REPORT"):
        with open(os.environ["HOSTILE_REPORT"], "a") as fh:
            fh.write(f"{entry}\t{total}\t" + "\t".join(f"{k}={v}" for k, v in seen.items()) + "\n")


# --------------------------------------------------------------------------- checking one call
def outcome(call):
    """Return (result or the RulesError, seconds) of ``call()``; any other exception, or a call over
    2 GB of peak memory growth (tests/bounds.py), fails the test (the seconds are for reports only)."""
    m = measure(call, RulesError)
    if m.error is not None:
        assert not getattr(m.error, "unforeseen", False), f"a check is missing: {m.error}"
        assert m.error.message, "a RulesError says what is wrong"
    assert_bounded(m)
    return (m.error if m.error is not None else m.result), m.seconds


def assert_valid_dist(d: Dist) -> None:
    """The invariants every Dist keeps: finite, non-negative, sums to 1 within 1e-12, tight support,
    outcomes within the bounded range."""
    assert isinstance(d, Dist)
    p = d.pmf
    assert p.dtype == np.float64 and p.ndim == 1 and p.size >= 1
    assert np.all(np.isfinite(p)) and np.all(p >= 0)
    assert abs(p.sum() - 1.0) <= 1e-12, p.sum()
    assert p[0] > 0 and p[-1] > 0
    assert isinstance(d.offset, int) and -limits.MAX_OUTCOME <= d.min() <= d.max() <= limits.MAX_OUTCOME
    assert p.size <= limits.MAX_SUPPORT


# --------------------------------------------------------------------------- strategies
class BigInt(int):
    """An int of thousands of digits whose repr hypothesis can print (Python refuses str() past 4,300)."""

    def __repr__(self) -> str:
        return f"BigInt(<{self.bit_length()} bits>)"


HUGE = st.sampled_from([10**19, -(10**19), 2**61, 2**63, 10**400, BigInt(10**5000), BigInt(-(10**5000)), 1e19,
                        1e308, -1e308,
                        math.inf, -math.inf, math.nan, 1.5, -0.5, 2.5, 1e-300])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    HUGE, st.fractions(max_denominator=10),
    st.text(max_size=12), st.text(st.characters(codec=None, categories=None), max_size=6),  # lone surrogates too
    st.sampled_from(["", " ", "\udcff", "a\x00b", "1d8", "20x2", "all", "yes", "x" * 5000]),
    st.binary(max_size=6),
    st.sampled_from([np.int64(3), np.float64(2.5), np.bool_(True), np.float64(np.nan), np.int64(-(2**62))]),
)
ODD = st.one_of(
    st.builds(lambda n: np.arange(n), st.integers(0, 3)), st.just(np.array(["agility", "toughness"])),
    st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=4), SCALARS, max_size=3),
    st.tuples(SCALARS, SCALARS), st.just(object()), st.just(Dist.die(6)), st.just(range(3)),
    st.just(set()), st.just(b"bytes"), st.just(float), st.just(Ellipsis),
)
HOSTILE_VALUE = st.one_of(SCALARS, ODD)


def _catalog_models(system: str) -> list:
    c = wb.system(system).catalog()
    out = list(c.creatures.values()) + list(c.attacks.values())
    for creature in c.creatures.values():
        out += wb.system(system).attacks_of(creature)
    return out


def _plausible_values(system: str, kind: str, cls: type) -> dict[str, list]:
    """Return, per field, the values catalog models and defaults hold (and their neighbours)."""
    values: dict[str, list] = {name: [] for name in cls.model_fields}
    for m in _catalog_models(system):
        if isinstance(m, cls):
            for name in cls.model_fields:
                values[name].append(getattr(m, name))
    for name, f in cls.model_fields.items():
        if not f.is_required():
            values[name].append(f.get_default(call_default_factory=True))
    for name, vs in values.items():
        ints = [v for v in vs if isinstance(v, int) and not isinstance(v, bool)]
        extra = [v + d for v in set(ints) for d in (-1, 1)] + [v * 1000 for v in set(ints)]
        vs += extra + [limits.MAX_HP, limits.MAX_HP + 1]
        if name == "upgrades":
            vs += [{"Precise": 10}, {"Precise": 11}, {"Range": 10**9}, ["Precise"] * 12, {"Reckless": 2**70},
                   {"Counter Agility": 1}, {"Flashy": 1, "Stealth": 1}, {"q" * 400: 1}]
        if name == "damage" and system == "unbound":
            vs += ["100d100", "100d1000", "1d4+1d6+2", "2d6-1", "1d8" + "+1d8" * 12, "1d" + "9" * 5000, "d6"]
        values[name] = vs
    return values


def base_kwargs(system: str, kind: str, cls: type) -> list[dict]:
    """Return constructor keyword sets of valid models of ``cls``: its catalog models and defaults."""
    out = [{name: getattr(m, name) for name in cls.model_fields}
           for m in _catalog_models(system) if isinstance(m, cls)]
    try:
        out.append({name: getattr(cls(), name) for name in cls.model_fields})
    except (TypeError, RulesError):
        pass
    if kind == "Action":
        out.append({"action": "all_out", "weapon": "Longsword", "off_hand": None, "wild": False})
        out.append({"action": "multi", "weapon": None, "off_hand": None, "wild": True})
    return out


def model_kwargs(system: str, kind: str, cls: type):
    """Strategy: a valid keyword set with up to four fields replaced by plausible or hostile values."""
    bases = base_kwargs(system, kind, cls)
    plausible = _plausible_values(system, kind, cls)
    names = sorted(plausible)

    @st.composite
    def build(draw):
        kwargs = dict(draw(st.sampled_from(bases)))
        for name in draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
            choices = plausible[name]
            if choices and draw(st.booleans()):
                kwargs[name] = draw(st.sampled_from(choices))
            else:
                kwargs[name] = draw(HOSTILE_VALUE)
        if draw(st.integers(0, 20)) == 0:
            kwargs[draw(st.sampled_from(["unknown_field", "kind", "system"]))] = draw(SCALARS)
        return kwargs

    return build()


def check_round_trips(model) -> None:
    """A valid model's document, TOML text and share code all give it back, equal and of its type."""
    doc = wio.to_document(model)
    back = wio.from_document(json.loads(json.dumps(doc)))
    assert back == model and type(back) is type(model)
    try:
        text = wio.to_toml(doc)
    except RulesError as err:  # TOML has no null: a list holding None
        assert "TOML" in str(err)
    else:
        assert wio.from_document(tomllib.loads(text)) == model
    assert wb.from_share_code(wb.share_code(model)) == model


# --------------------------------------------------------------------------- model constructors
@pytest.mark.parametrize("system,kind,cls", MODEL_CLASSES, ids=[f"{s}-{k}" for s, k, _ in MODEL_CLASSES])
def test_model_constructor_gives_rules_error_or_a_valid_model(system, kind, cls):
    seen = {"valid": 0, "refused": 0}

    @HOSTILE
    @given(kwargs=model_kwargs(system, kind, cls))
    def run(kwargs):
        result, _ = outcome(lambda: cls.from_dict(kwargs))
        if isinstance(result, RulesError):
            seen["refused"] += 1
            assert result.field, f"names no field: {result}"
            return
        seen["valid"] += 1
        assert type(result) is cls
        again, _ = outcome(lambda: result.replace())  # validating a valid model again changes nothing
        assert again == result
        if kind not in ("Action", "Shell"):
            check_round_trips(result)

    run()
    assert seen["valid"] > 0 and seen["refused"] > 0, seen  # the strategy reaches both sides
    report(f"{system}.{kind}", seen)


# --------------------------------------------------------------------------- Dist constructors
INTS = st.one_of(st.integers(-5, 30), st.integers(-5, 30), st.integers(-5, 30), st.integers(), HUGE,
                 st.sampled_from([limits.MAX_SUPPORT + 1, limits.MAX_POOL_DICE, limits.MAX_KEEP_DICE + 1]))
ARG = st.one_of(INTS, HOSTILE_VALUE)
PROB = st.one_of(st.floats(0, 1), st.fractions(0, 1, max_denominator=50), ARG)
SMALL_DISTS = st.builds(lambda lo, n: Dist.uniform(lo, lo + n), st.integers(-10, 10), st.integers(0, 12))


GOOD_INT = st.integers(-5, 30)
ARGI = st.one_of(GOOD_INT, st.integers(0, 12), st.integers(1, 20), ARG)   # mostly plausible, often hostile
NORMED = st.lists(st.floats(0.01, 1), min_size=1, max_size=8).map(lambda w: [x / sum(w) for x in w])


@st.composite
def outcomes_and_probabilities(draw):
    p = draw(NORMED)
    return draw(st.lists(st.integers(-20, 20), min_size=len(p), max_size=len(p))), p


def _pmf():
    return st.one_of(NORMED, NORMED.map(list), st.lists(st.floats(0, 1), min_size=1, max_size=8), st.lists(ARG, max_size=4),
                     ARG, st.just([math.nan, 1.0]), st.just([2.0, -1.0]))


DIST_CALLS = {
    "init": st.builds(lambda p, o: (lambda: Dist(p, o)), _pmf(), ARGI),
    "constant": st.builds(lambda v: (lambda: Dist.constant(v)), ARGI),
    "uniform": st.builds(lambda a, b: (lambda: Dist.uniform(a, b)), ARGI, ARGI),
    "die": st.builds(lambda s: (lambda: Dist.die(s)), ARGI),
    "dice": st.builds(lambda n, s: (lambda: Dist.dice(n, s)), ARGI, ARGI),
    "bernoulli": st.builds(lambda p: (lambda: Dist.bernoulli(p)), PROB),
    "pool": st.builds(lambda n, s, k: (lambda: Dist.pool(n, s, k)), ARGI, ARGI, ARGI),
    "binomial": st.builds(lambda n, p: (lambda: Dist.binomial(n, p)), ARGI, st.one_of(st.floats(0, 1), PROB)),
    "highest": st.builds(lambda d, n, k: (lambda: Dist.highest(d, n, k)), st.one_of(SMALL_DISTS, ARGI),
                         st.one_of(st.integers(1, 8), ARGI), st.one_of(st.integers(0, 4), ARGI)),
    "lowest": st.builds(lambda d, n, k: (lambda: Dist.lowest(d, n, k)), st.one_of(SMALL_DISTS, ARGI),
                        st.one_of(st.integers(1, 8), ARGI), st.one_of(st.integers(0, 4), ARGI)),
    "mixture": st.builds(lambda ds, w: (lambda: Dist.mixture(ds, w)),
                         st.one_of(st.lists(SMALL_DISTS, min_size=1, max_size=4),
                                   st.lists(st.one_of(SMALL_DISTS, ARG), max_size=4), ARG),
                         st.one_of(st.none(), st.none(), st.lists(st.one_of(st.floats(0, 5), ARG), max_size=4), ARG)),
    "from_outcomes": st.one_of(
        st.builds(lambda vp: (lambda: Dist.from_outcomes(*vp)), outcomes_and_probabilities()),
        st.builds(lambda v, p: (lambda: Dist.from_outcomes(v, p)),
                  st.one_of(st.lists(INTS, min_size=1, max_size=4), ARG),
                  st.one_of(st.lists(st.floats(0, 1), min_size=1, max_size=4), st.just([1.0]), ARG))),
    "from_mapping": st.one_of(
        st.builds(lambda vp: (lambda: Dist.from_mapping(dict(zip(*vp)))),
                  outcomes_and_probabilities().filter(lambda vp: len(set(vp[0])) == len(vp[0]))),
        st.builds(lambda m: (lambda: Dist.from_mapping(m)),
                  st.one_of(st.dictionaries(INTS, st.floats(0, 1), max_size=3), st.just({3: 1.0}),
                            st.just({10**13: 1.0}), ARG))),
}


@pytest.mark.parametrize("name", list(DIST_CALLS))
def test_dist_constructor_gives_rules_error_or_a_valid_dist(name):
    seen = {"valid": 0, "refused": 0}

    @HOSTILE
    @given(call=DIST_CALLS[name])
    def run(call):
        result, _ = outcome(call)
        if isinstance(result, RulesError):
            seen["refused"] += 1
            return
        seen["valid"] += 1
        assert_valid_dist(result)
        assert list(result) == list(result.to_dict())

    run()
    assert seen["valid"] > 0 and seen["refused"] > 0, seen
    report(f"Dist.{name}", seen)


# --------------------------------------------------------------------------- load and share codes
def _documents():
    """Strategy: documents of valid models, with a field replaced by a hostile value, or junk."""
    models = [m for s in SYSTEMS for m in _catalog_models(s)[:6]] + \
             [getattr(wb.system(s), k)() for s in SYSTEMS for k in ("Options", "Situation")]
    docs = [wio.to_document(m) for m in models]

    @st.composite
    def build(draw):
        doc = json.loads(json.dumps(draw(st.sampled_from(docs))))
        for _ in range(draw(st.integers(0, 3))):
            key = draw(st.sampled_from(sorted(doc) + ["items", "model_kind", "system", "format_version"]))
            doc[key] = draw(st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                                      st.dictionaries(st.text(max_size=3), SCALARS, max_size=3)))
        if draw(st.integers(0, 9)) == 0:
            return draw(st.one_of(SCALARS, st.lists(SCALARS, max_size=3)))
        return doc

    return build()


def _json_text(doc) -> str:
    """Return ``doc`` as JSON text; a BigInt is written out in full (json cannot print it)."""
    def plain(v):
        if isinstance(v, BigInt):
            return f"@@BIG{'-' if v < 0 else '+'}@@"
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v

    text = json.dumps(plain(doc), default=lambda o: repr(o), allow_nan=True)
    return text.replace('"@@BIG+@@"', "1" + "0" * 5000).replace('"@@BIG-@@"', "-1" + "0" * 5000)


FILE_TEXTS = st.one_of(
    st.builds(lambda d: (".json", _json_text(d).encode("utf-8", "surrogatepass")), _documents()),
    st.builds(lambda d: (".toml", d.encode("utf-8", "surrogatepass")),
              st.one_of(st.text(max_size=60), st.sampled_from([
                  "[" + ".".join(["a"] * 40) + "]\nx = 1\n", "x = " + "[" * 40 + "]" * 40,
                  'system = "annulus"\n[model_kind]\nx = 1\n', "a = 1" + "0" * 5000 + "\n",
                  'system = "annulus"\nmodel_kind = "options"\nactions = 35\n']))),
    st.builds(lambda b, s: (s, b), st.binary(max_size=80), st.sampled_from([".toml", ".json"])),
    st.builds(lambda d: (".json", ("[" * d + "]" * d).encode()), st.integers(1, 5000)),
)


def test_load_gives_rules_error_or_valid_models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile_load")
    seen = {"valid": 0, "refused": 0}

    @HOSTILE
    @given(item=FILE_TEXTS)
    def run(item):
        suffix, data = item
        path = folder / f"f{suffix}"
        path.write_bytes(data)
        result, _ = outcome(lambda: wb.load(path))
        if isinstance(result, RulesError):
            seen["refused"] += 1
            assert str(path) in str(result)
            return
        seen["valid"] += 1
        for m in result if isinstance(result, list) else [result]:
            assert hasattr(m, "validate") and type(m).system in SYSTEMS

    run()
    assert seen["valid"] > 0 and seen["refused"] > 0, seen
    report("load", seen)


def _code_of(doc) -> str:
    import base64
    import zlib

    raw = _json_text(doc).encode("utf-8", "surrogatepass")
    return wio.SHARE_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode()


CODES = st.one_of(
    st.builds(_code_of, _documents()),
    st.builds(lambda t: wio.SHARE_PREFIX + t, st.text(max_size=40)),
    st.builds(lambda d, i, c: (lambda s: s[:i] + c + s[i + 1:])(_code_of(d)), _documents(), st.integers(0, 300),
              st.characters()),
    st.builds(lambda d, n: _code_of(d)[:n], _documents(), st.integers(0, 200)),
    SCALARS,
)


def test_from_share_code_gives_rules_error_or_valid_models():
    seen = {"valid": 0, "refused": 0}

    @HOSTILE
    @given(code=CODES)
    def run(code):
        result, _ = outcome(lambda: wb.from_share_code(code))
        if isinstance(result, RulesError):
            seen["refused"] += 1
            return
        seen["valid"] += 1
        for m in result if isinstance(result, list) else [result]:
            assert type(m).system in SYSTEMS

    run()
    assert seen["valid"] > 0 and seen["refused"] > 0, seen
    report("from_share_code", seen)


@pytest.mark.parametrize("system", SYSTEMS)
def test_generated_valid_models_round_trip_through_files(tmp_path_factory, system):
    """save -> load through real files (TOML and JSON) for generated valid creatures of each system."""
    cls = wb.system(system).Creature
    folder = tmp_path_factory.mktemp(f"round_{system}")
    strategy = model_kwargs(system, "Creature", cls)
    count = {"saved": 0}

    @settings(HOSTILE, max_examples=max(EXAMPLES // 10, 200))
    @given(kwargs=strategy, suffix=st.sampled_from([".toml", ".json"]))
    def run(kwargs, suffix):
        result, _ = outcome(lambda: cls.from_dict(kwargs))
        if isinstance(result, RulesError):
            return
        path = folder / f"c{suffix}"
        saved, _ = outcome(lambda: wb.save(result, path))
        if isinstance(saved, RulesError):  # TOML has no null
            assert suffix == ".toml" and "TOML" in str(saved)
            return
        back, _ = outcome(lambda: wb.load(path))
        assert back == result and type(back) is cls
        count["saved"] += 1

    run()
    assert count["saved"] > 0


# --------------------------------------------------------------------------- regressions (issue 21)
def _first(system: str, kind: str = "creatures"):
    return next(iter(getattr(wb.system(system).catalog(), kind).values()))


def refused(call, *words) -> RulesError:
    """Assert ``call()`` raises a RulesError (not a stray one) mentioning ``words``."""
    result, _ = outcome(call)
    assert isinstance(result, RulesError), f"accepted: {result!r}"
    for w in words:
        assert w in str(result), str(result)
    return result


@pytest.mark.parametrize("system", SYSTEMS)
def test_numpy_array_where_a_choice_is_expected(system):
    sys_ = wb.system(system)
    field = {"annulus": "awareness", "unbound": "rank", "last_odyssey": "rounding",
             "glass_empires": "mixed_damage_type"}[system]
    target = sys_.Options if field in ("rounding", "mixed_damage_type") else sys_.Creature
    base = {} if target is sys_.Options else {name: getattr(_first(system), name)
                                              for name in target.model_fields}
    err = refused(lambda: target(**{**base, field: np.array(["alert", "clueless"])}), field)
    assert "ambiguous" not in str(err)


def test_huge_upgrade_ranks_and_numbers():
    annulus = wb.system("annulus")
    refused(lambda: annulus.Attack("x", upgrades={"Precise": 10**30}), "upgrades", "limits")
    refused(lambda: annulus.Attack("x", upgrades={"Range": 11}), "upgrades", "at most 10")
    refused(lambda: annulus.Attack("x", upgrades=["Reckless"] * 11), "upgrades")
    assert annulus.Attack("x", upgrades={"Range": 10}).rank("Range") == 10
    refused(lambda: annulus.Situation(distance=10**400), "distance")
    refused(lambda: annulus.Situation(distance=1e308), "distance")
    refused(lambda: wb.system("glass_empires").Creature(size=10**5000), "size")


def test_dice_string_with_a_5000_digit_number():
    unbound = wb.system("unbound")
    err = refused(lambda: unbound.Attack("x", damage="1d" + "9" * 5000), "damage")
    assert len(str(err)) < 400
    refused(lambda: unbound.Attack("x", damage="9" * 5000 + "d6"), "damage")
    refused(lambda: unbound.Attack("x", crit="1" * 5000 + "x2"), "crit")
    refused(lambda: unbound.Attack("x", damage="+".join(["100d1000"] * 10)), "damage", "span")


@pytest.mark.parametrize("field,value", [("hp", 1.5), ("hp", 1e308), ("hp", math.nan), ("hp", 10**19)])
@pytest.mark.parametrize("system", ["unbound", "last_odyssey", "glass_empires"])
def test_floats_and_huge_numbers_in_whole_number_fields(system, field, value):
    c = _first(system)
    refused(lambda: c.replace(hp=value), "hp")
    assert c.replace(hp=float(c.hp)).hp == c.hp and isinstance(c.replace(hp=float(c.hp)).hp, int)


def test_annulus_options_past_their_bounds():
    o = wb.system("annulus").Options
    refused(lambda: o(base_pool=1_000_000), "base_pool", "limits")
    refused(lambda: o(actions=10**9), "actions")
    refused(lambda: o(actions=35), "actions", "at most 6")
    refused(lambda: o(size_free_steps=1e308), "size_free_steps")
    refused(lambda: o(size_free_steps=21), "size_free_steps")
    assert o(actions=6).actions == 6 and o(base_pool=20).base_pool == 20


@pytest.mark.parametrize("system", SYSTEMS)
def test_lone_surrogate_name_is_refused_at_construction(system):
    c = _first(system)
    refused(lambda: c.replace(name="Wolf\udcff"), "name", "UTF-8")
    refused(lambda: c.replace(name="x" * (limits.MAX_NAME + 1)), "name")


def test_last_odyssey_multiplier_and_glass_empires_damage_bounded():
    lo = wb.system("last_odyssey")
    refused(lambda: lo.Attack("Blast", multiplier=1e19), "multiplier", "limits")
    ge = wb.system("glass_empires")
    refused(lambda: ge.Attack("Club", damage=2**61), "damage", "limits")
    refused(lambda: ge.Creature(strikes=10**6), "strikes")


def test_dist_binomial_and_constructors_check_their_arguments():
    refused(lambda: Dist.binomial(3, 2.0), "p")
    refused(lambda: Dist.binomial(3, math.nan), "p")
    refused(lambda: Dist.binomial(3, Fraction(3, 2)), "p")
    refused(lambda: Dist.binomial(10**6, 0.5), "n")
    refused(lambda: Dist.constant(1.5), "value")
    refused(lambda: Dist.uniform(0, 10**12), "limits")
    refused(lambda: Dist.dice("3", 6), "n")
    refused(lambda: Dist.mixture([Dist.die(4), 3]), "dists[1]")
    refused(lambda: Dist.mixture([Dist.die(4), Dist.die(6)], [1.0, math.nan]), "weights")
    refused(lambda: Dist.from_outcomes([1, 2], [0.5, math.nan]), "probabilities")
    refused(lambda: Dist.from_outcomes([0, 10**13], [0.5, 0.5]), "values")
    refused(lambda: Dist.highest(Dist.die(20), 500, 3), "n")
    refused(lambda: Dist.die(6) * 10**12, "k")
    refused(lambda: Dist.die(6) + 2**70, "offset")
    assert_valid_dist(Dist.binomial(1000, 0.3))
    assert_valid_dist(Dist.pool(1000))


def test_dist_iteration_membership_and_arrays_return_promptly():
    d = Dist.from_mapping({1: 0.25, 3: 0.75})
    assert list(d) == [1, 3] and len(d) == 3          # iteration skips the inner 0-probability outcome
    assert 3 in d and 2 not in d and 7 not in d and "3" not in d and 2.5 not in d
    assert d[3] == 0.75 and d[2] == 0.0 and d[100] == 0.0 and d[3.0] == 0.75
    refused(lambda: d[2.5], "x")
    refused(lambda: d["a"], "x")
    refused(lambda: np.asarray(d), "d.pmf")
    assert dict(zip(d, (d[x] for x in d))) == d.to_dict()


def test_limits_table_in_the_docs_matches_the_code():
    text = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text()
    from workbench.systems.annulus import models as am
    from workbench.systems.glass_empires import models as gm
    from workbench.systems.last_odyssey import models as lm
    from workbench.systems.unbound import models as um
    from workbench.systems.unbound import notation as un

    expected = {
        "MAX_HP": limits.MAX_HP, "MAX_CHAIN_HP": limits.MAX_CHAIN_HP, "MAX_NAME": limits.MAX_NAME, "MAX_SUPPORT": limits.MAX_SUPPORT,
        "MAX_POOL_DICE": limits.MAX_POOL_DICE, "MAX_KEEP_DICE": limits.MAX_KEEP_DICE,
        "MAX_FILE_BYTES": limits.MAX_FILE_BYTES, "MAX_SHARE_CODE": limits.MAX_SHARE_CODE,
        "MAX_DOCUMENT_BYTES": limits.MAX_DOCUMENT_BYTES, "MAX_NESTING": limits.MAX_NESTING,
        "annulus.MAX_ACTIONS": am.MAX_ACTIONS, "annulus.MAX_POOL": am.MAX_POOL, "annulus.MAX_RANK": am.MAX_RANK,
        "annulus.MAX_SETS": am.MAX_SETS, "annulus.MAX_SIZE_STEPS": am.MAX_SIZE_STEPS,
        "unbound.MAX_DICE": un.MAX_DICE, "unbound.MAX_SPAN": un.MAX_SPAN, "unbound.MAX_WEAPONS": um.MAX_WEAPONS,
        "last_odyssey.MAX_MULTIPLIER": lm.MAX_MULTIPLIER, "last_odyssey.MAX_STAT": lm.MAX_STAT,
        "last_odyssey.MAX_ANIMA": lm.MAX_ANIMA,
        "glass_empires.MAX_STRIKES": gm.MAX_STRIKES, "glass_empires.MAX_DAMAGE": gm.MAX_DAMAGE,
    }
    rows = {}
    for line in text.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in expected:
            rows[cells[0]] = cells[2]
    missing = set(expected) - set(rows)
    assert not missing, f"docs/limits.md lacks {sorted(missing)}"
    for name, value in expected.items():
        shown = rows[name].replace(",", "").replace(" ", "")
        assert shown in {str(value), str(int(value)) if float(value).is_integer() else str(value)}, (name, rows[name])
