"""Build-space search (docs/explore.md).

``explore(system, targets=..., budget=5)`` asks the rule system for its build space
(``RuleSystem.build_space``: every legal attack within the budget, with sets whose damage maths is
identical against these targets in this situation collapsed), evaluates the distinct builds
against every target in chunks (bounded memory) and returns the top-k per creature plus the
Pareto front of the ranked statistic vs cost. ``explore(system, targets=..., base=creature,
vary={...})`` does the same for every combination of fields marked variable on a base creature
(any system).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import sys as _sys
from collections.abc import Iterable
from typing import Any

import numpy as np
import polars as pl

from .arguments import check_confirm, check_fights, check_flag, check_seed
from .chains import one_blas_thread
from .comparison import _progress, _targets, matchup_tables
from .encounters import ENCOUNTERS, Group
from .errors import RulesError, show
from .fight_rows import COMPARE_FIGHTS
from .group_builds import check_group_by, group_builds_work, rank_against_groups
from .limits import BUDGET, LIMITS, MAX_COMBINATIONS, MAX_EXPLORE_ROWS, MAX_TOP_K, MAX_VARY
from .systems import system as _system
from .systems import system_of
from .work import Work, check, counts, show_progress

__all__ = ["explore", "explore_work", "estimate", "cost_front", "fighter", "method_line", "METHOD_COLUMNS"]

_STATS = ("mean_damage", "p_any_damage", "mean_turn_damage", "p_kill_one_turn")
#: the largest K of ``by="p_kill_within_K"`` (rounds of the kill chain per row)
MAX_WITHIN = 100
#: the columns of every explore row saying how it was computed (:func:`_method_columns`)
METHOD_COLUMNS = ("method", "se", "p_unresolved", "forced_by", "state_ignored")


def _vary_items(sys, base: Any, attack: Any, vary: dict[str, Iterable[Any]] | None, options, situation):
    """Yield (values, creature, attack, options, situation) for every combination of ``vary``."""
    if not isinstance(vary, dict) or not vary:
        raise RulesError("give vary={field: [values, ...]}", field="vary")
    keys = list(vary)
    cfields = set(sys.Creature.model_fields)
    afields = set(sys.Attack.model_fields)
    for key in keys:
        head, _, rest = key.partition(".")
        ok = (
            key in ("weapon", "attack")
            or (head in ("situation", "options") and rest)
            or (head == "attack" and rest in afields)
            or key in cfields
        )
        if not ok:
            raise RulesError(
                f"cannot vary {key!r}: use a {sys.name} creature field, 'attack', 'attack.<field>', "
                f"'situation.<field>' or 'options.<field>'",
                field="vary",
            )
    values = _vary_values(vary)
    for combo in itertools.product(*values):
        c_ch, a_ch, o_ch, s_ch, atk = {}, {}, {}, {}, attack
        for key, v in zip(keys, combo):
            head, _, rest = key.partition(".")
            if key in ("weapon", "attack"):
                atk = v
            elif head == "situation":
                s_ch[rest] = v
            elif head == "options":
                o_ch[rest] = v
            elif head == "attack":
                a_ch[rest] = v
            else:
                c_ch[key] = v
        creature = base.replace(**c_ch) if c_ch else base
        if isinstance(atk, str):
            match = [x for x in sys.attacks_of(creature) if x.name.lower() == atk.strip().lower()]
            atk = match[0] if match else sys.catalog().attack(atk)
        if atk is None:
            raise RulesError(
                "give attack= (or vary 'attack') to say which attack the base creature uses", field="attack"
            )
        atk = atk.replace(**a_ch) if a_ch else atk
        opt = (options or sys.Options()).replace(**o_ch) if o_ch else options
        sit = (situation or sys.Situation()).replace(**s_ch) if s_ch else situation
        yield dict(zip(keys, combo)), creature, atk, opt, sit


def _vary_values(vary: dict) -> list[list[Any]]:
    """Return the listed values of every varied field (each a list of at most MAX_VARY values)."""
    out = []
    for key, v in vary.items():
        if isinstance(v, (str, bytes)) or not isinstance(v, Iterable) or isinstance(v, dict):
            raise RulesError(f"vary[{key!r}] must be a list of values, not {show(v)}", field="vary")
        try:
            n = len(v)  # type: ignore[arg-type]
        except TypeError:
            n = None
        if n is not None and n > MAX_VARY:
            raise RulesError(f"vary[{key!r}] lists {n:,} values; at most {MAX_VARY:,}", field="vary", rule=LIMITS)
        items = list(itertools.islice(v, MAX_VARY + 1))
        if len(items) > MAX_VARY:
            raise RulesError(f"vary[{key!r}] lists more than {MAX_VARY:,} values", field="vary", rule=LIMITS)
        if not items:
            raise RulesError(f"vary[{key!r}] lists no value", field="vary")
        out.append(items)
    return out


#: seconds per upgrade combination walked and per (build, target) row evaluated on the reference
#: machine (benchmarks/bench_work.py): information only, for "about N s" in what explore says and in
#: :func:`estimate`; the decision is the counts' (MAX_COMBINATIONS, MAX_EXPLORE_ROWS)
RATE_COMBINATION = 7.5e-6
RATE_ROW = 2.8e-4
#: seconds per group row-fight (one copy of a group in one simulated fight) on the reference machine:
#: information only, for "about N s" (limits.MAX_GROUP_ROW_FIGHTS: 4.4e-4 measured beside 8 CPU
#: burners, scaled to a quiet machine by the row-fight measured in the same run)
RATE_GROUP_ROW_FIGHT = 4.7e-5
#: the columns of a group search after the build's own (workbench/group_builds.py)
_GROUP_COLUMNS = (
    "target_id",
    "target",
    "target_hp",
    "p_kill_one_turn",
    *[f"p_kill_within_{k}" for k in range(1, MAX_WITHIN + 1)],
    "mean_rounds",
    "rounds_q50",
    "rank",
    "pareto",
    *METHOD_COLUMNS,
)
_HOW_BUDGET = "give a smaller budget, or confirm=True (workbench explore --yes) to run it"


def _walk_work(sys: Any, budget: Any, n: int) -> Work:
    """Return the work of walking ``n`` combinations of ``sys``'s build space within ``budget``."""
    more = "at least " if n >= 10**10 else ""
    return Work(
        "explore",
        n,
        MAX_COMBINATIONS,
        f"{sys.build_combinations_noun}",
        f"budget {show(budget)} walks {more}{n:,} {sys.build_combinations_noun} of the {sys.name} build space",
        ("budget",),
        _HOW_BUDGET,
    )


def _rows_work(builds: int, targets: int, driver: str) -> Work:
    """Return the work of evaluating ``builds`` x ``targets`` rows."""
    return Work(
        "explore",
        builds * targets,
        MAX_EXPLORE_ROWS,
        "rows",
        f"evaluating {builds:,} distinct builds x {targets} targets = {builds * targets:,} rows",
        (driver, "targets"),
        "give a smaller budget or fewer targets, or confirm=True (workbench explore --yes) to run it"
        if driver == "budget"
        else "vary fewer values or give fewer targets, or confirm=True to run it",
    )


def _check_work(work: Work, rate: float, confirm: bool, say: Any) -> None:
    """Say what explore will do (``say`` True; None: when stderr is a terminal and the count is a
    tenth of its bound or more), with "about N s" on the reference machine as information; refuse
    (RulesError, field ``budget``) past the counted bound unless ``confirm``."""
    refused = work.refused(confirm)
    if say is True or (say is None and work.count * 10 >= work.bound and show_progress(None)):
        text = f"explore: {work.detail} (of the {work.bound:,} that run without asking)"
        text += f", {_duration(work.count * rate)} on the reference machine"
        print(text + ("; refused without confirm" if refused else ""), file=_sys.stderr, flush=True)
    check(work, confirm)


def _duration(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    if seconds < 120:
        return f"about {seconds:.0f} s"
    if seconds < 7200:
        return f"about {seconds / 60:.0f} min"
    return f"about {seconds / 3600:,.0f} h"


def estimate(
    system: Any = None,
    *,
    targets: Any,
    budget: int | None = None,
    vary: dict | None = None,
    options: Any = None,
    base: Any = None,
) -> dict[str, Any]:
    """Return what ``explore`` with these arguments would do, before any of it runs:
    ``combinations`` (the combinations the build space walks, ``RuleSystem.build_space_size``: upgrade
    combinations for Annulus, choice combinations for a declared choice space; None when the
    system cannot count them, or with ``vary``), ``builds`` (with a budget an upper bound,
    ``RuleSystem.builds_per_combination`` per combination (Annulus: three seeds): the distinct
    builds are known after the walk; with ``vary`` the exact count of combinations), ``targets``, ``rows`` (builds x targets with ``vary``; None with a budget) and
    ``seconds`` (rough: the walk at RATE_COMBINATION, or with ``vary`` the rows at RATE_ROW)."""
    tgt = _targets(targets, None if system is None else _system(system).name)
    first = getattr(tgt[0], "creature", tgt[0]) if tgt else None  # a group's creature
    sys_ = _system(system if system is not None else system_of(base if base is not None else first))
    if budget is not None:
        n = sys_.build_space_size(budget, options)
        builds = None if n is None else sys_.builds_per_combination * n
        seconds = 0.0 if n is None else n * RATE_COMBINATION
    else:
        if not isinstance(vary, dict) or not vary:
            raise RulesError("give vary={field: [values, ...]}", field="vary")
        n = None
        builds = math.prod(len(v) for v in _vary_values(vary))
        seconds = builds * len(tgt) * RATE_ROW
    rows = None if builds is None or budget is not None else builds * len(tgt)
    return {"combinations": n, "builds": builds, "targets": len(tgt), "rows": rows, "seconds": seconds}


@counts("explore")
def explore_work(
    system: Any = None,
    *,
    targets: Any,
    budget: int | None = None,
    vary: dict | None = None,
    options: Any = None,
    situation: Any = None,
    base: Any = None,
    confirm: bool = False,
    fights: int | None = None,
    **_: Any,
) -> list[Work]:
    """Return the counted work of :func:`explore` with these arguments, as explore checks it: the
    combinations of the walk (when the system counts them) and, when within bound (or confirmed),
    the distinct builds x targets it evaluates (a budget's builds are known after the walk, done
    here as explore does it; no build is evaluated). Other explore arguments are accepted and
    change no count."""
    confirm = check_confirm(confirm)
    tgt = _targets(targets, None if system is None else _system(system).name)
    plain = [getattr(t, "creature", t) for t in tgt]  # a group's creature
    crowd = [t for t in tgt if isinstance(t, Group)]
    shots = check_fights(COMPARE_FIGHTS if fights is None else fights)
    sys_ = _system(system if system is not None else system_of(base if base is not None else plain[0]))
    if budget is None:
        est = estimate(sys_, targets=plain, vary=vary, base=base)
        rows = _rows_work(est["builds"], len(tgt), "vary")
        return [rows] + ([group_builds_work(est["builds"], crowd, shots, "vary")] if crowd else [])
    out = []
    n = sys_.build_space_size(budget, options)
    if n is not None:
        out.append(_walk_work(sys_, budget, n))
        if out[-1].refused(confirm):
            return out
    space = sys_.build_space(budget, tgt, base, options, situation)
    out.append(_rows_work(space.size, len(tgt), "budget"))
    return out + ([group_builds_work(space.size, crowd, shots, "budget")] if crowd else [])


def within(by: str) -> int | None:
    """Return K of ``"p_kill_within_K"`` (1..MAX_WITHIN), else None."""
    if isinstance(by, str) and by.startswith("p_kill_within_") and by[len("p_kill_within_") :].isdigit():
        k = int(by[len("p_kill_within_") :])
        return k if 1 <= k <= MAX_WITHIN else None
    return None


def check_by(by: Any, objective: Any = None) -> str:
    """Return the figure explore ranks by (higher is better): ``by``, or the one the ``objective``
    names (the objective option of compare and rounds_to_kill, workbench.turns.check_objective):
    "damage" ranks by mean turn damage, "kill_within_K" by P(killed within K rounds) (the stateless
    kill chain, ``p_kill_within_K``); "rounds" (fewest expected rounds) is refused: explore keeps the
    highest of a figure, and the P(kill within K) of a few rounds ranks fights by speed."""
    if objective is not None:
        from .turns import check_objective

        k = check_objective(objective)
        if objective == "rounds":
            raise RulesError(
                "explore ranks by a figure where higher is better; rank by objective='kill_within_K' "
                "(e.g. kill_within_3), or compare the winners for their mean rounds",
                field="objective",
            )
        by = "mean_turn_damage" if k is None else f"p_kill_within_{k}"
    if isinstance(by, str) and (by in _STATS or within(by) is not None):
        return by
    raise RulesError(
        f"rank by mean_turn_damage, mean_damage, p_any_damage, p_kill_one_turn or p_kill_within_K "
        f"(K from 1 to {MAX_WITHIN}), not {by!r}",
        field="by",
    )


def pools_of(sys: Any, targets: list) -> np.ndarray:
    """Return the targets' hit pools, one row per target (``RuleSystem.hit_pools``)."""
    return np.array([sys.hit_pools(t) for t in targets], dtype=np.int64)


def one_turn_kill(pmf: np.ndarray, turn: np.ndarray, pools: np.ndarray) -> np.ndarray:
    """Return P(one turn kills) per row: turn ``pmf[turn[i]]`` (-1: none, 0) against ``pools[i]``. One
    pool: P(damage >= HP). Two (Annulus Endurance, Vitality; workbench.chains.kill_chains' channels=2):
    regular damage r spends Endurance first, vital damage v goes to Vitality, so the turn kills when
    v + max(0, r - Endurance) >= Vitality (P(r + v >= Endurance + Vitality) would miss Vital kills)."""
    out = np.zeros(turn.size)
    key = np.stack([turn, *pools.T], axis=1)
    uniq, back = np.unique(key, axis=0, return_inverse=True)
    vals = np.zeros(uniq.shape[0])
    for j, (t, *pool) in enumerate(uniq.tolist()):
        if t < 0:
            continue
        J = pmf[t]
        if J.ndim == 1:
            vals[j] = J[int(pool[0]) :].sum()
        else:
            r = np.arange(J.shape[0])[:, None]
            v = np.arange(J.shape[1])[None, :]
            vals[j] = J[(v + np.maximum(0, r - int(pool[0]))) >= int(pool[1])].sum()
    out[:] = np.clip(vals[np.ravel(back)], 0.0, 1.0)
    return out


def _chunk_stats(sys, pairs, targets, hp, options, situation) -> tuple[Any, np.ndarray]:
    """Return (stat(name, rows) -> that statistic on those rows, the usable mask) for one chunk;
    rows are pair-major × targets (flat indices). Statistics are computed once per distinct pmf and
    gathered, so only the rows asked for cost anything."""
    M = matchup_tables(sys, pairs, targets, options, situation)
    inv, tinv, ok = M["use_inv"], M["turn_inv"], M["row_ok"]
    nT = len(targets)
    if M["k"].size == 0:
        return (lambda name, rows: np.zeros(np.asarray(rows).size)), ok
    U, T = M["per_use"], M["turns"].total
    if T.shape[0] == 0:
        T = np.ones((1, 1))  # no usable turn: every row reads the no-damage turn below
    iu = np.maximum(inv, 0)
    it = np.where(tinv >= 0, tinv, T.shape[0])
    T = np.vstack([T, np.eye(1, T.shape[1])])  # the last row: a turn that never damages
    per_use = {"mean_damage": U @ np.arange(U.shape[1]), "p_any_damage": np.clip(1.0 - U[:, 0], 0.0, 1.0)}
    mean_turn = T @ np.arange(T.shape[1])

    def stat(name: str, rows: np.ndarray) -> np.ndarray:
        if name in per_use:
            return per_use[name][iu[rows]]
        if name == "mean_turn_damage":
            return mean_turn[it[rows]]
        if name == "p_kill_one_turn":
            return one_turn_kill(M["turns"].pmf, tinv[rows], pools_of(sys, targets)[rows % nT])
        k = within(name)
        if k is not None:  # P(killed within k rounds): the one kill chain (kill_stats), per distinct row;
            # over the target's pools, so Vital damage goes to Vitality (P(total damage >= HP) would not)
            from .chains import kill_stats

            pools = pools_of(sys, targets)
            key = np.stack([tinv[rows], rows % nT], axis=1)
            uniq, back = np.unique(key, axis=0, return_inverse=True)
            st = kill_stats(M["turns"].pmf, uniq[:, 0], pools[uniq[:, 1]], max_rounds=k, chain=True)
            return np.clip(st["p_killed_by"][:, k - 1][np.ravel(back)], 0.0, 1.0)
        raise RulesError(f"no figure {name!r}", field="by")

    return stat, ok


#: rows (builds x targets) explore evaluates in one call at most (``chunk_size`` builds, fewer when
#: there are many targets): the joint turn tables of a chunk are padded to one shape, so a chunk of
#: 2,000 builds against the 11 Annulus catalog creatures took 2.8 GB and 17 s at budget 5, chunks
#: of 30 took 75 MB and 3.9 s (measured 2026-12-01, the 2-core machine)
ROWS_PER_CHUNK = 1_000_000
#: without ``chunk_size`` a chunk is sized by rows: as many builds as make CHUNK_ROWS rows against the
#: targets, and at least CHUNK_BUILDS (the old default, whose chunks of 352 rows against the 11
#: Annulus catalog creatures left explore to per-chunk costs: 6,000-9,000 rows/s at budget 5,
#: issue 38). A chunk's memory grows with its rows: with 16,384-row chunks the peak resident memory
#: of a budget search against each system's whole catalog was 104-233 MB (Annulus budget 5 the most;
#: 168 MB with 32 builds a chunk), measured 2026-12-05 on the 2-core machine
CHUNK_ROWS = 16_384
CHUNK_BUILDS = 32
#: explore's statistics are rounded to the nearest multiple of 1 / GRID: the engine's turn tables
#: differ by an ulp or so from call to call (the Annulus outcome rows are summed in polars' group
#: order, which varies), so unrounded a resumed or a distributed run could differ from an
#: uninterrupted one in the last bit and break a tie the other way. Dice probabilities are
#: fractions over powers of 2 and 3: every value whose denominator divides GRID = 2**36 * 3**3 is
#: kept exactly and rounds the same from any run; any other moves by at most 0.5 / GRID (2.7e-13).
#: (Rounding to 12 decimal places was tried first: dyadic values such as 3339/8192 =
#: 0.4075927734375 sit exactly on a decimal tie, and 3 of 103,158 rows of budget 6 flipped.)
GRID = 2**36 * 3**3


def _canonical(values: np.ndarray) -> np.ndarray:
    """Return ``values`` rounded to the nearest multiple of 1 / GRID (see GRID)."""
    return np.rint(np.asarray(values, dtype=np.float64) * GRID) / GRID


_KEY = ["target_id", "maths_hi", "maths_lo"]


def _unit_rows(sys, unit: dict, tgt: list, hp: np.ndarray, by: str | None = None) -> pl.DataFrame:
    """Return every usable (build, target) row of one chunk, pair-major: build_id, target_id, the
    four statistics and ``by`` when it is another (to the nearest 1 / GRID), cost (budget searches) and, when the build space gives them
    (``BuildSpace.maths_keys``), the maths key (maths_hi, maths_lo)."""
    ids = np.asarray(unit["ids"], dtype=np.int64)
    pairs = [(c, a) for c, a in zip(unit["creatures"], unit["attacks"])]
    stat, ok = _chunk_stats(sys, pairs, tgt, hp, unit["options"], unit["situation"])
    rows = np.flatnonzero(ok)
    cols: dict[str, Any] = {
        "build_id": pl.Series(ids[rows // len(tgt)], dtype=pl.Int64),
        "target_id": pl.Series(rows % len(tgt), dtype=pl.Int64),
        **{c: pl.Series(_canonical(stat(c, rows)), dtype=pl.Float64) for c in _figures(by)},
    }
    if unit["cost"] is not None:
        cols["cost"] = pl.Series(np.asarray(unit["cost"], dtype=np.int64)[rows // len(tgt)], dtype=pl.Int64)
    if unit.get("maths") is not None:  # the build space's exact maths keys, per (build, target)
        hi, lo = unit["maths"](unit["creatures"][0], unit["attacks"], tgt, unit["options"], unit["situation"])
        cols["maths_hi"] = pl.Series(np.asarray(hi).ravel()[rows], dtype=pl.UInt64)
        cols["maths_lo"] = pl.Series(np.asarray(lo).ravel()[rows], dtype=pl.UInt64)
    return pl.DataFrame(cols)


def _figures(by: str | None) -> tuple[str, ...]:
    """Return the figures of explore's rows: the four of every run, and ``by`` when it is another
    (``p_kill_within_K``)."""
    return _STATS if by is None or by in _STATS else (*_STATS, by)


def _first_of_class(frame: pl.DataFrame) -> pl.DataFrame:
    """Return, per (target, maths key), the row of the lowest build id (the cheapest: build ids
    follow cost)."""
    return frame.sort("build_id").unique(_KEY, keep="first", maintain_order=True).select(frame.columns)


def _reduce(rows: pl.DataFrame, by: str, k: int, merge: bool) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Return (the rows of one chunk that can survive the running top-k and Pareto front, the
    chunk's maths classes: target_id, maths key, same_as (rows of the class), rep (its lowest build
    id); None without merging). With ``merge`` only the first row of each class competes."""
    classes = None
    if merge:
        classes = rows.group_by(_KEY).agg(
            pl.len().cast(pl.Int64).alias("same_as"), pl.col("build_id").min().alias("rep")
        )
        rows = _first_of_class(rows)
    parts = [_top(rows, by, k)]
    if "cost" in rows.columns:
        parts.append(_front_candidates(rows, by))
    return pl.concat(parts).unique(["build_id", "target_id"], keep="first", maintain_order=True), classes


def _run_unit(system_name: str, unit: dict, tgt: list, hp: np.ndarray, by: str, k: int, merge: bool, path: Any):
    """Evaluate one chunk (in this process or on a Dask worker): return (candidates, classes,
    rows evaluated); with ``path`` first write its every usable row to that Parquet file, atomically."""
    sys = _system(system_name)
    with one_blas_thread():  # the chunk's products are small (workbench.chains.one_blas_thread)
        rows = _unit_rows(sys, unit, tgt, hp, by)
    if path is not None:
        _write_part(rows, unit, tgt, path)
    cands, classes = _reduce(rows, by, k, merge)
    return cands, classes, len(unit["ids"]) * len(tgt)


def _to_wire(obj: Any) -> Any:
    """Return a model as a plain document (workbench.io), for a Dask task: rule models are sent as
    documents and rebuilt by the worker (the documents are plain data; None stays None)."""
    from .io import to_document

    return None if obj is None else to_document(obj)


def _from_wire(doc: Any) -> Any:
    from .io import from_document

    return None if doc is None else from_document(doc)


def _unit_to_wire(unit: dict) -> dict:
    """Return a chunk whose models are documents (each distinct creature once)."""
    seen: dict[int, int] = {}
    docs: list = []
    index = []
    for c in unit["creatures"]:
        if id(c) not in seen:
            seen[id(c)] = len(docs)
            docs.append(_to_wire(c))
        index.append(seen[id(c)])
    return {
        **unit,
        "creatures": (docs, index),
        "attacks": [_to_wire(a) for a in unit["attacks"]],
        "options": _to_wire(unit["options"]),
        "situation": _to_wire(unit["situation"]),
    }


def _run_wire_unit(system_name: str, unit: dict, tgt_docs: list, hp, by: str, k: int, merge: bool, path: Any):
    """A Dask task: rebuild the chunk's models from their documents and run :func:`_run_unit`."""
    docs, index = unit["creatures"]
    made = [_from_wire(d) for d in docs]
    unit = {
        **unit,
        "creatures": [made[i] for i in index],
        "attacks": [_from_wire(a) for a in unit["attacks"]],
        "options": _from_wire(unit["options"]),
        "situation": _from_wire(unit["situation"]),
    }
    return _run_unit(system_name, unit, [_from_wire(t) for t in tgt_docs], hp, by, k, merge, path)


def _write_part(rows: pl.DataFrame, unit: dict, tgt: list, path: Any) -> None:
    """Write one chunk's rows (with the build's descriptive columns and the target's name) to
    ``path``: to a temporary file in its folder, then renamed over it (no reader sees half a file)."""
    from pathlib import Path

    path = Path(path)
    info = unit["info"]
    names = pl.DataFrame({"target_id": np.arange(len(tgt), dtype=np.int64), "target": [t.name for t in tgt]})
    out = rows.join(info, on="build_id", how="left", suffix="_info", maintain_order="left").join(
        names, on="target_id", how="left", maintain_order="left"
    )
    out = out.drop([c for c in out.columns if c.endswith("_info")])
    from .io import temporary_beside

    tmp = temporary_beside(path)  # marked: a later run removes it only if it can prove it wrote it
    try:
        out.write_parquet(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _units_budget(space: Any, nb: int, options, situation):
    """Yield the chunks of a budget search: the build space's frames of at most ``nb`` builds."""
    for frame in space.frames(nb):
        builds = frame["build"].to_list()
        yield {
            "ids": frame["build_id"].to_numpy(),
            "creatures": [space.attacker] * len(builds),
            "attacks": builds,
            "options": options,
            "situation": situation,
            "cost": frame["cost"].to_numpy(),
            "info": frame.drop("build"),
            "maths": space.maths_keys,
        }


#: a budget search over at most this many builds keeps its chunks (the builds' Attacks and descriptive
#: rows) to read the returned rows' builds from; a larger space is walked again for them
KEEP_BUILDS = 20_000


def _keeping(units: Any, kept: list) -> Any:
    """Yield the chunks of ``units``, each also appended to ``kept`` (without its maths keys)."""
    for unit in units:
        kept.append({k: unit[k] for k in ("ids", "creatures", "attacks", "info")})
        yield unit


def _units_vary(items: list, info: pl.DataFrame, nb: int):
    """Yield the chunks of a vary search: items grouped by (options, situation), ``nb`` at a time."""
    order = sorted(range(len(items)), key=lambda i: (repr(items[i][2]), repr(items[i][3]), i))
    keyed: dict[tuple, list[int]] = {}
    for i in order:
        keyed.setdefault((repr(items[i][2]), repr(items[i][3])), []).append(i)
    info = info.with_row_index("build_id").with_columns(pl.col("build_id").cast(pl.Int64))
    for ids in keyed.values():
        for start in range(0, len(ids), nb):
            part = ids[start : start + nb]
            yield {
                "ids": np.asarray(part, dtype=np.int64),
                "creatures": [items[i][0] for i in part],
                "attacks": [items[i][1] for i in part],
                "options": items[part[0]][2],
                "situation": items[part[0]][3],
                "cost": None,
                "info": info[np.asarray(part, dtype=np.int64)],
            }


def explore(
    system: Any = None,
    *,
    targets: Any,
    budget: int | None = None,
    vary: dict | None = None,
    top_k: int = 10,
    chunk_size: int | None = None,
    progress: Any = None,
    options: Any = None,
    situation: Any = None,
    base: Any = None,
    attack: Any = None,
    by: str | None = None,
    confirm: bool = False,
    say: bool | None = None,
    merge: bool = True,
    objective: Any = None,
    output: Any = None,
    resume: bool = False,
    executor: Any = None,
    engine: str = "local",
    fights: int | None = None,
    seed: int = 0,
) -> pl.DataFrame:
    """Return the best builds against each target: the top ``top_k`` per target by ``by`` (higher is
    better: ``mean_turn_damage``, ``mean_damage``, ``p_any_damage``, ``p_kill_one_turn``, or
    ``p_kill_within_K``, P(killed within K rounds) by the kill chain of the build's turn, a column of
    its own), plus, for budgets, every build on the Pareto front of ``by`` vs cost (``pareto``).
    ``objective`` (the option of compare and rounds_to_kill) names ``by`` instead: "damage" is mean
    turn damage, "kill_within_K" is ``p_kill_within_K``; "rounds" is refused (:func:`check_by`).
    ``by`` None (the default) is ``mean_turn_damage``.

    Against groups (``targets`` "3 x Wolf" or ``workbench.encounters.Group`` s, all of them groups;
    docs/explore.md, Against a group): every build plays compare's group fight (the build as often as
    a turn allows against passive copies, an area set striking every copy in its area;
    workbench/group_builds.py), of ``fights`` fights (default 2,000) seeded by ``seed`` where
    simulated, and builds rank by how fast the group falls: ``mean_rounds`` (the default, and
    objective "rounds"; fewest first), ``p_kill_one_turn`` (every copy in the first round) or
    ``p_kill_within_K``. Columns: the build's, target, target_hp (the group's), p_kill_one_turn,
    [p_kill_within_K], mean_rounds, rounds_q50, rank, pareto, the method columns (``method`` exact or
    simulated), and with a budget same_as (1: builds are not merged, an area set and a plain one may
    share one copy's maths) and legal_sets. Its work is counted first: builds x copies x ``fights``
    against limits.MAX_STATE_ROW_FIGHTS. ``output`` and Dask are for creature targets.

    ``system`` (a name or rule system) defaults to that of ``base``, else of the first target
    (a creature or a ``"system:Name"`` catalog name). With ``budget``: every build in the system's
    build space (``RuleSystem.build_space``; for Annulus, every legal attack set within that
    Experience, see workbench/systems/annulus/builds.py; for a system declaring
    ``RuleSystem.build_choices``, every catalog attack with at most ``budget`` declared fields
    changed, see workbench/systems/builds.py, choice_space), used by ``base`` (default: the system's
    neutral attacker); a system without one raises RulesError. Any system with ``vary``: every
    combination of the listed fields on ``base`` using ``attack`` (keys: creature fields,
    ``attack``/``weapon`` (a list of attacks or names), ``attack.<field>``, ``situation.<field>``,
    ``options.<field>``). Builds are evaluated in chunks of at most ``chunk_size`` builds and
    ROWS_PER_CHUNK rows (builds x targets; without ``chunk_size``, CHUNK_ROWS rows and at least
    CHUNK_BUILDS builds), the space enumerated chunk by chunk, keeping only the running top-k and
    front (the result does not depend on the chunks). Columns: the build space's descriptive columns (Annulus: name, seed,
    cost, sets; a choice space: name, base, changes, cost) or the varied fields (vary), target,
    target_hp, mean_damage, p_any_damage, mean_turn_damage, p_kill_one_turn, rank (1 = best per
    target), pareto, the method columns, and with a budget ``same_as`` and legal_sets.

    Identical maths (budget searches, ``merge`` True, the default; docs/explore.md): against one
    target, builds whose maths keys are equal (``BuildSpace.maths_keys``: for Annulus the resolved
    dice parameters that ``damage_keys`` compares, so equal per-use and per-turn damage over the
    pools) are one candidate: the cheapest (lowest build id; build ids follow cost) stands for them
    all, and ``same_as`` counts the builds it stands for (itself included).

    ``output`` (a folder): every usable row (not only the top-k) is written there chunk by chunk as
    a Parquet dataset (``part-NNNNNN.parquet``, each written to a temporary file and renamed), with
    ``manifest.json`` (the parameters' digests and the chunks done); ``resume=True`` skips the
    chunks already written (a run stopped by Ctrl-C resumes), and a folder holding a run of other
    parameters is refused (RulesError naming the field that differs). ``executor`` (a
    ``dask.distributed.Client``) or ``engine="dask"`` (a local cluster) runs the chunks as Dask
    tasks; the result is the same, row for row.

    Bounded work (docs/limits.md, Bounded work), counted, the same on every machine: before the walk
    the combinations it walks (``RuleSystem.build_space_size``: Annulus upgrade combinations),
    past limits.MAX_COMBINATIONS, and before the evaluation its distinct builds x targets, past
    limits.MAX_EXPLORE_ROWS, are refused (RulesError, field ``budget``, naming the count, the bound
    and the ways on) unless ``confirm=True`` (the CLI: ``workbench explore --yes``);
    :func:`explore_work` returns the counts and ``workbench.work.estimate(explore, ...)`` the
    decision. ``say``: True writes each count to stderr before its work (with "about N s on the
    reference machine"), False never, None (the default) when stderr is a terminal and the count is
    a tenth of its bound or more.
    """
    confirm = check_confirm(confirm)
    check_flag("progress", progress)
    say = check_flag("say", say)
    merge = bool(check_flag("merge", merge, allow_none=False))
    resume = bool(check_flag("resume", resume, allow_none=False))
    if engine not in ("local", "dask"):
        raise RulesError(f"engine must be 'local' or 'dask', not {show(engine)}", field="engine")
    if executor is not None and not all(hasattr(executor, m) for m in ("submit", "scatter", "scheduler_info")):
        raise RulesError(f"give a dask.distributed.Client, not {show(executor)}", field="executor")
    if say is None and progress is False:
        say = False
    tgt = None
    if system is None:
        if base is not None:
            system = system_of(base)
        else:
            tgt = _targets(targets, None)
            if not tgt:
                raise RulesError("give system= (there is no target to take it from)", field="system")
            system = system_of(getattr(tgt[0], "creature", tgt[0]))
    sys = _system(system)
    tgt = _targets(targets, sys.name) if tgt is None else tgt
    crowd = [t for t in tgt if isinstance(t, Group)]
    if any(_system(type(getattr(t, "creature", t)).system).name != sys.name for t in tgt):
        raise RulesError(f"every target must be a {sys.name} creature", field="targets")
    if crowd:  # ranked by how fast each group falls (workbench/group_builds.py)
        if len(crowd) != len(tgt):
            raise RulesError(
                "explore ranks builds against creatures or against groups: give the groups and the creatures "
                "in two calls",
                field="targets",
                rule=ENCOUNTERS,
            )
        for name, value in (("output", output), ("executor", executor)):
            if value is not None:
                raise RulesError(f"{name}= is for creature targets; a group search returns its frame", field=name)
        if engine != "local":
            raise RulesError("engine='dask' is for creature targets; a group search runs here", field="engine")
        by = check_group_by(by, objective, within(by) if isinstance(by, str) else None)
        fights = check_fights(COMPARE_FIGHTS if fights is None else fights)
        seed = check_seed(seed)
        tgt = list({g.name: g for g in crowd}.values())  # a group given twice is one
        crowd = tgt
    else:
        if fights is not None:
            raise RulesError(
                'fights= is for group targets ("3 x Wolf"); against a creature explore plays no fight', field="fights"
            )
        by = check_by("mean_turn_damage" if by is None else by, objective)
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise RulesError(
            f"must be a whole number from 1 to {MAX_TOP_K:,}, not {show(top_k)}", field="top_k", rule=BUDGET
        )
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise RulesError(f"must be a whole number >= 1 or None, not {chunk_size!r}", field="chunk_size")
    plain = [getattr(t, "creature", t) for t in tgt]  # a group's creature, for the build space
    hp = np.array([sys.hit_points(t) for t in plain], dtype=np.int64)
    if (budget is None) == (vary is None):
        raise RulesError(
            "give either budget= (every legal attack within a budget) or vary= (fields of a base creature)",
            field="budget",
        )
    if chunk_size is None:  # sized by rows (CHUNK_ROWS)
        chunk_size = max(CHUNK_BUILDS, CHUNK_ROWS // max(len(tgt), 1))
    nb = max(1, min(chunk_size, ROWS_PER_CHUNK // max(len(tgt), 1)))
    items: list | None = None
    kept: Any = None  # a budget search's chunks, when kept (KEEP_BUILDS)
    if budget is not None:
        n = sys.build_space_size(budget, options)
        if n is not None:
            _check_work(_walk_work(sys, budget, n), RATE_COMBINATION, confirm, say)
        space = sys.build_space(budget, tgt, base, options, situation)
        merge = merge and space.maths_keys is not None  # a space without exact keys merges nothing
        counts = space.counts
        n_builds = space.size
        _check_work(_rows_work(n_builds, len(tgt), "budget"), RATE_ROW, confirm, say)
        units = _units_budget(space, nb, options, situation)
        if n_builds <= KEEP_BUILDS:  # the returned rows' builds are then read from these chunks
            kept = []
            units = _keeping(units, kept)
    else:
        merge = False  # vary: no cost to say which of two identical builds is the cheaper
        if base is None:
            raise RulesError("give base= (the creature whose fields vary)", field="base")
        est = estimate(sys, targets=tgt, vary=vary, base=base)
        _check_work(_rows_work(est["builds"], len(tgt), "vary"), RATE_ROW, confirm, say)
        combos = list(_vary_items(sys, base, attack, vary, options, situation))
        vinfo = pl.DataFrame(
            [
                {k: (v.name if hasattr(v, "name") and not isinstance(v, str) else v) for k, v in c[0].items()}
                for c in combos
            ],
            infer_schema_length=None,
        )
        items = [c[1:] for c in combos]
        counts = {"distinct": len(items)}
        n_builds = len(items)
        units = _units_vary(items, vinfo, nb)
    if crowd:
        _check_work(
            group_builds_work(n_builds, crowd, int(fights or 0), "budget" if budget is not None else "vary"),
            RATE_GROUP_ROW_FIGHT,
            confirm,
            say,
        )
        # each build's attacker holds only the build (as every explore row's fight: fighter)
        fighting = (
            {**u, "creatures": [fighter(sys, c, a) for c, a in zip(u["creatures"], u["attacks"])]} for u in units
        )
        result = rank_against_groups(
            fighting,
            crowd,
            n_builds,
            by=by,
            k=within(by),
            top_k=top_k,
            fights=int(fights or 0),
            seed=seed,
            progress=progress,
        )
        lead = [c for c in result.columns if c not in _GROUP_COLUMNS and c != "build_id"]
        cols = lead + [c for c in _GROUP_COLUMNS if c in result.columns and c != "target_id"]
        if budget is not None:
            result = result.with_columns(
                pl.lit(1, dtype=pl.Int64).alias("same_as"),
                pl.lit(counts.get("legal_sets"), dtype=pl.Int64).alias("legal_sets"),
            )
            cols += ["same_as", "legal_sets"]
        return result.select(cols)
    store = None
    if output is not None:
        params = {
            "system": sys.name,
            "budget": budget,
            "vary": vary,
            "targets": tgt,
            "base": base,
            "attack": attack,
            "options": options,
            "situation": situation,
            "by": by,
            "top_k": top_k,
            "chunk_size": nb,
            "merge": merge,
        }
        store = _Store(output, params, resume)
    fold = _Fold(by, top_k, merge)
    bar = _progress(progress, n_builds * len(tgt), "explore")
    try:
        _run_units(sys.name, units, tgt, hp, by, top_k, merge, store, fold, bar, executor, engine)
    finally:
        if bar is not None:
            bar.close()
    if store is not None:
        store.finish()
    best, front = fold.result()
    if best is None or best.height == 0:
        raise RulesError("no build is usable against these targets in this situation", field="targets")
    # the returned builds: their Attacks and descriptive columns, read again from the build space
    want = set(best["build_id"].to_list()) | (set(front["build_id"].to_list()) if front is not None else set())
    if budget is not None:
        chosen: dict[int, tuple] = {}
        infos = []
        source = kept  # else walked again, chunk by chunk
        if source is None:
            source = _units_budget(sys.build_space(budget, tgt, base, options, situation), 4096, options, situation)
        for unit in source:
            for j, b in enumerate(unit["ids"].tolist()):
                if b in want:
                    chosen[b] = (unit["creatures"][j], unit["attacks"][j], options, situation)
            infos.append(unit["info"].filter(pl.col("build_id").is_in(list(want))))
        info = pl.concat(infos).sort("build_id")
        lookup = chosen
    else:
        info = vinfo.with_row_index("build_id").with_columns(pl.col("build_id").cast(pl.Int64))
        lookup = dict(enumerate(items or []))
    if front is not None:
        pareto = _pareto(front, by)
        out = pl.concat([best, pareto.select(best.columns)]).unique(["build_id", "target_id"], keep="first")
        out = out.join(
            pareto.select("build_id", "target_id").with_columns(pl.lit(True).alias("pareto")),
            on=["build_id", "target_id"],
            how="left",
        ).with_columns(pl.col("pareto").fill_null(False))
    else:
        out = best.with_columns(pl.lit(None, dtype=pl.Boolean).alias("pareto"))
    out = out.with_columns(pl.col(by).rank("min", descending=True).over("target_id").cast(pl.Int64).alias("rank"))
    names = pl.DataFrame({"target_id": np.arange(len(tgt)), "target": [t.name for t in tgt], "target_hp": hp})
    out = out.drop([c for c in ("cost",) if c in out.columns])
    out = out.join(info, on="build_id").join(names, on="target_id").sort(["target_id", "rank", "build_id"])
    out = out.with_columns(_method_columns(sys, lookup, tgt, out["build_id"].to_numpy(), out["target_id"].to_numpy()))
    lead = [c for c in info.columns if c != "build_id"]
    cols = lead + [
        "target",
        "target_hp",
        "mean_damage",
        "p_any_damage",
        "mean_turn_damage",
        "p_kill_one_turn",
        *[c for c in _figures(by) if c not in _STATS],
        "rank",
        "pareto",
        *METHOD_COLUMNS,
    ]
    if budget is not None:
        out = out.with_columns(pl.col("same_as").fill_null(1) if merge else pl.lit(1, dtype=pl.Int64).alias("same_as"))
        cols.append("same_as")
    result = out.select(cols)
    result = (
        result.with_columns(pl.lit(counts.get("legal_sets"), dtype=pl.Int64).alias("legal_sets"))
        if budget is not None
        else result
    )
    return result


class _Fold:
    """The running top-k, front candidates and maths classes, folded chunk by chunk in chunk order
    (so a Dask run, whose chunks finish in any order, folds exactly as one process does)."""

    def __init__(self, by: str, k: int, merge: bool) -> None:
        self.by, self.k, self.merge = by, k, merge
        self.best: pl.DataFrame | None = None
        self.front: pl.DataFrame | None = None
        self.classes: pl.DataFrame | None = None
        self._parts: list[pl.DataFrame] = []
        self._rows = 0

    def add(self, cands: pl.DataFrame, classes: pl.DataFrame | None) -> None:
        """Fold one chunk's candidates and classes in."""
        if cands.height == 0:
            return
        best = cands if self.best is None else pl.concat([self.best, cands])
        self.best = _top(_first_of_class(best) if self.merge else best, self.by, self.k)
        if "cost" in cands.columns:
            front = cands if self.front is None else pl.concat([self.front, cands])
            self.front = _front_candidates(_first_of_class(front) if self.merge else front, self.by)
        if classes is not None:  # compacted now and then: the work stays linear in the chunks
            self._parts.append(classes)
            self._rows += classes.height
            if self._rows > 2 * (0 if self.classes is None else self.classes.height) + 100_000:
                self._compact()

    def _compact(self) -> None:
        if self._parts:
            both = pl.concat(([] if self.classes is None else [self.classes]) + self._parts)
            self.classes = both.group_by(_KEY).agg(pl.col("same_as").sum(), pl.col("rep").min())
            self._parts, self._rows = [], 0

    def result(self) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
        """Return (top-k rows, front candidates); with merging only each class's first build
        (lowest id of all chunks) is kept, with its ``same_as``."""
        self._compact()
        best, front = self.best, self.front
        if self.merge and self.classes is not None and best is not None:
            cls = self.classes

            def keep(f: pl.DataFrame | None) -> pl.DataFrame | None:
                if f is None:
                    return None
                f = f.join(cls, on=_KEY, how="left")
                return f.filter(pl.col("build_id") == pl.col("rep")).drop("rep")

            best, front = keep(best), keep(front)
            best = _top(best, self.by, self.k) if best is not None else None
        if best is not None:
            best = best.drop([c for c in ("maths_hi", "maths_lo") if c in best.columns])
        if front is not None:
            front = front.drop([c for c in ("maths_hi", "maths_lo") if c in front.columns])
        return best, front


def _run_units(system_name, units, tgt, hp, by, k, merge, store, fold, bar, executor, engine) -> None:
    """Evaluate every chunk (in this process, or as Dask tasks), fold them in order, write and
    record them in ``store``; chunks ``store`` already holds are read back instead."""
    client, owned = executor, None
    if client is None and engine == "dask":
        client, owned = _local_client()
    try:
        if client is None:
            for i, unit in enumerate(units):
                got = _done_unit(store, i, by, k, merge)
                if got is None:
                    got = _run_unit(system_name, unit, tgt, hp, by, k, merge, store and store.part(i))
                    if store is not None:
                        store.done(i)
                fold.add(got[0], got[1])
                if bar is not None:
                    bar.update(len(unit["ids"]) * len(tgt))
        else:
            _run_dask(client, system_name, units, tgt, hp, by, k, merge, store, fold, bar)
    finally:
        if owned is not None:
            for o in owned:
                o.close()


def _done_unit(store, i: int, by: str, k: int, merge: bool):
    """Return chunk ``i``'s (candidates, classes, rows) read back from ``store``; None when not written."""
    if store is None or not store.has(i):
        return None
    rows = pl.read_parquet(store.part(i))
    keep = [c for c in ("build_id", "target_id", *_STATS, "cost", "maths_hi", "maths_lo") if c in rows.columns]
    cands, classes = _reduce(rows.select(keep), by, k, merge)
    return cands, classes, None


def _local_client():
    """Return (a Client of a new local Dask cluster, the objects to close after)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RulesError(
            "engine='dask' needs dask.distributed: pip install rules-workbench[cluster]", field="engine"
        ) from None
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    return client, (client, cluster)


def _run_dask(client, system_name, units, tgt, hp, by, k, merge, store, fold, bar) -> None:
    """Run the chunks as Dask tasks (a bounded number in flight), folding results in chunk order."""
    from dask.distributed import wait

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    window = 2 * workers + 2
    tgt_f = client.scatter([[_to_wire(t) for t in tgt]], broadcast=True)[0]
    hp_f = client.scatter([hp], broadcast=True)[0]
    pending: dict[int, Any] = {}
    ready: dict[int, tuple] = {}
    sizes: dict[int, int] = {}
    nxt = 0
    it = enumerate(units)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window:
                try:
                    i, unit = next(it)
                except StopIteration:
                    exhausted = True
                    break
                sizes[i] = len(unit["ids"]) * len(tgt)
                got = _done_unit(store, i, by, k, merge)
                if got is not None:
                    ready[i] = got
                    continue
                path = store.part(i) if store is not None else None
                pending[i] = client.submit(
                    _run_wire_unit, system_name, _unit_to_wire(unit), tgt_f, hp_f, by, k, merge, path, pure=False
                )
            if pending:
                done, _ = wait(list(pending.values()), return_when="FIRST_COMPLETED")
                for i in [i for i, f in pending.items() if f in done]:
                    ready[i] = pending.pop(i).result()
                    if store is not None:
                        store.done(i)
            while nxt in ready:
                got = ready.pop(nxt)
                fold.add(got[0], got[1])
                if bar is not None:
                    bar.update(sizes.pop(nxt))
                nxt += 1
            if exhausted and not pending and not ready:
                break
    finally:
        for f in pending.values():
            f.cancel()


class _Store:
    """A Parquet dataset folder of one explore run: ``part-NNNNNN.parquet`` per chunk and
    ``manifest.json`` (format, the digest of each parameter, the chunks done, complete)."""

    FORMAT = 1

    def __init__(self, folder: Any, params: dict, resume: bool) -> None:
        from pathlib import Path

        if not isinstance(folder, (str, os.PathLike)):
            raise RulesError(f"give a folder path, not {show(folder)}", field="output")
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise RulesError(f"{self.folder} is a file, not a folder", field="output")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.digests = {k: hashlib.sha256(repr(v).encode()).hexdigest()[:32] for k, v in params.items()}
        self.manifest = self.folder / "manifest.json"
        self.chunks: set[int] = set()
        if self.manifest.exists():
            try:
                old = json.loads(self.manifest.read_text())
            except (OSError, ValueError) as exc:
                raise RulesError(f"{self.manifest} cannot be read ({exc})", field="output") from None
            if old.get("format") != self.FORMAT:
                raise RulesError(f"{self.manifest} is not an explore manifest of format {self.FORMAT}", field="output")
            for key, value in self.digests.items():
                if old.get("parameters", {}).get(key) != value:
                    raise RulesError(
                        f"{self.folder} holds an explore run with another {key}; give the same {key} "
                        f"or another output folder",
                        field=key,
                    )
            if not resume:
                raise RulesError(
                    f"{self.folder} already holds this run ({len(old.get('chunks', []))} chunks); "
                    f"give resume=True to continue it, or another output folder",
                    field="resume",
                )
            self.chunks = {int(i) for i in old.get("chunks", []) if self.part(int(i)).exists()}
        elif any(self.folder.glob("part-*.parquet")):
            raise RulesError(f"{self.folder} holds Parquet parts without a manifest", field="output")
        # parts and manifests stranded by a killed run: only the temporary files it can prove a run
        # wrote (marked name, writer gone, Parquet or JSON content), never a file by its name alone
        from .io import remove_stranded

        remove_stranded(self.folder, None, (b"PAR1", b"{"))
        self._write(complete=False)

    def part(self, i: int) -> Any:
        return self.folder / f"part-{i:06d}.parquet"

    def has(self, i: int) -> bool:
        return i in self.chunks

    def done(self, i: int) -> None:
        """Record chunk ``i`` as written (its file was renamed in place)."""
        self.chunks.add(i)
        self._write(complete=False)

    def finish(self) -> None:
        self._write(complete=True)

    def _write(self, complete: bool) -> None:
        doc = {"format": self.FORMAT, "parameters": self.digests, "chunks": sorted(self.chunks), "complete": complete}
        from .io import temporary_beside

        tmp = temporary_beside(self.manifest)
        tmp.write_text(json.dumps(doc, indent=1))
        os.replace(tmp, self.manifest)


def fighter(sys: Any, creature: Any, attack: Any) -> Any:
    """Return ``creature`` holding only ``attack`` (its ``RuleSystem.attacks_field`` replaced): the
    attacker of an explore row, whose fight uses the row's build ``uses_per_turn`` times a turn."""
    return creature.replace(**{sys.attacks_field: (attack,)})


def _method_columns(sys: Any, items: Any, targets: list, build_id: np.ndarray, target_id: np.ndarray) -> list:
    """Return explore's columns on how each returned row was computed (docs/compare.md, explore):
    ``method`` "exact, one turn" (the statistics are those of one turn's exact table), ``se`` and
    ``p_unresolved`` null (no fight, nothing simulated, no round limit), ``forced_by`` (the sorted
    :func:`workbench.simulate.state_effects` of the row's :func:`fighter` against its target with
    the plan "the build ``uses_per_turn`` times", joined by "; "; "" when the pair carries no state)
    and ``state_ignored`` (``forced_by`` is not empty: the ranking leaves out state the fight
    carries, e.g. Reckless self-damage). The effects are asked once per (options, situation) group
    of the returned rows (``RuleSystem.state_effects_many``), one fighter and plan per build."""
    fighters: dict[int, tuple[Any, list]] = {}
    groups: dict[tuple[str, str], list[int]] = {}
    for row, b in enumerate(build_id.tolist()):
        if b not in fighters:
            creature, attack, opt, _ = items[b]
            k = sys.uses_per_turn(creature, attack, opt)
            fighters[b] = (fighter(sys, creature, attack), [attack] * int(k))
        groups.setdefault((repr(items[b][2]), repr(items[b][3])), []).append(row)
    forced = np.full(build_id.size, "", dtype=object)
    for rows in groups.values():
        opt, sit = items[int(build_id[rows[0]])][2], items[int(build_id[rows[0]])][3]
        got = sys.state_effects_many(
            [fighters[int(build_id[r])][0] for r in rows],
            [targets[int(target_id[r])] for r in rows],
            opt,
            sit,
            [fighters[int(build_id[r])][1] for r in rows],
        )
        forced[rows] = ["; ".join(sorted(e)) for e in got]
    n = build_id.size
    return [
        pl.Series("method", ["exact, one turn"] * n, dtype=pl.String),
        pl.Series("se", [None] * n, dtype=pl.Float64),
        pl.Series("p_unresolved", [None] * n, dtype=pl.Float64),
        pl.Series("forced_by", forced.tolist(), dtype=pl.String),
        pl.Series("state_ignored", forced != "", dtype=pl.Boolean),
    ]


def method_line(frame: pl.DataFrame) -> str:
    """Return how the numbers of an explore frame were computed: one turn, exact, and how many rows
    leave out state their fight carries (``state_ignored``) and which."""
    ignored = frame.filter(pl.col("state_ignored"))
    if ignored.height == 0:
        return "one-turn statistics, exact; no row's fight carries state"
    # (the effects in words: "first blood", not the column's "first_blood")
    forced = sorted({e.replace("_", " ") for v in ignored["forced_by"].to_list() if v for e in v.split("; ")})
    return (
        f"one-turn statistics, exact; {ignored.height:,} of {frame.height:,} rows rank without the state "
        f"their fight carries ({', '.join(forced)}): compare runs the fight"
    )


def cost_front(frame: pl.DataFrame, by: str = "mean_turn_damage") -> pl.DataFrame:
    """Return the Pareto front of cost against ``by`` (higher is better) per target, cheapest first:
    the rows of ``frame`` (an explore result, or the rows of its ``output`` dataset) that no other
    row of the same target beats with at most the same cost and strictly more ``by``, nor equals
    with a strictly lower cost (ties at one cost: the first row). On an explore result ranked by
    the same ``by`` these are its ``pareto`` rows: explore keeps the front of the whole build space.
    Columns: those of ``frame``, sorted by target and cost. ``by="mean_rounds"`` (a search against a
    group, docs/explore.md) is the other way round: fewer is better, a fight left unresolved (null)
    the worst."""
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"give an explore frame, not {show(frame)}", field="frame")
    fewest = by == "mean_rounds"
    by = by if fewest else check_by(by)
    missing = [c for c in ("target", "cost", by) if c not in frame.columns]
    if missing:
        raise RulesError(f"the frame lacks {', '.join(missing)}: give a budget search's explore frame", field="frame")
    f = frame.with_row_index("_row")
    order = f.select("target").unique(maintain_order=True).with_row_index("_target")
    f = f.join(order, on="target")
    # higher is better: the fewest mean rounds first (null, unresolved, last)
    score = -pl.col(by).fill_null(float("inf")) if fewest else pl.col(by)
    f = f.with_columns(score.cast(pl.Float64).alias("_score"))
    best = (
        f.sort(["_target", "cost", "_score", "_row"], descending=[False, False, True, False])
        .group_by(["_target", "cost"], maintain_order=True)
        .head(1)
    )
    prev = pl.col("_score").cum_max().shift(1).over("_target")
    return best.filter(prev.is_null() | (pl.col("_score") > prev)).sort(["_target", "cost"]).select(frame.columns)


def _top(frame: pl.DataFrame, by: str, k: int) -> pl.DataFrame:
    """Return the best ``k`` rows per target (ties: lower build id first)."""
    return (
        frame.sort([by, "build_id"], descending=[True, False])
        .group_by("target_id", maintain_order=True)
        .head(k)
        .select(frame.columns)
    )


def _front_candidates(frame: pl.DataFrame, by: str) -> pl.DataFrame:
    """Return the best row per (target, cost): only these can be on a Pareto front."""
    return (
        frame.sort([by, "build_id"], descending=[True, False])
        .group_by(["target_id", "cost"], maintain_order=True)
        .head(1)
        .select(frame.columns)
    )


def _pareto(cands: pl.DataFrame, by: str) -> pl.DataFrame:
    """Return the rows no other build beats with at most the same cost and strictly more ``by``
    (and none equals with a strictly lower cost): per target, scan costs upward keeping records."""
    s = cands.sort(["target_id", "cost"])
    prev = pl.col(by).cum_max().shift(1).over("target_id")
    return s.filter(prev.is_null() | (pl.col(by) > prev))
