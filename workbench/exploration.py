"""Build-space search (DESIGN.md, Comparison and exploration).

``explore(system, targets=..., budget=5)`` asks the rule system for its build space
(``RuleSystem.build_space``: every legal attack within the budget, with sets whose damage maths is
identical against these targets in this situation collapsed), evaluates the distinct builds
against every target in chunks (bounded memory) and returns the top-k per creature plus the
Pareto front of the ranked statistic vs cost. ``explore(system, targets=..., base=creature,
vary={...})`` does the same for every combination of fields marked variable on a base creature
(any system).
"""

from __future__ import annotations

import itertools
import math
import sys as _sys
from collections.abc import Iterable
from typing import Any

import numpy as np
import polars as pl

from .arguments import check_confirm, check_flag, refuse_long_work
from .comparison import _progress, _targets, matchup_tables
from .errors import RulesError, show
from .limits import BUDGET, LIMITS, MAX_SECONDS, MAX_TOP_K, MAX_VARY
from .systems import system as _system
from .systems import system_of

__all__ = ["explore", "estimate", "fighter", "method_line", "METHOD_COLUMNS"]

_STATS = ("mean_damage", "p_any_damage", "mean_turn_damage", "p_kill_one_turn")
#: the columns of every explore row saying how it was computed (:func:`_method_columns`)
METHOD_COLUMNS = ("method", "se", "p_unresolved", "forced_by", "state_ignored")


def _vary_items(sys, base: Any, attack: Any, vary: dict[str, Iterable[Any]] | None, options, situation):
    """Yield (values, creature, attack, options, situation) for every combination of ``vary``."""
    if not isinstance(vary, dict) or not vary:
        raise RulesError("give vary={field: [values, ...]}", field="vary")
    keys = list(vary)
    cfields = set(sys.Creature.__dataclass_fields__)
    afields = set(sys.Attack.__dataclass_fields__)
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


#: measured on the CI machine (2 shared cores, tests/hostile/test_entry_points.py checks the
#: estimate against the clock): seconds per upgrade combination the build space walks, and per
#: (build, target) row explore evaluates
RATE_COMBINATION = 1.0e-5
RATE_ROW = 7.0e-5


def _say(say: Any, seconds: float, text: str) -> None:
    """Write ``text`` (what explore will do and roughly how long) to stderr before it starts: when
    ``say`` is True, or None and the work is estimated at a second or more."""
    if say is True or (say is None and seconds >= 1.0):
        print(text, file=_sys.stderr, flush=True)


def _check_work(seconds: float, detail: str, confirm: bool, say: Any, how: str) -> None:
    """Say what explore will do; refuse (RulesError, field ``budget``) past MAX_SECONDS unless
    ``confirm``."""
    refused = seconds > MAX_SECONDS and not confirm
    _say(say, seconds, f"explore: {detail}, {_duration(seconds)}" + ("; refused without confirm" if refused else ""))
    if refused:
        refuse_long_work("explore", seconds, detail, how)


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
    ``combinations`` (upgrade combinations the build space walks; None when the system cannot
    count them, or with ``vary``), ``builds`` (with a budget an upper bound, three seeds per
    combination: the distinct builds are known after the walk; with ``vary`` the exact count of
    combinations), ``targets``, ``rows`` (builds x targets with ``vary``; None with a budget) and
    ``seconds`` (rough: the walk at RATE_COMBINATION, or with ``vary`` the rows at RATE_ROW)."""
    tgt = _targets(targets, None if system is None else _system(system).name)
    sys_ = _system(system if system is not None else system_of(base if base is not None else tgt[0]))
    if budget is not None:
        n = sys_.build_space_size(budget, options)
        builds = None if n is None else 3 * n
        seconds = 0.0 if n is None else n * RATE_COMBINATION
    else:
        if not isinstance(vary, dict) or not vary:
            raise RulesError("give vary={field: [values, ...]}", field="vary")
        n = None
        builds = math.prod(len(v) for v in _vary_values(vary))
        seconds = builds * len(tgt) * RATE_ROW
    rows = None if builds is None or budget is not None else builds * len(tgt)
    return {"combinations": n, "builds": builds, "targets": len(tgt), "rows": rows, "seconds": seconds}


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
    per_use = {"mean_damage": U @ np.arange(U.shape[1]), "p_any_damage": 1.0 - U[:, 0]}
    mean_turn = T @ np.arange(T.shape[1])
    tail = np.cumsum(T[:, ::-1], axis=1)[:, ::-1]  # P(turn damage >= d): exactly 0 past the support

    def stat(name: str, rows: np.ndarray) -> np.ndarray:
        if name in per_use:
            return per_use[name][iu[rows]]
        if name == "mean_turn_damage":
            return mean_turn[it[rows]]
        h = hp[rows % nT]  # p_kill_one_turn: P(turn damage >= HP)
        inside = h < T.shape[1]
        return np.clip(np.where(inside, tail[it[rows], np.minimum(h, T.shape[1] - 1)], 0.0), 0.0, 1.0)

    return stat, ok


def _candidates(value: np.ndarray, ok: np.ndarray, n_pairs: int, k: int, cost: np.ndarray | None) -> np.ndarray:
    """Return the rows (pair-major × targets, flat indices) that can survive the running top-k and
    Pareto front: per target the best ``k`` usable rows (ties: the earlier pair, which has the lower
    build id), and with ``cost`` (per pair) the first best row per (target, cost). A superset of
    what ``_top`` and ``_front_candidates`` keep from this chunk, so the result is unchanged."""
    V = np.where(ok, value, -np.inf).reshape(n_pairs, -1)
    okm = ok.reshape(n_pairs, -1)
    if n_pairs > k:
        kth = np.partition(V, n_pairs - k, axis=0)[n_pairs - k]  # the k-th largest per target
        above = V > kth
        tied = V == kth
        keep = above | (tied & (np.cumsum(tied, axis=0) <= k - above.sum(axis=0)))
    else:
        keep = np.ones_like(okm)
    if cost is not None:
        for c in np.unique(cost):  # a loop over the few distinct costs
            rows = np.flatnonzero(cost == c)
            best = rows[np.argmax(V[rows], axis=0)]
            keep[best, np.arange(V.shape[1])] = True
    return np.flatnonzero(keep & okm)


def explore(
    system: Any = None,
    *,
    targets: Any,
    budget: int | None = None,
    vary: dict | None = None,
    top_k: int = 10,
    chunk_size: int = 2000,
    progress: Any = None,
    options: Any = None,
    situation: Any = None,
    base: Any = None,
    attack: Any = None,
    by: str = "mean_turn_damage",
    confirm: bool = False,
    say: bool | None = None,
) -> pl.DataFrame:
    """Return the best builds against each target: the top ``top_k`` per target by ``by`` (higher is
    better: ``mean_turn_damage``, ``mean_damage``, ``p_any_damage``, ``p_kill_one_turn``), plus, for
    budgets, every build on the Pareto front of ``by`` vs cost (``pareto``).

    ``system`` (a name or rule system) defaults to that of ``base``, else of the first target
    (a creature or a ``"system:Name"`` catalog name). With ``budget``: every build in the system's
    build space (``RuleSystem.build_space``; for Annulus, every legal attack set within that
    Experience, see workbench/systems/annulus/builds.py), used by ``base`` (default: the system's
    neutral attacker); a system without one raises RulesError. Any system with ``vary``: every
    combination of the listed fields on ``base`` using ``attack`` (keys: creature fields,
    ``attack``/``weapon`` (a list of attacks or names), ``attack.<field>``, ``situation.<field>``,
    ``options.<field>``). Builds are evaluated ``chunk_size`` at a time, keeping only the running
    top-k and front. Columns: the build space's descriptive columns (Annulus: name, seed, cost,
    sets) or the varied fields (vary), target, target_hp, mean_damage, p_any_damage,
    mean_turn_damage, p_kill_one_turn, rank (1 = best per target), pareto, and with a budget
    legal_sets.

    Bounded work (docs/limits.md, Bounded work): before it starts, explore says on stderr how many
    upgrade combinations it walks, then how many builds and rows it evaluates, each with roughly
    how long (:func:`estimate`; ``say`` True always, False never, None (the default) when the
    estimate is a second or more and ``progress`` is not False), and refuses work estimated past
    10 s (RulesError, field ``budget``, with the counts and the estimate) unless ``confirm=True``
    (the CLI: ``workbench explore --yes``).
    """
    confirm = check_confirm(confirm)
    check_flag("progress", progress)
    say = check_flag("say", say)
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
            system = system_of(tgt[0])
    sys = _system(system)
    tgt = _targets(targets, sys.name) if tgt is None else tgt
    if any(_system(type(t).system).name != sys.name for t in tgt):
        raise RulesError(f"every target must be a {sys.name} creature", field="targets")
    if not isinstance(by, str) or by not in _STATS:
        raise RulesError(
            f"rank by mean_turn_damage, mean_damage, p_any_damage or p_kill_one_turn, not {by!r}", field="by"
        )
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise RulesError(
            f"must be a whole number from 1 to {MAX_TOP_K:,}, not {show(top_k)}", field="top_k", rule=BUDGET
        )
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise RulesError(f"must be a whole number >= 1, not {chunk_size!r}", field="chunk_size")
    hp = np.array([sys.hit_points(t) for t in tgt], dtype=np.int64)
    if (budget is None) == (vary is None):
        raise RulesError(
            "give either budget= (every legal attack within a budget) or vary= (fields of a base creature)",
            field="budget",
        )
    if budget is not None:
        n = sys.build_space_size(budget, options)
        if n is not None:
            more = "at least " if n >= 10**10 else ""
            _check_work(
                n * RATE_COMBINATION,
                f"budget {show(budget)} walks {more}{n:,} upgrade combinations of the {sys.name} build space",
                confirm,
                say,
                "give a smaller budget, or confirm=True (workbench explore --yes) to run it",
            )
        space = sys.build_space(budget, tgt, base, options, situation)
        info, counts = space.builds.drop("build"), space.counts
        rows = space.builds.height * len(tgt)
        _check_work(
            rows * RATE_ROW,
            f"evaluating {space.builds.height:,} distinct builds x {len(tgt)} targets = {rows:,} rows",
            confirm,
            say,
            "give a smaller budget or fewer targets, or confirm=True (workbench explore --yes) to run it",
        )
        items = [(space.attacker, b, options, situation) for b in space.builds["build"].to_list()]
        same = space.family.tolist()
    else:
        if base is None:
            raise RulesError("give base= (the creature whose fields vary)", field="base")
        est = estimate(sys, targets=tgt, vary=vary, base=base)
        _check_work(
            est["seconds"],
            f"evaluating {est['builds']:,} combinations x {len(tgt)} targets = {est['rows']:,} rows",
            confirm,
            say,
            "vary fewer values, or confirm=True to run it",
        )
        combos = list(_vary_items(sys, base, attack, vary, options, situation))
        info = pl.DataFrame(
            [
                {k: (v.name if hasattr(v, "name") and not isinstance(v, str) else v) for k, v in c[0].items()}
                for c in combos
            ],
            infer_schema_length=None,
        )
        items = [c[1:] for c in combos]
        counts = {"distinct": len(items)}
        same = list(range(len(items)))
    bar = _progress(progress, len(items) * len(tgt), "explore")
    best: pl.DataFrame | None = None
    front: pl.DataFrame | None = None
    try:
        # group by (options, situation) so that each chunk is one vectorised call; builds of one
        # family (the build space's hint: equal dice parameters against equal defenses) share a chunk
        order = sorted(range(len(items)), key=lambda i: (repr(items[i][2]), repr(items[i][3]), same[i], i))
        for start in range(0, len(order), chunk_size):
            chunk = order[start : start + chunk_size]
            keyed: dict[tuple, list[int]] = {}
            for i in chunk:
                keyed.setdefault((repr(items[i][2]), repr(items[i][3])), []).append(i)
            for ids in keyed.values():
                ids = sorted(ids)  # pairs in build-id order: ties go to the lower build id
                opt, sit = items[ids[0]][2], items[ids[0]][3]
                stat, ok = _chunk_stats(sys, [(items[i][0], items[i][1]) for i in ids], tgt, hp, opt, sit)
                ids_a = np.asarray(ids, dtype=np.int64)
                cost = info["cost"].to_numpy()[ids_a] if budget is not None else None
                rows = _candidates(stat(by, np.arange(ok.size)), ok, len(ids), top_k, cost)
                frame = pl.DataFrame(
                    {
                        "build_id": ids_a[rows // len(tgt)],
                        "target_id": rows % len(tgt),
                        **{c: stat(c, rows) for c in _STATS},
                    }
                )
                best = _top(frame if best is None else pl.concat([best, frame]), by, top_k)
                if cost is not None:  # a budget search
                    f2 = frame.with_columns(pl.Series("cost", cost[rows // len(tgt)]))
                    front = _front_candidates(f2 if front is None else pl.concat([front, f2]), by)
                if bar is not None:
                    bar.update(len(ids) * len(tgt))
    finally:
        if bar is not None:
            bar.close()
    if best is None:
        raise RulesError("no build is usable against these targets in this situation", field="targets")
    if front is not None:
        best = best.with_columns(pl.Series("cost", info["cost"].to_numpy()[best["build_id"].to_numpy()]))
        pareto = _pareto(front, by)
        out = pl.concat([best, pareto.select(best.columns)]).unique(["build_id", "target_id"], keep="first")
        out = out.join(
            pareto.select("build_id", "target_id").with_columns(pl.lit(True).alias("pareto")),
            on=["build_id", "target_id"],
            how="left",
        ).with_columns(pl.col("pareto").fill_null(False))
        out = out.drop("cost")
    else:
        out = best.with_columns(pl.lit(None, dtype=pl.Boolean).alias("pareto"))
    out = out.with_columns(pl.col(by).rank("min", descending=True).over("target_id").cast(pl.Int64).alias("rank"))
    names = pl.DataFrame({"target_id": np.arange(len(tgt)), "target": [t.name for t in tgt], "target_hp": hp})
    info = info.with_row_index("build_id").with_columns(pl.col("build_id").cast(pl.Int64))
    out = out.join(info, on="build_id").join(names, on="target_id").sort(["target_id", "rank", "build_id"])
    out = out.with_columns(_method_columns(sys, items, tgt, out["build_id"].to_numpy(), out["target_id"].to_numpy()))
    lead = [c for c in info.columns if c != "build_id"]
    cols = lead + [
        "target",
        "target_hp",
        "mean_damage",
        "p_any_damage",
        "mean_turn_damage",
        "p_kill_one_turn",
        "rank",
        "pareto",
        *METHOD_COLUMNS,
    ]
    result = out.select(cols)
    result = (
        result.with_columns(pl.lit(counts.get("legal_sets"), dtype=pl.Int64).alias("legal_sets"))
        if budget is not None
        else result
    )
    return result


def fighter(sys: Any, creature: Any, attack: Any) -> Any:
    """Return ``creature`` holding only ``attack`` (its ``RuleSystem.attacks_field`` replaced): the
    attacker of an explore row, whose fight uses the row's build ``uses_per_turn`` times a turn."""
    return creature.replace(**{sys.attacks_field: (attack,)})


def _method_columns(sys: Any, items: list, targets: list, build_id: np.ndarray, target_id: np.ndarray) -> list:
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
    forced = sorted({e for v in ignored["forced_by"].to_list() if v for e in v.split("; ")})
    return (
        f"one-turn statistics, exact; {ignored.height:,} of {frame.height:,} rows rank without the state "
        f"their fight carries ({', '.join(forced)}): compare runs the fight"
    )


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
