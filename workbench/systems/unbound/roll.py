"""The d20 attack roll of Unbound, vectorised over matchups: exact joint outcome tables.

Rules (unbound-d20-attacking.txt): "roll a d20 and add their Attack Bonus ... equal to or higher
than the targets AC or Touch AC ... the attack hits"; "a natural 1 on the d20 roll is an automatic
miss and a natural 20 is an automatic hit". CLARIFICATIONS.md, Unbound: threat range and
multiplier, confirmation, advantage (2d20 keep higher) and disadvantage (keep lower).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from ...errors import RulesError
from .models import RULES, Attack, Creature, Options, Situation
from .notation import damage_dist, parse_crit, parse_damage

__all__ = ["face_probabilities", "hit_terms", "attack_rows", "roll_terms", "category_probabilities"]

FACES = np.arange(1, 21)
#: P(natural = k) for mode -1 (disadvantage: lower of 2d20), 0 (one d20), +1 (advantage: higher of 2d20)
_FACE_P = np.stack([(41 - 2 * FACES) / 400.0, np.full(20, 1 / 20), (2 * FACES - 1) / 400.0])


def face_probabilities(mode: np.ndarray) -> np.ndarray:
    """Return P(natural = 1..20) per row (shape n x 20) for mode -1/0/+1 (CLARIFICATIONS: advantage)."""
    return _FACE_P[np.asarray(mode, dtype=np.int64) + 1]


def category_probabilities(bonus, ac, mode, threat_low, confirm: bool) -> np.ndarray:
    """Return P(miss), P(hit, no threat), P(threat not confirmed), P(critical) per row (n x 4).

    A natural 20 hits and a natural 1 misses whatever the total (text, "Automatic Hits and
    Misses"); a natural roll in the threat range that hits threatens; with ``confirm`` a second
    roll with the same modifiers and advantage against the same AC must hit too (CLARIFICATIONS).
    """
    bonus = np.asarray(bonus, dtype=np.int64)[:, None]
    ac = np.asarray(ac, dtype=np.int64)[:, None]
    faces = FACES[None, :]
    p = face_probabilities(mode)
    hit = (faces == 20) | ((faces != 1) & (faces + bonus >= ac))
    threat = hit & (faces >= np.asarray(threat_low, dtype=np.int64)[:, None])
    p_hit = (p * hit).sum(axis=1)
    p_threat = (p * threat).sum(axis=1)
    p_crit = p_threat * p_hit if confirm else p_threat
    return np.stack([1.0 - p_hit, p_hit - p_threat, p_threat - p_crit, p_crit], axis=1)


def roll_terms(attack: Attack, attacker: Creature, target: Creature, situation: Situation) -> tuple[int, int, int, int]:
    """Return (attack bonus, AC aimed at, advantage mode, damage bonus) of one attack.

    Attack bonus: ``attack_bonus`` if given, else Strength (melee), Dexterity (ranged, thrown) or
    max(Thaumaturgy, Magic) (spell) ("Attack Bonuses"); + flanking 2 (melee), high ground +1 /
    melee upward -1, shooting into melee -4 unless Precise Shot, -2 per range increment past the
    first with at most 5 (thrown) or 10 increments ("Situational Bonuses", "Ranged Attacks").
    Advantage from a charge (melee) or a braced/prone firearm or crossbow; advantage and
    disadvantage cancel (CLARIFICATIONS). Damage bonus: Strength for melee unless the attack says.
    """
    kind = attack.kind
    if attack.attack_bonus is not None:
        bonus = attack.attack_bonus
    elif kind == "melee":
        bonus = attacker.str_mod
    elif kind == "spell":
        bonus = max(
            attacker.magic_mod, attacker.thaumaturgy_mod if attacker.thaumaturgy_mod is not None else attacker.magic_mod
        )
    else:
        bonus = attacker.dex_mod
    s = situation
    bonus += s.bonus
    if s.flanking and kind == "melee":
        bonus += 2
    if s.high_ground == "above":
        bonus += 1
    elif s.high_ground == "below" and kind == "melee":
        bonus -= 1
    if attack.is_ranged:
        if s.shooting_into_melee and not (s.precise_shot or attacker.precise_shot):
            bonus -= 4
        if s.distance is not None:
            if attack.range_increment is None:
                raise RulesError(
                    f"{attack.name} has no range increment, so no distance can be judged",
                    field="range_increment",
                    rule=f"{RULES}: Range Increments",
                )
            increment = max(1, -(-s.distance // attack.range_increment))
            limit = attack.max_increments or (5 if kind == "thrown" else 10)
            if increment > limit:
                raise RulesError(
                    f"{s.distance} ft is range increment {increment} of {attack.name} "
                    f"({attack.range_increment} ft each); its maximum is {limit}",
                    field="distance",
                    rule=f"{RULES}: 'thrown weapons have a maximum number of 5 range "
                    "increments, while other wielded weapons ... 10'",
                )
            bonus -= 2 * (increment - 1)
    elif s.distance is not None and kind == "spell":
        raise RulesError(
            f"{attack.name} has no range increment, so no distance can be judged",
            field="range_increment",
            rule=f"{RULES}: Range Increments",
        )
    if s.charge and kind != "melee":
        raise RulesError("a charge gives advantage to a melee attack only", field="charge", rule=f"{RULES}: Charge")
    adv = s.advantage or (s.charge and kind == "melee") or ((s.braced or attack.braced) and attack.braceable)
    mode = int(adv) - int(s.disadvantage)
    ac = target.touch_ac if attack.touch else target.ac
    adds = attack.adds_strength if attack.adds_strength is not None else kind == "melee"
    return bonus, ac, mode, (attacker.str_mod if adds else 0)


def hit_terms(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    situations: Sequence[Situation],
) -> dict[str, np.ndarray]:
    """Return per-row arrays ``bonus``, ``ac``, ``mode``, ``dmg_bonus`` (one Python call per distinct row)."""
    cache: dict[tuple[int, int, int, int], tuple[int, int, int, int]] = {}
    rows = []
    for a, c, t, s in zip(attacks, attackers, targets, situations):
        key = (id(a), id(c), id(t), id(s))
        r = cache.get(key)
        if r is None:
            r = cache[key] = roll_terms(a, c, t, s)
        rows.append(r)
    arr = np.array(rows, dtype=np.int64).reshape(-1, 4)
    return {"bonus": arr[:, 0], "ac": arr[:, 1], "mode": arr[:, 2], "dmg_bonus": arr[:, 3]}


def _profiles(keys: list[tuple[str, int, int]], minimum: int):
    """Return padded normal/critical damage pmfs, offsets and the profile index of each key."""
    index: dict[tuple[str, int, int], int] = {}
    ids = np.fromiter((index.setdefault(k, len(index)) for k in keys), dtype=np.int64, count=len(keys))
    normal, crit = [], []
    for text, bonus, mult in index:
        spec = parse_damage(text)
        normal.append(damage_dist(spec, bonus, 1, minimum))
        crit.append(damage_dist(spec, bonus, mult, minimum))

    def pad(dists):
        width = max(len(d) for d in dists)
        m = np.zeros((len(dists), width))
        for i, d in enumerate(dists):
            m[i, : len(d)] = d.pmf
        return m, np.array([d.offset for d in dists], dtype=np.int64)

    return ids, pad(normal), pad(crit)


def _check_cells(rows: int, width: int, attacks: Sequence[Attack]) -> None:
    """Refuse (RulesError, field ``weapons``) an outcome table of ``rows`` matchups x ``width``
    damage outcomes past limits.MAX_TABLE_CELLS, counted before it is allocated (issue 35: 20
    weapons of 100d100+50 in one turn's plans asked for 1.6 GiB per array)."""
    from ...limits import BUDGET, MAX_TABLE_CELLS

    if rows * width > MAX_TABLE_CELLS:
        widest = max(attacks, key=lambda a: len(a.damage)).damage
        raise RulesError(
            f"{rows:,} attack rows (the weapons used, over every plan of a turn) x {width:,} damage outcomes "
            f"(the widest damage, e.g. {widest!r}, with its critical multiple) = {rows * width:,} table cells, "
            f"past the {MAX_TABLE_CELLS:,} one table holds; the work is driven by the number of weapons and "
            "their damage dice: give fewer weapons or smaller dice",
            field="weapons",
            rule=BUDGET,
        )


def attack_rows(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situations: Sequence[Situation],
    modifier: np.ndarray | None = None,
    ac_drop: np.ndarray | None = None,
) -> pl.DataFrame:
    """Return the joint outcome table of each aligned matchup (columns matchup, probability, damage, hit, threat, crit).

    ``modifier`` (to hit) and ``ac_drop`` (Wild Attack) are per-row extras from the attack actions.
    Rows: the miss (damage 0), every damage of a plain hit, of an unconfirmed threat and of a
    critical; zero-probability rows are dropped. A hit's damage is never below
    ``options.minimum_damage``.
    """
    n = len(attacks)
    if not (len(attackers) == len(targets) == len(situations) == n):
        raise RulesError(
            "attacks, attackers, targets (and situations) must be aligned sequences of equal length", field="attacks"
        )
    terms = hit_terms(attacks, attackers, targets, situations)
    bonus = terms["bonus"] + (0 if modifier is None else np.asarray(modifier, dtype=np.int64))
    ac = terms["ac"] - (0 if ac_drop is None else np.asarray(ac_drop, dtype=np.int64))
    crits = [parse_crit(a.crit) for a in attacks]
    threat_low = np.fromiter((c.threat_low for c in crits), dtype=np.int64, count=n)
    cats = category_probabilities(bonus, ac, terms["mode"], threat_low, options.confirm_crits)

    keys = [(a.damage, int(b), c.multiplier) for a, b, c in zip(attacks, terms["dmg_bonus"], crits)]
    ids, (npmf, noff), (cpmf, coff) = _profiles(keys, options.minimum_damage)
    ln, lc = npmf.shape[1], cpmf.shape[1]
    _check_cells(n, 1 + 2 * ln + lc, attacks)
    prob = np.concatenate(
        [cats[:, :1], npmf[ids] * cats[:, 1:2], npmf[ids] * cats[:, 2:3], cpmf[ids] * cats[:, 3:4]], axis=1
    )
    dmg = np.concatenate(
        [
            np.zeros((n, 1), dtype=np.int64),
            np.repeat((noff[ids][:, None] + np.arange(ln)[None, :])[:, None, :], 2, axis=1).reshape(n, 2 * ln),
            coff[ids][:, None] + np.arange(lc)[None, :],
        ],
        axis=1,
    )
    cat = np.concatenate([[0], np.full(ln, 1), np.full(ln, 2), np.full(lc, 3)])
    keep = prob > 0
    row_cat = np.broadcast_to(cat, prob.shape)[keep]
    return pl.DataFrame(
        {
            "matchup": np.broadcast_to(np.arange(n)[:, None], prob.shape)[keep],
            "probability": prob[keep],
            "damage": dmg[keep],
            "hit": row_cat >= 1,
            "threat": row_cat >= 2,
            "crit": row_cat == 3,
        },
        schema={
            "matchup": pl.Int64,
            "probability": pl.Float64,
            "damage": pl.Int64,
            "hit": pl.Boolean,
            "threat": pl.Boolean,
            "crit": pl.Boolean,
        },
    )
