"""The comparison engine: builds × creatures grids as one polars frame (docs/compare.md).

``compare(attackers, targets)`` cross-joins every attacker's attacks with every target of the same
rule system and returns one row per (attacker, attack, target) with the damage per use, per turn,
the chance to kill in one turn, the exact mean rounds-to-kill and its quantiles. The work is
batched: one ``outcome_tables`` call per system for all distinct matchups, turn Dists built from
those tables, and the rounds-to-kill of every row from one batched renewal recurrence and one
batched kill chain (:func:`workbench.chains.kill_stats`) over the target system's pools, the same
chain as :func:`workbench.rounds_to_kill`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import polars as pl

from .arguments import bounded, check_time
from .attack_plans import holding
from .errors import RulesError
from .fight_rows import COMPARE_FIGHTS, FightRow, fight_rows, row_effects
from .memo import CALLS, hashed
from .systems import system as _system
from .systems import system_of
from .systems import systems as _systems
from .systems.base import RuleSystem, pmf_rows
from .work import Work, check, counts

__all__ = ["compare", "rank", "pivot", "export", "neutral_attacker", "COLUMNS", "BEST_PLAN"]

#: the ``attack`` label of the row holding an attacker's best full turn (turns.best_plan)
BEST_PLAN = "best plan"
COLUMNS = [
    "system",
    "attacker",
    "attack",
    "target",
    "target_hp",
    "uses_per_turn",
    "plan",
    "mean_damage",
    "sd_damage",
    "p_any_damage",
    "mean_turn_damage",
    "sd_turn_damage",
    "p_kill_one_turn",
    "mean_rounds",
    "rounds_q10",
    "rounds_q50",
    "rounds_q90",
    "p_unresolved",
    "hp_share_per_turn",
    "method",
    "se",
    "forced_by",
]


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
    """Return the creature that uses a bare attack in ``compare``: its system's neutral stat line
    (:meth:`RuleSystem.neutral_attacker`), holding only ``attack`` and named after it. Pass
    ``(creature, attack)`` pairs to use an attack with a creature's stats instead."""
    sys = _model_system(attack)
    if sys is None or not _is(attack, sys, "Attack"):
        raise RulesError(f"expected an attack model, not {type(attack).__name__}", field="attackers")
    return sys.neutral_attacker(attack)


def _split_name(name: str, system: Any) -> tuple[RuleSystem, str]:
    if ":" in name:
        head, rest = name.split(":", 1)
        try:
            return _system(head), rest.strip()
        except RulesError:
            pass
    if system is None:
        first = _systems()[0]
        raise RulesError(f"{name!r}: name the rule system (system={first!r} or '{first}:{name}')", field="system")
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
    raise RulesError(
        f"no {'creature or attack' if role == 'attackers' else 'creature'} called {bare!r} in the {sys.name} catalog",
        field=role,
    )


def _is_frame(obj: Any) -> bool:
    if isinstance(obj, pl.DataFrame):
        return True
    return type(obj).__name__ == "DataFrame" and type(obj).__module__.startswith("pandas")


def _json_columns(frame: pl.DataFrame) -> dict[str, list[Any]]:
    """Return the text columns that ``Catalog.frame`` wrote as JSON (a column mixing kinds, like a
    Last Odyssey ability's ``targets``: 1 or "all"), decoded: those whose every cell is JSON text
    and not all of them JSON strings."""
    import json

    out = {}
    for name, dtype in frame.schema.items():
        if dtype != pl.String:
            continue
        cells = frame[name].to_list()
        try:
            decoded = [None if c is None else json.loads(c) for c in cells]
        except (json.JSONDecodeError, TypeError):
            continue
        if any(d is not None and not isinstance(d, str) for d in decoded):
            out[name] = decoded
    return out


def _frame_rows(frame: Any, role: str) -> list[dict[str, Any]]:
    """Return the rows of a polars or pandas frame as dicts, the JSON columns decoded."""
    if not isinstance(frame, pl.DataFrame):
        try:
            frame = pl.from_pandas(frame)
        except Exception as exc:  # noqa: BLE001 - anything pandas cannot hand over is a bad input
            raise RulesError(f"cannot read this frame: {exc}", field=role) from None
    decoded = _json_columns(frame)
    rows = list(frame.iter_rows(named=True))
    for name, values in decoded.items():
        for row, value in zip(rows, values):
            row[name] = value
    return rows


def _unnest(value: Any) -> Any:
    """Return a nested frame cell as plain data: a struct's null fields left out (they are keys
    another row of the column has), numpy arrays (pandas' list cells) as lists."""
    if isinstance(value, dict):
        return {k: _unnest(v) for k, v in value.items() if v is not None}
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_unnest(v) for v in value]
    return value


def _cell_value(value: Any, row: int, column: str) -> Any:
    """Return a bestiary cell as model data: a JSON table or list of tables (a Last Odyssey Shell,
    Glass Empires traits, nested models) or an empty JSON list is parsed; other cells are taken as
    they are."""
    if isinstance(value, str) and (value.lstrip().startswith(("{", "[{")) or value.strip() == "[]"):
        import json

        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise RulesError(f"row {row}: {column} is not a JSON table: {exc}", field=column) from None
    return value


def frame_creatures(frame: Any, system: Any = None, role: str = "targets") -> list[Any]:
    """Return the creatures of a bestiary frame (polars or pandas): one row per creature.

    Columns are the system's Creature field names, plus an optional ``system`` column (else
    ``system=`` names it). Empty cells take the field's default. The attack field (``attack_sets``,
    ``weapons``, ``abilities``) may hold catalog attack names separated by ``;``. An unknown column
    or a bad value raises RulesError naming the column and the row.
    """
    return [creature_from_row(row, i, system, role) for i, row in enumerate(_frame_rows(frame, role))]


def frame_attacks(frame: Any, system: Any = None) -> list[Any]:
    """Return the attacks of an attack frame (polars or pandas; one row per attack, columns the
    system's Attack fields and an optional ``system`` column), e.g. ``Catalog.frame("attacks")``.
    Empty cells take the field's default; nested cells are tables or JSON text."""
    out = []
    for i, raw in enumerate(_frame_rows(frame, "attacks")):
        row = {
            k: _cell_value(_unnest(v), i, k)
            for k, v in raw.items()
            if v is not None and not (isinstance(v, float) and np.isnan(v))
        }
        sysname = row.pop("system", None) or system
        if sysname is None:
            raise RulesError(f"row {i}: add a 'system' column or pass system=", field="system")
        try:
            out.append(_system(sysname).Attack.from_dict(row))
        except RulesError as exc:
            raise RulesError(
                f"row {i} ({row.get('name', '?')}): {exc.message}", field=exc.field, rule=exc.rule
            ) from None
    return out


def named_attacks(sys: RuleSystem, token: str) -> list[Any]:
    """Return the attacks one bestiary cell entry names: a catalog attack, or ``"Creature: Attack"``,
    the own attack of a catalog creature (how ``workbench catalog --out`` writes an attack that is not
    in the catalog's attack table, e.g. a Glass Empires creature's natural weapon), or a hand-written
    ``"Bite, Claw"`` of catalog attacks."""
    cat = sys.catalog()
    try:
        return [cat.attack(token)]
    except RulesError:
        pass
    owner, sep, name = token.rpartition(":")
    if sep:
        try:
            creature = cat.creature(owner)
        except RulesError:
            creature = None
        for a in sys.attacks_of(creature) if creature is not None else ():
            if a.name.lower() == name.strip().lower():
                return [a]
    if "," in token:
        return [a for part in token.split(",") if part.strip() for a in named_attacks(sys, part.strip())]
    raise RulesError(
        f"no attack called {token!r} in the {sys.name} catalog, nor a catalog creature's own "
        f"attack written 'Creature: Attack'",
        field=sys.attacks_field,
    )


def creature_from_row(row: dict[str, Any], i: int, system: Any = None, role: str = "targets") -> Any:
    """Return the creature of one bestiary row (``frame_creatures``): empty cells take the field's
    default, JSON cells are tables (a Shell, traits, nested models), list fields hold their items
    separated by ``;``, and the attack field attack names (:func:`named_attacks`)."""
    row = {
        k: _cell_value(_unnest(v), i, k)
        for k, v in row.items()
        if v is not None and not (isinstance(v, float) and np.isnan(v))
    }
    sysname = row.pop("system", None) or system
    if sysname is None:
        raise RulesError(f"row {i}: add a 'system' column or pass system=", field="system")
    sys = _system(sysname)
    names = set(sys.Creature.model_fields)
    unknown = sorted(set(row) - names)
    if unknown:
        raise RulesError(
            f"row {i}: unknown column {unknown[0]!r} for a {sys.name} creature "
            f"(columns are its fields: {', '.join(sorted(names))})",
            field=unknown[0],
        )
    key = sys.attacks_field
    lists = {
        name
        for name, f in sys.Creature.model_fields.items()
        if isinstance(f.default, (list, tuple)) or f.default_factory in (list, tuple)
    }
    for name, value in list(row.items()):
        if name == key and isinstance(value, str):
            try:
                row[key] = [a for p in value.split(";") if p.strip() for a in named_attacks(sys, p.strip())]
            except RulesError as exc:
                raise RulesError(f"row {i} ({row.get('name', '?')}): {exc.message}", field=key) from None
        elif name in lists and isinstance(value, str):
            row[name] = [p.strip() for p in value.split(";") if p.strip()]
    try:
        return sys.Creature.from_dict(row)
    except RulesError as exc:
        raise RulesError(f"row {i} ({row.get('name', '?')}): {exc.message}", field=exc.field, rule=exc.rule) from None


def _as_list(items: Any, role: str) -> list[Any]:
    if items is None:
        raise RulesError("give at least one", field=role)
    if _is_frame(items) or isinstance(items, (str, tuple)) or _model_system(items) is not None:
        return [items]
    try:
        return list(items)
    except TypeError:
        raise RulesError(
            f"expected a list of creatures, attacks, names or a frame, not {type(items).__name__}", field=role
        ) from None


def _attackers(items: Any, system: Any, best_plan: bool | None) -> list[_Attacker]:
    out: list[_Attacker] = []
    sys: RuleSystem | None  # None: the item is no model of a rule system (refused below)
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
                raise RulesError(
                    f"the second of a pair must be a {sys.name} attack, not {type(a).__name__}", field="attackers"
                )
            # the creature carries the attack for its fight, as every call given one attack does
            # (an edited Bite in place of its Bite, a catalog attack added): an Annulus round
            # plays only sets the creature has
            out.append(_Attacker(sys, holding(c, a, sys), [a], bool(best_plan), f"{c.name}"))
            continue
        sys = _model_system(item)
        if sys is None:
            raise RulesError(
                f"cannot compare a {type(item).__name__}: give creatures, attacks, (creature, attack) "
                f"pairs, catalog names or a frame",
                field="attackers",
            )
        if _is(item, sys, "Creature"):
            out.append(_Attacker(sys, item, sys.attacks_of(item), best_plan is not False, item.name))
        elif _is(item, sys, "Attack"):
            out.append(_Attacker(sys, neutral_attacker(item), [item], bool(best_plan), item.name))
        else:
            raise RulesError(
                f"a {sys.name} {type(item).__name__} is neither a creature nor an attack", field="attackers"
            )
    return out


def _targets(items: Any, system: Any) -> list[Any]:
    """Return the targets: creatures, and :class:`~workbench.encounters.Group` s of copies of one
    (given as a Group or by name, "3 x Wolf")."""
    from .encounters import Group, check_group, parse_group

    out: list[Any] = []
    for item in _as_list(items, "targets"):
        if _is_frame(item):
            out.extend(frame_creatures(item, system, "targets"))
            continue
        group = parse_group(item) if isinstance(item, str) else None
        if group is not None:
            n, name = group
            _, creature = _catalog_item(name, system, "targets")
            item = Group(creature, n)
        if isinstance(item, Group):
            if isinstance(item.creature, str):
                item = Group(_catalog_item(item.creature, system, "targets")[1], item.copies)
            sys = _model_system(item.creature)
            if sys is None or not _is(item.creature, sys, "Creature"):
                raise RulesError(
                    f"a group is copies of a creature, not of a {type(item.creature).__name__}", field="targets"
                )
            out.append(check_group(item))
            continue
        if isinstance(item, str):
            _, item = _catalog_item(item, system, "targets")
        sys = _model_system(item)
        if sys is None or not _is(item, sys, "Creature"):
            raise RulesError(
                f"a target must be a creature, its catalog name or a frame, not {type(item).__name__}", field="targets"
            )
        out.append(item)
    return out


# =========================================================================== the comparison
def _progress(progress: Any, total: int, desc: str):
    """Return a tqdm bar on stderr (shown when ``progress`` is True, or None, stderr is a terminal
    and the run takes over a second: :func:`workbench.work.show_progress`), else None."""
    from .work import show_progress

    if not show_progress(progress):
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, delay=0 if progress is True else 1.0, leave=False)


def _use_tables(
    sys: RuleSystem, reps: list[tuple[Any, Any, Any]], options, situation, notes: list[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return the per-use damage pmfs (rows × damage from 0) of the distinct matchups ``reps``
    (attack, attacker, target) and the usable mask: the system says which matchups its rules refuse
    here (:meth:`RuleSystem.usability`: out of reach, a Gaze without sight, ...), the usable ones are
    resolved in ONE ``outcome_columns`` call, and the refused ones are left out with a warning naming
    the rule (added to ``notes`` instead when given: the caller warns)."""
    refused = sys.usability([r[0] for r in reps], [r[1] for r in reps], [r[2] for r in reps], options, situation)
    ok = np.array([e is None for e in refused], dtype=bool)
    good = np.flatnonzero(ok)
    rows = np.ones((0, 1))
    if good.size:
        t = sys.outcome_columns(
            [reps[i][0] for i in good], [reps[i][1] for i in good], [reps[i][2] for i in good], options, situation
        )
        rows = pmf_rows(t, good.size)
    if not ok.all():
        why: dict[str, str] = {}
        for i in np.flatnonzero(~ok):
            why.setdefault(f"{reps[i][1].name}: {reps[i][0].name}", str(refused[i]))
        note = "left out, not usable here: " + "; ".join(f"{k} ({v})" for k, v in why.items())
        if notes is None:
            import warnings

            warnings.warn(note, stacklevel=4)
        else:
            notes.append(note)
    out = np.zeros((len(reps), rows.shape[1]))
    out[good] = rows
    return out, ok


def matchup_tables(
    sys: RuleSystem,
    pairs: list[tuple[Any, Any]],
    targets: list[Any],
    options,
    situation,
    notes: list[str] | None = None,
) -> dict:
    """Return the per-use pmfs and per-turn tables of every (creature, attack) pair × target.

    Matchups with equal :meth:`RuleSystem.damage_keys` are resolved once. Returns ``per_use``
    (distinct per-use pmfs), ``use_inv`` (row = pair-major grid → its per-use pmf, -1 if unusable),
    ``turns`` (a :class:`TurnTable` of the distinct turns that use the attack ``uses_per_turn``
    times), ``turn_inv`` (row → its turn, -1 if none), ``k`` (uses per turn, per row) and ``row_ok``.
    The matchups the rules refuse are said in a warning, or added to ``notes`` when given.
    """
    nT = len(targets)
    ids = np.asarray(sys.damage_keys(pairs, targets, options, situation), dtype=np.int64).reshape(len(pairs), nT)
    _, first, use_inv = np.unique(ids.ravel(), return_index=True, return_inverse=True)
    use_inv = use_inv.ravel()
    p_of, t_of = np.divmod(first, nT)
    reps = [(pairs[p][1], pairs[p][0], targets[t]) for p, t in zip(p_of, t_of)]
    per_use, ok = _use_tables(sys, reps, options, situation, notes) if reps else (np.ones((0, 1)), np.zeros(0, bool))
    k_pair = np.array([sys.uses_per_turn(c, x, options) for c, x in pairs], dtype=np.int64)
    k_rep = k_pair[p_of] if len(reps) else np.zeros(0, dtype=np.int64)
    want = np.flatnonzero(ok & (k_rep > 0))
    turns = sys.turn_tables(
        [(reps[i][1], reps[i][2]) for i in want], options, situation, plans=[[reps[i][0]] * int(k_rep[i]) for i in want]
    )
    turn_of = np.full(len(reps), -1, dtype=np.int64)
    has = np.array([e is None for e in turns.errors], dtype=bool)
    row_of_pair = np.full(turns.n_pairs, -1, dtype=np.int64)
    row_of_pair[turns.pair] = np.arange(turns.pair.size)
    turn_of[want[has]] = row_of_pair[np.flatnonzero(has)]
    row_ok = ok[use_inv]
    return {
        "per_use": per_use,
        "use_inv": np.where(row_ok, use_inv, -1),
        "turns": turns,
        "turn_inv": np.where(row_ok, turn_of[use_inv], -1),
        "k": np.repeat(k_pair, nT),
        "row_ok": row_ok,
    }


def _use_stats(per_use: np.ndarray) -> dict[str, np.ndarray]:
    v = np.arange(per_use.shape[1])
    m = per_use @ v
    sd = np.sqrt(np.maximum(per_use @ (v * v) - m * m, 0.0))
    return {"mean_damage": m, "sd_damage": sd, "p_any_damage": 1.0 - per_use[:, 0]}


def _system_block(
    sys: RuleSystem,
    attackers: list[_Attacker],
    targets: list[Any],
    options,
    situation,
    objective: Any = "damage",
    notes: list[str] | None = None,
) -> dict:
    """Return one system's rows: text and per-use columns, each row's turn pmf (a TurnTable row) and
    the target's pools; per-attack rows first, then the best-plan rows. The matchups the rules
    refuse are added to ``notes`` when given (else warned)."""
    from .turns import best_plans

    pairs = [(a, x) for a in attackers for x in a.attacks]
    nT = len(targets)
    M = matchup_tables(sys, [(a.creature, x) for a, x in pairs], targets, options, situation, notes)
    pools_t = np.array([sys.hit_pools(t) for t in targets], dtype=np.int64).reshape(nT, len(sys.pools))
    keep = M["row_ok"]
    pr = np.repeat(np.arange(len(pairs)), nT)[keep]
    tr = np.tile(np.arange(nT), len(pairs))[keep]
    stats = _use_stats(M["per_use"])
    iu = M["use_inv"][keep]
    cols: dict[str, list | np.ndarray] = {
        "attacker": [pairs[p][0].label for p in pr],
        "attack": [pairs[p][1].name for p in pr],
        "target": [targets[t].name for t in tr],
        "uses_per_turn": M["k"][keep].astype(np.float64),
        "plan": [None] * pr.size,
        **{k: v[iu] for k, v in stats.items()},
    }

    def attack_row(i: int, pr: np.ndarray = pr, tr: np.ndarray = tr, uses: np.ndarray = M["k"]) -> FightRow:
        p, t = int(pr[i]), int(tr[i])
        a, x = pairs[p]
        return FightRow(a.creature, targets[t], [x] * int(uses[p * nT + t]), a.label, x.name)

    fights = _Rows([(int(pr.size), attack_row)])
    turn_tables = [M["turns"]]
    turn_idx = [M["turn_inv"][keep]]
    row_pools = [pools_t[tr]]
    # best-plan rows: every distinct (creature, target) pair's legal plans in one batch, one chooser
    who = [a for a in attackers if a.plans]
    if who:
        index: dict[Any, int] = {}
        distinct: list[tuple[Any, Any]] = []
        ids: list[int] | np.ndarray  # the distinct pair of each row: collected, then an array
        ids = []
        for a in who:
            for t in targets:
                key = (_key(a.creature), _key(t))
                if key not in index:
                    index[key] = len(distinct)
                    distinct.append((a.creature, t))
                ids.append(index[key])
        table = sys.turn_tables(distinct, options, situation)
        best = best_plans(table, objective, np.array([sys.hit_pools(t) for _, t in distinct], dtype=np.int64))
        damage_best = best if objective == "damage" else best_plans(table, "damage")
        ids = np.array(ids, dtype=np.int64)
        nb = ids.size
        cols["attacker"] += [a.label for a in who for _ in targets]
        cols["attack"] += [BEST_PLAN] * nb
        cols["target"] += [t.name for _ in who for t in targets]
        cols["uses_per_turn"] = np.concatenate([cols["uses_per_turn"], np.full(nb, np.nan)])
        cols["plan"] += [table.label[best[i]] if best[i] >= 0 else "(no usable attack)" for i in ids]
        fights.parts.append(
            (nb, lambda i: FightRow(who[i // nT].creature, targets[i % nT], None, who[i // nT].label, BEST_PLAN))
        )
        for k in stats:
            cols[k] = np.concatenate([cols[k], np.full(nb, np.nan)])
        turn_tables.append(table)
        turn_idx.append(best[ids])
        row_pools.append(np.tile(pools_t, (len(who), 1)))
    else:
        table, ids, damage_best = None, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return {
        "cols": cols,
        "tables": turn_tables,
        "turn_idx": turn_idx,
        "pools": np.concatenate(row_pools),
        "fights": fights,
        # best-plan rows (after the pr.size per-attack rows): their plan table, pair, damage-best row
        "plans": (int(pr.size), table, ids, damage_best),
    }


def _take_plans(block: dict, rows: np.ndarray, chosen: list) -> None:
    """Point the best-plan rows among ``rows`` (block row indices) whose fight chose a plan by the
    objective (``chosen``: from :func:`workbench.fight_rows.fight_rows`, "" where the row chose
    nothing) at that plan's turn: its label in ``plan`` and its row of the turn table (so the turn
    columns are the plan's); None (the highest mean damage in every state) is the damage-best plan."""
    start, table, ids, damage_best = block["plans"]
    if table is None:
        return
    row_of = {(int(p), label): j for j, (p, label) in enumerate(zip(table.pair, table.label))}
    for i, plan in zip(rows.tolist(), chosen):
        if i < start or plan == "":
            continue
        pair = int(ids[i - start])
        j = int(damage_best[pair]) if plan is None else row_of[(pair, plan)]
        if j < 0:  # the pair has no legal plan (e.g. melee only against a back-row target): no turn
            continue
        block["turn_idx"][1][i - start] = j
        block["cols"]["plan"][i] = table.label[j]


class _Rows(Sequence):
    """The FightRow of each compare row, made when asked: the rows whose fight carries state need
    theirs (``_fight_methods``, ``fight_rows``), an HP-only compare none, so 25,000 rows do not pay
    25,000 objects. ``parts``: (rows, the row's FightRow from its index in the part)."""

    def __init__(self, parts: list):
        self.parts = parts

    def __len__(self) -> int:
        return sum(n for n, _ in self.parts)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        for n, make in self.parts:
            if i < n:
                return make(i)
            i -= n
        raise IndexError(i)


def _key(obj: Any) -> Any:
    try:
        hash(obj)
        return obj
    except TypeError:
        return ("id", id(obj))


@bounded("compare")
def compare(
    attackers: Any,
    targets: Any,
    *,
    options: Any = None,
    situation: Any = None,
    system: Any = None,
    max_rounds: int = 100,
    progress: Any = None,
    best_plan: bool | None = None,
    chain: bool = False,
    objective: Any = "damage",
    confirm: bool = False,
    simulate: bool | None = None,
    fights: int = COMPARE_FIGHTS,
    seed: int = 0,
    max_seconds: Any = None,
) -> pl.DataFrame:
    """Return one row per (attacker, attack, target) with damage, kill and rounds-to-kill statistics.

    ``attackers``: creatures (each of their attacks is a row), bare attacks (used by
    :func:`neutral_attacker`), ``(creature, attack)`` pairs, catalog names ("Wolf" with
    ``system=``, or "annulus:Wolf"), or bestiary frames (polars or pandas). ``targets``: creatures,
    names or frames, and groups: "3 x Wolf" (or ``workbench.encounters.Group(creature, 3)``), that
    many passive copies, whose rows (one per attack; no best-plan row) give the rounds until every
    copy has fallen (:func:`workbench.encounters.group_rounds`: the attacker strikes the copy with
    the fewest HP left, an area set every copy in its area), ``target_hp`` the group's HP, the use
    and turn columns one copy's and ``hp_share_per_turn`` null (docs/compare.md, Against a group). Several rule systems may be mixed; only attackers and targets of the same
    system meet (cross-system pairs are skipped). ``options`` / ``situation`` apply to the system
    they belong to (a dict {system: Options} is accepted).

    Per row: ``mean_damage``, ``sd_damage``, ``p_any_damage`` (P(damage >= 1)) of one use; the turn
    that uses the attack ``uses_per_turn`` times (:meth:`RuleSystem.uses_per_turn`):
    ``mean_turn_damage``, ``sd_turn_damage``, ``p_kill_one_turn``, ``mean_rounds`` (exact; inf if
    the turn never damages), ``rounds_q10/q50/q90`` (null past ``max_rounds``),
    ``hp_share_per_turn`` (mean turn damage / target HP). The kill statistics come from the same
    chain as :func:`workbench.rounds_to_kill` over the target's pools (Annulus: Endurance, then
    Vitality, Vital damage straight to Vitality). Attackers given as creatures also get one row per
    target with ``attack = "best plan"`` (the legal turn that is best by ``objective``: "damage",
    the highest mean, by default; "rounds", the fewest expected rounds; "kill_within_K"; labelled
    in ``plan``); ``best_plan`` True/False forces these rows on or off. ``chain=True`` adds
    ``p_killed_by``, the kill chance by each round 1..max_rounds (a list column).

    The fight of each row is the fight of ``wb.rounds_to_kill(attacker, target, options=,
    situation=, plan=)`` (the row's plan: the attack ``uses_per_turn`` times, or None on best-plan
    rows): the exact chain when the pair carries no state, otherwise (``forced_by``, the sorted
    :func:`workbench.simulate.state_effects` of the pair, is not empty) the same simulation, of
    ``fights`` fights (default 2,000) seeded by :func:`workbench.fight_rows.row_seed` (``seed``
    and the row's labels). ``method`` says which ("exact" | "simulated"), ``se`` is the standard
    error of a simulated ``mean_rounds`` (null where exact). A simulated ``mean_rounds`` is null
    while some fights still stand after ``max_rounds`` (``p_unresolved`` > 0). ``simulate``: None
    chooses per row, True simulates every row, False runs the exact chain on every row, ignoring
    the state (as ``rounds_to_kill(simulate=False)``). The turn columns (``mean_turn_damage``,
    ``sd_turn_damage``, ``hp_share_per_turn``) are the turn in the given situation, exact.
    Simulated best-plan rows choose their plans by the highest mean damage (the simulation's
    sides do), so ``objective`` other than "damage" with such rows raises, as ``rounds_to_kill``.

    Bounded work (docs/limits.md, Bounded work), counted before the work starts, the same on every
    machine: a grid past 1,000,000 rows, past limits.MAX_MATCHUPS work units of distinct matchups
    (:func:`size_work`), with a ``chain`` column past 50,000,000 numbers, or whose rows with state
    x ``fights`` pass limits.MAX_STATE_ROW_FIGHTS (:func:`state_work`, counted once the turn
    tables are built, before any fight) is refused (RulesError, field ``budget``, naming the count,
    the bound and the ways on) unless ``confirm=True``; ``workbench.work.estimate(compare, ...)``
    returns the decision without running the fights. ``progress``: a bar on stderr (True; None:
    when stderr is a terminal and the run takes over a second). ``max_seconds``: None only
    (no clock stops the work; it is counted first: ``arguments.check_max_seconds``).
    """
    from .chains import kill_stats

    prep = _prepare(
        attackers, targets, system, max_rounds, objective, simulate, fights, seed, best_plan, chain, progress, confirm
    )
    groups, max_rounds, simulate, fights, seed, chain, confirm = (
        prep["groups"],
        prep["max_rounds"],
        prep["simulate"],
        prep["fights"],
        prep["seed"],
        prep["chain"],
        prep["confirm"],
    )
    for w in size_work(groups, max_rounds, chain):  # counted before any table is built
        check(w, confirm)
    key = _call_key(prep, options, situation, objective)
    kept = CALLS.lookup(key)
    if kept is not None:  # the same call made before: its frame, its notes and counted work again
        frame, n_state, said = cast(tuple[pl.DataFrame, int, list[str]], kept)
        _say(said)
        check(state_work(n_state, fights), confirm)
        check(group_work(prep["crowds"], groups, fights), confirm)
        return frame.clone()
    blocks: list[tuple] = []
    notes: list[str] = []
    for name, a, t in groups:
        sys = _system(name)
        opt, sit = _for_system(options, sys, "options"), _for_system(situation, sys, "situation")
        block = _system_block(sys, a, t, opt, sit, objective, notes)
        method, forced = _fight_methods(block["fights"], simulate, opt, sit)
        blocks.append((name, opt, sit, block, method, forced))
    _say(notes)
    # counted before any fight runs: the rows whose fight carries state, each chained or simulated
    n_state = sum(int((b[4] == "simulated").sum()) for b in blocks)
    check(state_work(n_state, fights), confirm)
    check(group_work(prep["crowds"], groups, fights), confirm)
    # a bar over the rows (stderr, a terminal only), ticked by each row with state as it is done
    bar = _progress(
        progress, sum(b[4].size for b in blocks) + _group_rows_count(prep["crowds"], groups)[0], "compare rows"
    )
    frames = []
    try:
        for name, opt, sit, block, method, forced in blocks:
            cols = block["cols"]
            sim = np.flatnonzero(method == "simulated")
            got = None
            if sim.size:
                got = fight_rows(
                    [block["fights"][i] for i in sim],
                    name,
                    opt,
                    sit,
                    fights=fights,
                    seed=seed,
                    max_rounds=int(max_rounds),
                    confirm=confirm,
                    chain=chain,
                    state_chains=simulate is None,
                    objective=objective,
                    tick=None if bar is None else bar.update,
                )
                _take_plans(block, sim, got["plan"])
            parts = []
            cuts = np.cumsum([i.size for i in block["turn_idx"]])[:-1]
            chained = np.ones(method.size, dtype=bool)
            chained[sim] = False  # a row with state has its kill columns from its own fight (above)
            for table, idx, pools, want in zip(
                block["tables"], block["turn_idx"], np.split(block["pools"], cuts), np.split(chained, cuts)
            ):
                parts.append(kill_stats(table.pmf, idx, pools, max_rounds=int(max_rounds), chain=chain, chained=want))
            st = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            st["se"] = np.full(method.size, np.nan)
            if got is not None:
                for k in ("mean_rounds", "se", "p_kill_one_turn", "p_unresolved", "q10", "q50", "q90"):
                    st[k][sim] = got[k]
                if chain:
                    st["p_killed_by"][sim] = got["p_killed_by"]
                # nothing to simulate (never killed), or the chain over the state fits: exact
                done = sim[got["never"] | got["exact"]]
                method[done] = "exact"
                forced[done] = ""
            hp = block["pools"].sum(axis=1)
            frame = pl.DataFrame(
                {
                    "system": pl.Series([name] * hp.size, dtype=pl.String),
                    "attacker": pl.Series(cols["attacker"], dtype=pl.String),
                    "attack": pl.Series(cols["attack"], dtype=pl.String),
                    "target": pl.Series(cols["target"], dtype=pl.String),
                    "target_hp": pl.Series(hp, dtype=pl.Int64),
                    "uses_per_turn": pl.Series(cols["uses_per_turn"]).fill_nan(None).cast(pl.Int64),
                    "plan": pl.Series(cols["plan"], dtype=pl.String),
                    **{
                        k: pl.Series(np.asarray(cols[k], dtype=np.float64)).fill_nan(None)
                        for k in ("mean_damage", "sd_damage", "p_any_damage")
                    },
                    "mean_turn_damage": st["mean_turn_damage"],
                    "sd_turn_damage": st["sd_turn_damage"],
                    "p_kill_one_turn": st["p_kill_one_turn"],
                    "mean_rounds": pl.Series(st["mean_rounds"], dtype=pl.Float64).fill_nan(None),
                    "rounds_q10": st["q10"],
                    "rounds_q50": st["q50"],
                    "rounds_q90": st["q90"],
                    "p_unresolved": st["p_unresolved"],
                    "hp_share_per_turn": st["mean_turn_damage"] / hp,
                    "method": pl.Series(method, dtype=pl.String),
                    "se": pl.Series(st["se"], dtype=pl.Float64).fill_nan(None),
                    "forced_by": pl.Series(forced, dtype=pl.String),
                }
            ).with_columns(pl.col(f"rounds_q{q}").fill_nan(None).cast(pl.Int64) for q in (10, 50, 90))
            if chain:
                frame = frame.with_columns(pl.Series("p_killed_by", st["p_killed_by"]).cast(pl.List(pl.Float64)))
            if bar is not None:
                bar.update(method.size - sim.size)  # the rows without state, done together
            if name in prep["crowds"]:
                crowd, added = prep["crowds"][name]
                run: dict[str, Any] = dict(
                    fights=fights, seed=seed, max_rounds=int(max_rounds), simulate=simulate, confirm=confirm
                )
                grouped = _group_rows(
                    name, frame, block, crowd, opt, sit, tick=None if bar is None else bar.update, **run
                )
                frame = pl.concat([frame.filter(~pl.col("target").is_in(sorted(added))), grouped])
            frames.append(_clip_probabilities(frame))
    finally:
        if bar is not None:
            bar.close()
    out = pl.concat(frames)
    size = int(out.estimated_size())
    if size <= CALLS.max_bytes // 4:  # one large frame does not push every other out
        CALLS.put(key, (out, n_state, notes), nbytes=size)
    return out.clone()


def _say(notes: list[str]) -> None:
    """Warn each of compare's notes (the matchups the rules leave out), at compare's caller."""
    import warnings

    for note in notes:
        warnings.warn(note, stacklevel=4)


def _call_key(prep: dict[str, Any], options: Any, situation: Any, objective: Any) -> Any:
    """Return the memo key of a compare call: everything its frame depends on (each system met, its
    attackers, targets, groups, options and situation, and the checked arguments), not ``progress``
    or ``confirm`` (the counted work is checked again on a hit). A part that cannot be hashed makes
    the key unhashable, so the memo keeps nothing for that call."""
    groups = []
    for name, who, tab in prep["groups"]:
        sys = _system(name)
        crowd, added = prep["crowds"].get(name, ([], set()))
        groups.append(
            (
                sys,
                tuple((a.sys, a.creature, tuple(a.attacks), a.plans, a.label) for a in who),
                tuple(tab),
                tuple(crowd),
                frozenset(added),
                _for_system(options, sys, "options"),
                _for_system(situation, sys, "situation"),
            )
        )
    args = tuple(prep[k] for k in ("max_rounds", "simulate", "fights", "seed", "chain"))
    return hashed(("compare", tuple(groups), objective, args))


def _group_rows(
    system: str,
    frame: pl.DataFrame,
    block: dict,
    crowd: list[Any],
    options: Any,
    situation: Any,
    *,
    fights: int,
    seed: int,
    max_rounds: int,
    simulate: bool | None,
    confirm: bool,
    tick: Any = None,
) -> pl.DataFrame:
    """Return the rows of every attack against each group of ``crowd``: the row of the attack against
    the group's creature (``frame``, the block's rows in order), its kill columns replaced by the
    passive group fight of :func:`workbench.encounters.group_rounds` (the attack played as the row's
    plan, every copy a passive target, the attacker's target the one with the fewest HP left): the
    rounds until every copy has fallen. ``target`` is "3 x Wolf", ``target_hp`` the group's HP;
    the use and turn columns stay those of one copy, and ``hp_share_per_turn`` is null (an area
    set's turn strikes several). ``simulate`` True simulates; None and False let the group fight
    choose (its state is never ignored). Seeded per row by :func:`row_seed` with the group's name;
    each row done is reported to ``tick(1)`` (compare's bar)."""
    from .encounters import group_rounds
    from .fight_rows import _stats, row_seed

    cols = block["cols"]
    per_attack = block["plans"][0]  # the per-attack rows come first; best-plan rows are not grouped
    out = []
    for g in crowd:
        for i in range(per_attack):
            if cols["target"][i] != g.creature.name:
                continue
            check_time(f"compare, {cols['attacker'][i]} against {g.name}")
            r = block["fights"][i]
            row = frame.row(i, named=True)
            by = np.zeros(max_rounds)
            mean, se, method, forced, unresolved = np.inf, float("nan"), "exact", "", 1.0
            # never felled where one copy never is (the row against it says so: mean inf)
            hurts = bool(r.plan) and row["mean_rounds"] != np.inf
            if hurts:
                got = group_rounds(
                    r.attacker,
                    g,
                    options,
                    situation,
                    r.plan,
                    max_rounds=max_rounds,
                    simulate=True if simulate else None,
                    fights=fights,
                    seed=row_seed(seed, system, r.attacker_label, r.attack_label, g.name),
                    confirm=confirm,
                )
                by, mean, se, unresolved = got.p_killed_by, got.mean, got.se, got.unresolved
                method, forced = ("exact" if got.exact else "simulated"), "; ".join(got.forced_by)
            st = _stats(by, fights)
            row.update(
                target=g.name,
                target_hp=int(row["target_hp"]) * int(g.copies),
                p_kill_one_turn=float(by[0]),
                mean_rounds=None if np.isnan(mean) else float(mean),
                rounds_q10=None if np.isnan(st["q10"]) else int(st["q10"]),
                rounds_q50=None if np.isnan(st["q50"]) else int(st["q50"]),
                rounds_q90=None if np.isnan(st["q90"]) else int(st["q90"]),
                p_unresolved=unresolved,
                hp_share_per_turn=None,
                method=method,
                se=None if np.isnan(se) else float(se),
                forced_by=forced,
            )
            if "p_killed_by" in row:
                row["p_killed_by"] = [float(x) for x in by]
            out.append(row)
            if tick is not None:
                tick(1)
    return pl.DataFrame(out, schema=frame.schema) if out else frame.clear()


def _clip_probabilities(frame: pl.DataFrame) -> pl.DataFrame:
    """Return ``frame`` with every probability column (``p_*``, and each entry of the list column
    ``p_killed_by``) clipped to [0, 1]: 1 - P(0) and sums of chances may cross 0 or 1 by float
    round-off (a Glass Empires row showed p_any_damage = -2.2e-16), never by more."""
    exprs = []
    for name, dtype in frame.schema.items():
        if not name.startswith("p_"):
            continue
        if dtype == pl.Float64:
            exprs.append(pl.col(name).clip(0.0, 1.0))
        elif dtype == pl.List(pl.Float64):
            exprs.append(pl.col(name).list.eval(pl.element().clip(0.0, 1.0)))
    return frame.with_columns(exprs) if exprs else frame


def _fight_methods(
    rows: list[FightRow], simulate: bool | None, options: Any, situation: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Return each row's method ("exact" | "simulated") and its ``forced_by`` (the sorted state
    effects joined by "; ", empty where exact), chosen as ``rounds_to_kill`` chooses
    (docs/combat.md): simulated when the pair's state effects are not empty (``simulate`` None),
    every row (True) or none (False). A row without a turn (no use of its attack fits) stays exact."""
    n = len(rows)
    if simulate is False:
        return np.full(n, "exact", dtype=object), np.full(n, "", dtype=object)
    has_turn = np.array([r.plan is None or len(r.plan) > 0 for r in rows], dtype=bool)
    if simulate:
        effects = [sorted(e) if t else [] for e, t in zip(row_effects(rows, options, situation), has_turn)]
        sim = has_turn
    else:
        todo = [i for i in range(n) if has_turn[i]]
        found = row_effects([rows[i] for i in todo], options, situation)
        effects = [[] for _ in range(n)]
        for i, e in zip(todo, found):
            effects[i] = e
        sim = np.array([bool(e) for e in effects], dtype=bool)
    method = np.where(sim, "simulated", "exact").astype(object)
    forced = np.array(["; ".join(e) if s else "" for e, s in zip(effects, sim)], dtype=object)
    return method, forced


#: work units of a distinct matchup per system (``RuleSystem.compare_seconds_per_row`` of the
#: reference machine over this many seconds: Annulus 3, Last Odyssey 4, Glass Empires 3, Unbound 9)
#: and of a row repeating one already resolved (1 unit per REPEAT_ROWS rows): fixed numbers, counted
UNIT_SECONDS = 1.0e-4
REPEAT_ROWS = 5


def _content(model: Any) -> str:
    """Return a model's fields but its name, as text: matchups of equal content cost one."""
    return repr([getattr(model, name) for name in type(model).model_fields if name != "name"])


def matchup_weight(system: Any) -> int:
    """Return the work units of one distinct matchup of ``system``: its measured
    ``compare_seconds_per_row`` on the reference machine in units of UNIT_SECONDS (at least 1)."""
    return max(1, round(_system(system).compare_seconds_per_row / UNIT_SECONDS))


def estimate_compare(groups: list[tuple[str, list[_Attacker], list[Any]]]) -> tuple[int, int, int]:
    """Return (rows, distinct matchups, matchup work units) of compare's grid before any of it runs:
    rows are every attacker's attacks (and best-plan row) x the targets of its system; matchups of
    equal content (names aside) are counted once, each weighted by :func:`matchup_weight`, and
    every REPEAT_ROWS rows add one unit (the repeats' own rows)."""
    rows = distinct = units = 0
    for name, att, tgt in groups:
        n_rows = sum(len(a.attacks) + a.plans for a in att) * len(tgt)
        uses = {(_content(a.creature), _content(x)) for a in att for x in a.attacks}
        plans = {_content(a.creature) for a in att if a.plans}
        n_distinct = (len(uses) + len(plans)) * len({_content(t) for t in tgt})
        rows += n_rows
        distinct += n_distinct
        units += n_distinct * matchup_weight(name) + n_rows // REPEAT_ROWS
    return rows, distinct, units


_HOW = "compare fewer attackers or targets, or confirm=True (workbench compare --yes) to run it"


def size_work(groups: list, max_rounds: int, chain: bool) -> list[Work]:
    """Return compare's work counted from the sizes of its grid alone (docs/limits.md, bounded
    work): its rows (MAX_COMPARE_ROWS), with ``chain`` its p_killed_by numbers (rows x max_rounds,
    MAX_CHAIN_CELLS), and its distinct matchups' work units (MAX_MATCHUPS)."""
    from .limits import MAX_CHAIN_CELLS, MAX_COMPARE_ROWS, MAX_MATCHUPS

    rows, distinct, units = estimate_compare(groups)
    out = [
        Work("compare", rows, MAX_COMPARE_ROWS, "rows", f"{rows:,} rows", ("attackers", "targets"), _HOW),
        Work(
            "compare",
            units,
            MAX_MATCHUPS,
            "matchup units",
            f"{rows:,} rows, {distinct:,} distinct matchups ("
            + ", ".join(f"{g[0]} x {matchup_weight(g[0])}" for g in groups)
            + f", + 1 per {REPEAT_ROWS} rows)",
            ("attackers", "targets"),
            _HOW,
        ),
    ]
    if chain:
        out.append(
            Work(
                "compare",
                rows * max_rounds,
                MAX_CHAIN_CELLS,
                "numbers of p_killed_by",
                f"{rows:,} rows x {max_rounds:,} rounds",
                ("attackers", "targets", "max_rounds", "chain"),
                _HOW + " (or a smaller max_rounds=)",
            )
        )
    return out


def state_work(rows: int, fights: int) -> Work:
    """Return the work of compare's ``rows`` whose fight carries state, counted before any of them
    runs: rows x ``fights`` (each row is chained over its state, its chain counted and bounded
    before it is built, or simulated with ``fights`` fights), against MAX_STATE_ROW_FIGHTS."""
    from .limits import MAX_STATE_ROW_FIGHTS

    return Work(
        "compare",
        rows * fights,
        MAX_STATE_ROW_FIGHTS,
        "row-fights",
        f"{rows:,} rows whose fight carries state x {fights:,} fights",
        ("attackers", "targets", "fights"),
        "compare fewer attackers or targets, give fewer fights=, simulate=False to ignore the state, "
        "or confirm=True (workbench compare --yes) to run it",
    )


def _member(target: Any) -> Any:
    """Return the creature of a target: itself, or a group's creature."""
    from .encounters import Group

    return target.creature if isinstance(target, Group) else target


def _tabulated(targets: list[Any]) -> tuple[list[Any], list[Any], set[str]]:
    """Return (the creatures whose rows compare tabulates: the single targets, then each group's
    creature not among them; the groups; the names of the creatures added for groups alone, whose
    own rows are left out of the result)."""
    from .encounters import Group

    single = [t for t in targets if not isinstance(t, Group)]
    crowd = [t for t in targets if isinstance(t, Group)]
    names = {t.name for t in single}
    added: dict[str, Any] = {}
    for g in crowd:
        if g.creature.name not in names:
            added.setdefault(g.creature.name, g.creature)
    return single + list(added.values()), crowd, set(added)


def _group_rows_count(crowds: dict[str, tuple[list[Any], set[str]]], groups: list) -> tuple[int, int]:
    """Return (compare's rows against groups, the creatures in those rows' groups): each attack of
    each attacker once per group of its system."""
    rows = creatures = 0
    for name, att, _ in groups:
        uses = sum(len(a.attacks) for a in att)
        for g in crowds.get(name, ([], set()))[0]:
            rows += uses
            creatures += uses * int(g.copies)
    return rows, creatures


def group_work(crowds: dict[str, tuple[list[Any], set[str]]], groups: list, fights: int) -> Work:
    """Return the work of compare's rows against groups, counted before any runs: each attack row
    against a group is one passive group fight (:func:`workbench.encounters.group_rounds`), chained
    or simulated with ``fights`` fights of every creature: rows x fights x copies against
    MAX_GROUP_ROW_FIGHTS (a group fight costs about ten row-fights)."""
    from .limits import MAX_GROUP_ROW_FIGHTS

    rows, creatures = _group_rows_count(crowds, groups)
    return Work(
        "compare",
        creatures * fights,
        MAX_GROUP_ROW_FIGHTS,
        "group row-fights",
        f"{rows:,} rows against groups ({creatures:,} creatures in all) x {fights:,} fights",
        ("attackers", "targets", "fights"),
        "compare fewer attackers or smaller groups, give fewer fights=, or confirm=True "
        "(workbench compare --yes) to run it",
    )


def _prepare(
    attackers, targets, system, max_rounds, objective, simulate, fights, seed, best_plan, chain, progress, confirm
) -> dict[str, Any]:
    """Return compare's checked arguments and its groups (system, attackers, targets) of matchups."""
    from .arguments import check_confirm, check_fights, check_flag, check_rounds, check_seed
    from .turns import check_objective

    max_rounds = check_rounds(max_rounds)
    check_objective(objective)
    simulate = check_flag("simulate", simulate)
    fights, seed = check_fights(fights), check_seed(seed)
    best_plan = check_flag("best_plan", best_plan)
    chain = bool(check_flag("chain", chain, allow_none=False))
    check_flag("progress", progress)
    if system is not None:
        system = _system(system).name
    att = _attackers(attackers, system, best_plan)
    tgt = _targets(targets, system)
    by_sys: dict[str, tuple[list, list]] = {}
    for a in att:
        by_sys.setdefault(a.sys.name, ([], []))[0].append(a)
    for t in tgt:
        by_sys.setdefault(system_of(_member(t)).name, ([], []))[1].append(t)
    groups = []
    crowds: dict[str, tuple[list[Any], set[str]]] = {}
    for name, (who, t) in by_sys.items():
        if not (who and t):
            continue
        tab, crowd, added = _tabulated(t)
        groups.append((name, who, tab))
        if crowd:
            crowds[name] = (crowd, added)
    if not groups:
        raise RulesError(
            "no attacker shares a rule system with any target (matchups stay within a system)", field="targets"
        )
    return dict(
        groups=groups,
        crowds=crowds,
        max_rounds=max_rounds,
        simulate=simulate,
        fights=fights,
        seed=seed,
        chain=chain,
        confirm=check_confirm(confirm),
    )


@counts("compare")
def compare_work(
    attackers: Any,
    targets: Any,
    *,
    options: Any = None,
    situation: Any = None,
    system: Any = None,
    max_rounds: int = 100,
    progress: Any = None,
    best_plan: bool | None = None,
    chain: bool = False,
    objective: Any = "damage",
    confirm: bool = False,
    simulate: bool | None = None,
    fights: int = COMPARE_FIGHTS,
    seed: int = 0,
    max_seconds: Any = None,
) -> list[Work]:
    """Return the counted work of ``compare`` with these arguments, as compare checks it: the grid's
    sizes (:func:`size_work`) and, when they are within their bounds (or confirmed), the rows whose
    fight carries state (:func:`state_work`, which needs the turn tables, built here as compare
    builds them, but no fight)."""
    prep = _prepare(
        attackers, targets, system, max_rounds, objective, simulate, fights, seed, best_plan, chain, progress, confirm
    )
    out = size_work(prep["groups"], prep["max_rounds"], prep["chain"])
    if any(w.refused(prep["confirm"]) for w in out):
        return out
    n = 0
    for name, a, t in prep["groups"]:
        sys = _system(name)
        opt, sit = _for_system(options, sys, "options"), _for_system(situation, sys, "situation")
        block = _system_block(sys, a, t, opt, sit, objective)
        method, _ = _fight_methods(block["fights"], prep["simulate"], opt, sit)
        n += int((method == "simulated").sum())
    return out + [state_work(n, prep["fights"]), group_work(prep["crowds"], prep["groups"], prep["fights"])]


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
        raise RulesError(
            f"expected a rule system's {what.title()} or a dict {{system: {what}}}, not {type(value).__name__}",
            field=what,
        )
    return value if own.name == sys.name else None


# =========================================================================== helpers on the frame
_LOWER_IS_BETTER = ("mean_rounds", "rounds_q10", "rounds_q50", "rounds_q90")


def rank(
    frame: pl.DataFrame,
    by: str = "mean_rounds",
    per: str | Sequence[str] | None = "target",
    ascending: bool | None = None,
) -> pl.DataFrame:
    """Return ``frame`` with a ``rank`` column (1 = best by ``by`` within each ``per`` group), sorted.

    ``ascending`` defaults to True for rounds (fewer is better) and False for everything else
    (more damage, higher chances are better). ``per=None`` ranks the whole frame. Values equal to
    12 significant digits tie.
    """
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame from compare(), not {type(frame).__name__}", field="frame")
    if not isinstance(by, str) or by not in frame.columns:
        raise RulesError(f"no column {by!r}; choose one of {', '.join(frame.columns)}", field="by")
    if per is not None and not isinstance(per, (str, list, tuple)):
        raise RulesError(f"per must be a column name, a list of them or None, not {type(per).__name__}", field="per")
    groups = [] if per is None else [per] if isinstance(per, str) else list(per)
    for g in groups:
        if not isinstance(g, str) or g not in frame.columns:
            raise RulesError(f"no column {g!r} to rank within", field="per")
    asc = (by in _LOWER_IS_BETTER) if ascending is None else bool(ascending)
    # values equal to 12 significant digits tie (two exact computations of one number differ in the
    # last bits; a rank must not depend on that)
    value = pl.col(by).round_sig_figs(12) if frame.schema[by].is_float() else pl.col(by)
    expr = value.rank("min", descending=not asc)
    expr = expr.over(groups) if groups else expr
    return frame.with_columns(expr.cast(pl.Int64).alias("rank")).sort(
        groups + ["rank"], nulls_last=True, maintain_order=True
    )


def pivot(
    frame: pl.DataFrame,
    value: str = "mean_rounds",
    index: Sequence[str] = ("system", "attacker", "attack"),
    columns: str = "target",
) -> pl.DataFrame:
    """Return a builds × creatures matrix: one row per build (``index``), one column per target."""
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame from compare(), not {type(frame).__name__}", field="frame")
    if isinstance(index, str) or not isinstance(index, (list, tuple)):
        raise RulesError(f"index must be a list of column names, not {type(index).__name__}", field="index")
    for c in (value, columns, *index):
        if not isinstance(c, str) or c not in frame.columns:
            raise RulesError(f"no column {c!r}", field="value" if c == value else "index")
    return frame.pivot(on=columns, index=list(index), values=value, aggregate_function="first", maintain_order=True)


def export(frame: pl.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` to ``path`` by its suffix (.csv or .parquet) and return the path.

    Missing folders of ``path`` are created (as the CLI's ``--out`` does); a file name past the
    file system's limit (255 bytes) or a folder that cannot be written is a RulesError naming
    ``path``. For pandas, use ``frame.to_pandas()``. In CSV a list column (``p_killed_by``) becomes text
    with values separated by ``;``.
    """
    if not isinstance(frame, pl.DataFrame):
        raise RulesError(f"expected a polars frame, not {type(frame).__name__}", field="frame")
    if not isinstance(path, (str, os.PathLike)):
        raise RulesError(f"give a file path (text or Path), not {type(path).__name__}", field="path")
    from .io import _as_path, _os_error, check_file_name

    path = check_file_name(_as_path(path))
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise RulesError(f"cannot write {suffix or 'a file without suffix'}: use .csv or .parquet", field="path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # as the CLI's --out does
        if suffix == ".csv":
            lists = [c for c, t in frame.schema.items() if isinstance(t, pl.List)]
            frame.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(";") for c in lists).write_csv(path)
        else:
            frame.write_parquet(path)
    except OSError as exc:  # a read-only folder, a full disk, a file where a folder should be
        raise _os_error(exc, path, "write") from None
    return path
