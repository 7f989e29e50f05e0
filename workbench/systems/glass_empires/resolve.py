"""Exact resolution of Glass Empires Attacks: 2d6 Strike Saves, five bands, flat damage, armor points.

Implements glass-empires-attack.txt (Strike Save table, Out of Range, Cover, The Angry Step) and
the Glass Empires section of CLARIFICATIONS.md (natural 12 / natural 2, resistance, armor points
1 AP per 2 damage or fraction, the default order band -> resistance -> armor -> HP).
Published creature traits (shared/data/glass_empires_creatures.toml) enter each Strike in this
order: band (Crit x2 / Seven halved) -> resistance class and damage-taken multiplier (Living Tree
fire x1.5, Options.multiplier_rounding) -> damage reduction (Bloodthirst) -> single-target cap
(Skittering Horde: 1) -> Ray Shield (absorbs everything while up; a Strike of at least its
threshold breaks it) -> armor points -> HP. The attacker's conditional Strike Save bonus (the
Wolf's +2) is part of the modifier; an immobile attacker has no Angry Step.
Everything is vectorised over matchups with numpy; only the (small) number of Strikes is looped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ...errors import RulesError
from .models import Attack, Creature, Options, Situation
from .weapons import RULES

__all__ = [
    "BANDS",
    "TWO_D6",
    "band_index",
    "band_probabilities",
    "strike_modifier",
    "armor_points",
    "Segment",
    "segment",
    "resolve",
    "OUTCOME_COLUMNS",
]

BANDS = ("crit", "pass", "seven", "failure", "fumble")
CRIT, PASS, SEVEN, FAILURE, FUMBLE = range(5)
#: P(natural 2d6 = n) for n = 2..12, as counts out of 36
TWO_D6 = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64) / 36.0
NATURALS = np.arange(2, 13)
RES_CODES = {"immune": 0, "resist": 1, "normal": 2, "weak": 3}
OUTCOME_COLUMNS = (
    "matchup",
    "probability",
    "damage",
    "ap_damage",
    "shield_breaks",
    "crit",
    "fumble",
    "jam",
    "strikes_passed",
    "kill",
)


def band_index(natural: np.ndarray, modifier: np.ndarray) -> np.ndarray:
    """Return the band (0 crit .. 4 fumble) of natural 2d6 rolls with modifiers (broadcast).

    CLARIFICATIONS.md: natural 12 is always a Crit, natural 2 always a Fumble; otherwise the
    modified total: Crit >= 12, Pass 8-11, Seven 7, Failure 3-6, Fumble <= 2.
    """
    natural = np.asarray(natural)
    total = natural + np.asarray(modifier)
    band = np.select([total >= 12, total >= 8, total == 7, total >= 3], [CRIT, PASS, SEVEN, FAILURE], FUMBLE)
    band = np.where(natural == 12, CRIT, band)
    return np.where(natural == 2, FUMBLE, band)


def band_probabilities(modifiers: Sequence[int] | np.ndarray) -> np.ndarray:
    """Return an (n, 5) array: P(crit, pass, seven, failure, fumble) of a Strike Save per modifier."""
    m = np.asarray(modifiers, dtype=np.int64).reshape(-1, 1)
    bands = band_index(NATURALS[None, :], m)
    out = np.zeros((m.shape[0], 5))
    rows = np.repeat(np.arange(m.shape[0]), NATURALS.size)
    np.add.at(out, (rows, bands.ravel()), np.tile(TWO_D6, m.shape[0]))
    return out


def armor_points(creature: Creature, options: Options) -> int:
    """Return full armor points: Armor x Power (default) or Armor x HD (option armor_points_formula)."""
    if options.armor_points_formula == "armor_x_hd":
        hd = creature.hd if creature.hd is not None else creature.power - creature.level
        return creature.armor * hd
    return creature.armor * creature.power


def strike_modifier(attack: Attack, attacker: Creature, situation: Situation) -> int:
    """Return the Strike Save modifier of one Strike, or raise RulesError if the target is out of reach.

    glass-empires-attack.txt: environment and Conditions apply (each +-1); ranged: beyond the listed
    range up to twice it -1, farther is impossible; low cover -2, high cover -4 (ranged only); melee
    reach = Size (or the weapon's reach), plus the Angry Step (a further move up to the melee reach)
    unless movement is impeded or the attacker is ``immobile``. The attacker's ``strike_save_bonus``
    entries whose circumstance is in ``situation.circumstances`` are added.
    """
    mod = situation.environment + situation.conditions
    # a feature's conditional bonus (the Wolf's Pack Hunter +2 "vs target engaged with ally"): the text
    # bars only personal Fact bonuses ("should otherwise add factors such as ... & the like")
    mod += sum(b for when, b in attacker.strike_save_bonus.items() if when in situation.circumstances)
    d = situation.distance
    if attack.kind == "ranged":
        mod += {"none": 0, "low": -2, "high": -4}[situation.cover]
        if d is not None and attack.range is not None and d > attack.range:
            if d > 2 * attack.range:
                raise RulesError(
                    f"{d:g} ft is beyond twice {attack.name}'s listed range of {attack.range:g} ft",
                    field="distance",
                    rule=f"{RULES}: Ranged attacks may be performed at up to twice a weapon's listed range",
                )
            mod -= 1
    elif d is not None:
        reach = attack.range if attack.range is not None else attacker.reach
        free = not situation.movement_impeded and not attacker.immobile
        step = reach if (situation.angry_step and free) else 0
        if d > reach + step:
            why = ""
            if situation.angry_step and attacker.immobile:
                why = f" (no Angry Step: {attacker.name} is immobile)"
            elif situation.angry_step and situation.movement_impeded:
                why = " (no Angry Step: movement is impeded)"
            raise RulesError(
                f"{d:g} ft is beyond {attacker.name}'s melee reach of {reach:g} ft"
                f"{' + Angry Step ' + format(step, 'g') + ' ft' if step else ''}{why}",
                field="distance",
                rule=f"{RULES}: they must be within your weapon's reach; The Angry Step",
            )
    return int(mod)


#: the damage factor of each resistance code (immune, resist, normal, weak)
_CODE_FACTOR = (0.0, 0.5, 1.0, 2.0)
_NO_CAP = np.iinfo(np.int64).max // 4


@dataclass
class Segment:
    """One Attack in a plan, per matchup: damage, modifier, jams, resistance code, armor, Strikes,
    and the target's traits: damage-taken multiplier, damage reduction, single-target cap and Ray
    Shield threshold (0: none) with whether it is up."""

    damage: np.ndarray
    modifier: np.ndarray
    jams: np.ndarray
    res: np.ndarray
    armored: np.ndarray
    strikes: np.ndarray
    mult: np.ndarray | None = None
    reduction: np.ndarray | None = None
    cap: np.ndarray | None = None
    shield: np.ndarray | None = None
    shield_up: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = self.damage.size
        if self.mult is None:
            self.mult = np.ones(n)
        if self.reduction is None:
            self.reduction = np.zeros(n, dtype=np.int64)
        if self.cap is None:
            self.cap = np.full(n, _NO_CAP, dtype=np.int64)
        if self.shield is None:
            self.shield = np.zeros(n, dtype=np.int64)
        if self.shield_up is None:
            self.shield_up = np.zeros(n, dtype=bool)


def _damage_type_choice(
    attack: Attack, target: Creature, rule: str, circumstances: tuple = ()
) -> tuple[int, bool, float]:
    """Return (resistance code, armor applies, damage-taken multiplier) of the type a (mixed-type)
    weapon uses on ``target``: the one that does most (default) or least damage to it."""
    keys = []
    for t in attack.types:
        code = RES_CODES[target.multiplier_class(t, circumstances)]
        mult = float(target.damage_taken_multiplier.get(t, 1.0))
        armored = t == "physical" and t not in target.armor_bypassed_by
        keys.append((_CODE_FACTOR[code] * mult, not armored, code, mult))
    key = max(keys) if rule == "most_damaging" else min(keys)
    return key[2], not key[1], key[3]


def segment(
    attacks: Sequence[Attack],
    attackers: Sequence[Creature],
    targets: Sequence[Creature],
    options: Options,
    situations: Sequence[Situation],
) -> Segment:
    """Return the per-matchup numbers of one Attack use (validating models and reach)."""
    for field, seq, cls in (
        ("attack", attacks, Attack),
        ("attacker", attackers, Creature),
        ("target", targets, Creature),
    ):
        for obj in seq:
            if not isinstance(obj, cls):
                raise RulesError(f"expected a Glass Empires {cls.__name__}, not {type(obj).__name__}", field=field)
    choice = [
        _damage_type_choice(a, t, options.mixed_damage_type, s.circumstances)
        for a, t, s in zip(attacks, targets, situations)
    ]
    n = len(attacks)
    return Segment(
        damage=np.fromiter((a.strike_damage for a in attacks), np.int64, len(attacks)),
        modifier=np.fromiter(
            (strike_modifier(a, c, s) for a, c, s in zip(attacks, attackers, situations)), np.int64, len(attacks)
        ),
        jams=np.fromiter((a.jams for a in attacks), bool, len(attacks)),
        res=np.array([c[0] for c in choice], dtype=np.int64),
        armored=np.array([c[1] for c in choice], dtype=bool),
        strikes=np.fromiter((c.strikes for c in attackers), np.int64, len(attackers)),
        mult=np.array([c[2] for c in choice], dtype=np.float64),
        reduction=np.fromiter(
            (t.damage_reduction if s.target_damage_reduction_active else 0 for t, s in zip(targets, situations)),
            np.int64,
            n,
        ),
        cap=np.fromiter(
            (_NO_CAP if t.single_target_damage_max is None else t.single_target_damage_max for t in targets),
            np.int64,
            n,
        ),
        shield=np.fromiter((t.ray_shield_breaks_at or 0 for t in targets), np.int64, n),
        shield_up=np.fromiter(
            (bool(t.ray_shield_breaks_at) and s.target_shield_up for t, s in zip(targets, situations)), bool, n
        ),
    )


def _band_scale(x: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Crit x2, Pass x1, Seven halved rounded down, Failure / Fumble 0 (the Strike Save table)."""
    return np.select([band == CRIT, band == PASS, band == SEVEN], [2 * x, x, x // 2], 0)


def _resist(x: np.ndarray, code: np.ndarray, mult: np.ndarray | None = None, rounding: str = "down") -> np.ndarray:
    """Immunity 0, resistance halves (round down), weakness doubles (CLARIFICATIONS.md); then the
    creature's damage-taken multiplier (the Living Tree's fire x1.5), rounded down (default), to
    the nearest (half up) or up (Options.multiplier_rounding)."""
    x = np.select([code == 0, code == 1, code == 3], [0 * x, x // 2, 2 * x], x)
    if mult is None or np.all(mult == 1.0):
        return x
    raw = x * mult
    eps = 1e-9  # 7 * 1.5 = 10.5 exactly; guards products such as 0.1 * 30
    out = {"down": np.floor(raw + eps), "nearest": np.floor(raw + 0.5 + eps), "up": np.ceil(raw - eps)}[rounding]
    return out.astype(np.int64)


_STATE = ("m", "damage", "ap_damage", "crit", "fumble", "jam", "strikes_passed", "shield")


def _merge(state: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return the state with identical rows merged (probabilities summed)."""
    df = pl.DataFrame({**{k: state[k] for k in _STATE}, "p": state["p"]})
    df = df.group_by(list(_STATE)).agg(pl.col("p").sum())
    return {k: df[k].to_numpy() for k in (*_STATE, "p")}


def resolve(segments: Sequence[Segment], ap0: np.ndarray, hp_now: np.ndarray, options: Options) -> pl.DataFrame:
    """Return the joint outcome table of each matchup's Attacks (in order), Strike by Strike.

    Each Strike is its own Strike Save (glass-empires-attack.txt: "perform 1 or more Strikes");
    armor points carried from Strike to Strike absorb physical damage, 1 AP per 2 damage or
    fraction, before HP (CLARIFICATIONS.md). With ``jam_ends_strikes`` a jammed weapon makes no
    further Strike. Jams (CLARIFICATIONS.md, Glass Empires): "Clearing the jam takes an instant
    action: when the turn still has one (the turn's first Attack jams), that action clears it and
    the next turn starts clear; only a jam on the turn's last action carries into the next turn", so
    the Attack after a jammed one is not made (its action clears the jam), and ``jam`` marks a
    weapon still jammed when the table's last Attack ends. ``kill`` marks damage >= the target's current HP (the action is refunded).
    The target's traits (see the module docstring) apply to every Strike; a Ray Shield broken by
    one Strike stays broken for the later Strikes and Attacks of the table.
    """
    n = ap0.size
    order = options.damage_order
    rounding = options.multiplier_rounding
    z = np.zeros(n, dtype=np.int64)
    shield0 = z
    if segments:
        assert segments[0].shield_up is not None  # Segment.__post_init__ fills in the optional arrays
        shield0 = segments[0].shield_up.astype(np.int64)
    st = {
        "m": np.arange(n),
        "damage": z,
        "ap_damage": z,
        "crit": z,
        "fumble": z,
        "jam": z,
        "strikes_passed": z,
        "shield": shield0,
        "p": np.ones(n),
    }
    bands = np.arange(5)
    for s, seg in enumerate(segments):
        if s:
            # "that action clears it": a row jammed by the previous Attack spends this one clearing
            # the jam (jam 2 while it does), so this Attack makes no Strike
            st["jam"] = np.where(st["jam"] == 1, 2, st["jam"])
        assert seg.mult is not None and seg.reduction is not None  # filled by Segment.__post_init__
        assert seg.cap is not None and seg.shield is not None
        pb = band_probabilities(seg.modifier)  # (n, 5)
        base = seg.damage[:, None]
        res, mult = seg.res[:, None], seg.mult[:, None]
        if order == "band,resistance,armor":
            y = _resist(_band_scale(base, bands[None, :]), res, mult, rounding)
        elif order == "resistance,band,armor":
            y = _band_scale(_resist(base, res, mult, rounding), bands[None, :])
        else:
            y = _band_scale(base, bands[None, :])
        # damage reduction (Bloodthirst) on a Strike that lands, then the single-target cap (Swarm)
        landed = (bands <= SEVEN)[None, :]
        y = np.where(landed, np.maximum(0, y - seg.reduction[:, None]), y)
        y = np.minimum(y, seg.cap[:, None])
        for k in range(int(seg.strikes.max(initial=0))):
            m = st["m"]
            active = (seg.strikes[m] > k) & (st["jam"] != 2)
            if options.jam_ends_strikes:
                active &= st["jam"] == 0
            keep = {key: v[~active] for key, v in st.items()}
            idx = np.repeat(np.flatnonzero(active), 5)
            band = np.tile(bands, idx.size // 5)
            mm = m[idx]
            p = st["p"][idx] * pb[mm, band]
            ok = p > 0
            idx, band, mm, p = idx[ok], band[ok], mm[ok], p[ok]
            amount = y[mm, band]
            # Ray Shield: "immune to all damage"; a Strike of at least its threshold breaks it and
            # is absorbed ("ray_shield_absorbs_breaking_effect")
            up = st["shield"][idx] == 1
            breaks = up & (amount >= seg.shield[mm]) & (seg.shield[mm] > 0)
            amount = np.where(up, 0, amount)
            shield = np.where(breaks, 0, st["shield"][idx])
            ap_left = ap0[mm] - st["ap_damage"][idx]
            absorbed = np.where(seg.armored[mm], np.minimum(amount, 2 * ap_left), 0)
            rest = amount - absorbed
            if order == "band,armor,resistance":
                rest = np.minimum(_resist(rest, seg.res[mm], seg.mult[mm], rounding), seg.cap[mm])
            new = {
                "m": mm,
                "damage": st["damage"][idx] + rest,
                "ap_damage": st["ap_damage"][idx] + (absorbed + 1) // 2,
                "crit": st["crit"][idx] | (band == CRIT),
                "fumble": st["fumble"][idx] | (band == FUMBLE),
                "jam": np.where((band == FUMBLE) & seg.jams[mm], 1, st["jam"][idx]),
                "strikes_passed": st["strikes_passed"][idx] + (band <= SEVEN),
                "shield": shield,
                "p": p,
            }
            st = _merge({key: np.concatenate([keep[key], new[key]]) for key in st})
        st["jam"] = np.where(st["jam"] == 2, 0, st["jam"])  # cleared: the weapon works again
    df = pl.DataFrame(
        {
            "matchup": st["m"].astype(np.int64),
            "probability": st["p"].astype(np.float64),
            "damage": st["damage"].astype(np.int64),
            "ap_damage": st["ap_damage"].astype(np.int64),
            "shield_breaks": (shield0[st["m"]] - st["shield"]).astype(np.int64),
            "crit": st["crit"].astype(bool),
            "fumble": st["fumble"].astype(bool),
            "jam": st["jam"] == 1,
            "strikes_passed": st["strikes_passed"].astype(np.int64),
            "kill": st["damage"] >= hp_now[st["m"]],
        }
    )
    df = df.group_by([c for c in OUTCOME_COLUMNS if c != "probability"]).agg(pl.col("probability").sum())
    return df.select(OUTCOME_COLUMNS).sort(
        ["matchup", "damage", "ap_damage", "shield_breaks", "strikes_passed", "crit", "fumble", "jam"]
    )
