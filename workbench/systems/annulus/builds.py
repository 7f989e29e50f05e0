"""The Annulus build space: every legal attack set within an Experience budget (annulus-attacks.txt).

:func:`build_space` enumerates the legal sets (seed, at most one alteration, at most one area,
no Range with an area, stackable upgrades by rank), counts them, and collapses the sets whose
damage maths is identical against the given targets in the given situation (inert upgrades only
multiply the count), as the :class:`~workbench.systems.builds.BuildSpace` that
``AnnulusSystem.build_space`` returns to ``explore(budget=...)`` (``workbench.systems.annulus.
annulus_builds``: the same builds in one frame). The rule system is passed in, never imported
(the system imports this module).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from math import comb
from typing import Any

import numpy as np
import polars as pl

from ...errors import RulesError, show
from ..builds import BuildSpace

__all__ = ["build_space", "build_space_size", "count_multisets", "maths_keys", "INERT", "EFFECTIVE"]

RULES = "annulus-attacks.txt"
#: explore walks at most this many ranks of upgrades, even with confirm (40 ranks: over 10**11
#: combinations); a larger budget is refused
COUNT_RANKS = 40


def _upgrade_classes() -> tuple[list[str], list[str]]:
    from .upgrades import UPGRADES

    inert = [
        n
        for n, u in UPGRADES.items()
        if (u.category == "trigger" and n not in ("Critical", "Vital"))
        or n in ("Blood Price", "Demolitions", "Obliterate", "Inherent", "Knockout", "Stealth")
    ]
    effective = [n for n in UPGRADES if n not in inert and n != "Counter"]
    return inert, effective


#: upgrades that never change the damage dealt nor where it goes (effects, narrative, self-heal) and
#: Counter (an alteration that changes no dice); they only multiply the number of sets. Vital is
#: not inert: it sends the damage to Vitality, which changes the kill chances of the fight.
INERT, EFFECTIVE = _upgrade_classes()
_ALTERATIONS = ("Charged", "Flurry", "Gaze", "Swansong", "Telegraphed")
_AREAS = ("Arc", "Burst", "Line")
_STACKABLE = ("Reckless", "Giant", "Precise", "Range", "Assassin")
#: by alteration (None: the set has none): the actions one use costs (else 1), and how its dice roll (else "none")
_COST: dict[str | None, int] = {"Charged": 2, "Flurry": 2, "Gaze": 0, "Swansong": 0}
_DICE: dict[str | None, str] = {"Charged": "twice", "Telegraphed": "twice", "Flurry": "flurry"}


def _multisets(items: Sequence[str], size_max: int) -> Iterable[dict[str, int]]:
    """Yield every legal {upgrade: rank} over ``items`` with total rank <= size_max (at most one
    alteration, one area, no Range with an area: annulus-attacks.txt exclusivity rules)."""

    def rec(i: int, left: int, cur: dict[str, int], alt: bool, area: bool):
        if i == len(items):
            yield dict(cur)
            return
        name = items[i]
        yield from rec(i + 1, left, cur, alt, area)
        top = left if name in _STACKABLE else min(1, left)
        for r in range(1, top + 1):
            if name in _ALTERATIONS and alt or name in _AREAS and area:
                break
            if (name == "Range" and area) or (name in _AREAS and "Range" in cur):
                break
            cur[name] = r
            yield from rec(i + 1, left - r, cur, alt or name in _ALTERATIONS, area or name in _AREAS)
            del cur[name]

    yield from rec(0, size_max, {}, False, False)


def count_multisets(items: Sequence[str], size_max: int) -> int:
    """Return how many {upgrade: rank} :func:`_multisets` yields over ``items`` within ``size_max``
    ranks, without walking them: a count over (ranks left, alteration used, area used, Range used)
    under the same exclusivity rules (annulus-attacks.txt: at most one alteration, at most one area,
    no Range with an area)."""

    @functools.cache
    def count(i: int, left: int, alt: bool, area: bool, rng: bool) -> int:
        if i == len(items):
            return 1
        name = items[i]
        total = count(i + 1, left, alt, area, rng)
        if (name in _ALTERATIONS and alt) or (name in _AREAS and (area or rng)) or (name == "Range" and area):
            return total
        top = left if name in _STACKABLE else min(1, left)
        for r in range(1, top + 1):
            total += count(i + 1, left - r, alt or name in _ALTERATIONS, area or name in _AREAS, rng or name == "Range")
        return total

    return count(0, max(0, int(size_max)), False, False, False)


def build_space_size(sys: Any, budget: Any, options: Any = None) -> int:
    """Return how many upgrade combinations :func:`build_space` walks for ``budget`` Experience
    (the loop of the build space; its distinct builds are at most three times as many), counted
    without enumerating them, for ``explore``'s estimate before it starts (``sys``: the Annulus
    rule system, for its default options). Past ``COUNT_RANKS`` ranks the count of ``COUNT_RANKS``
    ranks is returned: a lower bound, and already billions."""
    return _combinations(budget, sys.options_of(options))


def _combinations(budget: Any, options: Any) -> int:
    """:func:`build_space_size` with the options resolved."""
    epr = options.experience_per_rank
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < max(epr, 1):
        return 0
    if epr == 0:
        raise RulesError(
            "with experience_per_rank 0 every upgrade is free: the build space has no bound; "
            "give options with experience_per_rank >= 1",
            field="budget",
            rule="CLARIFICATIONS.md, Annulus: each upgrade, and the Damage seed itself, costs 1 Experience",
        )
    ranks = int(budget) // epr - 1
    if ranks > COUNT_RANKS:  # refused even with confirm: the walk would take days (docs/limits.md)
        raise RulesError(
            f"budget {show(budget)} buys {show(ranks)} ranks of upgrades; explore walks at most {COUNT_RANKS} "
            f"(over 10**11 combinations, days of work)",
            field="budget",
            rule="docs/limits.md: bounded work",
        )
    return count_multisets(EFFECTIVE, ranks)


def _inert_fills(n_free: int, counter_ok: bool, left: int) -> int:
    """Return how many ways ``left`` or fewer ranks can be spent on inert upgrades: ``n_free``
    non-stackable ones, plus Counter with one of 3 types when the set has no other alteration."""
    return sum(comb(n_free, j) + (3 * comb(n_free, j - 1) if counter_ok and j >= 1 else 0) for j in range(left + 1))


def _walk(
    budget: int, targets: Sequence[Any], attacker: Any, options: Any, situation: Any, crowd: bool = False
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Return the damage signatures within ``budget`` (each: ``size`` (upgrade ranks of its
    cheapest set), ``upgrades`` (that set), ``sets`` (legal usable sets sharing it), ``vital``),
    cheapest first (ties: walk order), and the counts; ``crowd``: the targets are groups (Killing
    Spree counts). One small record per signature, never an
    Attack nor a row per legal set."""
    from .models import range_band
    from .resolve import AREA_REACH

    epr = options.experience_per_rank
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < epr:
        raise RulesError(
            f"must be a whole number of Experience >= {epr} (the seed), not {budget!r}",
            field="budget",
            rule="CLARIFICATIONS.md, Annulus: each upgrade, and the Damage seed itself, costs 1 Experience",
        )
    if epr == 0:  # every upgrade free: no budget bounds the sets (a ZeroDivisionError before)
        _combinations(budget, options)
    ranks = int(budget) // epr - 1
    # what the targets and situation make relevant (annulus resolve steps 1-4)
    free = options.size_free_steps
    need_giant = max(max(0, t.size - attacker.size - free) for t in targets)
    need_precise = max(max(0, attacker.size - t.size - free) for t in targets)
    bully = any(t.size < attacker.size for t in targets)
    aware = [("clueless" if situation.target_petrified else situation.target_awareness or t.awareness) for t in targets]
    assassin = any(a != "alert" for a in aware)
    flags = {
        "Keen": situation.concealment == "partial",
        "Tireless": situation.tired,
        "Armored": situation.armor,
        "Visceral": situation.inside_devourer,
        "Killing Spree": situation.after_kill or crowd,
        "First Blood": situation.target_undamaged,
        "Reroll": options.reroll == "on_zero" and situation.reroll_available,
    }
    d = situation.distance
    vit = attacker.vitality if situation.attacker_vitality is None else situation.attacker_vitality
    sight = situation.mutual_sight and situation.concealment == "none" and not situation.target_blind
    groups: dict[tuple, dict[str, Any]] = {}
    legal = unusable = 0
    for E in _multisets(EFFECTIVE, ranks):
        size = sum(E.values())
        alt = next((n for n in E if n in _ALTERATIONS), None)
        area = next((n for n in E if n in _AREAS), None)
        sets = _inert_fills(len(INERT) - ("Flashy" in E), alt is None, ranks - size)
        legal += 3 * sets
        if area:
            ok = d <= AREA_REACH[area]
        else:
            lo, hi = range_band(E.get("Range", 0))
            ok = d <= hi and not (d <= lo and lo > 0)
        ok &= not (situation.airless and "Airtight" not in E)
        ok &= not (alt == "Gaze" and not sight)
        ok &= not (alt == "Swansong" and vit > attacker.level // 2)  # total Vitality = level (resolve)
        if not ok:
            unusable += 3 * sets
            continue
        cost = _COST.get(alt, 1)
        k = 1 if cost == 0 or area or alt == "Telegraphed" else options.actions // cost
        dice = _DICE.get(alt, "none")
        key = (
            dice,
            k,
            E.get("Reckless", 0),
            "Flashy" in E,
            "Critical" in E,
            "Vital" in E,
            min(E.get("Giant", 0), need_giant),
            min(E.get("Precise", 0), need_precise),
            bully and "Bully" in E,
            E.get("Assassin", 0) if assassin else 0,
            tuple(sorted(n for n, on in flags.items() if on and n in E)),
        )
        g = groups.get(key)
        if g is None or size < g["size"]:
            groups[key] = {"size": size, "upgrades": dict(E), "sets": (g["sets"] if g else 0) + sets}
        else:
            g["sets"] += sets
    ordered = sorted(groups.values(), key=lambda g: g["size"])  # stable: walk order within a size
    for g in ordered:
        g["vital"] = "Vital" in g["upgrades"]
    return ordered, {"legal_sets": legal, "unusable_sets": unusable, "distinct": 3 * len(ordered)}


_SEEDS = ("agility", "toughness", "insight")


def _frames(groups: list[dict[str, Any]], epr: int, n: int) -> Iterator[pl.DataFrame]:
    """Yield the builds of ``groups`` (the three seeds of each signature; build id ``3 * g + seed``,
    so ids follow cost) in frames of at most ``n`` rows: the sets that strike Vitality (Vital)
    after the others, because a chunk's joint turn tables are padded to a common shape."""
    from .models import Attack

    order = [g for g in range(len(groups)) if not groups[g]["vital"]] + [
        g for g in range(len(groups)) if groups[g]["vital"]
    ]
    ids = [3 * g + s for g in order for s in range(3)]
    for start in range(0, len(ids), max(1, int(n))):
        part = ids[start : start + max(1, int(n))]
        rows = []
        for i in part:
            g, seed = groups[i // 3], _SEEDS[i % 3]
            label = " + ".join(f"{u} {r}" if r > 1 else u for u, r in g["upgrades"].items()) or "Damage"
            rows.append((i, f"{seed.title()}: {label}", seed, epr * (1 + g["size"]), g["sets"], g["upgrades"]))
        yield pl.DataFrame(
            {
                "build_id": pl.Series([r[0] for r in rows], dtype=pl.Int64),
                "build": [Attack(name=r[1], defense=r[2], upgrades=r[5]) for r in rows],
                "name": [r[1] for r in rows],
                "seed": [r[2] for r in rows],
                "cost": pl.Series([r[3] for r in rows], dtype=pl.Int64),
                "sets": pl.Series([r[4] for r in rows], dtype=pl.Int64),
            },
            schema_overrides={"build": pl.Object},
        )


def build_space(
    sys: Any, budget: int, targets: Sequence[Any], attacker: Any = None, options: Any = None, situation: Any = None
) -> BuildSpace:
    """Return the lazy BuildSpace of the Annulus signatures (annulus-attacks.txt: seed, at most one
    alteration, at most one area, no Range with an area, stackable upgrades by rank): the walk over
    upgrade combinations runs once, keeping one small record per damage signature; its chunks
    (columns ``build_id``, ``build``, ``name``, ``seed``, ``cost``, ``sets``) are made on demand.
    ``sys`` is the Annulus rule system; ``attacker`` defaults to its neutral attacker."""
    from .models import Attack

    options, situation = sys.defaults(options, situation)
    attacker = attacker or sys.neutral_attacker(Attack(name="seed", defense="agility"))
    # against a group a kill leaves foes standing: Killing Spree's "+2 ... the single next use after a
    # kill" (CLARIFICATIONS.md, Encounters: "Killing Spree triggers when the attack kills any of them")
    crowd = any(int(getattr(t, "copies", 1)) > 1 for t in targets)
    targets = [getattr(t, "creature", t) for t in targets]
    groups, counts = _walk(budget, targets, attacker, options, situation, crowd)
    epr = options.experience_per_rank
    return BuildSpace(attacker, counts, lambda n: _frames(groups, epr, n), functools.partial(maths_keys, sys))


def maths_keys(
    sys: Any, attacker: Any, attacks: Sequence[Any], targets: Sequence[Any], options: Any = None, situation: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return the maths keys of every (attack set, target) matchup of ``attacker``: (hi, lo), two
    uint64 arrays of shape (sets, targets), the halves of a 128-bit BLAKE2b digest of the integers
    that decide the damage (the same as ``AnnulusSystem.damage_keys``: one use's damage over
    (Endurance, Vitality) depends only on the resolved parameters of CLARIFICATIONS, Annulus, order
    of resolution (pool, reroll pool, Reroll, automatic successes, defense, Bully / assassination
    bonus, Trigger Die rolled twice, Critical, Flurry, Vital, and what holds for a turn's first use
    only: assassination, First Blood, Killing Spree), and the turn on those and the uses a turn
    allows), plus whether the rules refuse the matchup here. Equal keys: identical maths, exactly
    (up to a digest collision, about 2**-128 per pair). The parameters are resolved once per
    distinct (set, target profile): ``AnnulusSystem.damage_parameters``, the rows ``damage_keys``
    compares (``sys``: the Annulus rule system)."""
    rows, no, inv, shape = sys.damage_parameters([(attacker, x) for x in attacks], targets, options, situation)
    if rows is None:
        return np.zeros(shape, dtype=np.uint64), np.zeros(shape, dtype=np.uint64)
    K = np.ascontiguousarray(np.column_stack([rows, no.astype(np.int64)]), dtype=np.int64)
    n = K.shape[0]
    hi = np.empty(n, dtype=np.uint64)
    lo = np.empty(n, dtype=np.uint64)
    for i in range(n):
        hi[i], lo[i] = np.frombuffer(hashlib.blake2b(K[i].tobytes(), digest_size=16).digest(), dtype=np.uint64)
    return hi[inv].reshape(shape), lo[inv].reshape(shape)
