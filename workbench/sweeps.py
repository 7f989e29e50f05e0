"""Sweeps: the one fight of several builds against one target as one of its parameters runs over
a range (issue 18, item 1: "against one target parameter over a range (AC, defense, evasion,
armor, HP, pool size, level), for several builds at once").

A sweep is :func:`workbench.comparison.compare` against the target made once per value (or with
the Options or Situation made once per value), so every number is the fight compare and
``wb.rounds_to_kill`` compute: exact where the state fits a chain, else simulated with its
standard error and the effects that forced it (``method``, ``se``, ``forced_by``). The values are
checked by the model itself: a value the rules refuse is a RulesError naming the field and rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from .arguments import check_confirm
from .errors import RulesError
from .fields import specs
from .work import Work, check, counts, repeated

__all__ = ["sweep", "sweep_parameters", "MAX_SWEEP_VALUES", "sweep_work"]

#: values in one sweep: a chart of 200 points per line is already dense
MAX_SWEEP_VALUES = 200
_ON = ("target", "options", "situation")


def sweep_parameters(model: Any) -> list[str]:
    """Return the fields of ``model`` a sweep can run over: its declared whole-number and number
    fields (``workbench.fields.spec`` kinds "int" and "number")."""
    return [name for name, fs in specs(type(model)).items() if fs.kind in ("int", "number")]


def _length(values: Sequence | range) -> int:
    """Return how many values ``values`` holds, without listing them (a range longer than
    sys.maxsize has no len(): its length is computed)."""
    if isinstance(values, range):
        return max(0, (values.stop - values.start + values.step - (1 if values.step > 0 else -1)) // values.step)
    return len(values)


def _values(values: Any) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
        raise RulesError(f"give the values as a list or range of numbers, not {type(values).__name__}", field="values")
    # counted before any value is made: range(10**18) has a length but no list of it fits in memory
    n = _length(values)
    if not 1 <= n <= MAX_SWEEP_VALUES:
        raise RulesError(
            f"a sweep takes 1 to {MAX_SWEEP_VALUES} values, not {n:,}",
            field="values",
            rule="docs/limits.md: bounded work",
        )
    out = list(values)
    for v in out:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not math.isfinite(v)):
            raise RulesError(f"each value must be a finite number, not {v!r}", field="values")
    if len(set(out)) != len(out):
        raise RulesError("the values repeat; give each value once", field="values")
    return out


def _vary(model: Any, parameter: Any, values: list[Any], what: str) -> list[Any]:
    """Return ``model`` with ``parameter`` set to each value (each built, so checked, by the model)."""
    allowed = sweep_parameters(model)
    if not isinstance(parameter, str) or parameter not in allowed:
        raise RulesError(
            f"{parameter!r} is not a number field of the {what}; choose one of {', '.join(allowed)}",
            field="parameter",
        )
    kind = specs(type(model))[parameter].kind
    out = []
    for v in values:
        if kind == "int" and float(v) != int(v):
            raise RulesError(f"{parameter} is a whole number, not {v!r}", field="values")
        try:
            out.append(model.replace(**{parameter: int(v) if kind == "int" else float(v)}))
        except RulesError as err:
            raise RulesError(f"value {v!r}: {err}", field="values") from None
    return out


def sweep(
    attackers: Any,
    target: Any,
    parameter: str,
    values: Any,
    *,
    on: str = "target",
    options: Any = None,
    situation: Any = None,
    system: Any = None,
    max_rounds: int = 100,
    objective: Any = "damage",
    confirm: bool = False,
    fights: int | None = None,
    seed: int = 0,
    progress: Any = None,
) -> pl.DataFrame:
    """Return compare's rows of ``attackers`` against ``target`` for each value of ``parameter``.

    ``on`` names the model the parameter belongs to: "target" (default: the target's field, e.g.
    Unbound ``ac``, Annulus ``agility``, Glass Empires ``armor``, any system's ``hp``), "options"
    (e.g. Annulus ``base_pool``, the pool size) or "situation". ``parameter`` must be one of its
    number fields (:func:`sweep_parameters`); ``values`` a list or range of up to
    :data:`MAX_SWEEP_VALUES` numbers, each checked by the model. The frame has the columns
    ``parameter`` and ``value`` first, then every column of :func:`~workbench.comparison.compare`
    (``mean_damage``, ``mean_turn_damage``, ``p_kill_one_turn``, ``mean_rounds``, ``rounds_q10``,
    ``rounds_q50``, ``rounds_q90``, ``p_unresolved``, ``method``, ``se``, ``forced_by``, ...), one
    row per (value, attacker, attack) in the order of ``values``. The other arguments are
    compare's; ``fights`` defaults to compare's.
    """
    from .comparison import compare

    plan = _plan(
        attackers, target, parameter, values, on, options, situation, system, max_rounds, objective, fights, seed
    )
    vals, base, varied, kw = plan["vals"], plan["base"], plan["varied"], plan["kw"]
    if on == "target":
        labelled = plan["labelled"]
        frame = compare(
            attackers, labelled, options=options, situation=situation, confirm=confirm, progress=progress, **kw
        )
        index = {t.name: i for i, t in enumerate(labelled)}
        order = [index[n] for n in frame["target"]]
        frame = (
            frame.with_columns(
                pl.Series("_i", order), pl.Series("value", [float(vals[i]) for i in order]), target=pl.lit(base.name)
            )
            .sort("_i", maintain_order=True)
            .drop("_i")
        )
    else:
        # one compare per value: counted together before the first one runs (docs/limits.md)
        for w in _each_work(attackers, base, varied, on, options, situation, kw):
            check(w, check_confirm(confirm))
        parts = []
        for v, m in zip(vals, varied):
            given = {"options": m, "situation": situation} if on == "options" else {"options": options, "situation": m}
            got = compare(attackers, [base], confirm=confirm, progress=progress, **given, **kw)
            parts.append(got.with_columns(value=pl.lit(float(v))))
        frame = pl.concat(parts, how="vertical_relaxed")
    frame = frame.with_columns(parameter=pl.lit(f"{on}.{parameter}"))
    if all(float(v).is_integer() for v in vals):
        frame = frame.with_columns(pl.col("value").cast(pl.Int64))
    return frame.select(["parameter", "value", *[c for c in frame.columns if c not in ("parameter", "value")]])


def _plan(attackers, target, parameter, values, on, options, situation, system, max_rounds, objective, fights, seed):
    """Return the sweep's checked values, its base target, the varied models and compare's
    arguments (and with ``on="target"`` the targets labelled apart, one per value)."""
    from .comparison import _targets
    from .fight_rows import COMPARE_FIGHTS
    from .systems import system_of

    if on not in _ON:
        raise RulesError(f"on must be one of {', '.join(_ON)}, not {on!r}", field="on")
    vals = _values(values)
    found = _targets([target], system)
    if len(found) != 1:
        raise RulesError(f"a sweep takes one target, not {len(found)}", field="target")
    base = found[0]
    sys = system_of(base)
    kw = dict(
        system=system,
        max_rounds=max_rounds,
        objective=objective,
        fights=COMPARE_FIGHTS if fights is None else fights,
        seed=seed,
    )
    out = dict(vals=vals, base=base, kw=kw)
    if on == "target":
        out["varied"] = _vary(base, parameter, vals, "target")
        # unique names keep the rows of each value apart in one compare; the name is restored after
        out["labelled"] = [t.replace(name=f"{t.name} [{i}]") for i, t in enumerate(out["varied"])]
    else:
        model = sys.options_of(options) if on == "options" else sys.defaults(options, situation)[1]
        out["varied"] = _vary(model, parameter, vals, on)
    return out


def _each_work(attackers, base, varied, on, options, situation, kw) -> list[Work]:
    """Return the counted work of a sweep over Options or Situation, from sizes alone: one compare
    per value, so the sizes of one compare (``comparison.size_work``: rows, matchup units) times the
    values. Each compare then counts its own rows with state before its fights."""
    from .comparison import _prepare, size_work

    prep = _prepare(
        attackers,
        [base],
        kw["system"],
        kw["max_rounds"],
        kw["objective"],
        None,
        kw["fights"],
        kw["seed"],
        None,
        False,
        None,
        False,
    )
    n = len(varied)
    return repeated(size_work(prep["groups"], prep["max_rounds"], False), n, "sweep", "value", "values")


@counts("sweep")
def sweep_work(
    attackers: Any,
    target: Any,
    parameter: str,
    values: Any,
    *,
    on: str = "target",
    options: Any = None,
    situation: Any = None,
    system: Any = None,
    max_rounds: int = 100,
    objective: Any = "damage",
    confirm: bool = False,
    fights: int | None = None,
    seed: int = 0,
    progress: Any = None,
) -> list[Work]:
    """Return the counted work of :func:`sweep` with these arguments, as sweep checks it: the one
    compare of the varied targets, or the compares of the varied Options / Situation together."""
    from .comparison import compare_work

    plan = _plan(
        attackers, target, parameter, values, on, options, situation, system, max_rounds, objective, fights, seed
    )
    if on == "target":
        return compare_work(
            attackers, plan["labelled"], options=options, situation=situation, confirm=confirm, **plan["kw"]
        )
    return _each_work(attackers, plan["base"], plan["varied"], on, options, situation, plan["kw"])
