"""The Annulus side of the simulation: two pools, conditions, stings, awareness, recharge, reactions.

Every attack use draws one row of the exact outcome table (``AnnulusSystem.outcome_tables``) of
the fight's current state class: the few booleans that change a strike (target Prone, Setup,
Blind, Petrified, undamaged; attacker Blind, Weakened, inside a devourer; awareness; Reroll left;
Swansong usable; Blood Price). The modelling of each effect, with its rule, is in docs/combat.md.
``AnnulusSystem.simulation_side`` and ``AnnulusSystem.state_effects`` load this module on first use.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

import numpy as np
import polars as pl

from ...dist import Dist
from ...errors import RulesError
from ...plans import choose_label, is_sequence_plan
from ...simulate.engine import LOOKUP_KEYS, MEMO, Bank, Fights, Side, lookup
from . import resolve
from .round import disarm_order
from .tactics import BURN, CHOKE, CONDITION_BIT, DISARM, FATIGUE, PRONE, RECOVERABLE, SAP, WEAK, Tactics

__all__ = ["AnnulusSide", "state_effects", "state_effects_many", "STATEFUL_TRIGGERS", "RECOVERABLE", "Tactics"]

RULES = "annulus-attacks.txt"
AWARENESS = ("clueless", "suspicious", "alert")
ALERT = 2
#: the state-class bits of a use (``AnnulusSide._bits``) take the low SHIFT bits of a table key; the set
#: index (or the charged sets and the actions of a turn) the bits above
SHIFT = 14
LOW = (1 << SHIFT) - 1

# sting bits (wear off on their own); the condition bits are in tactics.py
DAZE, PACIFY, TERROR, BERSERK = 1, 2, 4, 8
STING_BIT = {"daze": DAZE, "pacify": PACIFY, "terrorize": TERROR, "berserk": BERSERK}
#: outcome-table effect columns the simulation acts on; the others (Grab, Hobble, Push, Silence, Dispel,
#: Immobilize) change nothing in a one-against-one fight at a fixed distance
FX = (
    "burn",
    "choke",
    "sap",
    "fatigue",
    "knockdown",
    "weaken",
    "daze",
    "pacify",
    "terrorize",
    "berserk",
    "setup",
    "blind",
    "petrify",
    "devour",
    "disarm",
)
FX_BIT = {name: 1 << i for i, name in enumerate(FX)}


def _fx_lookup(bits: dict[str, int]) -> np.ndarray:
    """Return, for every value of an outcome's ``fx`` bit set, the OR of ``bits[name]`` over the
    effects ``name`` it holds (a table of 2**len(FX) entries)."""
    fx = np.arange(1 << len(FX), dtype=np.int64)
    out = np.zeros(fx.size, dtype=np.int64)
    for name, bit in bits.items():
        out |= np.where(fx & FX_BIT[name], bit, 0)
    return out


#: the conditions (tactics.CONDITION_BIT) and the stings (STING_BIT) an outcome's fx inflicts
FX_CONDITIONS = _fx_lookup({k: v for k, v in CONDITION_BIT.items() if k != "disarm"})  # Disarm: _disarm
FX_STINGS = _fx_lookup(STING_BIT)
STATEFUL_TRIGGERS = frozenset(
    {
        "Burn",
        "Choke",
        "Sap",
        "Fatigue",
        "Knockdown",
        "Weaken",
        "Daze",
        "Pacify",
        "Terrorize",
        "Berserk",
        "Setup",
        "Blind",
        "Petrify",
        "Devour",
        "Drain",
    }
)


def _binomial_sf(n: int, k: int, p: float) -> float:
    from math import comb

    return sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))


@dataclass
class _Use:
    """One attack use in flight: fights, sets, whether it is the attacker's own turn, Blood Price."""

    idx: np.ndarray
    sets: np.ndarray
    own_turn: bool = True
    blood_price: bool = False
    counter: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: the state-class bits of the fights (AnnulusSide._bits), when the caller has them for this very state
    bits: np.ndarray | None = None


class AnnulusSide(Side):
    """An Annulus creature in many fights at once (Endurance, Vitality, conditions, stings, ...)."""

    def __init__(
        self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None, tactics: Tactics | None = None
    ):
        from . import SYSTEM

        self.sys = SYSTEM
        self.me, self.foe, self.plan = me, foe, plan
        self.options, self.situation = self.sys.defaults(options, situation)
        if tactics is None:
            tactics = Tactics()
        if not isinstance(tactics, Tactics):
            raise RulesError(f"expected Tactics, not {type(tactics).__name__}", field="tactics")
        self.tactics = tactics
        self.name = me.name
        self.sets = list(me.attack_sets)
        self.cost = np.array([self.sys.attack_cost(s, self.options) for s in self.sets] or [0])
        self.area = np.array([bool(s.area) for s in self.sets] or [False])
        self.telegraphed = np.array([s.alteration == "Telegraphed" for s in self.sets] or [False])
        self.has_telegraphed = bool(self.telegraphed.any())
        self.spree = np.array([s.has("Killing Spree") for s in self.sets] or [False])
        self.area_sets = [i for i, s in enumerate(self.sets) if s.area]
        #: the bits (set i: 1 << i) of the sets that are never uncharged (only an area set waits for a recharge)
        self.always_charged = sum(1 << i for i, s in enumerate(self.sets) if not s.area)
        self.has_disarm = any("Disarm" in s.triggers for s in self.sets)
        # the situation's Setup and Killing Spree bonus wait for one use (steps skipped when neither is given)
        self.sit_setup_on = bool(self.situation.target_setup)
        self.spree_on = bool(self.situation.after_kill) and bool(self.spree.any())
        self.defense_of = np.array([("agility", "toughness", "insight").index(s.defense) for s in self.sets] or [0])
        self.blood_sets = [i for i, s in enumerate(self.sets) if s.has("Blood Price")]
        self.p = self.options.p_success
        self.p_recover = _binomial_sf(4, 3, self.p)
        self.recover_bits = [CONDITION_BIT[c] for c in tactics.recover_from]
        self.recover_mask = sum(self.recover_bits)
        self.can_devour = foe.size <= me.size - 2
        self.counters = self._usable_counters()
        #: the name of this side's tables and plans in the simulation's memo (model values only)
        self._memo = ("annulus", me, foe, self.options, self.situation)
        self.uses = Bank(self._build_uses, share=lambda k: (*self._memo, "uses", k))
        self._plans: dict[tuple[int, int, int], list[int]] = {}
        # the plans of the turn keys met (_plan_rows): key -> row, the rows, key -> row by array lookup
        self._plan_row: dict[int, int] = {}
        self._plan_list: list[list[int]] = []
        self._plan_lut = np.full(0, -1, dtype=np.int64)
        self._steps: np.ndarray | None = None
        self.passive = False

    # ------------------------------------------------------------------ tables
    def _usable_counters(self) -> dict[int, int]:
        """Return {defense index it reacts to: set index} of this creature's usable Counter sets."""
        out: dict[int, int] = {}
        for i, s in enumerate(self.sets):
            if s.alteration != "Counter":
                continue
            try:
                resolve.strike_parameters([s], [self.me], [self.foe], self.options, self.situation)
            except RulesError:
                continue
            out.setdefault(("agility", "toughness", "insight").index(s.counter_type), i)
        return out

    def _sit(self, bits: int) -> Any:
        base = self.situation
        b = lambda i: bool(bits >> i & 1)  # noqa: E731
        return base.replace(
            target_prone=base.target_prone or b(0),
            target_setup=b(1),  # the situation's Setup is the first use's only (self.sit_setup)
            target_blind=base.target_blind or b(2),
            # a Blind sting on the attacker: every space has full concealment for it, unless it
            # perceives by a non-visual sense (it still cannot Gaze: mutual_sight below)
            concealment="full" if b(3) and not self.me.senses else base.concealment,
            mutual_sight=base.mutual_sight and not (b(2) or b(3) or b(10)),
            attacker_weakened=base.attacker_weakened or b(4),
            target_undamaged=base.target_undamaged and b(5),
            target_petrified=base.target_petrified or b(6),
            target_awareness=AWARENESS[bits >> 7 & 3],
            reroll_available=base.reroll_available and b(9),
            inside_devourer=base.inside_devourer or b(10),
            attacker_vitality=self.me.level // 2 if b(11) else None,
            blood_price=b(12),
            after_kill=b(13),  # Killing Spree: "the single next time you use the attack" (self.spree_waits)
        )

    def _build_uses(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        """Return the outcome rows of each key's use (set ``k >> SHIFT`` in state class ``k & LOW``).

        A use's table is a function of its resolved dice parameters alone (steps 2-5 of the order of
        resolution read nothing else), and many state classes, attackers and targets resolve to the
        same parameters: the rows are memoised under them (``resolve.parameter_rows``), so a grid of
        fights over the state builds each distinct table once."""
        sets = [self.sets[k >> SHIFT] for k in keys]
        sits = [self._sit(k & LOW) for k in keys]
        n = len(keys)
        params = resolve.parameter_rows(
            resolve.strike_parameters(sets, [self.me] * n, [self.foe] * n, self.options, sits)
        )
        memo = [("annulus use", self.options, row) for row in params]
        out = [cast("dict[str, np.ndarray] | None", MEMO.lookup(k)) for k in memo]
        first: dict[bytes, int] = {}  # one resolution per distinct parameter row
        for i, v in enumerate(out):
            if v is None:
                first.setdefault(params[i], i)
        if first:
            built = self._resolve_uses([sets[i] for i in first.values()], [sits[i] for i in first.values()])
            for i, rows in zip(first.values(), built):
                MEMO.put(memo[i], rows)
            by_row = dict(zip(first, built))
            out = [v if v is not None else by_row[params[i]] for i, v in enumerate(out)]
        return cast("list[dict[str, np.ndarray]]", out)

    def _resolve_uses(self, sets: list, sits: list) -> list[dict[str, np.ndarray]]:
        """Return the outcome rows of each use (``sets[i]`` in situation ``sits[i]``): one
        ``outcome_tables`` call, its effect columns packed into the ``fx`` bits."""
        n = len(sets)
        t = self.sys.outcome_tables(sets, [self.me] * n, [self.foe] * n, self.options, sits)
        fx = sum(pl.col(name).cast(pl.Int64) * bit for name, bit in FX_BIT.items())
        t = t.with_columns(fx=fx)
        cols = ["damage", "vitality_damage", "self_damage", "self_vitality_damage", "self_heal", "rerolled", "fx"]
        g = (
            t.group_by(["matchup", *cols], maintain_order=True)
            .agg(pl.col("probability").sum())
            .sort(["matchup", *cols])
        )
        out = []
        for part in g.partition_by("matchup", maintain_order=True):
            out.append({c: part[c].to_numpy() for c in (*cols, "probability")})
        return out

    def _plan(self, bits: int, avail: int, actions: int) -> list[int]:
        key = (bits, avail, actions)
        if key in self._plans:
            return self._plans[key]
        if self.plan is None or isinstance(self.plan, str):  # chosen from the models alone: memoised
            plan = MEMO.get((*self._memo, "plan", self.plan, key), lambda: self._choose(bits, avail, actions))
        else:
            plan = self._choose(bits, avail, actions)
        self._plans[key] = plan
        return plan

    def _choose(self, bits: int, avail: int, actions: int) -> list[int]:
        """Return the set indices of the turn played in state class ``bits`` with the sets ``avail``
        (bit i: set i charged) and ``actions`` actions: the given plan's sets that are available and
        fit, else the plan ``turn_damage`` would choose among the available sets."""
        sets = [s for i, s in enumerate(self.sets) if avail >> i & 1]
        sit = self._sit(bits)
        plan: list[int] = []
        if is_sequence_plan(self.plan):
            budget = actions
            for a in [self.sys.attack_named(self.me, x) for x in list(self.plan)]:
                if a not in self.sets:  # a ValueError of list.index before
                    raise RulesError(f"{a.name} is not one of {self.me.name}'s attack sets", field="plan")
                i = self.sets.index(a)
                if avail >> i & 1 and self.cost[i] <= budget:
                    plan.append(i)
                    budget -= int(self.cost[i])
        elif sets:
            plans = self._turn_plans(sets, sit, actions)
            custom = self.plan if not (isinstance(self.plan, str) and self.plan not in plans) else None
            label = choose_label(plans, custom)
            if isinstance(label, Dist):
                raise RulesError(
                    "a plan function returning a Dist cannot be simulated; return a plan label", field="plan"
                )
            if label is not None:
                by_name = {s.name: i for i, s in enumerate(self.sets)}
                plan = [by_name[n] for n in label.split(" + ")]
        return plan

    def _turn_plans(self, sets: list[Any], sit: Any, actions: int) -> dict[str, Dist]:
        """Return the plans of a turn with the available ``sets`` and ``actions`` actions in the
        situation ``sit`` (``turn_plans``; with no action left, the sets that cost none)."""
        if actions == 0:
            sets = [s for s in sets if self.sys.attack_cost(s, self.options) == 0]
        me = self.me.replace(attack_sets=tuple(sets))
        return self.sys.turn_plans(me, self.foe, self.options.replace(actions=max(1, actions)), sit)

    def legal_plans(self, bits: int, avail: int, actions: int) -> dict[str, list[int]]:
        """Return every plan of a turn in state class ``bits`` with the sets ``avail`` charged and
        ``actions`` actions, label -> set indices, in the order ``turn_plans`` lists them (those
        :meth:`_choose` chooses among without a given plan); empty when no set is available."""
        sets = [s for i, s in enumerate(self.sets) if avail >> i & 1]
        if not sets:
            return {}
        by_name = {s.name: i for i, s in enumerate(self.sets)}
        plans = self._turn_plans(sets, self._sit(bits), actions)
        return {label: [by_name[n] for n in label.split(" + ")] for label in plans}

    # ------------------------------------------------------------------ state
    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        z = lambda dtype=np.int64: np.zeros(n, dtype=dtype)  # noqa: E731
        self.E, self.V = np.full(n, self.me.endurance, np.int64), np.full(n, self.me.vitality, np.int64)
        self.cond, self.stings_next, self.stings_now = z(), z(), z()
        self.setup, self.inside = z(bool), z(bool)
        self.blind_timer, self.petrify_timer = z(), z()
        aware = self.situation.target_awareness or self.me.awareness
        self.aware = np.full(n, AWARENESS.index(aware), np.int64)
        #: charged[i, fight]: set i is charged (one row per set: an area set's row is read and written alone)
        self.charged = np.ones((max(1, len(self.sets)), n), dtype=bool)
        self.reroll_used, self.counter_used = z(bool), z(bool)
        self.telegraph = np.full(n, -1, np.int64)
        # given by the situation, each for the single next use (CLARIFICATIONS, Annulus, state across uses)
        self.sit_setup = np.full(n, bool(self.situation.target_setup))
        self.spree_waits = np.full(n, bool(self.situation.after_kill))
        # Disarm: the sets this creature cannot use while the condition lasts (one condition per set)
        self.disarmed = np.zeros((n, max(1, len(self.sets))), dtype=bool)
        self.disarm_seen = False  # no set disarmed in any fight yet: the masks are skipped
        # What may be on this creature in some fight (set where it is put on, never cleared): a state that
        # is in no fight changes no number, so the steps that read it are skipped and its bits are constant
        self.cond_bits = 0  # every condition bit ever put on
        self.stings_seen = self.setup_seen = self.blind_seen = self.petrify_seen = False
        self.inside_seen = self.reroll_seen = False
        self.all_alert = AWARENESS.index(aware) == ALERT  # only Alert is ever assigned: then constant

    def hp_left(self) -> np.ndarray:
        return self.E + self.V

    def hurt(self, idx: np.ndarray, regular: np.ndarray, vital: np.ndarray | int, sim: Fights) -> None:
        """Endurance first, then Vitality; vital damage straight to Vitality (annulus-attacks.txt)."""
        e = self.E[idx]
        soak = np.minimum(e, regular)
        self.E[idx] = e - soak
        v = self.V[idx] - (regular - soak + vital)
        self.V[idx] = v
        self.mark_dead(idx, v <= 0, sim)

    def _bits(self, foe: AnnulusSide, idx: np.ndarray) -> np.ndarray:
        """Return the state-class bits of this side striking ``foe`` in fights ``idx`` (an int64 array).

        A bit whose state is in no fight (the ``*_seen`` flags, :attr:`cond_bits`) is the same constant
        in every fight: it is not read from the arrays."""
        bits = ((foe.E[idx] == foe.me.endurance) & (foe.V[idx] == foe.me.vitality)).astype(np.int64) << 5
        bits |= (self.V[idx] <= self.me.level // 2) << 11  # Swansong: half the total Vitality, the level
        const = 0
        if foe.cond_bits & PRONE:
            bits |= (foe.cond[idx] & PRONE) >> 4  # bit 0
        if self.sit_setup_on:
            bits |= (foe.setup[idx] | self.sit_setup[idx]) << 1
        elif foe.setup_seen:
            bits |= foe.setup[idx] << 1
        if foe.blind_seen:
            bits |= (foe.blind_timer[idx] > 0) << 2
        if self.blind_seen:
            bits |= (self.blind_timer[idx] > 0) << 3
        if self.cond_bits & WEAK:
            bits |= (self.cond[idx] & WEAK) >> 1  # bit 4
        if foe.petrify_seen:
            bits |= (foe.petrify_timer[idx] > 0) << 6
        if foe.all_alert:
            const |= ALERT << 7
        else:
            bits |= foe.aware[idx] << 7
        if self.reroll_seen:
            bits |= (~self.reroll_used[idx]) << 9
        else:
            const |= 512
        if self.inside_seen:
            bits |= self.inside[idx] << 10
        if self.spree_on:
            bits |= self.spree_waits[idx] << 13
        if const:
            bits |= const
        return bits

    # ------------------------------------------------------------------ Disarm
    @cached_property
    def disarm_order(self) -> np.ndarray:
        """Return the indices of the sets this creature gives up to a Disarm condition, first choice first:
        "The disarmed target chooses one of their attack sets" (it gives up the set with the lowest mean
        damage of one use against its foe, a set it cannot use here first; ties: the first listed), and a
        set with Inherent never ("they assign the condition to one of their sets that doesn't have it (if
        any) before ignoring the effect entirely")."""
        return disarm_order(self.sys, self.sets, self.me, self.foe, self.options, self.situation)

    def _disarm(self, sel: np.ndarray) -> None:
        """Put a Disarm condition on the first set of :attr:`disarm_order` not yet disarmed in fights ``sel``
        ("A single creature can be under the effect of multiple Disarm conditions, so long as each one
        affects a different attack set"); a fight with none left ignores it."""
        order = self.disarm_order
        if not order.size or not sel.size:
            return
        free = ~self.disarmed[sel][:, order]
        has = free.any(axis=1)
        first = np.argmax(free, axis=1)
        self.disarmed[sel[has], order[first[has]]] = True
        self.cond[sel[has]] |= DISARM
        self.cond_bits |= DISARM
        self.disarm_seen = self.disarm_seen or bool(has.any())

    def _recover_disarm(self, sel: np.ndarray) -> None:
        """A successful recovery check against Disarm in fights ``sel``: the condition on the set it values
        most (the last of :attr:`disarm_order` disarmed) is removed; DISARM stays while another remains."""
        order = self.disarmed[sel][:, self.disarm_order]
        last = order.shape[1] - 1 - np.argmax(order[:, ::-1], axis=1)
        has = order.any(axis=1)
        self.disarmed[sel[has], self.disarm_order[last[has]]] = False
        self.cond[sel] = np.where(self.disarmed[sel].any(axis=1), self.cond[sel] | DISARM, self.cond[sel] & ~DISARM)

    # ------------------------------------------------------------------ one attack use
    def strike(self, foe: AnnulusSide, u: _Use, sim: Fights) -> None:
        """Resolve one use of sets ``u.sets`` on ``foe`` in fights ``u.idx`` and apply its effects.

        (An outcome column that is 0 in every row drawn, or in every row of the tables, changes nothing
        and is not read; an effect no drawn row has is skipped: the numbers are those of applying them.)"""
        idx, sets = u.idx, u.sets
        if idx.size == 0:
            return
        keys = self._bits(foe, idx) if u.bits is None else u.bits.copy()
        keys |= sets.astype(np.int64) << SHIFT
        if u.blood_price:
            keys |= 4096
        pos = self.uses.draw_positions(keys, sim.rng)
        cols, zero = self.uses.columns()
        dmg = cols["damage"][pos]
        if zero["vitality_damage"]:
            foe.hurt(idx, dmg, 0, sim)
        else:
            vit = cols["vitality_damage"][pos]
            foe.hurt(idx, dmg - vit, vit, sim)
        if foe.setup_seen:  # "The single next attack against a Setuped target ... removes the Setup sting"
            foe.setup[idx] = False
        if self.sit_setup_on:
            self.sit_setup[idx] = False
        if self.spree_on:  # Killing Spree's +2 "the single next time you use the attack"
            self.spree_waits[idx] &= ~self.spree[sets]
        self_dmg = None if zero["self_damage"] else cols["self_damage"][pos]
        self_vit = None if zero["self_vitality_damage"] else cols["self_vitality_damage"][pos]
        if (self_dmg is not None and self_dmg.any()) or (self_vit is not None and self_vit.any()):
            self.hurt(
                idx,
                np.zeros(idx.size, np.int64) if self_dmg is None else self_dmg,
                np.zeros(idx.size, np.int64) if self_vit is None else self_vit,
                sim,
            )
        if not zero["self_heal"]:
            heal = cols["self_heal"][pos]
            if heal.any():
                heal = heal * ((self.cond[idx] & FATIGUE) == 0)
                self.E[idx] = np.minimum(self.me.endurance, self.E[idx] + heal)
        if not zero["rerolled"]:
            rerolled = cols["rerolled"][pos]
            if rerolled.any():
                self.reroll_used[idx] |= rerolled.astype(bool)
                self.reroll_seen = True
        if not self.all_alert:
            self.aware[idx] = ALERT
        if not foe.all_alert:
            foe.aware[idx] = ALERT
        if self.area_sets:  # an area set waits for its recharge
            for j in self.area_sets:
                spent = sets == j
                if spent.any():
                    self.charged[j][idx[spent]] = False
        fx = cols["fx"][pos] if not zero["fx"] else np.zeros(0, np.int64)
        seen = int(np.bitwise_or.reduce(fx)) if fx.size else 0  # every effect some fight drew
        if seen:
            # Burn: "If a target with a Burn condition enters water or an airless environment, the condition
            # is automatically removed": in an airless environment (the target's situation) it never holds
            burn = ~BURN if foe.situation.airless else -1
            if FX_CONDITIONS[seen] & burn:
                foe.cond[idx] |= FX_CONDITIONS[fx] & burn
                foe.cond_bits |= int(FX_CONDITIONS[seen]) & burn
            if self.has_disarm and seen & FX_BIT["disarm"]:
                foe._disarm(idx[(fx & FX_BIT["disarm"]) > 0])
            if FX_STINGS[seen]:
                foe.stings_next[idx] |= FX_STINGS[fx]
                foe.stings_seen = True
            if seen & FX_BIT["setup"]:
                foe.setup[idx] |= (fx & FX_BIT["setup"]) > 0
                foe.setup_seen = True
            until = 2 if u.own_turn else 1  # "until the end of the blinder's [petrifier's] next turn"
            if seen & FX_BIT["blind"]:
                foe.blind_timer[idx[(fx & FX_BIT["blind"]) > 0]] = until
                foe.blind_seen = True
            if seen & FX_BIT["petrify"]:
                foe.petrify_timer[idx[(fx & FX_BIT["petrify"]) > 0]] = until
                foe.petrify_seen = True
            if self.can_devour and seen & FX_BIT["devour"]:
                foe.inside[idx] |= ((fx & FX_BIT["devour"]) > 0) & ~self.inside[idx]
                foe.inside_seen = True
        if self.inside_seen:
            self.inside[idx] &= dmg < 2  # "deal 2 or more damage ... from the inside ... they can escape"
        # a passive target (rounds to kill) never counters, not even before its first passive turn: the
        # attacker of rounds to kill is the immortal side (simulate_rounds_to_kill), its foe the passive one
        if u.counter and foe.counters and not foe.passive and not self.immortal:
            self._counter(foe, idx, sets, dmg, sim)

    def _counter(self, foe: AnnulusSide, idx: np.ndarray, sets: np.ndarray, dmg: np.ndarray, sim: Fights) -> None:
        """Counter: once per round, when damaged by an attack on the chosen defense, strike back for free."""
        for d, c in foe.counters.items():
            ok = (
                (dmg >= 1)
                & (self.defense_of[sets] == d)
                & (foe.died_at[idx] < 0)
                & (self.died_at[idx] < 0)
                & ~foe.counter_used[idx]
                & ~self.inside[idx]
            )
            if foe.petrify_seen:
                ok &= foe.petrify_timer[idx] == 0
            if foe.area[c]:
                ok &= foe.charged[c][idx]
            if foe.disarm_seen:
                ok &= ~foe.disarmed[idx, c]
            if ok.any():
                sel = idx[ok]
                foe.counter_used[sel] = True
                foe.strike(self, _Use(sel, np.full(sel.size, c), own_turn=False, counter=False), sim)

    # ------------------------------------------------------------------ a turn
    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        # (a step whose state is in no fight, by the ``*_seen`` flags, changes nothing and is skipped; every
        # random number is still drawn, in the same order and amounts)
        foe = cast(AnnulusSide, foe)  # both sides of a fight are built by this rule system
        rng = sim.rng
        m = idx.size
        if self.reroll_seen:
            self.reroll_used[idx] = False
        if self.counters:  # (only a creature with a Counter set ever uses one)
            self.counter_used[idx] = False
        now = None  # the stings on it this turn (None: none in any fight)
        if self.stings_seen:
            now = self.stings_next[idx]
            self.stings_next[idx] = 0
        # Petrified: "cannot take any actions ... at all" (None: no fight petrified)
        can_act = self.petrify_timer[idx] == 0 if self.petrify_seen else None
        attacking = np.full(m, not self.passive) if can_act is None else can_act & (not self.passive)
        if now is not None:
            attacking &= (now & (PACIFY | TERROR)) == 0
        # area sets recharge: "roll a die for every uncharged set ... 5 or a 6, the set is recharged"
        if self.area_sets:
            roll = rng.random((m, len(self.sets)))
            for j in self.area_sets:
                charged = self.charged[j]
                if not charged.all():
                    charged[idx] |= roll[:, j] < 2 / 6
        # Devour: "takes defense-ignoring damage each round on your turn equal to the successes on two dice"
        if foe.inside_seen and not self.passive:
            eaten = foe.inside[idx] & (foe.died_at[idx] < 0)
            if eaten.any():
                sel = idx[eaten]
                foe.hurt(sel, rng.binomial(2, self.p, sel.size), np.zeros(sel.size, np.int64), sim)
        # Telegraphed: "used at the beginning of your next turn for free before you make any actions"
        if self.has_telegraphed:
            tel = self.telegraph[idx]
            go = (tel >= 0) & attacking & (foe.died_at[idx] < 0) & (self.died_at[idx] < 0)
            if foe.inside_seen:
                go &= ~foe.inside[idx]
            if self.disarm_seen:  # a set disarmed since it was announced is wasted
                go &= ~self.disarmed[idx, np.maximum(tel, 0)]
            self.telegraph[idx] = -1
            if go.any():
                self.strike(foe, _Use(idx[go], tel[go]), sim)
        # Dazed: "only 1 action instead of the normal 2"
        if now is None:
            actions = np.full(m, self.options.actions, np.int64)
        else:
            actions = np.where(now & DAZE, 1, self.options.actions)
        if can_act is not None:
            actions = np.where(can_act, actions, 0)
        # recovery checks: 1 action, 4 dice, 3+ successes; a Berserk or Terrorized creature cannot
        if self.cond_bits & self.recover_mask:
            free_to_recover = np.ones(m, bool) if can_act is None else can_act
            if now is not None:
                free_to_recover = free_to_recover & ((now & (BERSERK | TERROR)) == 0)
            checks = self.tactics.recovery_actions if (self.cond[idx] & self.recover_mask).any() else 0
            for _ in range(checks):
                want = (
                    free_to_recover
                    & (actions > 0)
                    & ((self.cond[idx] & self.recover_mask) != 0)
                    & (self.died_at[idx] < 0)
                )
                if not want.any():
                    break
                sel = idx[want]
                actions[want] -= 1
                success = rng.random(sel.size) < self.p_recover
                target_bit = np.zeros(sel.size, np.int64)
                for bit in reversed(self.recover_bits):  # the first listed condition has priority
                    target_bit = np.where(self.cond[sel] & bit, bit, target_bit)
                self.cond[sel] &= ~np.where(success, target_bit, 0)
                back = success & (target_bit == DISARM)
                if back.any():  # one Disarm condition (one set) per successful check
                    self._recover_disarm(sel[back])
        actions = np.where(attacking, actions, 0)
        self._attack(idx, foe, actions, attacking & ~foe.inside[idx] if foe.inside_seen else attacking, sim)
        # end of turn: Burn 2 dice, Choke 1 die, Sap 1, "ignoring defense ... at the end of each of their turns"
        dots = bool(self.cond_bits & (BURN | CHOKE | SAP))
        # drawn in every turn, read or not, so that the random stream is the same whatever the state
        burn, choke = rng.binomial(2, self.p, m), rng.binomial(1, self.p, m)
        if dots:
            c = self.cond[idx]
            dot = burn * ((c & BURN) > 0) + choke * ((c & CHOKE) > 0) + ((c & SAP) > 0)
            alive = self.died_at[idx] < 0
            if (dot * alive).any():
                sel = alive & (dot > 0)
                self.hurt(idx[sel], dot[sel], np.zeros(int(sel.sum()), np.int64), sim)
        for seen, timer in ((foe.blind_seen, foe.blind_timer), (foe.petrify_seen, foe.petrify_timer)):
            if seen and timer.any():
                timer[idx] = np.maximum(0, timer[idx] - 1)

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        self.passive = True
        self.turn(idx, foe, sim)

    def _plan_rows(self, keys: np.ndarray) -> np.ndarray:
        """Return, for every turn key (state-class bits, charged sets, actions: :meth:`_attack`), the row
        of its plan in :attr:`_steps`; the plans of new keys are chosen in sorted key order."""
        width = len(self.sets)

        def row(k: int) -> int:
            if k not in self._plan_row:
                self._plan_row[k] = len(self._plan_list)
                self._plan_list.append(self._plan(k & LOW, k >> SHIFT & ((1 << width) - 1), k >> (SHIFT + width)))
                self._steps = None
            return self._plan_row[k]

        hi = int(keys.max())
        if hi < LOOKUP_KEYS:  # (keys are never negative)
            self._plan_lut, rows = lookup(self._plan_lut, keys, lambda new: [row(k) for k in new])
            return rows
        uniq, inverse = np.unique(keys, return_inverse=True)
        return np.array([row(k) for k in uniq.tolist()], dtype=np.int64)[inverse.ravel()]

    def _usable(self, fights: np.ndarray) -> np.ndarray:
        """Return the sets usable now in ``fights`` (bit i: set i): charged (a set that is not an area
        set always is) and not disarmed."""
        avail: Any = self.always_charged
        for j in self.area_sets:
            avail = avail | (self.charged[j][fights].astype(np.int64) << j)
        if self.disarm_seen:
            avail = avail & ~(self.disarmed[fights] * (1 << np.arange(len(self.sets)))).sum(axis=1)
        return np.broadcast_to(np.asarray(avail, dtype=np.int64), fights.shape).copy()

    def _step_table(self) -> np.ndarray:
        """Return the sets of every plan met so far, one column per plan and one row per use (-1: no use)."""
        if self._steps is None:
            length = max((len(p) for p in self._plan_list), default=0)
            self._steps = np.full((length, len(self._plan_list)), -1, np.int64)
            for i, p in enumerate(self._plan_list):
                self._steps[: len(p), i] = p
        return self._steps

    def _attack(self, idx: np.ndarray, foe: AnnulusSide, actions: np.ndarray, may: np.ndarray, sim: Fights) -> None:
        if not self.sets:
            return
        sel = np.flatnonzero(may)
        if sel.size == 0:
            return
        fights = idx[sel]
        width = len(self.sets)
        # the usable sets (bit i: set i): a set that is not an area set is always charged
        bits = self._bits(foe, fights)
        keys = bits | (self._usable(fights) << SHIFT)
        keys |= actions[sel].astype(np.int64) << (SHIFT + width)
        rows = self._plan_rows(keys)
        # each fight's place in its plan and its actions left (a fight whose next set was disarmed
        # since its plan was made plays a new plan from there)
        pos = np.zeros(fights.size, np.int64)
        left = actions[sel].astype(np.int64)
        for j in itertools.count():
            steps = self._step_table()
            if steps.shape[0] == 0:  # every plan met is empty: nothing to use
                break
            s = np.where(pos < steps.shape[0], steps[np.minimum(pos, steps.shape[0] - 1), rows], -1)
            if not (s >= 0).any():
                break
            if self.disarm_seen:
                # Disarm during a turn (CLARIFICATIONS.md, Annulus): a set disarmed while the turn is under
                # way (by the foe's Counter) "cannot be used for the rest of that turn either": the actions
                # left go to the best plan still legal with them, if any
                blocked = (s >= 0) & self.disarmed[fights, np.maximum(s, 0)]
                if blocked.any():
                    again = fights[blocked]
                    k2 = self._bits(foe, again) | (self._usable(again) << SHIFT)
                    rows[blocked] = self._plan_rows(k2 | left[blocked] << (SHIFT + width))
                    pos[blocked] = 0
                    s[blocked] = -1
            pos += s >= 0
            left -= np.where(s >= 0, self.cost[np.maximum(s, 0)], 0)
            live = (s >= 0) & (self.died_at[fights] < 0) & (foe.died_at[fights] < 0)
            if self.petrify_seen:
                live &= self.petrify_timer[fights] == 0
            if foe.inside_seen:
                live &= ~foe.inside[fights]
            if not live.any():
                continue
            if self.has_telegraphed:
                tele = live & self.telegraphed[np.maximum(s, 0)]
                self.telegraph[fights[tele]] = s[tele]  # announced now, strikes at the start of the next turn
                go = live & ~tele
            else:
                go = live
            # before the first strike the state is the one the plans were chosen in: its bits are known
            if go.all():
                self.strike(foe, _Use(fights, s, bits=bits if j == 0 else None), sim)
            else:
                self.strike(foe, _Use(fights[go], s[go], bits=bits[go] if j == 0 else None), sim)
        for _ in range(self.tactics.blood_price_uses):
            if not self.blood_sets:
                break
            b = self.blood_sets[0]
            price = max(1, int(self.cost[b]))
            go = (
                (self.died_at[fights] < 0)
                & (foe.died_at[fights] < 0)
                & (self.V[fights] > price)
                & (self.petrify_timer[fights] == 0)
                & ~foe.inside[fights]
                & ~self.disarmed[fights, b]
            )
            if self.area[b]:
                go &= self.charged[b][fights]
            self.strike(foe, _Use(fights[go], np.full(int(go.sum()), b), blood_price=True), sim)


def _can_damage(sys: Any, attack: Any, attacker: Any, target: Any, options: Any, situation: Any) -> bool:
    """Return False only when ``attack`` is usable here and can never deal damage to ``target``.

    A set unusable now (e.g. Swansong above half Vitality) may become usable as the fight goes on,
    so it counts as able to damage.
    """
    try:
        return sys.damage(attack, attacker, target, options, situation).max() > 0
    except RulesError:
        return True


def state_effects(sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> set[str]:
    """Return the stateful effects of Annulus ``attacker`` fighting ``target`` (empty: HP-only).

    Stateful triggers (Burn, Daze, ...) of a set that can deal damage (annulus-attacks.txt: "a
    triggered effect is only applied when you manage to deal at least one point of damage"),
    Reckless self-damage, area recharge, Swansong, Telegraphed, a Counter the target's sets can
    provoke, First Blood, a target not yet Alert (awareness changes after the first attack), and
    "disarm" when a Disarm set of the target can take one of the attacker's sets (Burn is none in an
    airless environment: "the condition is automatically removed"). Memoised by value (the rows of one compare pair ask once; the plan does not change it); the
    1 x 1 case of :func:`state_effects_many`.
    """
    opts, sit = sys.defaults(options, situation)
    return set(
        MEMO.get(
            ("annulus", attacker, target, opts, sit, "state_effects"),
            lambda: frozenset(state_effects_many(sys, [attacker], [target], opts, sit)[0]),
        )
    )


def state_effects_many(
    sys: Any, attackers: list, targets: list, options: Any = None, situation: Any = None
) -> list[set[str]]:
    """Return the stateful effects of every (``attackers[i]``, ``targets[i]``) (:func:`state_effects`
    is the 1 x 1 case), with the attacker's part (Reckless, area recharge, Swansong, Telegraphed, First Blood, the
    stateful triggers and Counter types of its sets) found once per distinct attacker and the
    target's (not yet Alert, the defenses its sets target, its Disarm sets: "disarm" names the
    attacker's loss of a set) once per distinct target; only a set with
    a stateful trigger is resolved against the target ("a triggered effect is only applied when you
    manage to deal at least one point of damage", annulus-attacks.txt), once per (attacker, set, target)."""
    opts, sit = sys.defaults(options, situation)
    parts: dict[int, tuple[set[str], list, list]] = {}  # attacker -> (effects, triggered sets, counter sets)
    foes: dict[int, tuple[bool, set[str], list]] = {}  # target -> (not alert, defenses of its sets, Disarm sets)
    hurts: dict[tuple[int, int, int], bool] = {}
    out = []
    for attacker, target in zip(attackers, targets):
        if id(attacker) not in parts:
            own: set[str] = set()
            triggered, counters = [], []
            for s in attacker.attack_sets:
                trig = {t.lower() for t in s.triggers if t in STATEFUL_TRIGGERS}
                if sit.airless:  # Burn: "enters water or an airless environment, the condition is ... removed"
                    trig.discard("burn")
                if trig:
                    triggered.append((s, trig))
                if s.has("Reckless"):
                    own.add("reckless")
                if s.area:
                    own.add("recharge")
                if s.alteration in ("Swansong", "Telegraphed"):
                    own.add(s.alteration.lower())
                if s.alteration == "Counter":
                    counters.append(s.counter_type)
                if s.has("First Blood"):
                    own.add("first_blood")
            parts[id(attacker)] = (own, triggered, counters)
        if id(target) not in foes:
            foes[id(target)] = (
                (sit.target_awareness or target.awareness) != "alert",
                {t.defense for t in target.attack_sets},
                [t for t in target.attack_sets if "Disarm" in t.triggers],
            )
        own, triggered, counters = parts[id(attacker)]
        unaware, defenses, disarms = foes[id(target)]
        got = set(own)
        for s, trig in triggered:
            key = (id(attacker), id(s), id(target))
            if key not in hurts:
                hurts[key] = _can_damage(sys, s, attacker, target, opts, sit)
            if hurts[key]:
                got |= trig
        # Disarm is the attacker's loss: the target's Disarm sets can take one of its sets (not an Inherent
        # one) when they deal damage to it; a duel asks both sides, so the disarmer's fight names it too
        if disarms and not all(x.has("Inherent") for x in attacker.attack_sets):
            for s in disarms:
                key = (id(target), id(s), id(attacker))
                if key not in hurts:
                    hurts[key] = _can_damage(sys, s, target, attacker, opts, sit)
                if hurts[key]:
                    got.add("disarm")
                    break
        if any(c in defenses for c in counters):
            got.add("counter")
        if unaware:
            got.add("awareness")
        out.append(got)
    return out
