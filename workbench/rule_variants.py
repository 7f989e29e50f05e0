"""Rule variants side by side (issue 18, item 2: "the same grid under two or more Options (crit
confirmation on/off, off-hand counting, action economy, success_on, rounding), with a variant
column, differences, and a diff-coloured heatmap").

Each variant is one :func:`workbench.comparison.compare` of the same attackers and targets under
its Options (the one fight, so each row is exact or says it is simulated); the rows of every
variant are joined to the baseline's by (attacker, attack, target) for the differences. (The
module is not named ``variants``, so that importing it cannot rebind ``workbench.variants``.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from .arguments import check_confirm
from .errors import RulesError
from .work import Work, check, counts, repeated

__all__ = ["variants", "MAX_VARIANTS", "DELTAS", "variants_work"]

#: variants in one call: past this, a chart or a table of them is unreadable
MAX_VARIANTS = 8
#: the columns whose change from the baseline each row carries as ``delta_<column>``
DELTAS = ("mean_damage", "mean_turn_damage", "p_kill_one_turn", "mean_rounds", "rounds_q50")
_KEY = ["attacker", "attack", "target"]


def variants(
    attackers: Any,
    targets: Any,
    options: Mapping[str, Any],
    *,
    baseline: str | None = None,
    situation: Any = None,
    system: Any = None,
    confirm: bool = False,
    **compare_kwargs: Any,
) -> pl.DataFrame:
    """Return compare's rows of ``attackers`` against ``targets`` under each of ``options``.

    ``options`` maps a label to the variant's Options (2 to :data:`MAX_VARIANTS`, one system's);
    ``baseline`` is the label the others are measured against (default: the first). Columns:
    ``variant`` and ``baseline`` first, then compare's columns, then ``delta_<column>`` for each of
    :data:`DELTAS`: the row's value minus the baseline's for the same (attacker, attack, target)
    (0 on the baseline's own rows; null where either is null or infinite). Other keyword
    arguments go to compare (``max_rounds``, ``objective``, ``fights``, ``seed``, ``progress``).
    """
    from .comparison import compare

    if not isinstance(options, Mapping) or not options:
        raise RulesError("give the variants as {label: Options, ...}", field="options")
    labels = list(options)
    if not 2 <= len(labels) <= MAX_VARIANTS:
        raise RulesError(
            f"compare 2 to {MAX_VARIANTS} variants, not {len(labels)}",
            field="options",
            rule="docs/limits.md: bounded work",
        )
    for label in labels:
        if not isinstance(label, str) or not label.strip():
            raise RulesError(f"a variant's label is a non-empty text, not {label!r}", field="options")
    _one_system_of_options(options)
    base = labels[0] if baseline is None else baseline
    if base not in options:
        raise RulesError(f"baseline {base!r} is not one of the variants ({', '.join(labels)})", field="baseline")
    # one compare per variant: counted together before the first one runs (docs/limits.md)
    for w in variants_work(attackers, targets, options, system=system, **compare_kwargs):
        check(w, check_confirm(confirm))
    parts = []
    for label in labels:
        frame = compare(
            attackers,
            targets,
            options=options[label],
            situation=situation,
            system=system,
            confirm=confirm,
            **compare_kwargs,
        )
        parts.append(frame.with_columns(variant=pl.lit(label)))
    out = pl.concat(parts, how="vertical_relaxed")
    ref = out.filter(pl.col("variant") == base).select(_KEY + [pl.col(c).alias(f"_base_{c}") for c in DELTAS])
    finite = lambda c: pl.when(pl.col(c).is_infinite()).then(None).otherwise(pl.col(c))  # noqa: E731
    out = out.join(ref, on=_KEY, how="left", maintain_order="left").with_columns(
        [(finite(c) - finite(f"_base_{c}")).alias(f"delta_{c}") for c in DELTAS]
    )
    out = out.drop([f"_base_{c}" for c in DELTAS]).with_columns(baseline=pl.lit(base))
    return out.select(["variant", "baseline", *[c for c in out.columns if c not in ("variant", "baseline")]])


def _one_system_of_options(options: Mapping[str, Any]) -> str:
    """Return the one rule system of the variants' Options, or raise RulesError naming ``options``
    (and citing "one fight, one rule system") for a value that is not a rule system's Options or
    for Options of two systems: the variants differ in their rule options, not in their system."""
    from .errors import show
    from .systems import ONE_SYSTEM

    found: dict[str, str] = {}
    for label, value in options.items():
        name = getattr(type(value), "system", "") if getattr(type(value), "model_kind", "") == "options" else ""
        if not name:
            raise RulesError(
                f"the variant {label!r} must be a rule system's Options, not {show(value)}",
                field="options",
                rule=ONE_SYSTEM,
            )
        found[label] = name
    if len(set(found.values())) > 1:
        raise RulesError(
            "the variants must be Options of one rule system, not "
            + ", ".join(f"{label!r}: {name}" for label, name in found.items()),
            field="options",
            rule=ONE_SYSTEM,
        )
    return next(iter(found.values()))


@counts("variants")
def variants_work(
    attackers: Any, targets: Any, options: Mapping[str, Any], *, system: Any = None, **compare_kwargs: Any
) -> list[Work]:
    """Return the counted work of :func:`variants`, from sizes alone: one compare per variant, so
    the sizes of one compare (``comparison.size_work``: rows, matchup units) times the variants.
    Each compare then counts its own rows with state before its fights."""
    from .comparison import _prepare, size_work

    kw = {k: compare_kwargs.get(k, d) for k, d in (("max_rounds", 100), ("objective", "damage"), ("seed", 0))}
    from .fight_rows import COMPARE_FIGHTS

    prep = _prepare(
        attackers,
        targets,
        system,
        kw["max_rounds"],
        kw["objective"],
        None,
        compare_kwargs.get("fights", COMPARE_FIGHTS),
        kw["seed"],
        None,
        False,
        None,
        False,
    )
    n = len(options) if isinstance(options, Mapping) else 1
    return repeated(size_work(prep["groups"], prep["max_rounds"], False), n, "variants", "variant", "options")
