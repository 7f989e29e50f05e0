"""The comparison engine: builds × creatures grids as one polars frame (DESIGN.md, Comparison).

``compare(attackers, targets)`` cross-joins every attacker's attacks with every target of the same
rule system and returns one row per (attacker, attack, target) with the damage per use, per turn,
the chance to kill in one turn, the exact mean rounds-to-kill and its quantiles. The work is
batched: one ``outcome_tables`` call per system for all distinct matchups, turn Dists built from
those tables, and the rounds-to-kill of every row from one batched renewal recurrence and one
batched kill chain in numpy (:func:`workbench.batch_chains.rounds_batch`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import polars as pl

from .batch_chains import QUANTILE_TOLERANCE, _dedupe, _dense, rounds_batch
from .dist import Dist
from .errors import RulesError
from .systems import system as _system
from .systems import system_of
from .systems.base import RuleSystem

__all__ = ["compare", "rank", "pivot", "export", "rounds_batch", "neutral_attacker", "uses_per_turn",
           "QUANTILE_TOLERANCE", "COLUMNS", "BEST_PLAN"]

#: the ``attack`` label of the row holding an attacker's best full turn (turns.best_plan)
BEST_PLAN = "best plan"
#: the field holding a creature's attacks, per system
ATTACK_FIELD = {"annulus": "attack_sets", "unbound": "weapons", "last_odyssey": "abilities",
                "glass_empires": "weapons"}
COLUMNS = ["system", "attacker", "attack", "target", "target_hp", "uses_per_turn", "plan", "mean_damage",
           "sd_damage", "p_any_damage", "mean_turn_damage", "sd_turn_damage", "p_kill_one_turn", "mean_rounds",
           "rounds_q10", "rounds_q50", "rounds_q90", "hp_share_per_turn"]
_QUANTILES = (0.1, 0.5, 0.9)


# =========================================================================== inputs
@dataclass
class _Attacker:
    sys: RuleSystem
    creature: Any
    attacks: list[Any]
    plans: bool
    label: str


def _is(obj: Any, sys: RuleSystem, what: str) -> bool:
    return isinstance(obj, getattr(sys, what))


def _model_system(obj: Any) -> RuleSystem | None:
    name = getattr(type(obj), "system", None)
    return _system(name) if isinstance(name, str) and name else None


def neutral_attacker(attack: Any) -> Any:
    """Return the creature that uses a bare attack in ``compare``: the system's neutral stat line.

    Annulus: size 5, level 1, every defense 0; Unbound: every modifier 0, untrained, AC 10; Last
    Odyssey: tier 1, every stat 0; Glass Empires: Power 1. It holds only ``attack`` and is named after
    it. Pass ``(creature, attack)`` pairs to use an attack with a creature's stats instead.
    """
    sys = _model_system(attack)
    if sys is None or not _is(attack, sys, "Attack"):
        raise RulesError(f"expected an attack model, not {type(attack).__name__}", field="attackers")
    C = sys.Creature
    if sys.name == "annulus":
        return C(attack.name, level=1, endurance=1, agility=0, toughness=0, insight=0, attack_sets=[attack])
    if sys.name == "unbound":
        return C(attack.name, hp=1, ac=10, touch_ac=10, weapons=[attack])
    if sys.name == "last_odyssey":
        return C(attack.name, hp=1, abilities=[attack])
    return C(attack.name, power=1, weapons=[attack])


def _split_name(name: str, system: Any) -> tuple[RuleSystem, str]:
    if ":" in name:
        head, rest = name.split(":", 1)
        try:
            return _system(head), rest.strip()
        except RulesError:
            pass
    if system is None:
        raise RulesError(f"{name!r}: name the rule system (system='annulus' or 'annulus:{name}')", field="system")
    return _system(system), name.strip()


def _catalog_item(name: str, system: Any, role: str) -> tuple[RuleSystem, Any]:
    sys, bare = _split_name(name, system)
    cat = sys.catalog()
    try:
        return sys, cat.creature(bare)
    except RulesError:
        if role == "attackers":
            try:
                return sys, cat.attack(bare)
            except RulesError:
                pass
    raise RulesError(f"no {'creature or attack' if role == 'attackers' else 'creature'} called {bare!r} in the "
                     f"{sys.name} catalog", field=role)


def _is_frame(obj: Any) -> bool:
    if isinstance(obj, pl.DataFrame):
        return True
    return type(obj).__name__ == "DataFrame" and type(obj).__module__.startswith("pandas")


def frame_creatures(frame: Any, system: Any = None, role: str = "targets") -> list[Any]:
    """Return the creatures of a bestiary frame (polars or pandas): one row per creature.

    Columns are the system's Creature field names, plus an optional ``system`` column (else
    ``system=`` names it). Empty cells take the field's default. The attack field (``attack_sets``,
    ``weapons``, ``abilities``) may hold catalog attack names separated by ``;``. An unknown column
    or a bad value raises RulesError naming the column and the row.
    """
    if not isinstance(frame, pl.DataFrame):
        try:
            frame = pl.from_pandas(frame)
        except Exception as exc:  # noqa: BLE001 - anything pandas cannot hand over is a bad input
            raise RulesError(f"cannot read this frame: {exc}", field=role) from None
    out = []
    for i, row in enumerate(frame.iter_rows(named=True)):
        row = {k: v for k, v in row.items() if v is not None and not (isinstance(v, float) and np.isnan(v))}
        sysname = row.pop("system", None) or system
        if sysname is None:
            raise RulesError(f"row {i}: add a 'system' column or pass system=", field="system")
        sys = _system(sysname)
        names = {f for f in sys.Creature.__dataclass_fields__}
        unknown = sorted(set(row) - names)
        if unknown:
            raise RulesError(f"row {i}: unknown column {unknown[0]!r} for a {sys.name} creature "
                             f"(columns are its fields: {', '.join(sorted(names))})", field=unknown[0])
        key = ATTACK_FIELD[sys.name]
        if isinstance(row.get(key), str):
            parts = [p.strip() for p in row[key].replace(",", ";").split(";") if p.strip()]
            try:
                row[key] = [sys.catalog().attack(p) for p in parts]
            except RulesError as exc:
                raise RulesError(f"row {i}: {exc.message}", field=key) from None
        try:
            out.append(sys.Creature.from_dict(row))
        except RulesError as exc:
            raise RulesError(f"row {i} ({row.get('name', '?')}): {exc.message}", field=exc.field,
                             rule=exc.rule) from None
    return out


def _as_list(items: Any, role: str) -> list[Any]:
    if items is None:
        raise RulesError("give at least one", field=role)
    if _is_frame(items) or isinstance(items, (str, tuple)) or _model_system(items) is not None:
        return [items]
    try:
        return list(items)
    except TypeError:
        raise RulesError(f"expected a list of creatures, attacks, names or a frame, not {type(items).__name__}",
                         field=role) from None


def _attackers(items: Any, system: Any, best_plan: bool | None) -> list[_Attacker]:
    out: list[_Attacker] = []
    for item in _as_list(items, "attackers"):
        if _is_frame(item):
            for c in frame_creatures(item, system, "attackers"):
                sys = system_of(c)
                out.append(_Attacker(sys, c, sys.attacks_of(c), best_plan is not False, c.name))
            continue
        if isinstance(item, str):
            sys, item = _catalog_item(item, system, "attackers")
        if isinstance(item, tuple):
            if len(item) != 2:
                raise RulesError(f"a pair is (creature, attack), not {len(item)} items", field="attackers")
            c, a = item
            if isinstance(c, str):
                _, c = _catalog_item(c, system, "attackers")
            sys = _model_system(c)
            if sys is None or not _is(c, sys, "Creature"):
                raise RulesError(f"the first of a pair must be a creature, not {type(c).__name__}", field="attackers")
            if isinstance(a, str):
                match = [x for x in sys.attacks_of(c) if x.name.lower() == a.strip().lower()]
                a = match[0] if match else sys.catalog().attack(a)
            if not _is(a, sys, "Attack"):
                raise RulesError(f"the second of a pair must be a {sys.name} attack, not {type(a).__name__}",
                                 field="attackers")
            out.append(_Attacker(sys, c, [a], bool(best_plan), f"{c.name}"))
            continue
        sys = _model_system(item)
        if sys is None:
            raise RulesError(f"cannot compare a {type(item).__name__}: give creatures, attacks, (creature, attack) "
                             f"pairs, catalog names or a frame", field="attackers")
        if _is(item, sys, "Creature"):
            out.append(_Attacker(sys, item, sys.attacks_of(item), best_plan is not False, item.name))
        elif _is(item, sys, "Attack"):
            out.append(_Attacker(sys, neutral_attacker(item), [item], bool(best_plan), item.name))
        else:
            raise RulesError(f"a {sys.name} {type(item).__name__} is neither a creature nor an attack",
                             field="attackers")
    return out


def _targets(items: Any, system: Any) -> list[Any]:
    out = []
    for item in _as_list(items, "targets"):
        if _is_frame(item):
            out.extend(frame_creatures(item, system, "targets"))
            continue
        if isinstance(item, str):
            _, item = _catalog_item(item, system, "targets")
        sys = _model_system(item)
        if sys is None or not _is(item, sys, "Creature"):
            raise RulesError(f"a target must be a creature, its catalog name or a frame, not {type(item).__name__}",
                             field="targets")
        out.append(item)
    return out


# =========================================================================== per-system turn rules
def uses_per_turn(sys: RuleSystem, attacker: Any, attack: Any, options: Any = None) -> int | None:
    """Return how often one turn can use ``attack`` alone under the system's action economy.

    Annulus: 1 for a free (Gaze, Swansong), Telegraphed or area set (once per round), else actions
    // cost (2 one-action uses, 1 Charged or Flurry). Last Odyssey: action points // AP cost (AP cost
    0: once). Glass Empires: the Attacks a turn allows (1 by default: the Save action). Unbound:
    None (found by trying the plan: 2 Push the Attack actions, fewer if the text forbids).
    """
    if sys.name == "annulus":
        cost = sys.attack_cost(attack, options)
        if cost == 0 or attack.area or attack.alteration == "Telegraphed":
            return 1
        return sys.actions_per_turn(attacker, options) // cost
    if sys.name == "last_odyssey":
        cost = sys.attack_cost(attack, options)
        return 1 if cost == 0 else sys.actions_per_turn(attacker, options) // cost
    if sys.name == "glass_empires":
        return sys.attacks_per_turn(attacker, options)
    return None


def _bconv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the row-wise convolution of two stacks of pmfs.

    Short supports: a loop over b's damage values (exact). Long ones (Last Odyssey's x16 element
    multipliers reach hundreds of points): one FFT over the whole stack, with the round-off noise
    where the exact value is 0 removed, as ``Dist`` does (agreement to 1e-12 is tested).
    """
    cols = np.flatnonzero(b.any(axis=0))
    if cols.size > _FFT_COLUMNS and a.shape[1] > _FFT_COLUMNS:
        from scipy.signal import fftconvolve

        out = fftconvolve(a, b, axes=1)
        out[out < 4 * np.finfo(float).eps * out.max(axis=1, keepdims=True)] = 0.0
        return out
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for j in cols:
        out[:, j : j + a.shape[1]] += a * b[:, j, None]
    return out


#: above this many non-zero damage values on both sides a batched convolution goes by FFT
_FFT_COLUMNS = 64


def _bpower(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Return each row of pmfs ``x`` convolved with itself ``k[i]`` times (k = 0: no damage)."""
    out = np.zeros((x.shape[0], 1))
    out[:, 0] = 1.0
    for step in range(1, int(k.max(initial=0)) + 1):
        nxt = _bconv(out, x)
        keep = (k >= step)[:, None]
        out = np.where(keep, nxt, np.pad(out, ((0, 0), (0, nxt.shape[1] - out.shape[1]))))
    return out


def _grid(table: pl.DataFrame, n: int, by: str | None = None) -> np.ndarray:
    """Return P(matchup, [by,] damage) as a dense array (damage from 0)."""
    m = table["matchup"].to_numpy()
    d = table["damage"].to_numpy()
    if d.size and d.min() < 0:
        raise RulesError("damage per use cannot be negative in a rounds-to-kill comparison", field="damage")
    top = int(d.max(initial=0))
    if by is None:
        g = np.zeros((n, top + 1))
        np.add.at(g, (m, d), table["probability"].to_numpy())
        return g
    g = np.zeros((n, 2, top + 1))
    np.add.at(g, (m, table[by].to_numpy().astype(np.int64), d), table["probability"].to_numpy())
    return g


def _annulus_turns(sys, reps, per_use: np.ndarray, table: pl.DataFrame, k: np.ndarray, options, situation):
    """Return the turn pmfs of k uses of each Annulus matchup: independent uses, except that a set
    with Reroll rerolls at most once per round (annulus-attacks.txt; mirrors ``plan_damage``)."""
    options, situation = sys._defaults(options, situation)
    n = len(reps)
    rer = np.array([a.has("Reroll") for a, _, _ in reps]) & (options.reroll == "on_zero") & (k >= 2)
    if not situation.reroll_available or not rer.any():
        return _bpower(per_use, k)
    out_plain = _bpower(per_use, np.where(rer, 0, k))
    idx = np.flatnonzero(rer)
    fresh = _grid(table, n, "rerolled")[idx]
    spent_sit = situation.replace(reroll_available=False)
    t2 = sys.outcome_tables([reps[i][0] for i in idx], [reps[i][1] for i in idx], [reps[i][2] for i in idx],
                            options, spent_sit)
    used = _grid(t2, idx.size)
    s0 = np.ones((idx.size, 1))
    s1 = np.zeros((idx.size, 1))
    for step in range(1, int(k[idx].max()) + 1):
        live = (k[idx] >= step)[:, None]
        n0, n1, o = _bconv(s0, fresh[:, 0]), _bconv(s0, fresh[:, 1]), _bconv(s1, used)
        w = max(n0.shape[1], n1.shape[1], o.shape[1])
        pad = lambda x: np.pad(x, ((0, 0), (0, w - x.shape[1])))  # noqa: E731
        s0 = np.where(live, pad(n0), pad(s0))
        s1 = np.where(live, pad(n1) + pad(o), pad(s1))
    tot = s0 + s1
    tot /= tot.sum(axis=1, keepdims=True)
    w = max(tot.shape[1], out_plain.shape[1])
    res = np.pad(out_plain, ((0, 0), (0, w - out_plain.shape[1])))
    res[idx] = np.pad(tot, ((0, 0), (0, w - tot.shape[1])))
    return res


# =========================================================================== the comparison
def _key(obj: Any) -> Any:
    try:
        hash(obj)
        return obj
    except TypeError:
        return ("id", id(obj))


def _annulus_target_profiles(targets: list[Any]) -> np.ndarray:
    """Return, per target and per seed (agility, toughness, insight), an id of everything an Annulus
    outcome reads from a target: size, the seed's defense value, awareness (annulus resolve, steps
    2-4). The id does not name the seed: a set meets the same numbers against the same value."""
    ids: dict[tuple, int] = {}
    out = np.zeros((len(targets), 3), dtype=np.int64)
    for i, t in enumerate(targets):
        for j, d in enumerate(("agility", "toughness", "insight")):
            out[i, j] = ids.setdefault((t.size, getattr(t, d), t.awareness), len(ids))
    return out


def _progress(progress: Any, total: int, desc: str):
    """Return a tqdm bar (shown when ``progress`` is True, or None and the run takes over a second)."""
    if progress is False:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, delay=0 if progress is True else 1.0, leave=False)


#: compute Annulus damage pmfs per distinct resolved parameter tuple (systems/annulus/fast.py);
#: False uses the general outcome_tables path (the tests check both agree)
FAST_ANNULUS = True


def _matchups(sys: RuleSystem, pairs: list[tuple[Any, Any]], targets: list[Any], options, situation,
              bar=None) -> dict[str, Any]:
    """Return per-use and per-turn pmfs of the distinct matchups of ``pairs`` (creature, attack) ×
    ``targets``: ``per_use`` and ``turn`` (distinct pmfs × damage from 0), ``use_inv`` /
    ``turn_inv`` (row = pair-major grid → its per-use / turn pmf, -1 if unusable), ``k`` (uses per
    turn, per turn pmf) and ``row_ok`` (the attack is usable in that row). Annulus matchups are
    resolved to dice parameters and each distinct parameter tuple is computed once."""
    nT = len(targets)
    pair_ids: dict[Any, int] = {}
    pid = np.zeros(len(pairs), dtype=np.int64)
    if sys.name == "annulus":
        prof = _annulus_target_profiles(targets)
        seed = np.array([("agility", "toughness", "insight").index(x.defense) for _, x in pairs], dtype=np.int64)
        for i, (c, x) in enumerate(pairs):
            # the set without its name and seed: the seed only picks the defense read (resolve step 3)
            pid[i] = pair_ids.setdefault((_key(x.upgrades), x.counter_type, c.size, c.vitality), len(pair_ids))
        tkey = prof[:, seed].T  # pairs × targets
    else:
        tids: dict[Any, int] = {}
        tk = np.array([tids.setdefault(_key(t), len(tids)) for t in targets], dtype=np.int64)
        for i, (c, x) in enumerate(pairs):
            pid[i] = pair_ids.setdefault((_key(x), _key(c)), len(pair_ids))
        tkey = np.broadcast_to(tk[None, :], (len(pairs), nT))
    width = int(tkey.max(initial=0)) + 1
    first, inv = _dedupe(pid[:, None] * width + tkey, (int(pid.max(initial=0)) + 1) * width)
    p_of, t_of = np.divmod(first, nT)
    reps = [(pairs[p][1], pairs[p][0], targets[t]) for p, t in zip(p_of, t_of)]
    fast = sys.name == "annulus" and FAST_ANNULUS
    if fast:
        from .systems.annulus.fast import damage_pmfs

        o, s = sys._defaults(options, situation)

        def call(idx):
            return damage_pmfs([reps[i][0] for i in idx], [reps[i][1] for i in idx], [reps[i][2] for i in idx], o, s)
    else:
        def call(idx):
            return sys.outcome_tables([reps[i][0] for i in idx], [reps[i][1] for i in idx],
                                      [reps[i][2] for i in idx], options, situation)
    table, ok = _tables(reps, p_of, call)
    row_ok = ok[inv]
    if not ok.all():
        keep_u = np.flatnonzero(ok)
        new_id = np.full(len(reps), -1)
        new_id[keep_u] = np.arange(keep_u.size)
        reps = [reps[i] for i in keep_u]
        p_of = p_of[keep_u]
        inv = np.where(inv >= 0, new_id[inv], -1)
    if not reps:
        z = np.ones((0, 1))
        none = np.full(inv.size, -1)
        return {"per_use": z, "turn": z, "use_inv": none, "turn_inv": none, "k": np.zeros(0, dtype=np.int64),
                "row_ok": row_ok}
    if bar is not None:
        bar.update(len(reps))
    k_pair = np.array([uses_per_turn(sys, c, x, options) or 0 for c, x in pairs], dtype=np.int64)
    k = k_pair[p_of]
    if fast:
        from .systems.annulus.fast import turn_pmfs

        param = table["param"]
        tfirst, tinv = _dedupe(param * (int(k.max()) + 1) + k, (int(param.max()) + 1) * (int(k.max()) + 1))
        tp = param[tfirst]
        turn = turn_pmfs(table["fresh"][tp], table["spent"][tp], k[tfirst])
        use_of, turn_of, k = param, tinv, k[tfirst]
        per_use = table["use"]
    else:
        per_use = _grid(table, len(reps))
        if sys.name == "annulus":
            turn = _annulus_turns(sys, reps, per_use, table, k, options, situation)
        elif sys.name == "last_odyssey":
            turn = _bpower(per_use, k)
        elif sys.name == "glass_empires" and (k == 1).all():
            turn = per_use  # one Attack a turn (the default): the turn is that Attack's table
        else:
            turn_list, k = _slow_turns(sys, reps, k, options, situation)
            turn = _dense(turn_list)
        use_of = turn_of = np.arange(len(reps))
    if bar is not None:
        bar.update(len(reps))
    safe = np.maximum(inv, 0)
    return {"per_use": per_use, "turn": turn, "use_inv": np.where(inv >= 0, use_of[safe], -1),
            "turn_inv": np.where(inv >= 0, turn_of[safe], -1), "k": k, "row_ok": row_ok}


def _system_rows(sys: RuleSystem, attackers: list[_Attacker], targets: list[Any], options, situation,
                 max_rounds: int, chain: bool, bar) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """Return the columns of one system's rows, its distinct turn pmfs and each row's turn index."""
    pairs = [(a, x) for a in attackers for x in a.attacks]
    nT = len(targets)
    M = _matchups(sys, [(a.creature, x) for a, x in pairs], targets, options, situation, bar)
    inv, tinv, row_ok = M["use_inv"], M["turn_inv"], M["row_ok"]
    nrow = len(pairs) * nT
    pr = np.repeat(np.arange(len(pairs)), nT)
    tr = np.tile(np.arange(nT), len(pairs))
    hp_t = np.array([sys.hit_points(t) for t in targets], dtype=np.int64)
    cols = {
        "system": np.array([sys.name] * nrow, dtype=object),
        "attacker": np.array([a.label for a, _ in pairs], dtype=object)[pr],
        "attack": np.array([x.name for _, x in pairs], dtype=object)[pr],
        "target": np.array([t.name for t in targets], dtype=object)[tr],
        "target_hp": hp_t[tr],
        "uses_per_turn": M["k"][np.maximum(tinv, 0)] if M["k"].size else np.zeros(nrow, dtype=np.int64),
        "plan": np.array([None] * nrow, dtype=object),
    }
    if M["k"].size:
        cols.update(_use_stats(M["per_use"], np.maximum(inv, 0)))
    else:
        cols.update({c: np.zeros(nrow) for c in ("mean_damage", "sd_damage", "p_any_damage")})
    if not row_ok.all():
        cols = {k: np.asarray(v)[row_ok] for k, v in cols.items()}
        tinv = tinv[row_ok]
    return cols, M["turn"], tinv


def _tables(reps, p_of, call) -> tuple[Any, np.ndarray]:
    """Return ``call`` on the usable matchups (outcome tables, or Annulus damage pmfs) and the usable mask.

    An attack the rules forbid in this situation (out of range, Gaze without sight, ...) raises in
    the batch; then each distinct (attacker, attack) is tried once, and if that is not enough each
    matchup, and the unusable ones are left out with a warning.
    """
    n = len(reps)
    try:
        return call(range(n)), np.ones(n, dtype=bool)
    except RulesError:
        pass
    ok = np.ones(n, dtype=bool)
    why: dict[str, str] = {}
    for p in np.unique(p_of):
        i = int(np.flatnonzero(p_of == p)[0])
        try:
            call([i])
        except RulesError as exc:
            ok[p_of == p] = False
            why[f"{reps[i][1].name}: {reps[i][0].name}"] = str(exc)
    try:
        good = np.flatnonzero(ok)
        table = call(good) if good.size else None
    except RulesError:
        for i in np.flatnonzero(ok):
            try:
                call([i])
            except RulesError as exc:
                ok[i] = False
                why[f"{reps[i][1].name}: {reps[i][0].name} vs {reps[i][2].name}"] = str(exc)
        good = np.flatnonzero(ok)
        table = call(good) if good.size else None
    import warnings

    warnings.warn("left out, not usable here: " + "; ".join(f"{k} ({v})" for k, v in why.items()), stacklevel=4)
    return table, ok


def _use_stats(per_use: np.ndarray, inv: np.ndarray) -> dict[str, np.ndarray]:
    v = np.arange(per_use.shape[1])
    m = per_use @ v
    sd = np.sqrt(np.maximum(per_use @ (v * v) - m * m, 0.0))
    return {"mean_damage": m[inv], "sd_damage": sd[inv], "p_any_damage": (1.0 - per_use[:, 0])[inv]}


def _slow_turns(sys, reps, k, options, situation):
    """Return the turn pmfs of each matchup by the system's ``plan_damage`` (one call per distinct
    matchup): ``k`` uses, or for Unbound the most uses of 2, 1 that the plan rules accept."""
    out, ks = [], np.array(k, copy=True)
    known: dict[Any, int] = {}
    for i, (x, a, t) in enumerate(reps):
        tries = [int(k[i])] if k[i] else [known.get((_key(x), _key(a)), 0) or n for n in (sys.actions_per_turn(a, options),)]
        start = tries[0]
        for n in range(start, 0, -1):
            try:
                d = sys.plan_damage(a, t, [x] * n, options, situation)
            except RulesError:
                continue
            ks[i] = n
            known[(_key(x), _key(a))] = n
            break
        else:
            d = Dist.constant(0)
            ks[i] = 0
        if d.min() < 0:
            raise RulesError("damage per turn cannot be negative", field="turn")
        out.append(np.concatenate((np.zeros(d.offset), d.pmf)))
    return out, ks


def _best_rows(sys, attackers: list[_Attacker], targets: list[Any], options, situation):
    """Return the best-plan rows (turns.best_plan over the system's turn_plans) and their turn pmfs."""
    from .turns import best_plan

    rows = {k: [] for k in ("attacker", "target", "target_hp", "plan")}
    pmfs = []
    cache: dict[Any, tuple[str, np.ndarray]] = {}
    todo: dict[Any, tuple[Any, Any]] = {}
    for a in attackers:
        if a.plans:
            for t in targets:
                todo.setdefault((_key(a.creature), _key(t)), (a.creature, t))
    # every distinct pair's plans in one batch (the system resolves all their attacks together)
    for key, plans in zip(todo, sys.turn_plans_many(list(todo.values()), options, situation)):
        if plans:
            label = best_plan(plans)
            d = plans[label]
            if d.min() < 0:
                raise RulesError("damage per turn cannot be negative", field="turn")
            cache[key] = (label, np.concatenate((np.zeros(d.offset), d.pmf)))
        else:
            cache[key] = ("(no usable attack)", np.array([1.0]))
    for a in attackers:
        if not a.plans:
            continue
        for t in targets:
            label, pmf = cache[(_key(a.creature), _key(t))]
            rows["attacker"].append(a.label)
            rows["target"].append(t.name)
            rows["target_hp"].append(sys.hit_points(t))
            rows["plan"].append(label)
            pmfs.append(pmf)
    return rows, pmfs


def compare(attackers: Any, targets: Any, *, options: Any = None, situation: Any = None, system: Any = None,
            max_rounds: int = 100, progress: Any = None, best_plan: bool | None = None,
            chain: bool = False) -> pl.DataFrame:
    """Return one row per (attacker, attack, target) with damage, kill and rounds-to-kill statistics.

    ``attackers``: creatures (each of their attacks is a row), bare attacks (used by
    :func:`neutral_attacker`), ``(creature, attack)`` pairs, catalog names ("Wolf" with
    ``system=``, or "annulus:Wolf"), or bestiary frames (polars or pandas). ``targets``: creatures,
    names or frames. Several rule systems may be mixed; only attackers and targets of the same
    system meet (cross-system pairs are skipped). ``options`` / ``situation`` apply to the system
    they belong to (a dict {system: Options} is accepted).

    Per row: ``mean_damage``, ``sd_damage``, ``p_any_damage`` (P(damage >= 1)) of one use; the turn
    that uses the attack ``uses_per_turn`` times (:func:`uses_per_turn`): ``mean_turn_damage``,
    ``sd_turn_damage``, ``p_kill_one_turn``, ``mean_rounds`` (exact; inf if the turn never
    damages), ``rounds_q10/q50/q90`` (null past ``max_rounds``), ``hp_share_per_turn`` (mean turn
    damage / target HP). Attackers given as creatures also get one row per target with
    ``attack = "best plan"`` (the legal turn with the highest mean, labelled in ``plan``);
    ``best_plan`` True/False forces these rows on or off. ``chain=True`` adds ``p_killed_by``, the
    kill chance by each round 1..max_rounds (a list column).
    """
    if not isinstance(max_rounds, (int, np.integer)) or isinstance(max_rounds, bool) or max_rounds < 1:
        raise RulesError(f"must be a whole number >= 1, not {max_rounds!r}", field="max_rounds")
    if system is not None:
        system = _system(system).name
    att = _attackers(attackers, system, best_plan)
    tgt = _targets(targets, system)
    by_sys: dict[str, tuple[list, list]] = {}
    for a in att:
        by_sys.setdefault(a.sys.name, ([], []))[0].append(a)
    for t in tgt:
        by_sys.setdefault(system_of(t).name, ([], []))[1].append(t)
    groups = [(name, a, t) for name, (a, t) in by_sys.items() if a and t]
    if not groups:
        raise RulesError("no attacker shares a rule system with any target (matchups stay within a system)",
                         field="targets")
    start = time.perf_counter()
    total = sum(2 * sum(len(x.attacks) for x in a) * len(t) + len(t) for _, a, t in groups)
    bar = _progress(progress, total, "compare")
    parts, turn_blocks, offsets = [], [], 0
    try:
        for name, a, t in groups:
            sys = _system(name)
            opt, sit = _for_system(options, sys, "options"), _for_system(situation, sys, "situation")
            cols, turn, inv = _system_rows(sys, a, t, opt, sit, max_rounds, chain, bar)
            best, best_pmfs = _best_rows(sys, a, t, opt, sit)
            turn_blocks.append(turn)
            idx = [inv + offsets]
            offsets += turn.shape[0]
            frame_cols = {k: np.asarray(v) for k, v in cols.items()}
            frame_cols["uses_per_turn"] = frame_cols["uses_per_turn"].astype(np.float64)
            if best["attacker"]:
                nb = len(best["attacker"])
                bt = _dense(best_pmfs)
                turn_blocks.append(bt)
                idx.append(np.arange(nb) + offsets)
                offsets += nb
                for key, val in (("system", [name] * nb), ("attack", [BEST_PLAN] * nb)):
                    best[key] = val
                for key in ("uses_per_turn", "mean_damage", "sd_damage", "p_any_damage"):
                    best[key] = np.full(nb, np.nan)  # null in the frame
                frame_cols = {k: np.concatenate([v, np.asarray(best[k], dtype=v.dtype)]) for k, v in frame_cols.items()}
            parts.append((frame_cols, np.concatenate(idx)))
        width = max(b.shape[1] for b in turn_blocks)
        T = np.zeros((sum(b.shape[0] for b in turn_blocks), width))
        at = 0
        for b in turn_blocks:
            T[at : at + b.shape[0], : b.shape[1]] = b
            at += b.shape[0]
        turn_idx = np.concatenate([p[1] for p in parts])
        rows = {k: np.concatenate([cols[k] for cols, _ in parts]) for k in parts[0][0]}
        hp = rows["target_hp"].astype(np.int64)
        v = np.arange(T.shape[1])
        tm = T @ v
        tsd = np.sqrt(np.maximum(T @ (v * v) - tm * tm, 0.0))
        stats = rounds_batch(T, turn_idx, hp, max_rounds=int(max_rounds), chain=chain)
        if bar is not None:
            bar.update(max(0, total - bar.n))
    finally:
        if bar is not None:
            bar.close()
    text = lambda k: pl.Series(rows[k].tolist(), dtype=pl.String)  # noqa: E731
    num = lambda k: pl.Series(rows[k].astype(np.float64)).fill_nan(None)  # noqa: E731
    out = pl.DataFrame({
        "system": text("system"), "attacker": text("attacker"), "attack": text("attack"), "target": text("target"),
        "target_hp": pl.Series(hp, dtype=pl.Int64),
        "uses_per_turn": num("uses_per_turn").cast(pl.Int64),
        "plan": text("plan"),
        "mean_damage": num("mean_damage"), "sd_damage": num("sd_damage"), "p_any_damage": num("p_any_damage"),
        "mean_turn_damage": tm[turn_idx],
        "sd_turn_damage": tsd[turn_idx],
        "p_kill_one_turn": stats["p_kill_one_turn"],
        "mean_rounds": stats["mean_rounds"],
        "rounds_q10": stats["q10"], "rounds_q50": stats["q50"], "rounds_q90": stats["q90"],
        "hp_share_per_turn": tm[turn_idx] / hp,
    }).with_columns(pl.col(f"rounds_q{q}").fill_nan(None).cast(pl.Int64) for q in (10, 50, 90))
    if chain:
        out = out.with_columns(pl.Series("p_killed_by", stats["p_killed_by"]).cast(pl.List(pl.Float64)))
    _ = time.perf_counter() - start
    return out


def _for_system(value: Any, sys: RuleSystem, what: str) -> Any:
    """Return the options/situation meant for ``sys``: one model of that system, or a dict by system."""
    if value is None:
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            if _system(k).name == sys.name:
                return v
        return None
    own = _model_system(value)
    if own is None:
        raise RulesError(f"expected a rule system's {what.title()} or a dict {{system: {what}}}, "
                         f"not {type(value).__name__}", field=what)
    return value if own.name == sys.name else None


# =========================================================================== helpers on the frame
_LOWER_IS_BETTER = ("mean_rounds", "rounds_q10", "rounds_q50", "rounds_q90")


def rank(frame: pl.DataFrame, by: str = "mean_rounds", per: str | Sequence[str] | None = "target",
         ascending: bool | None = None) -> pl.DataFrame:
    """Return ``frame`` with a ``rank`` column (1 = best by ``by`` within each ``per`` group), sorted.

    ``ascending`` defaults to True for rounds (fewer is better) and False for everything else
    (more damage, higher chances are better). ``per=None`` ranks the whole frame.
    """
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame from compare(), not {type(frame).__name__}", field="frame")
    if by not in frame.columns:
        raise RulesError(f"no column {by!r}; choose one of {', '.join(frame.columns)}", field="by")
    groups = [] if per is None else [per] if isinstance(per, str) else list(per)
    for g in groups:
        if g not in frame.columns:
            raise RulesError(f"no column {g!r} to rank within", field="per")
    asc = (by in _LOWER_IS_BETTER) if ascending is None else bool(ascending)
    expr = pl.col(by).rank("min", descending=not asc)
    expr = expr.over(groups) if groups else expr
    return frame.with_columns(expr.cast(pl.Int64).alias("rank")).sort(
        groups + ["rank"], nulls_last=True, maintain_order=True)


def pivot(frame: pl.DataFrame, value: str = "mean_rounds", index: Sequence[str] = ("system", "attacker", "attack"),
          columns: str = "target") -> pl.DataFrame:
    """Return a builds × creatures matrix: one row per build (``index``), one column per target."""
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame from compare(), not {type(frame).__name__}", field="frame")
    for c in (value, columns, *index):
        if c not in frame.columns:
            raise RulesError(f"no column {c!r}", field="value" if c == value else "index")
    return frame.pivot(on=columns, index=list(index), values=value, aggregate_function="first",
                       maintain_order=True)


def export(frame: pl.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` to ``path`` by its suffix (.csv or .parquet) and return the path.

    For pandas, use ``frame.to_pandas()``. In CSV a list column (``p_killed_by``) becomes text
    with values separated by ``;``.
    """
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame, not {type(frame).__name__}", field="frame")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        lists = [c for c, t in frame.schema.items() if isinstance(t, pl.List)]
        frame.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(";") for c in lists).write_csv(path)
    elif suffix in (".parquet", ".pq"):
        frame.write_parquet(path)
    else:
        raise RulesError(f"cannot write {suffix or 'a file without suffix'}: use .csv or .parquet", field="path")
    return path
