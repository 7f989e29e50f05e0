"""Vectorised resolution of strikes, spells and sleights over the ten faces of the hit die.

Every rule is written once over a (matchups x 10 die faces) numpy grid; one matchup is the
1 x 10 case. Rules: last-odyssey-attacks.txt and CLARIFICATIONS.md, Last Odyssey.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ...errors import RulesError
from .elements import element_code, multipliers_of_codes
from .models import Attack, Creature, Options, Situation

__all__ = ["FACES", "Grid", "resolve_grid", "outcome_frame", "multi_target_frame", "check_reach"]

TEXT = "last-odyssey-attacks.txt"
FACES = np.arange(1, 11, dtype=np.int64)  # CLARIFICATIONS.md: the hit die is a d10
HIT_LIMIT = 7  # Strikes/Spells: "equal to a 7 or below, the character hits"
SLEIGHT_LIMIT = 5  # Sleights: "equal to or below a 5, they gain the status"
_ALWAYS, _NEVER = 10**6, -(10**6)
_EPS = 1e-9  # guards float products such as 0.29 * 100 = 28.999999999999996 before rounding


@dataclass
class Grid:
    """Per-matchup, per-face results: each array is (matchups, 10)."""

    hit: np.ndarray
    damage: np.ndarray
    status: np.ndarray
    shell_points: np.ndarray  # (matchups,) the target's Shell points before the attack


def check_reach(attack: Attack, situation: Situation, index: int | None = None) -> None:
    """Raise RulesError if a melee ability is used from or into the back row.

    last-odyssey-attacks.txt, Ability Types: Melee "may only be used when the user is in the
    front row, and may only target characters that are in the front row". A back-row target is
    reachable once its side's front row has fallen (``target_front_row_standing=False``).
    """
    if attack.ability_type != "melee":
        return
    where = "" if index is None else f" (matchup {index})"
    rule = f"{TEXT}: Ability Types, Melee"
    if situation.attacker_row != "front":
        raise RulesError(
            f"{attack.name} is a melee ability and the user is in the back row{where}", field="attacker_row", rule=rule
        )
    if situation.target_row == "back" and situation.target_front_row_standing:
        raise RulesError(
            f"{attack.name} is a melee ability and cannot reach a back-row target while the front row stands{where}",
            field="target_row",
            rule=rule,
        )


def _aligned(attacks, attackers, targets, situation) -> list[Situation]:
    n = len(attacks)
    if not (len(attackers) == n == len(targets)):
        raise RulesError(
            f"attacks, attackers and targets must be aligned; got {n}, {len(attackers)}, {len(targets)}",
            field="targets",
        )
    if n == 0:
        raise RulesError("need at least one matchup", field="attacks")
    for field, seq, cls in (
        ("attacks", attacks, Attack),
        ("attackers", attackers, Creature),
        ("targets", targets, Creature),
    ):
        bad = next((i for i, x in enumerate(seq) if not isinstance(x, cls)), None)
        if bad is not None:
            raise RulesError(
                f"item {bad} is a {type(seq[bad]).__name__}, not a Last Odyssey {cls.__name__}", field=field
            )
    if situation is None or isinstance(situation, Situation):
        sits = [situation or Situation()] * n
    else:
        sits = list(situation)
        if len(sits) != n or not all(isinstance(s, Situation) for s in sits):
            raise RulesError("must be one Last Odyssey Situation or one per matchup", field="situation")
    return sits


def resolve_grid(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situation: Situation | Sequence[Situation] | None = None,
) -> Grid:
    """Return hit, damage and status of every matchup on every face of the hit die.

    Rules (last-odyssey-attacks.txt unless noted):
    - Strikes/Spells: hit when die − Physical/Magical Accuracy + Evasion ≤ 7; "a result of 1
      will still lead to a hit".
    - Base damage = Attack − Defense + die, "minimum ... base damage ... is 1"; Nonlethal:
      "calculated as though they had received a 1 on the hit die".
    - Final = base × multipliers, rounded (Options.rounding); "If the resulting damage would be
      0, it is still 0". Multipliers: the ability's own, the Shell rule (spell vs an active Shell
      ×2, strike vs no active Shell ×2), the element table (a Shell's element stands in for the
      target's), and ×0 for an element the target is immune to.
    - Sleights: status lands when die − Status Accuracy + Resistance ≤ 5, no automatic hit;
      with Options.sleight_elements="ladder" an elemental sleight's threshold follows the element.
    - Leaning In: the target may choose to be hit (Situation.lean_in).
    - An ability's ``multiplier_not_full_hp`` replaces its multiplier when ``Situation.target_hp``
      is below the target's HP (Dragonslayer: x4 at full HP, x2 otherwise).
    - A target whose ``creature_type`` is in the ability's ``spares_creature_types`` is unaffected:
      no hit, no damage, no status (Miasma: "every non-Undead character").
    """
    sits = _aligned(attacks, attackers, targets, situation)
    n = len(attacks)
    for i, (a, s) in enumerate(zip(attacks, sits)):
        check_reach(a, s, i if n > 1 else None)

    kind = np.array([{"strike": 0, "spell": 1, "sleight": 2}[a.kind] for a in attacks])
    acc = np.array(
        [(u.physical_accuracy, u.magical_accuracy, u.status_accuracy)[k] for u, k in zip(attackers, kind)],
        dtype=np.int64,
    )
    atk = np.array([(u.physical_attack, u.magical_attack, 0)[k] for u, k in zip(attackers, kind)], dtype=np.int64)
    dfn = np.array([(t.physical_defense, t.magical_defense, 0)[k] for t, k in zip(targets, kind)], dtype=np.int64)
    avoid = np.array([t.resistance if k == 2 else t.evasion for t, k in zip(targets, kind)], dtype=np.int64)

    shell_pts = np.empty(n, dtype=np.int64)
    for i, (t, s) in enumerate(zip(targets, sits)):
        if s.target_shell_points is not None and s.target_shell_points > 0 and t.shell is None:
            raise RulesError(
                f"{t.name} has no Shell, so it cannot have {s.target_shell_points} Shell points",
                field="target_shell_points",
                rule="CLARIFICATIONS.md, Last Odyssey: Shell",
            )
        shell_pts[i] = t.shell_points if s.target_shell_points is None else s.target_shell_points
    shell_on = shell_pts > 0
    target_elem = np.array(
        [element_code(t.shell.element if on and t.shell is not None else t.element) for t, on in zip(targets, shell_on)]
    )
    attack_elem = np.array([element_code(a.element) for a in attacks])
    elem_mult = multipliers_of_codes(attack_elem, target_elem)
    immune = np.array([a.element is not None and a.element in t.immune_elements for a, t in zip(attacks, targets)])
    shell_mult = np.where((kind == 1) & shell_on, 2.0, 1.0) * np.where((kind == 0) & ~shell_on, 2.0, 1.0)
    for t, s in zip(targets, sits):
        if s.target_hp is not None and s.target_hp > t.hp:
            raise RulesError(
                f"{s.target_hp} exceeds {t.name}'s {t.hp} HP",
                field="target_hp",
                rule=f"{TEXT}: damage reduces the target's total HP",
            )
    own = np.array(
        [
            a.multiplier
            if (a.multiplier_not_full_hp is None or s.target_hp is None or s.target_hp >= t.hp)
            else a.multiplier_not_full_hp
            for a, t, s in zip(attacks, targets, sits)
        ],
        dtype=np.float64,
    )
    spared = np.array(
        [
            t.creature_type is not None and t.creature_type.lower() in {x.lower() for x in a.spares_creature_types}
            for a, t in zip(attacks, targets)
        ],
        dtype=bool,
    )
    mult = own * shell_mult * elem_mult * np.where(immune, 0.0, 1.0)
    nonlethal = np.array([a.nonlethal for a in attacks])
    lean = np.array([s.lean_in for s in sits])

    die = FACES[None, :]
    result = die - acc[:, None] + avoid[:, None]
    hit_attack = (result <= HIT_LIMIT) | (die == 1)

    threshold = np.full(n, SLEIGHT_LIMIT, dtype=np.int64)
    if options.sleight_elements == "ladder":
        ladder = np.select(
            [elem_mult <= 0.25, elem_mult <= 0.5, elem_mult <= 1.0, elem_mult <= 2.0],
            [_NEVER, 3, SLEIGHT_LIMIT, HIT_LIMIT],
            _ALWAYS,
        )
        threshold = np.where(attack_elem == element_code(None), SLEIGHT_LIMIT, ladder)
    status_immune = np.array(
        [
            a.status is not None and a.status.lower() in {x.lower() for x in t.immune_statuses}
            for a, t in zip(attacks, targets)
        ]
    )
    lands = result <= threshold[:, None]

    sleight = (kind == 2)[:, None]
    hit = (np.where(sleight, lands, hit_attack) | lean[:, None]) & ~spared[:, None]

    dmg_die = np.where(nonlethal[:, None], 1, die)
    base = np.maximum(1, atk[:, None] - dfn[:, None] + dmg_die)
    raw = base * mult[:, None]
    if options.rounding == "floor":
        final = np.floor(raw + _EPS)
    else:
        final = np.floor(raw + 0.5 + _EPS)
    _check_span(np.where(hit & ~sleight, final, 0).max(axis=1), attacks, attackers, targets, sits, kind, own)
    damage = np.where(hit & ~sleight, final, 0).astype(np.int64)

    has_status = np.array([a.status is not None for a in attacks]) & ~status_immune
    status = hit & has_status[:, None]
    return Grid(hit=hit, damage=damage, status=status, shell_points=shell_pts)


def _check_span(top, attacks, attackers, targets, sits, kind, own) -> None:
    """Refuse (RulesError naming the fields that drive it) a matchup whose damage reaches past
    limits.MAX_SUPPORT - 1, counted before any table of it is made: every table and Dist of the
    matchup holds its damage from 0 to its largest, so that is the work of everything after it
    (issue 35: a multiplier of 1e12 asked numpy for 65.5 TiB)."""
    from ...limits import LIMITS, MAX_SUPPORT

    for i in np.flatnonzero(top >= MAX_SUPPORT):
        a, u, t, s = attacks[i], attackers[i], targets[i], sits[i]
        which = (
            "multiplier_not_full_hp"
            if a.multiplier_not_full_hp is not None and s.target_hp is not None and s.target_hp < t.hp
            else "multiplier"
        )
        stat = ("physical_attack", "magical_attack", "status_accuracy")[int(kind[i])]
        raise RulesError(
            f"{a.name} by {u.name} on {t.name} deals up to {float(top[i]):,.0f} damage ({stat} {getattr(u, stat)} x "
            f"{which} {own[i]:g} and the rule multipliers): past the {MAX_SUPPORT:,} outcomes one damage "
            f"distribution holds; the work is driven by {which} and {stat}",
            field=which,
            rule=LIMITS,
        )


def outcome_frame(grid: Grid) -> pl.DataFrame:
    """Return the merged outcome table of a grid: matchup, probability, damage, hit, status,
    shell_damage and hp_damage (the Shell takes damage before HP, CLARIFICATIONS.md)."""
    n = grid.damage.shape[0]
    damage = grid.damage.ravel()
    shell = np.minimum(damage, np.repeat(grid.shell_points, FACES.size))
    frame = pl.DataFrame(
        {
            "matchup": np.repeat(np.arange(n, dtype=np.int64), FACES.size),
            "damage": damage,
            "hit": grid.hit.ravel(),
            "status": grid.status.ravel(),
            "shell_damage": shell,
            "hp_damage": damage - shell,
            "probability": np.full(damage.size, 1.0 / FACES.size),
        }
    )
    keys = ["matchup", "damage", "hit", "status", "shell_damage", "hp_damage"]
    return (
        frame.group_by(keys)
        .agg(pl.col("probability").sum())
        .sort(["matchup", "damage", "hit", "status"])
        .select(["matchup", "probability", "damage", "hit", "status", "shell_damage", "hp_damage"])
    )


def multi_target_frame(grid: Grid, by_die: bool = False) -> pl.DataFrame:
    """Return the joint outcome of one hit die against several targets (rows of ``grid``).

    last-odyssey-attacks.txt, Multi Attacks: "their player only casts the hit die once"; each
    target is then checked separately. Columns hit_i, damage_i, status_i per target i, the total
    ``damage`` and ``targets_hit``; with ``by_die`` one row per face with a ``die`` column.
    """
    k = grid.damage.shape[0]
    cols: dict[str, Any] = {"die": FACES}
    for i in range(k):  # a loop over the (few) targets of one ability
        cols[f"hit_{i}"] = grid.hit[i]
        cols[f"damage_{i}"] = grid.damage[i]
        cols[f"status_{i}"] = grid.status[i]
    cols["damage"] = grid.damage.sum(axis=0)
    cols["targets_hit"] = grid.hit.sum(axis=0).astype(np.int64)
    cols["probability"] = np.full(FACES.size, 1.0 / FACES.size)
    frame = pl.DataFrame(cols)
    order = ["probability", "damage", "targets_hit"] + [
        c for c in cols if c[:4] in ("hit_", "dama", "stat") and c != "damage"
    ]
    if by_die:
        return frame.select(["die"] + order)
    keys = [c for c in order if c != "probability"]
    return frame.group_by(keys).agg(pl.col("probability").sum()).sort(["damage", "targets_hit"]).select(order)
