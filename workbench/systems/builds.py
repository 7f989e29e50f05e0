"""What a rule system's ``build_space`` returns: the candidate attacks of a budget search.

``explore(system, targets=..., budget=...)`` asks the system for its :class:`BuildSpace` and
evaluates its builds chunk by chunk (:meth:`BuildSpace.frames`): the enumeration, its counting and
its pruning are the system's own (e.g. ``workbench/systems/annulus/builds.py``), and no more than
one chunk of builds exists as Attacks and frames at a time.

:func:`choice_space` is the one build space of every system that declares its choices
(``RuleSystem.build_choices``: which fields of an attack a designer may set, to which values the
rules text names) instead of a build economy of its own: a build is one catalog attack and at most
``budget`` modifications, each costing 1 (:data:`CHOICE_COST_RULE`).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..errors import RulesError, show

__all__ = [
    "BuildSpace",
    "CHOICE_COST_RULE",
    "catalog_attacks",
    "check_choice_budget",
    "check_choices",
    "choice_space",
    "choice_space_size",
]


@dataclass(frozen=True)
class BuildSpace:
    """The distinct builds within a budget, as one system enumerates them, lazily.

    - ``attacker``: the creature that uses every build.
    - ``counts``: at least ``legal_sets`` (every legal attack within the budget, before collapsing
      builds whose damage maths is identical) and ``distinct`` (the builds ``chunks`` yields).
    - ``chunks``: ``chunks(n)`` yields polars frames of at most ``n`` builds each, every build once:
      ``build_id`` (Int64, 0 .. distinct - 1, numbered in order of nondecreasing cost, so that the
      lower id of two builds is never the dearer), ``build`` (the Attack, an object column),
      ``cost`` (Int64, in the system's budget unit) and any descriptive columns (carried into
      ``explore``'s result, in this order). A chunk should hold builds whose tables have alike
      shapes (a speed hint: the system decides which builds share a chunk).
    - ``maths_keys`` (optional): a module-level function ``(attacker, attacks, targets, options,
      situation) -> (hi, lo)``, two uint64 arrays of shape (attacks, targets) equal exactly when the
      matchups' damage per use and per turn over the pools is (``explore`` merges such builds);
      None: the system cannot tell, and nothing is merged.
    """

    attacker: Any
    counts: dict[str, int]
    chunks: Callable[[int], Iterator[pl.DataFrame]]
    maths_keys: Callable[..., tuple[Any, Any]] | None = None

    @property
    def size(self) -> int:
        """Return the number of distinct builds (``counts["distinct"]``)."""
        return int(self.counts["distinct"])

    def frames(self, n: int) -> Iterator[pl.DataFrame]:
        """Yield the chunk frames of at most ``n`` builds; a frame without ``build_id``, ``build``
        or ``cost`` raises RulesError (field ``build_space``)."""
        for frame in self.chunks(n):
            missing = [c for c in ("build_id", "build", "cost") if c not in frame.columns]
            if missing or frame.height > n:
                raise RulesError(
                    f"a build space chunk must have build_id, build and cost and at most {n} rows; "
                    f"this one has columns {frame.columns} and {frame.height} rows",
                    field="build_space",
                )
            yield frame

    @property
    def builds(self) -> pl.DataFrame:
        """Return every build in one frame, by build id (this holds the whole space: for small
        budgets and tests; explore reads :meth:`frames`)."""
        return pl.concat(list(self.frames(4096))).sort("build_id")


# --------------------------------------------------------------------------- the choice space
#: what :func:`choice_space` costs, and why: a rules text that declares choices but no build
#: economy prices no change to an attack, so the workbench counts each modification as 1, by
#: analogy with the one economy of the four texts (CLARIFICATIONS.md: "Each upgrade, and the Damage
#: seed itself, costs 1 Experience"; docs/explore.md, Other systems)
CHOICE_COST_RULE = (
    "docs/explore.md, Other systems: each modification of a catalog attack costs 1, the workbench's "
    "convention (these rules texts have no build economy)"
)
#: the largest budget a choice space accepts (a budget past the number of declared fields changes
#: nothing more: no attack has more fields to change)
MAX_CHOICE_BUDGET = 1000


def catalog_attacks(system: Any) -> list[Any]:
    """Return the distinct attacks of ``system``'s catalog, by value, in catalog order: those carried
    by its creatures (``RuleSystem.attacks_of``), then its attack table (``Catalog.attacks``)."""
    cat = system.catalog()
    seen: dict[Any, None] = {}
    for attack in itertools.chain.from_iterable(system.attacks_of(c) for c in cat.creatures.values()):
        seen.setdefault(attack, None)
    for attack in cat.attacks.values():
        seen.setdefault(attack, None)
    return list(seen)


def check_choices(system: Any, choices: Any) -> dict[str, tuple[Any, ...]]:
    """Return ``choices`` ({Attack field: values a designer may give it}) checked: every key a field
    of the system's Attack, every value list a non-empty tuple without repeats; RulesError (field
    ``build_choices``) otherwise."""
    fields = set(system.Attack.model_fields)
    if not isinstance(choices, dict) or not choices:
        raise RulesError(f"{system.name}: build_choices must be a non-empty {{field: values}}", field="build_choices")
    out: dict[str, tuple[Any, ...]] = {}
    for key, values in choices.items():
        if key not in fields or key == "name":
            raise RulesError(f"{system.name}: {key!r} is not a changeable Attack field", field="build_choices")
        vals = tuple(values)
        if not vals or len(set(map(repr, vals))) != len(vals):
            raise RulesError(f"{system.name}: build_choices[{key!r}] must list distinct values", field="build_choices")
        out[key] = vals
    return out


def check_choice_budget(budget: Any) -> int:
    """Return ``budget`` (how many modifications a build may make), or RulesError (field ``budget``)
    for a bool, a fraction, a negative number or more than MAX_CHOICE_BUDGET."""
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, (int, np.integer)):
        raise RulesError(
            f"must be a whole number of modifications >= 0, not {show(budget)}", field="budget", rule=CHOICE_COST_RULE
        )
    if not 0 <= int(budget) <= MAX_CHOICE_BUDGET:
        raise RulesError(
            f"must be a whole number of modifications from 0 to {MAX_CHOICE_BUDGET}, not {show(budget)}",
            field="budget",
            rule=CHOICE_COST_RULE,
        )
    return int(budget)


def _alternatives(base: Any, choices: dict[str, tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Return, per declared field, the values other than ``base``'s own (what a modification may set)."""
    return [tuple(v for v in values if not _same(v, getattr(base, f))) for f, values in choices.items()]


def _same(a: Any, b: Any) -> bool:
    """Return whether two field values are the same value (``1`` and ``True`` are not)."""
    return type(a) is type(b) and a == b


def choice_space_size(system: Any, budget: Any, options: Any = None) -> int:
    """Return how many candidate attacks :func:`choice_space` walks for ``budget`` modifications
    (the catalog attacks, and every way to set at most ``budget`` of the declared fields each to
    another declared value), counted without walking them: per catalog attack, the elementary
    symmetric sums e_0 + ... + e_budget of its per-field numbers of alternatives."""
    budget = check_choice_budget(budget)
    choices = check_choices(system, system.build_choices(options))
    total = 0
    for base in catalog_attacks(system):
        e = np.zeros(min(budget, len(choices)) + 1, dtype=object)  # e[k]: ways to change k fields (exact ints)
        e[0] = 1
        for n in map(len, _alternatives(base, choices)):
            e[1:] = e[1:] + n * e[:-1]
        total += int(e.sum())
    return total


def _digest(attack: Any) -> bytes:
    """Return a 128-bit BLAKE2b digest of ``attack``'s fields (equal attacks, equal digests)."""
    return hashlib.blake2b(repr(attack).encode(), digest_size=16).digest()


def choice_space(
    system: Any, budget: Any, targets: Sequence[Any], attacker: Any = None, options: Any = None, situation: Any = None
) -> BuildSpace:
    """Return the :class:`BuildSpace` of ``system``'s declared choices (``RuleSystem.build_choices``):
    every distinct attack made of one catalog attack (:func:`catalog_attacks`) and at most
    ``budget`` modifications, each setting one declared field to another declared value (cost: the
    number of modifications, :data:`CHOICE_COST_RULE`).

    Each candidate is built through the system's Attack model (``Model.replace``), so its validation
    runs: a candidate the model refuses (RulesError) is not a legal build (counted as
    ``refused``); one equal in value to a cheaper build, or to an earlier one of the same cost
    (a change the model normalises away), is that build (counted as ``repeats``). The walk (cost
    0, then 1, ...) runs once and keeps one small record per build (catalog attack, changes); the
    chunk frames (``build_id``, ``build``, ``name``, ``base``, ``changes``, ``cost``) are made on
    demand. Counts: ``combinations`` (candidates walked, :func:`choice_space_size`), ``refused``,
    ``repeats``, ``legal_sets`` and ``distinct`` (both the distinct legal builds: no maths keys,
    so nothing is merged). ``attacker`` defaults to the system's neutral attacker of the first
    catalog attack; ``targets`` and ``situation`` do not change which builds are legal."""
    budget = check_choice_budget(budget)
    choices = check_choices(system, system.build_choices(options))
    bases = catalog_attacks(system)
    if not bases:
        raise RulesError(f"the {system.name} catalog holds no attack to build from", field="budget")
    attacker = attacker if attacker is not None else system.neutral_attacker(bases[0])
    fields = list(choices)
    alts = [_alternatives(b, choices) for b in bases]
    seen: set[bytes] = set()
    records: list[tuple[int, tuple[tuple[str, Any], ...]]] = []
    walked = refused = repeats = 0
    for cost in range(min(budget, len(fields)) + 1):
        for b, base in enumerate(bases):
            for which in itertools.combinations(range(len(fields)), cost):
                for values in itertools.product(*(alts[b][i] for i in which)):
                    walked += 1
                    changes = tuple((fields[i], v) for i, v in zip(which, values))
                    try:
                        build = base.replace(**dict(changes)) if changes else base
                    except RulesError:
                        refused += 1
                        continue
                    key = _digest(build)
                    if key in seen:
                        repeats += 1
                        continue
                    seen.add(key)
                    records.append((b, changes))
    counts = {
        "combinations": walked,
        "refused": refused,
        "repeats": repeats,
        "legal_sets": len(records),
        "distinct": len(records),
    }
    return BuildSpace(attacker, counts, lambda n: _choice_frames(bases, records, n))


def _label(changes: tuple[tuple[str, Any], ...]) -> str:
    """Return the modifications as text: ``"crit 20x3, touch True"`` (empty: none)."""
    return ", ".join(f"{f} {v}" for f, v in changes)


def _choice_frames(bases: list[Any], records: list, n: int) -> Iterator[pl.DataFrame]:
    """Yield the builds of ``records`` (by build id, which follows cost) in frames of at most ``n``."""
    step = max(1, int(n))
    for start in range(0, len(records), step):
        part = records[start : start + step]
        builds = [bases[b].replace(**dict(ch)) if ch else bases[b] for b, ch in part]
        yield pl.DataFrame(
            {
                "build_id": pl.Series(range(start, start + len(part)), dtype=pl.Int64),
                "build": builds,
                "name": [f"{bases[b].name}: {_label(ch)}" if ch else bases[b].name for b, ch in part],
                "base": [bases[b].name for b, _ in part],
                "changes": [_label(ch) for _, ch in part],
                "cost": pl.Series([len(ch) for _, ch in part], dtype=pl.Int64),
            },
            schema_overrides={"build": pl.Object},
        )
