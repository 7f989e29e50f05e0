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

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from .errors import RulesError
from .fields import specs

__all__ = ["sweep", "sweep_parameters", "MAX_SWEEP_VALUES", "SWEEP_SECONDS"]

#: values in one sweep: a chart of 200 points per line is already dense
MAX_SWEEP_VALUES = 200
#: a sweep over Options or Situation runs one compare per value; past this projected time it
#: stops and asks (``confirm=True`` runs it), as compare does (docs/limits.md)
SWEEP_SECONDS = 10.0
_ON = ("target", "options", "situation")


def sweep_parameters(model: Any) -> list[str]:
    """Return the fields of ``model`` a sweep can run over: its declared whole-number and number
    fields (``workbench.fields.spec`` kinds "int" and "number")."""
    return [name for name, fs in specs(type(model)).items() if fs.kind in ("int", "number")]


def _values(values: Any) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
        raise RulesError(f"give the values as a list or range of numbers, not {type(values).__name__}", field="values")
    out = list(values)
    if not 1 <= len(out) <= MAX_SWEEP_VALUES:
        raise RulesError(
            f"a sweep takes 1 to {MAX_SWEEP_VALUES} values, not {len(out)}",
            field="values",
            rule="docs/limits.md: bounded work",
        )
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
            out.append(dataclasses.replace(model, **{parameter: int(v) if kind == "int" else float(v)}))
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
    from .comparison import _targets, compare
    from .fight_rows import COMPARE_FIGHTS

    if on not in _ON:
        raise RulesError(f"on must be one of {', '.join(_ON)}, not {on!r}", field="on")
    vals = _values(values)
    found = _targets([target], system)
    if len(found) != 1:
        raise RulesError(f"a sweep takes one target, not {len(found)}", field="target")
    base = found[0]
    from .systems import system_of

    sys = system_of(base)
    kw = dict(
        system=system,
        max_rounds=max_rounds,
        objective=objective,
        fights=COMPARE_FIGHTS if fights is None else fights,
        seed=seed,
        progress=progress,
    )
    if on == "target":
        varied = _vary(base, parameter, vals, "target")
        # unique names keep the rows of each value apart in one compare; the name is restored below
        labelled = [t.replace(name=f"{t.name} [{i}]") for i, t in enumerate(varied)]
        frame = compare(attackers, labelled, options=options, situation=situation, confirm=confirm, **kw)
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
        model = sys.options_of(options) if on == "options" else sys.defaults(options, situation)[1]
        varied = _vary(model, parameter, vals, on)
        from .arguments import run_each

        def one(i: int) -> pl.DataFrame:
            m = varied[i]
            given = {"options": m, "situation": situation} if on == "options" else {"options": options, "situation": m}
            frame = compare(attackers, [base], confirm=confirm, **given, **kw)
            return frame.with_columns(value=pl.lit(float(vals[i])))

        parts = run_each(
            len(varied),
            one,
            f"sweep (one compare per value of {parameter})",
            "give fewer values or attackers, or confirm=True to run it",
            confirm,
            SWEEP_SECONDS,
        )
        frame = pl.concat(parts, how="vertical_relaxed")
    frame = frame.with_columns(parameter=pl.lit(f"{on}.{parameter}"))
    if all(float(v).is_integer() for v in vals):
        frame = frame.with_columns(pl.col("value").cast(pl.Int64))
    return frame.select(["parameter", "value", *[c for c in frame.columns if c not in ("parameter", "value")]])
