"""Exact outcome tables of Annulus attack sets, vectorised over matchups.

Implements CLARIFICATIONS.md (Annulus) "Order of resolution of one use of an attack set" on
annulus-attacks.txt: usability (step 1), the pool from advantages and disadvantages (2),
successes, automatic successes, defense and Reroll (3), Bully and assassination (4), the Trigger
Die (5), self-damage (6); Flurry as three strikes. Per matchup the numbers are gathered into
numpy arrays; the dice are a matchup x (rerolled, damage, trigger class) array; polars merges rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any, cast

import numpy as np
import polars as pl

from ...errors import RulesError
from ...memo import MEMO
from .models import Attack, Creature, Options, Situation, range_band
from .upgrades import UPGRADES

__all__ = [
    "outcome_tables",
    "strike_parameters",
    "TRIGGERS",
    "TRIGGER_CLASSES",
    "trigger_class_probabilities",
    "EXTRA_COLUMNS",
]

RULES = "annulus-attacks.txt"
CLAR = "CLARIFICATIONS.md, Annulus"
TRIGGERS = [u for u in UPGRADES.values() if u.category == "trigger"]
#: the outcome-table column each trigger sets (every trigger has one)
TRIGGER_COLUMNS: list[str] = [str(u.effect) for u in TRIGGERS]
TRIGGER_BIT = {u.name: i for i, u in enumerate(TRIGGERS)}
#: the Trigger Die results that matter: <= 8, 9, 10, 11, 12 (thresholds are 9+, 10+, 11+, 12)
TRIGGER_CLASSES = np.array([8, 9, 10, 11, 12])
AREA_REACH = {"Arc": 1.0, "Burst": 1.0, "Line": 2.0}
EXTRA_COLUMNS = ["vitality_damage", "self_damage", "self_vitality_damage", "self_heal", "rerolled"] + TRIGGER_COLUMNS


def trigger_class_probabilities(twice: bool) -> np.ndarray:
    """Return P(Trigger Die result in <=8, 9, 10, 11, 12); rolled twice keep the higher
    (Charged, Telegraphed): P(max <= k) = (k/12)^2 (CLARIFICATIONS, Annulus)."""
    if twice:
        c = (np.array([8, 9, 10, 11, 12]) / 12.0) ** 2
    else:
        c = np.array([8, 9, 10, 11, 12]) / 12.0
    return np.diff(c, prepend=0.0)


def _attack_row(a: Attack) -> dict[str, Any]:
    """Return the per-set numbers the resolution needs (cached per distinct set)."""
    r = a.upgrades.get
    mask = np.zeros(5, dtype=np.int64)
    for t in a.triggers:
        bit = 1 << TRIGGER_BIT[t]
        mask |= np.where(TRIGGER_CLASSES >= UPGRADES[t].threshold, bit, 0)
    alt = a.alteration
    return {
        "defense": ("agility", "toughness", "insight").index(a.defense),
        "keen": r("Keen", 0),
        "reckless": r("Reckless", 0),
        "bully": r("Bully", 0),
        "visceral": r("Visceral", 0),
        "reroll": r("Reroll", 0),
        "tireless": r("Tireless", 0),
        "flashy": r("Flashy", 0),
        "giant": r("Giant", 0),
        "armored": r("Armored", 0),
        "spree": r("Killing Spree", 0),
        "first_blood": r("First Blood", 0),
        "precise": r("Precise", 0),
        "range": r("Range", 0),
        "airtight": r("Airtight", 0),
        "assassin": r("Assassin", 0),
        "demolitions": r("Demolitions", 0),
        "charged": int(alt == "Charged"),
        "telegraphed": int(alt == "Telegraphed"),
        "flurry": int(alt == "Flurry"),
        "gaze": int(alt == "Gaze"),
        "swansong": int(alt == "Swansong"),
        "cost2": int(alt in ("Charged", "Flurry")),
        "reach": AREA_REACH.get(a.area or "", 0.0),
        "mask": mask,
        "crit": int("Critical" in a.upgrades),
        "vital": int("Vital" in a.upgrades),
        "drain": int("Drain" in a.upgrades),
    }


_SIT_FIELDS = [
    "distance",
    "airless",
    "concealment",
    "tired",
    "armor",
    "inside_devourer",
    "attacker_weakened",
    "target_prone",
    "target_setup",
    "target_blind",
    "target_undamaged",
    "target_petrified",
    "target_awareness",
    "after_kill",
    "mutual_sight",
    "attacker_vitality",
    "blood_price",
    "reroll_available",
    "extra_advantages",
    "extra_disadvantages",
]


#: the defense of a target immune to the attack (a Petrified target against a set without Demolitions): more
#: than any pool can roll, so max(0, successes - defense) is always 0
IMMUNE_DEFENSE = 10**6


def _columns(objs: Sequence[Any], fields: dict[str, Any]) -> dict[str, np.ndarray]:
    """Return each field of every object of ``objs`` as an array (``fields``: name -> the type its
    values are read as: int, bool or str), read once per distinct object (a grid holds each
    creature in many matchups) and repeated over them."""
    at: dict[int, int] = {}
    uniq: list[Any] = []
    inverse = np.empty(len(objs), np.int64)
    for m, o in enumerate(objs):
        u = at.get(id(o))
        if u is None:
            u = at[id(o)] = len(uniq)
            uniq.append(o)
        inverse[m] = u
    dtypes = {int: np.int64, bool: bool, str: object}
    return {
        k: np.array([kind(getattr(o, k)) for o in uniq], dtype=dtypes[kind]).reshape(len(uniq))[inverse]
        for k, kind in fields.items()
    }


def strike_parameters(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situation: Situation | Sequence[Situation],
    refusals: list | None = None,
) -> dict[str, np.ndarray]:
    """Return per-matchup arrays: pool, reroll pool, automatic successes, defense, bonus, trigger
    masks and flags; raise RulesError if a set is not usable (step 1 of the order of resolution),
    or, given ``refusals`` (a list of n Nones), record each matchup's first refusal there instead."""
    n = len(attacks)
    at: dict[int, int] = {}  # each distinct set's place among ``rows``
    rows: list[dict[str, Any]] = []
    inverse = np.empty(n, np.int64)
    for m, a in enumerate(attacks):  # one dict per distinct set
        u = at.get(id(a))
        if u is None:
            if not isinstance(a, Attack):
                raise RulesError(f"expected an Annulus Attack, not {type(a).__name__}", field="attack")
            u = at[id(a)] = len(rows)
            rows.append(_attack_row(a))
        inverse[m] = u
    for role, seq in (("attacker", attackers), ("target", targets)):
        bad = next((c for c in seq if not isinstance(c, Creature)), None)
        if bad is not None:
            raise RulesError(f"expected an Annulus Creature, not {type(bad).__name__}", field=role)
    # (each number of the distinct sets, then repeated over the matchups: a grid has many per set)
    A = {k: np.array([r[k] for r in rows])[inverse] for k in rows[0]} if rows else {}
    # situation: one for all, or one per matchup
    if isinstance(situation, Situation):
        S = {k: getattr(situation, k) for k in _SIT_FIELDS}
        S = {k: np.full(n, v, dtype=object) for k, v in S.items()}
    else:
        situation = list(situation)
        if len(situation) != n or not all(isinstance(s, Situation) for s in situation):
            raise RulesError("give one Annulus Situation, or one per matchup", field="situation")
        S = {k: np.array([getattr(s, k) for s in situation], dtype=object) for k in _SIT_FIELDS}
    f = lambda k: S[k].astype(np.float64)  # noqa: E731
    b = lambda k: S[k].astype(bool)  # noqa: E731

    who = _columns(attackers, {"size": int, "vitality": int, "level": int})
    whom = _columns(
        targets, {"size": int, "senses": bool, "agility": int, "toughness": int, "insight": int, "awareness": str}
    )
    asize, tsize = who["size"], whom["size"]
    # "Blindness does not affect non-visual-based modes of sensory input such as tremorsense, scent
    # or sonar": a blinded target that perceives so still perceives the attacker (no advantage)
    tsense = whom["senses"]
    avit = who["vitality"]  # the attacker's current Vitality (the field)
    alevel = who["level"]  # its maximum Vitality: "Max Vitality = level" (CLARIFICATIONS)
    dist = f("distance")

    # ---- step 1: usable?
    def refuse(bad: np.ndarray, message: str, field: str, rule: str) -> None:
        if refusals is not None:  # usability as data: every refused matchup keeps its first refusal
            for i in np.flatnonzero(bad).tolist():
                if refusals[i] is None:
                    refusals[i] = RulesError(f"attack set {attacks[i].name!r} {message}", field=field, rule=rule)
            return
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            where = f" (matchup {i})" if n > 1 else ""
            raise RulesError(f"attack set {attacks[i].name!r} {message}{where}", field=field, rule=rule)

    refuse(
        b("airless") & (A["airtight"] == 0),
        "cannot be used in an airless environment without Airtight",
        "airless",
        f"{RULES}: attacks don't work and cannot be used in airless environments",
    )
    rank = A["range"]
    if n:  # (each distinct Range rank's band once)
        ranks, at_rank = np.unique(rank, return_inverse=True)
        bands = np.array([range_band(int(r)) for r in ranks]).reshape(-1, 2)[at_rank.ravel()]
    else:
        bands = np.zeros((0, 2))
    lo = np.where(A["reach"] > 0, 0.0, bands[:, 0])
    hi = np.where(A["reach"] > 0, A["reach"], bands[:, 1])
    bad = (dist > hi) | ((dist <= lo) & (lo > 0))
    for i in np.flatnonzero(bad) if refusals is not None else np.flatnonzero(bad)[:1]:
        band = f"within {hi[i]:g} m" if lo[i] == 0 else f"beyond {lo[i]:g} m and within {hi[i]:g} m"
        one = np.zeros(n, dtype=bool)
        one[i] = True
        refuse(
            one,
            f"reaches targets {band} only, not at {dist[i]:g} m (Range rank {int(rank[i])})",
            "distance",
            f"{CLAR}: Range ranks -> usable band",
        )
    conceal = S["concealment"]
    refuse(
        (A["gaze"] == 1) & (~b("mutual_sight") | (conceal != "none") | b("target_blind")),
        "is a Gaze attack and needs mutual sight (no concealment, no Blind sting)",
        "mutual_sight",
        f"{RULES}: Gaze: you and the subject must be able to both fully see each other",
    )
    # Swansong: "half or less of your total amount of Vitality remaining (rounded down) ... if you are level 7,
    # then you can only use Swansong attacks when you have 3 or fewer Vitality remaining": the total is the
    # level; the remaining Vitality is Situation.attacker_vitality, else the creature's (current) vitality
    cur_vit = np.array([avit[i] if v is None else v for i, v in enumerate(S["attacker_vitality"])], dtype=np.int64)
    refuse(
        (A["swansong"] == 1) & (cur_vit > alevel // 2),
        "is a Swansong attack, usable only at half or less of the attacker's total Vitality, its level (rounded down)",
        "attacker_vitality",
        f"{RULES}: Swansong: if you have half or less of your total amount of Vitality",
    )

    # ---- step 2: advantages and disadvantages
    free = options.size_free_steps
    larger = np.maximum(0, tsize - asize - free - A["giant"])
    smaller = np.maximum(0, asize - tsize - free - A["precise"])
    prone = b("target_prone")
    adv = (
        A["flashy"]
        + 2 * A["charged"]
        + 2 * A["telegraphed"]
        + A["first_blood"] * b("target_undamaged")
        + (prone & (dist <= 5))
        + b("target_setup")
        + (b("target_blind") & ~tsense)
        + S["extra_advantages"].astype(np.int64)
    )
    dis = (
        (conceal == "partial") * (A["keen"] == 0)
        + 2 * (conceal == "full")
        + larger
        + smaller
        + b("tired") * (A["tireless"] == 0)
        + b("armor") * (A["armored"] == 0)
        + b("inside_devourer") * (A["visceral"] == 0)
        + b("attacker_weakened")
        + (prone & (dist > 20))
        + A["flurry"]
        + S["extra_disadvantages"].astype(np.int64)
    )
    net = options.base_pool + adv.astype(np.int64) - dis.astype(np.int64)

    # ---- steps 3-4
    # Petrify: "immune to all attacks that don't have the required Demolitions upgrade"; "All attacks against
    # a petrified subject are considered assassinations if they successfully get through" (CLARIFICATIONS
    # step 4: counts as Clueless for an attack with Demolitions and is immune to any other)
    petrified = b("target_petrified")
    immune = petrified & (A["demolitions"] == 0)
    defense = np.stack([whom[d] for d in ("agility", "toughness", "insight")])[A["defense"], np.arange(n)]
    # an immune target: no success can get through, so the strike deals 0 and nothing triggers (steps 4-5
    # need damage >= 1); it is still a use (Reckless self-damage, action cost)
    defense = np.where(immune, IMMUNE_DEFENSE, defense)
    aware = np.array([t if s is None else s for t, s in zip(whom["awareness"].tolist(), S["target_awareness"])])
    aware = np.where(petrified, "clueless", aware)
    assassin = np.where(
        aware == "clueless", 4 + 2 * A["assassin"], np.where(aware == "suspicious", 2 + A["assassin"], 0)
    )
    bonus = (A["bully"] > 0) * np.maximum(0, asize - tsize) + assassin
    twice = (A["charged"] + A["telegraphed"]) > 0
    cost = np.where(A["gaze"] + A["swansong"] > 0, 0, 1 + A["cost2"])
    return {
        "n": n,
        "pool": np.maximum(0, net),
        "pool_reroll": np.maximum(0, net - 1),
        "reroll": (A["reroll"] > 0) & b("reroll_available") & (options.reroll == "on_zero") & ~immune,
        "auto": A["reckless"] + 2 * ((A["spree"] > 0) & b("after_kill")),
        "defense": defense,
        "bonus": bonus,
        # the parts a turn gives the first use only (pools.py, CLARIFICATIONS "State across uses"): the
        # assassination bonus, First Blood's advantage, the Killing Spree successes after a kill
        "assassination": assassin,
        "first_blood": (A["first_blood"] > 0) & b("target_undamaged"),
        "spree": (A["spree"] > 0) & b("after_kill"),
        "mask": A["mask"].reshape(n, 5),
        "crit": A["crit"],
        "vital": A["vital"],
        "drain": A["drain"],
        "twice": twice,
        "flurry": A["flurry"] > 0,
        "self_damage": A["reckless"],
        "self_vitality_damage": np.where(b("blood_price"), cost, 0),
        "immune": immune,
    }


def parameter_rows(P: dict[str, np.ndarray]) -> list[bytes]:
    """Return one key per matchup of :func:`strike_parameters`' arrays ``P``: the bytes of its row of
    every parameter, so that two matchups have equal keys exactly when steps 2-5 resolve them alike
    (their outcome tables are equal under the same options)."""
    n = int(P["n"])
    if n == 0:
        return []
    grid = np.column_stack([np.asarray(P[k], dtype=np.float64).reshape(n, -1) for k in sorted(P) if k != "n"])
    return [row.tobytes() for row in grid]


def _binomial_table(nmax: int, p: float) -> np.ndarray:
    """Return B[n, k] = P(k successes on n dice), n, k in 0..nmax."""
    k = np.arange(nmax + 1)
    B = np.zeros((nmax + 1, nmax + 1))
    for m in range(nmax + 1):  # a loop over distinct pool sizes
        c = np.array([comb(m, j) for j in range(m + 1)], dtype=np.float64)
        B[m, : m + 1] = c * p ** k[: m + 1] * (1 - p) ** (m - k[: m + 1])
    return B


def _strike_frame(P: dict[str, np.ndarray], idx: np.ndarray, reroll: np.ndarray, options: Options) -> pl.DataFrame:
    """Return the joint outcome rows of one strike for matchups ``idx`` (steps 3-5): columns
    matchup, rerolled, damage, vitality_damage, self_heal, mask, probability."""
    m = idx.size
    pool, pool_re = P["pool"][idx], P["pool_reroll"][idx]
    auto, D = P["auto"][idx], P["defense"][idx]
    nmax = int(pool.max()) if m else 0
    B = _binomial_table(nmax, options.p_success)
    k = np.arange(nmax + 1)
    # step 3: damage = max(0, successes + automatic - defense)
    d = np.maximum(0, k[None, :] + auto[:, None] - D[:, None])
    dmax = int(d.max()) if m else 0
    rows = np.repeat(np.arange(m), nmax + 1)

    def hist(pools: np.ndarray) -> np.ndarray:
        H = np.zeros((m, dmax + 1))
        np.add.at(H, (rows, d.ravel()), B[pools].ravel())
        return H

    H0 = hist(pool)
    R = np.zeros((m, 2, dmax + 1))
    R[:, 0, :] = H0
    if reroll.any():
        Hr = hist(pool_re)
        zero = H0[:, 0] * reroll
        R[:, 0, 0] -= zero
        R[:, 1, :] = zero[:, None] * Hr
    # step 5: Trigger Die classes
    T = np.where(P["twice"][idx, None], trigger_class_probabilities(True), trigger_class_probabilities(False))
    mask = P["mask"][idx]
    crit = (P["crit"][idx, None] > 0) & (TRIGGER_CLASSES[None, :] == 12)
    vital = (P["vital"][idx, None] > 0) & (TRIGGER_CLASSES[None, :] == 12)
    heal = ((P["drain"][idx, None] > 0) & (TRIGGER_CLASSES[None, :] == 12)).astype(np.int64)

    dv = np.arange(dmax + 1)[None, None, :, None]
    hit = dv >= 1
    bonus = P["bonus"][idx][:, None, None, None]
    crit4 = crit[:, None, None, :] & hit
    step4 = np.where(hit, dv + bonus, 0)
    if options.crit_doubles_bonus:
        dmg = np.where(crit4, 2 * step4, step4)
    else:
        dmg = np.where(crit4, 2 * dv + bonus, step4)
    vit = np.where(vital[:, None, None, :] & hit, dmg, 0)
    prob = R[:, :, :, None] * T[:, None, None, :]
    shape = prob.shape
    full = lambda x: np.broadcast_to(x, shape).ravel()  # noqa: E731
    keep = prob.ravel() > 0
    frame = pl.DataFrame(
        {
            "matchup": full(idx[:, None, None, None])[keep],
            "rerolled": full(np.arange(2)[None, :, None, None] == 1)[keep],
            "damage": full(dmg)[keep].astype(np.int64),
            "vitality_damage": full(vit)[keep].astype(np.int64),
            "self_heal": full(np.where(hit, heal[:, None, None, :], 0))[keep],
            "mask": full(np.where(hit, mask[:, None, None, :], 0))[keep],
            "probability": prob.ravel()[keep],
        }
    )
    return _merge(frame)


_KEYS = ["matchup", "rerolled", "damage", "vitality_damage", "self_heal", "mask"]


def _merge(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.group_by(_KEYS, maintain_order=True).agg(pl.col("probability").sum())


def _add_strike(state: pl.DataFrame, with_reroll: pl.DataFrame, without: pl.DataFrame) -> pl.DataFrame:
    """Return the state after one more strike: damage summed, effects OR-ed; a state that already
    used its reroll takes the strike without one (at most one reroll per round)."""
    parts = []
    for used, table in ((False, with_reroll), (True, without)):
        s = state.filter(pl.col("rerolled") == used)
        if s.height == 0:
            continue
        j = s.join(table, on="matchup", suffix="_s")
        parts.append(
            j.select(
                "matchup",
                (pl.col("rerolled") | pl.col("rerolled_s")).alias("rerolled"),
                (pl.col("damage") + pl.col("damage_s")).alias("damage"),
                (pl.col("vitality_damage") + pl.col("vitality_damage_s")).alias("vitality_damage"),
                (pl.col("self_heal") + pl.col("self_heal_s")).alias("self_heal"),
                (pl.col("mask") | pl.col("mask_s")).alias("mask"),
                (pl.col("probability") * pl.col("probability_s")).alias("probability"),
            )
        )
    return _merge(pl.concat(parts))


def outcome_tables(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situation: Situation | Sequence[Situation],
) -> pl.DataFrame:
    """Return the exact joint outcome tables of aligned matchups (row i = matchup i) as one frame.

    Columns: matchup, probability, damage (all damage dealt to the target), vitality_damage (the
    part Vital sent to Vitality), self_damage (Reckless ranks, every use), self_vitality_damage
    (Blood Price, when used), self_heal (Endurance restored by Drain), rerolled (Reroll was used),
    and one boolean per trigger effect (crit, vital, burn, choke, ...). CLARIFICATIONS, Annulus.
    The frame of :func:`outcome_rows`.
    """
    return pl.DataFrame(outcome_columns(attacks, attackers, targets, options, situation), schema=_SCHEMA)


def outcome_columns(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situation: Situation | Sequence[Situation],
) -> dict[str, np.ndarray]:
    """Return :func:`outcome_tables`' columns as numpy arrays (``matchup`` first), no frame built:
    :func:`outcome_rows` laid end to end."""
    done = outcome_rows(attacks, attackers, targets, options, situation)
    sizes = np.fromiter((t["probability"].size for t in done), dtype=np.int64, count=len(done))
    frame = {"matchup": np.repeat(np.arange(len(done), dtype=np.int64), sizes)}
    return frame | {c: np.concatenate([t[c] for t in done]) for c in _TABLE_COLUMNS}


def outcome_rows(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situation: Situation | Sequence[Situation],
) -> list[dict[str, np.ndarray]]:
    """Return the exact joint outcome table of each aligned matchup (:func:`outcome_tables`' columns
    but ``matchup``) as numpy columns, read-only (a table is shared by every matchup that resolves
    alike), without building a frame: what a fight's round reads."""
    if not (len(attacks) == len(attackers) == len(targets)):
        raise RulesError(
            f"attacks, attackers and targets must be aligned, not {len(attacks)}, {len(attackers)}, "
            f"{len(targets)} long",
            field="attacks",
        )
    if len(attacks) == 0:
        raise RulesError("give at least one matchup", field="attacks")
    return parameter_tables(strike_parameters(attacks, attackers, targets, options, situation), options)


def parameter_tables(
    P: dict[str, Any], options: Options, rows: list[bytes] | None = None
) -> list[dict[str, np.ndarray]]:
    """Return :func:`outcome_rows` of the matchups whose resolved parameters are ``P``
    (:func:`strike_parameters`; ``rows``: their :func:`parameter_rows`, when the caller has them)."""
    # steps 2-5 read the resolved parameters alone: a table is built once per distinct parameter
    # row and options, and kept (workbench.memo.MEMO) for every later matchup that resolves alike
    if rows is None:
        rows = parameter_rows(P)
    keys = [("annulus outcome table", options, r) for r in rows]
    tables = [cast("dict[str, np.ndarray] | None", MEMO.lookup(k)) for k in keys]
    first: dict[bytes, int] = {}
    for i, t in enumerate(tables):
        if t is None:
            first.setdefault(rows[i], i)
    if first:
        idx = np.fromiter(first.values(), dtype=np.int64, count=len(first))
        sub: dict[str, Any] = {k: v[idx] for k, v in P.items() if k != "n"}
        built = _tables(sub | {"n": idx.size}, options)
        for i, t in zip(idx, built):
            MEMO.put(keys[i], t)
        by_row = dict(zip(first, built))
        tables = [t if t is not None else by_row[rows[i]] for i, t in enumerate(tables)]
    return cast("list[dict[str, np.ndarray]]", tables)


#: the columns of an outcome table after ``matchup``, in order
_TABLE_COLUMNS = ["probability", "damage"] + EXTRA_COLUMNS
_SCHEMA = pl.Schema(
    {"matchup": pl.Int64, "probability": pl.Float64, "damage": pl.Int64}
    | {c: (pl.Boolean if c == "rerolled" or c in TRIGGER_COLUMNS else pl.Int64) for c in EXTRA_COLUMNS}
)


def _tables(P: dict[str, Any], options: Options) -> list[dict[str, np.ndarray]]:
    """Return the outcome table of each matchup of ``P`` (steps 3-5 over its resolved parameters)
    as numpy columns, rows sorted by damage, vitality_damage, self_heal, rerolled and the triggers."""
    single = np.flatnonzero(~P["flurry"])
    flurry = np.flatnonzero(P["flurry"])
    parts = []
    if single.size:
        parts.append(_strike_frame(P, single, P["reroll"][single], options))
    if flurry.size:
        # Flurry: three strikes, each with one disadvantage (already in the pool) and its own Trigger Die.
        with_r = _strike_frame(P, flurry, P["reroll"][flurry], options)
        without = (
            _strike_frame(P, flurry, np.zeros(flurry.size, dtype=bool), options)
            if P["reroll"][flurry].any()
            else with_r
        )
        state = with_r
        for _ in range(2):
            state = _add_strike(state, with_r, without)
        parts.append(state)
    table = pl.concat(parts) if len(parts) > 1 else parts[0]
    m = table["matchup"].to_numpy()
    mask = table["mask"].to_numpy()
    cols = {
        "self_damage": P["self_damage"][m].astype(np.int64),
        "self_vitality_damage": P["self_vitality_damage"][m].astype(np.int64),
    }
    for i, column in enumerate(TRIGGER_COLUMNS):
        cols[column] = (mask >> i) & 1 == 1
    table = (
        table.with_columns(**{k: pl.Series(k, v) for k, v in cols.items()})
        .select(["matchup", *_TABLE_COLUMNS])
        .cast(_SCHEMA)
        .sort(["matchup", "damage", "vitality_damage", "self_heal", "rerolled"] + [u.effect for u in TRIGGERS])
    )
    # each matchup's rows are one run of the sorted table: its columns read once and sliced per run
    # (one frame per matchup cost 30 polars lookups each, most of a budget search's table time)
    m = table["matchup"].to_numpy()
    cols = {c: table[c].to_numpy() for c in _TABLE_COLUMNS}
    for v in cols.values():
        v.flags.writeable = False  # (the slices are views: no reader may change another matchup's rows)
    bounds = np.r_[np.flatnonzero(np.r_[True, m[1:] != m[:-1]]), m.size].tolist()
    return [{c: v[a:b] for c, v in cols.items()} for a, b in zip(bounds[:-1], bounds[1:])]
