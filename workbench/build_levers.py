"""Budget search about the build on screen: the levers a designer of each system changes, each with
its cost, varied around the current attacker and attack (issue 36, item 2).

A :class:`Lever` offers alternatives to one part of the build (a weapon's damage dice, its critical
range, a stat, the element, the weapon itself), each with a cost. :func:`search_builds` walks every
combination of at most one alternative per lever whose total cost is within the budget, evaluates
each build against the target with the system's public calls (``system.damage`` for one use of the
attack, :func:`workbench.turn_damage` for the attacker's turn with the changed attack in its list),
merges builds whose numbers are identical (the cheapest stands for them: ``same_as``), ranks them by
the chosen figure and marks the cost front (``pareto``).

Costs. The Unbound, Last Odyssey and Glass Empires rules texts price none of these changes (no gold,
no experience), so each uses a documented **unit cost**: one step of one lever costs 1 (one die
size, one more point of a stat, one more point in the critical range or the multiplier, one swap of
weapon or element; two steps cost 2). Annulus prices its changes in Experience: its search is the
build space of :func:`workbench.explore` (widgets/budget.py keeps it).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from .errors import RulesError, show

__all__ = ["Lever", "levers", "search_builds", "FIGURES", "MAX_BUILDS", "UNIT_COST_NOTE"]

#: the figures a search ranks by (higher is better), by column
FIGURES = {
    "mean_damage": "mean damage per use",
    "mean_turn_damage": "mean damage per turn",
    "p_any_damage": "P(any damage)",
    "p_kill_one_turn": "P(down in one turn)",
}
#: the most builds one search evaluates (docs/limits.md, bounded work): past it, a smaller budget
MAX_BUILDS = 4000
UNIT_COST_NOTE = "unit cost: each step of a lever costs 1 (the rules text prices none of these changes)"

Build = tuple[Any, Any]  # (attacker, attack)


@dataclass(frozen=True)
class Lever:
    """One part of the build a designer changes: ``name`` and its ``alternatives``, each
    ``(label, cost, change)`` where ``change(attacker, attack)`` returns the changed pair (or raises
    RulesError when the rules refuse it)."""

    name: str
    alternatives: tuple[tuple[str, int, Callable[[Any, Any], Build]], ...]


# --------------------------------------------------------------------------- helpers
def with_attack(system: Any, attacker: Any, old: Any, new: Any) -> Any:
    """Return ``attacker`` with its attack ``old`` replaced by ``new`` in whichever list holds it
    (weapons, abilities, attack sets); ``new`` added to the first such list when ``old`` is not there."""
    fields = attacker.to_dict()
    old_doc, new_doc = old.to_dict(), new.to_dict()
    lists = [k for k, v in fields.items() if isinstance(v, list) and v and isinstance(v[0], dict) and "name" in v[0]]
    for k in lists:
        docs = fields[k]
        for i, d in enumerate(docs):
            if d == old_doc:
                fields[k] = [*docs[:i], new_doc, *docs[i + 1 :]]
                return type(attacker).from_dict(fields)
    if lists:
        fields[lists[0]] = [new_doc, *fields[lists[0]]]
        return type(attacker).from_dict(fields)
    return attacker


def attack_change(system: Any, **changes: Any) -> Callable[[Any, Any], Build]:
    def change(attacker: Any, attack: Any) -> Build:
        new = attack.replace(**changes)
        return with_attack(system, attacker, attack, new), new

    return change


def swap(system: Any, weapon: Any) -> Callable[[Any, Any], Build]:
    def change(attacker: Any, attack: Any) -> Build:
        return with_attack(system, attacker, attack, weapon), weapon

    return change


def stat(**steps: int) -> Callable[[Any, Any], Build]:
    def change(attacker: Any, attack: Any) -> Build:
        doc = attacker.to_dict()
        return attacker.replace(**{k: doc[k] + v for k, v in steps.items()}), attack

    return change


def stat_levers(attacker: Any, stats: dict[str, str], most: int = 2, extra: dict | None = None) -> list[Lever]:
    doc = attacker.to_dict()
    out = []
    for field, label in stats.items():
        if not isinstance(doc.get(field), int):
            continue
        alts = []
        for n in range(1, most + 1):
            steps = {field: n, **{k: n * v for k, v in (extra or {}).get(field, {}).items()}}
            alts.append((f"{label} +{n}", n, stat(**steps)))
        out.append(Lever(label, tuple(alts)))
    return out


def levers(system: Any, attacker: Any, attack: Any) -> list[Lever]:
    """Return the levers of ``system`` around ``attacker`` using ``attack``, as the system names
    them (``RuleSystem.build_levers``; empty for a system whose changes are priced by its own build
    space, Annulus), those with an alternative."""
    return [lv for lv in system.build_levers(attacker, attack) if lv.alternatives]


# --------------------------------------------------------------------------- search
def _figures(system: Any, attacker: Any, attack: Any, target: Any, options: Any, situation: Any) -> dict:
    import workbench as wb

    per_use = system.damage(attack, attacker, target, options, situation)
    turn = wb.turn_damage(attacker, target, options, situation)
    hp = getattr(target, "hp", None)
    return {
        "mean_damage": float(per_use.mean()),
        "p_any_damage": float(per_use.sf(1)),
        "mean_turn_damage": float(turn.mean()),
        "p_kill_one_turn": float(turn.sf(hp)) if isinstance(hp, int) else float("nan"),
        "_key": (per_use.offset, tuple(np.round(per_use.pmf, 12)), turn.offset, tuple(np.round(turn.pmf, 12))),
    }


def _group_figures(
    attacker: Any, attack: Any, target: Any, options: Any, situation: Any, fights: int, seed: int
) -> dict:
    """Return the figures of ``attack`` (the attacker's plan) against the group ``target``: compare's
    group row of the pair (the same fight, seeded alike): mean_rounds until every copy is down (null
    while fights stand at the round limit), p_kill_one_turn (every copy in round 1) and its method."""
    from .comparison import compare

    got = compare(
        [(attacker, attack)],
        [target],
        options=options,
        situation=situation,
        best_plan=False,
        fights=fights,
        seed=seed,
        confirm=True,  # counted by the caller (group_builds_work)
        progress=False,
    )
    if got.height == 0:
        raise RulesError(f"{attack.name} cannot be used against {target.name}", field="attack")
    row = got.row(0, named=True)
    return {"mean_rounds": row["mean_rounds"], "p_kill_one_turn": row["p_kill_one_turn"], "method": row["method"]}


def search_builds(
    system: Any,
    attacker: Any,
    attack: Any,
    target: Any,
    *,
    budget: int = 2,
    by: str | None = None,
    options: Any = None,
    situation: Any = None,
    fights: int = 200,
    seed: int = 0,
    confirm: bool = False,
) -> tuple[pl.DataFrame, dict[int, Build]]:
    """Return (the ranked frame, ``{build: (attacker, attack)}``) of every build within ``budget``
    around ``attacker`` using ``attack`` against ``target``, identical builds merged.

    Columns: build (its id), rank (1 = best by ``by``), name (the changes, "as on screen" for none),
    changes, cost, target, the :data:`FIGURES`, same_as (the builds it stands for, itself included)
    and pareto (on the cost front). A build the rules refuse is left out (``skipped`` in the frame's
    refused count is not kept). ``by`` None: mean_damage. RulesError naming ``budget`` past
    :data:`MAX_BUILDS` combinations, ``by`` for a figure not in :data:`FIGURES`.

    ``target`` a group (``workbench.encounters.Group``, "3 x Wolf"): each build plays compare's group
    fight against it (``fights`` simulated fights where it is not exact, ``seed``; docs/explore.md,
    Against a group), ranked by ``by`` "mean_rounds" (the default: the fewest rounds until every copy
    is down) or "p_kill_one_turn" (every copy in round 1); a figure of one copy is a RulesError naming
    ``by`` (it would rank an area attack by one creature, as explore's). Columns mean_rounds,
    p_kill_one_turn and method in place of the figures. Counted first: builds x copies x ``fights``
    group row-fights, refused past MAX_GROUP_ROW_FIGHTS unless ``confirm``."""
    from .encounters import Group
    from .group_builds import GROUP_FIGURES, check_group_by

    group = isinstance(target, Group)
    if group:
        by = check_group_by(by, None, None)
        if by not in GROUP_FIGURES:  # (p_kill_within_K: explore's, not a lever search's)
            raise RulesError(f"must be one of {', '.join(GROUP_FIGURES)} against a group, not {show(by)}", field="by")
    elif by is None:
        by = "mean_damage"
    elif by not in FIGURES:
        raise RulesError(f"must be one of {', '.join(FIGURES)}, not {show(by)}", field="by")
    if isinstance(budget, bool) or not isinstance(budget, int) or not 0 <= budget <= 10:
        raise RulesError(f"must be a whole number from 0 to 10, not {show(budget)}", field="budget")
    lv = levers(system, attacker, attack)
    if not lv:
        raise RulesError(f"{system.title} prices its builds in its own build space; use explore", field="budget")
    choices = [[None, *lever.alternatives] for lever in lv]
    combos = [c for c in itertools.product(*choices) if sum(a[1] for a in c if a is not None) <= budget]
    if len(combos) > MAX_BUILDS:
        raise RulesError(
            f"budget {budget} makes {len(combos):,} builds of these levers; a search takes at most {MAX_BUILDS:,}: "
            "give a smaller budget",
            field="budget",
        )
    if group:
        from .group_builds import group_builds_work
        from .work import check

        check(group_builds_work(len(combos), [target], fights, "budget"), confirm)
    rows: list[dict] = []
    builds: dict[int, Build] = {}
    seen: dict[Any, int] = {}
    for combo in combos:
        picked = [a for a in combo if a is not None]
        try:
            pair: Build = (attacker, attack)
            for _, _, change in picked:
                pair = change(*pair)
            figures = _figures(system, pair[0], pair[1], target.creature if group else target, options, situation)
            if group:
                # merged only with a build alike against one copy AND against the group (a condition
                # may part two builds of one damage there)
                crowd = _group_figures(pair[0], pair[1], target, options, situation, fights, seed)
                figures = {
                    "mean_rounds": crowd["mean_rounds"],
                    "p_kill_one_turn": crowd["p_kill_one_turn"],
                    "method": crowd["method"],
                    "_key": (figures["_key"], tuple(crowd.values())),
                }
        except RulesError:
            continue  # the rules refuse this build (a stat past its range, a weapon it cannot use)
        cost = sum(a[1] for a in picked)
        key = figures.pop("_key")
        names = [a[0] for a in picked]
        if key in seen:
            row = rows[seen[key]]
            row["same_as"] += 1
            if (cost, len(names)) < (row["cost"], len(row["changes"])):  # the cheapest stands for them
                row.update(cost=cost, changes=names, name=", ".join(names) or "as on screen")
                builds[row["build"]] = pair
            continue
        seen[key] = len(rows)
        build_id = len(rows)
        builds[build_id] = pair
        rows.append(
            {
                "build": build_id,
                "name": ", ".join(names) or "as on screen",
                "changes": names,
                "cost": cost,
                "target": target.name,
                **figures,
                "same_as": 1,
            }
        )
    if not rows:
        raise RulesError(f"no build within the budget is usable against {target.name}", field="budget")
    # higher is better: against a group the fewest mean rounds (a fight left at the round limit, null,
    # last)
    score = pl.when(pl.col(by).is_null()).then(-np.inf).otherwise(-pl.col(by)) if by == "mean_rounds" else pl.col(by)
    frame = pl.DataFrame(rows, infer_schema_length=None).with_columns(score.alias("_score"))
    frame = frame.sort(["_score", "cost", "build"], descending=[True, False, False], nulls_last=True)
    frame = frame.with_columns(rank=pl.int_range(1, frame.height + 1))
    front = pl.col("_score").cum_max().shift(1)
    pareto = frame.sort(["cost", "_score"], descending=[False, True]).with_columns(
        pareto=(front.is_null() | (pl.col("_score") > front))
    )
    frame = frame.join(pareto.select("build", "pareto"), on="build").sort("rank")
    shown = ["mean_rounds", "p_kill_one_turn", "method"] if group else list(FIGURES)
    cols = ["build", "rank", "name", "changes", "cost", "target", *shown, "same_as", "pareto"]
    return frame.select(cols), builds


def annulus_attack(system: Any, name: str) -> Any:
    """Return the Annulus attack set a budget search's row names ("Insight: Reckless 2 + Flurry":
    the seed, then each upgrade with its rank), named by that text; RulesError naming ``build`` when
    the text is not such a name."""
    seed, sep, ups = str(name).partition(": ")
    if not seed:
        raise RulesError(f"not an attack set's name: {show(name)}", field="build")
    upgrades: dict[str, int] = {}
    for part in ups.split(" + ") if sep and ups else []:
        m = re.fullmatch(r"(.+?)(?: (\d+))?", part.strip())
        if m is None:
            raise RulesError(f"not an upgrade: {show(part)}", field="build")
        if m.group(1) != "Damage":  # the seed itself ("Insight: Damage": no upgrade)
            upgrades[m.group(1)] = int(m.group(2) or 1)
    return system.Attack.from_dict({"name": str(name), "defense": seed.strip().lower(), "upgrades": upgrades})
