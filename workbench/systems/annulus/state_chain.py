"""The exact fight of an Annulus attacker against a passive target (rounds to kill): an absorbing chain
over the target's Endurance left and Vitality taken and the small state the simulation carries.

docs/combat.md, "Rounds to kill in the simulation": the attacker takes its turn, then the target takes
a passive turn (recovery checks, its conditions' damage; it does not attack or counter); the attacker
never falls. One chain round is that pair of turns, played exactly as
:class:`~workbench.systems.annulus.simulation.AnnulusSide` plays it, with the simulation's own outcome
tables (``AnnulusSide.uses``: one table per state class of a use) and plan choice (``AnnulusSide._plan``),
so the chain and the simulation compute one fight. Every step that draws a random number in the
simulation is enumerated here instead:

- the attacker's turn: its uncharged area sets recharge (each 1/3: "If the result is a 5 or a 6, the
  set is recharged"); a devoured target takes two dice ("takes defense-ignoring damage each round on
  your turn equal to the successes on two dice") and nothing else strikes it; a Telegraphed set
  announced last turn strikes first; then the plan of the turn's state class, use by use, each use
  one row of its state class's table (the class read from the state the earlier uses left: Prone,
  Setup, Blind, Petrified, undamaged, awareness, Reroll left, Swansong, Killing Spree), and its effects
  (Endurance first, then Vitality; vital damage to Vitality; Setup removed; awareness Alert; an area
  set spent; conditions, stings and the Blind and Petrify timers; Devour; the attacker's own
  self-damage and Drain, which count for Swansong only);
- the target's passive turn: its recovery checks (``Tactics`` of the simulation's target: 4 dice, 3+
  successes, the first listed condition first; none while Petrified, Berserk or Terrorized; 1 action
  when Dazed), then Burn (2 dice), Choke (1 die) and Sap (1) "at the end of each of their turns".

The key of a state is what the next round reads: the target's Endurance left, undamaged, conditions
(Burn, Choke, Sap, Prone and any it recovers from), Setup, the situation's Setup and Killing Spree
still waiting, the Blind and Petrify timers, awareness, the charged area sets, a Telegraphed set
announced, devoured, and the attacker's own Endurance and Vitality when self-damage or Drain can move
them (clamped once Swansong holds: Vitality never comes back). The damage dimension of
:func:`workbench.state_chain.solve_keyed_chain` is the Vitality taken, so the target dies when it reaches
its Vitality. When no use of the fight deals vital damage (tried first; a vital row met ends the try),
"Endurance is removed first, then Vitality" makes the two one pool: the key then carries no Endurance
and the damage dimension is the Endurance + Vitality taken, the target dying when it reaches E + V.
Stings the attacker lays are read by the target's next turn (recovery) and gone at the end of the
round, and the Reroll of a round is the round's, so neither is in the key.

A passive target never counters (docs/combat.md), so a Counter of the target changes nothing here, nor
do the target's Disarm sets (it never strikes), and the target plays the default Tactics, as in the
simulation's rounds to kill (its recovery checks never spend an action on a Disarm, so which of its
sets an attacker's Disarm took is not carried). Not chained (None, the fight is simulated): a state
past MAX_FIGHT_KEYS keys or the solver's MAX_KEYED_TRANSITIONS transitions, and the duel's weights
(its winner's HP left is over Endurance + Vitality, which this chain keeps apart).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from .simulation import (
    ALERT,
    AWARENESS,
    BERSERK,
    DAZE,
    FX_BIT,
    FX_CONDITIONS,
    FX_STINGS,
    SHIFT,
    TERROR,
    AnnulusSide,
)
from .tactics import BURN, CHOKE, DISARM, PRONE, SAP

__all__ = ["state_chain", "state_plans", "Fight", "MAX_FIGHT_KEYS"]

#: keys (states beyond the damage taken) past which the chain is not built (the fight is simulated):
#: each key's round is enumerated in Python, up to about 3-4 ms for two uses of a set with many
#: triggers, so the chain gives up within about 2 s; the catalog's largest fight meets 37 keys
MAX_FIGHT_KEYS = 500

# positions in a state tuple: the key of a round (K) and, within a turn, Reroll used and the stings laid
E, UND, COND, SETUP, SIT_SETUP, SPREE, BLIND, PETRIFY, AWARE, CHARGED, TELE, INSIDE, A_E, A_V = range(14)
REROLL, STINGS = 14, 15


def _hurt(state: tuple, k: int) -> tuple:
    """Return ``state`` after ``k`` regular damage outside a strike (Devour's dice, Burn, Choke, Sap):
    Endurance first, the rest to the Vitality taken (the key's last item); any damage ends
    "undamaged" (annulus-attacks.txt: "Endurance is removed first, then Vitality")."""
    n = list(state)
    soak = min(n[E], k)
    n[E] -= soak
    n[-1] += k - soak
    if k:
        n[UND] = False
    return tuple(n)


def _binomial(n: int, p: float) -> list[tuple[int, float]]:
    from math import comb

    return [(k, comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1)]


class Fight:
    """One Annulus attacker against one passive target: the turn of every state key, from the
    simulation's sides (``AnnulusSide`` of the attacker against the target, and of the target, with the
    target's default Tactics as the simulation's rounds to kill gives it)."""

    def __init__(self, attacker: Any, target: Any, options: Any, situation: Any, plan: Any, pooled: bool = False):
        #: pooled: no use deals vital damage, so Endurance and Vitality are one pool of E + V taken in
        #: order ("Endurance is removed first, then Vitality") and the key carries no Endurance (its
        #: field stays 0, the damage dimension is the total taken); a vital row raises _VitalDamage
        self.pooled = pooled
        self.a = AnnulusSide(attacker, target, options, situation, plan)
        self.b = AnnulusSide(target, attacker, options, situation, None)
        a, b = self.a, self.b
        self.sit = a.situation
        self.n_sets = len(a.sets)
        self.area_mask = sum(1 << i for i, x in enumerate(a.area) if x) if a.sets else 0
        self.full_mask = (1 << self.n_sets) - 1
        self.until = 2  # Blind / Petrify: "until the end of the blinder's next turn" (own turn: 2)
        # the target's conditions that change anything here: damage at the end of its turns, Prone for
        # the attacker's uses, and any it spends recovery checks on (their priority)
        self.cond_mask = BURN | CHOKE | SAP | PRONE | (b.recover_mask & ~DISARM)
        self.airless = bool(b.situation.airless)
        self.e0, self.v0 = int(target.endurance), int(target.vitality)
        #: the damage that kills: the Vitality, or with ``pooled`` Endurance + Vitality
        self.hp = self.e0 + self.v0 if pooled else self.v0
        self.keys = 0  # turns asked (keys met), bounded by MAX_FIGHT_KEYS
        self.ae0, self.av0 = int(attacker.endurance), int(attacker.vitality)
        self.swan = attacker.level // 2  # Swansong: "half of your total Vitality" (the level, simulation)
        self.p = a.p
        self.tables: dict[int, dict[str, np.ndarray]] = {}
        self.rows: dict[int, list[tuple]] = {}

    # ------------------------------------------------------------------ keys
    def start(self) -> tuple:
        """Return the key of the fight's first round (AnnulusSide.start of both sides)."""
        sit, b = self.sit, self.b
        aware = AWARENESS.index(b.situation.target_awareness or b.me.awareness)
        return self._canon(
            [
                0 if self.pooled else self.e0,
                bool(sit.target_undamaged),
                0,
                False,
                bool(sit.target_setup) and self.a.sit_setup_on,
                bool(sit.after_kill) and self.a.spree_on,
                0,
                0,
                aware,
                self.full_mask,
                -1,
                False,
                self.ae0,
                self.av0,
            ]
        )

    def _canon(self, s: list) -> tuple:
        """Return the key of state ``s`` (its first 14 fields), with what can no longer change a use
        merged: the attacker's Endurance once Swansong holds (its Vitality never comes back)."""
        if s[A_V] <= self.swan:
            s[A_E], s[A_V] = 0, self.swan
        s[UND] = bool(s[UND]) and bool(self.sit.target_undamaged)
        s[COND] &= self.cond_mask
        return tuple(s[:14])

    def _bits(self, s: list) -> int:
        """Return the state-class bits of the attacker's next use in state ``s`` (AnnulusSide._bits,
        the attacker never Blind, Weakened by the target or inside it in a passive target's fight)."""
        setup = (s[SETUP] or s[SIT_SETUP]) if self.a.sit_setup_on else s[SETUP]
        return (
            (1 if s[COND] & PRONE else 0)
            | (2 if setup else 0)
            | (4 if s[BLIND] > 0 else 0)
            | (32 if s[UND] else 0)
            | (64 if s[PETRIFY] > 0 else 0)
            | s[AWARE] << 7
            | (0 if s[REROLL] else 512)
            | (2048 if s[A_V] <= self.swan else 0)
            | (8192 if (s[SPREE] and self.a.spree_on) else 0)
        )

    def _rows(self, key: int) -> list[tuple]:
        """Return the rows of the outcome table of use class ``key`` (the simulation's Bank) as tuples."""
        got = self.rows.get(key)
        if got is None:
            t = self.a.uses.tables([key])[0]
            cols = ("damage", "vitality_damage", "self_damage", "self_vitality_damage", "self_heal", "rerolled", "fx")
            arrays = [np.asarray(t[c]).tolist() for c in cols]
            got = [(*r, p) for *r, p in zip(*arrays, np.asarray(t["probability"]).tolist()) if p > 0]
            self.rows[key] = got
        return got

    # ------------------------------------------------------------------ one use
    def _strike(self, dist: dict, i: int) -> dict:
        """Return the distribution after one use of set ``i`` from every state of ``dist`` (state
        tuple -> probability), the state carrying the Vitality taken this round last
        (AnnulusSide.strike)."""
        a = self.a
        out: dict = {}
        spree_i = bool(a.spree[i]) if a.sets else False
        area_i = bool(a.area[i]) if a.sets else False
        for st, p in dist.items():
            s = list(st)
            for dmg, vit, sd, svd, heal, rer, fx, q in self._rows(self._bits(s) | (i << SHIFT)):
                if vit and self.pooled:
                    raise _VitalDamage
                n = s.copy()
                reg = dmg - vit
                soak = min(n[E], reg)
                n[E] -= soak
                n[-1] += reg - soak + vit  # Vitality taken this round
                if dmg > 0:
                    n[UND] = False
                n[SETUP] = False
                n[SIT_SETUP] = False
                if spree_i:
                    n[SPREE] = False
                if sd or svd:
                    soak = min(n[A_E], sd)
                    n[A_E] -= soak
                    n[A_V] -= sd - soak + svd
                if heal:  # Drain: Endurance back (the attacker is never Fatigued by a passive target)
                    n[A_E] = min(self.ae0, n[A_E] + heal)
                if rer:
                    n[REROLL] = True
                n[AWARE] = ALERT
                if area_i:
                    n[CHARGED] &= ~(1 << i)
                if fx:
                    c = int(FX_CONDITIONS[fx])
                    n[COND] |= c & ~BURN if self.airless else c
                    n[STINGS] |= int(FX_STINGS[fx])
                    if fx & FX_BIT["setup"]:
                        n[SETUP] = True
                    if fx & FX_BIT["blind"]:
                        n[BLIND] = self.until
                    if fx & FX_BIT["petrify"]:
                        n[PETRIFY] = self.until
                    if a.can_devour and fx & FX_BIT["devour"]:
                        n[INSIDE] = True
                if n[A_V] <= self.swan:
                    n[A_E], n[A_V] = 0, self.swan
                t = tuple(n)
                out[t] = out.get(t, 0.0) + p * q
        return out

    # ------------------------------------------------------------------ one round
    def turn(self, key: tuple) -> tuple[list, list, list]:
        """Return (next keys, Vitality damage, probability) of one round from ``key``: the attacker's
        turn, then the target's passive turn (module docstring)."""
        return self._after_plan(self._plan_uses(self._before_plan(key)))

    def _before_plan(self, key: tuple) -> dict:
        """Return the states of a round from ``key`` when the attacker's plan is chosen: after its
        uncharged area sets' recharge dice and, for a devoured target, Devour's two dice (nothing else
        strikes it), else a Telegraphed set announced last turn, which strikes first."""
        self.keys += 1
        if self.keys > MAX_FIGHT_KEYS:
            raise _TooManyKeys
        s0 = [*key, False, 0, 0]  # Reroll unused, no stings laid, no Vitality taken this round
        s0[TELE] = -1  # a Telegraphed set announced last turn strikes now (or is wasted), once
        dist: dict = {}
        # area sets recharge: each uncharged one on a 5 or 6
        missing = [i for i in range(self.n_sets) if self.area_mask >> i & 1 and not s0[CHARGED] >> i & 1]
        for pattern in range(1 << len(missing)):
            s = s0.copy()
            q = 1.0
            for j, i in enumerate(missing):
                if pattern >> j & 1:
                    s[CHARGED] |= 1 << i
                    q *= 2 / 6
                else:
                    q *= 4 / 6
            t = tuple(s)
            dist[t] = dist.get(t, 0.0) + q
        # Devour: the devoured target takes two dice, and nothing else strikes it
        if s0[INSIDE]:
            nxt: dict = {}
            for st, p in dist.items():
                for k, q in _binomial(2, self.p):
                    t = _hurt(st, k)
                    nxt[t] = nxt.get(t, 0.0) + p * q
            return nxt
        # Telegraphed: "used at the beginning of your next turn for free before you make any actions"
        tel = key[TELE]
        return self._strike(dist, tel) if tel >= 0 else dist

    def _after_plan(self, dist: dict) -> tuple[list, list, list]:
        """Return (next keys, Vitality damage this round, probability) after the attacker's uses:
        its turn ends (the target's Blind and Petrify timers), then the target's passive turn."""
        dist = _merge(
            {
                (*st[:BLIND], max(0, st[BLIND] - 1), max(0, st[PETRIFY] - 1), *st[PETRIFY + 1 :]): p
                for st, p in dist.items()
            }
        )
        dist = self._target_turn(dist)
        out: dict = {}
        for st, p in dist.items():
            after = (self._canon(list(st)), st[-1])  # (next key, Vitality taken this round)
            out[after] = out.get(after, 0.0) + p
        return [k for k, _ in out], [d for _, d in out], list(out.values())

    def _avail(self, s: Any) -> int:
        """The sets available in state ``s``: all but the uncharged area sets."""
        return self.full_mask & ~(self.area_mask & ~s[CHARGED])

    def _plan_uses(self, dist: dict) -> dict:
        """Play the plan of each state's class (AnnulusSide._attack: chosen from the state-class bits,
        the sets charged and the turn's actions), use by use; a Telegraphed set of the plan is announced."""
        a = self.a
        out: dict = {}
        groups: dict = {}
        for st, p in dist.items():
            if st[INSIDE]:  # devoured by a Telegraphed strike's Devour: nothing more strikes it
                out[st] = out.get(st, 0.0) + p
                continue
            s = list(st)
            plan = a._plan(self._bits(s) & ((1 << SHIFT) - 1), self._avail(s), int(a.options.actions)) if a.sets else []
            groups.setdefault(tuple(plan), {})[st] = p
        for plan, d in groups.items():
            out = _merge(out, self._play(d, plan))
        return out

    def _play(self, d: dict, plan: tuple) -> dict:
        """Return the states after the uses of ``plan`` (set indices) from each state of ``d``; a
        Telegraphed set is announced (it strikes next turn), and a devoured target takes no more."""
        for i in plan:
            live = {st: p for st, p in d.items() if not st[INSIDE]}
            done = {st: p for st, p in d.items() if st[INSIDE]}
            if self.a.telegraphed[i]:
                live = {(*st[:TELE], i, *st[TELE + 1 :]): p for st, p in live.items()}
            else:
                live = self._strike(live, i)
            d = _merge(live, done)
        return d

    def planned_turn(self, key: tuple) -> list[Any]:
        """Return one round from ``key`` with every legal plan (optimal play, :func:`state_plans`):
        one :class:`~workbench.state_chain.Branch` per state the round reaches before the plan is
        chosen (:meth:`_before_plan`), with the plans of its state class and charged sets
        (``AnnulusSide.legal_plans``), each played use by use and then to the end of the round."""
        from ...state_chain import Branch, KeyedTurn

        a = self.a
        out = []
        for st, p in self._before_plan(key).items():
            s = list(st)
            taken = int(st[-1])
            legal = (
                {}
                if st[INSIDE] or not a.sets
                else a.legal_plans(self._bits(s) & ((1 << SHIFT) - 1), self._avail(s), int(a.options.actions))
            )
            plans = {}
            for label, plan in (legal or {"no attack": []}).items():
                keys, dmg, prob = self._after_plan(self._play({st: 1.0}, tuple(plan)))
                plans[label] = KeyedTurn(keys, np.asarray(dmg, dtype=np.int64) - taken, np.asarray(prob))
            named: dict[str, Any] = {}
            if self.area_mask:
                named["area_sets_charged"] = ", ".join(
                    x.name for i, x in enumerate(a.sets) if self.area_mask >> i & 1 and st[CHARGED] >> i & 1
                )
            if key[TELE] >= 0 or key[INSIDE]:  # dice before the plan dealt damage: how much
                named["taken_before_the_plan"] = taken
            out.append(Branch(p, taken, plans, named))
        return out

    def _target_turn(self, dist: dict) -> dict:
        """The target's passive turn (AnnulusSide.turn of a passive side): recovery checks, then Burn,
        Choke and Sap damage."""
        b = self.b
        out: dict = {}
        for st, p in dist.items():
            branch = {st: p}
            stings = st[STINGS]
            can_act = st[PETRIFY] == 0
            actions = (1 if stings & DAZE else int(b.options.actions)) if can_act else 0
            free = can_act and not stings & (BERSERK | TERROR)
            for _ in range(b.tactics.recovery_actions):
                nxt: dict = {}
                for s2, q in branch.items():
                    if not (free and actions > 0 and s2[COND] & b.recover_mask):
                        nxt[s2] = nxt.get(s2, 0.0) + q
                        continue
                    bit = next(x for x in b.recover_bits if s2[COND] & x)
                    ok = (*s2[:COND], s2[COND] & ~bit, *s2[COND + 1 :])
                    nxt[ok] = nxt.get(ok, 0.0) + q * b.p_recover
                    nxt[s2] = nxt.get(s2, 0.0) + q * (1 - b.p_recover)
                actions -= 1
                branch = nxt
            for s2, q in branch.items():
                c = s2[COND]
                dots = [(0, 1.0)]
                if c & BURN:
                    dots = _convolve(dots, _binomial(2, b.p))
                if c & CHOKE:
                    dots = _convolve(dots, _binomial(1, b.p))
                if c & SAP:
                    dots = [(k + 1, r) for k, r in dots]
                for k, r in dots:
                    t = _hurt(s2, k)
                    out[t] = out.get(t, 0.0) + q * r
        return out


class _VitalDamage(Exception):
    """A use deals vital damage: Endurance and Vitality are not one pool (Fight.pooled)."""


class _TooManyKeys(Exception):
    """The fight meets more than MAX_FIGHT_KEYS keys: simulated instead."""


def _merge(*dists: dict) -> dict:
    out: dict = {}
    for d in dists:
        for k, p in d.items():
            out[k] = out.get(k, 0.0) + p
    return out


def _convolve(x: list[tuple[int, float]], y: list[tuple[int, float]]) -> list[tuple[int, float]]:
    out: dict[int, float] = {}
    for i, p in x:
        for j, q in y:
            out[i + j] = out.get(i + j, 0.0) + p * q
    return list(out.items())


def state_chain(
    sys: Any,
    attacker: Any,
    target: Any,
    options: Any,
    situation: Any,
    plan: Any,
    max_rounds: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | None:
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival is
    below CHAIN_TAIL, the exact mean rounds (inf when a reached state can never be killed)) of the
    rounds-to-kill fight of ``attacker`` against a passive ``target`` (``RuleSystem.state_chain``),
    or None when its keys or transitions pass the solver's bounds, or ``weights`` are given (a duel:
    simulated)."""
    from ...state_chain import KeyedTurn, solve_keyed_chain

    if weights is not None:
        return None
    for pooled in (True, False):
        fight = Fight(attacker, target, options, situation, plan, pooled)

        def turn(key: Hashable, fight: Fight = fight) -> KeyedTurn:
            keys, dmg, prob = fight.turn(key)  # type: ignore[arg-type]
            return KeyedTurn(keys, np.asarray(dmg, dtype=np.int64), np.asarray(prob, dtype=np.float64))

        try:
            chained = solve_keyed_chain(fight.start(), fight.hp, turn, max_rounds)
        except _VitalDamage:  # Endurance in the key, the damage dimension the Vitality taken
            continue
        except _TooManyKeys:
            return None
        if chained is None:
            return None
        return chained.by, chained.mean
    return None


#: the names of a key's fields (Fight: E .. A_V), for a frame of optimal play
KEY_FIELDS = (
    "endurance",
    "undamaged",
    "conditions",
    "setup",
    "situation_setup",
    "killing_spree",
    "blind",
    "petrify",
    "awareness",
    "charged",
    "telegraphed",
    "devoured",
    "attacker_endurance",
    "attacker_vitality",
)


#: a key's other fields a frame shows when set (the charged sets are each branch's, the attacker's own
#: pools the simulation's bookkeeping)
SHOWN = {"undamaged", "setup", "situation_setup", "killing_spree", "blind", "petrify", "telegraphed", "devoured"}
#: the target's conditions in a key, by name (annulus/tactics.py)
CONDITION_NAMES = {"burn": BURN, "choke": CHOKE, "sap": SAP, "prone": PRONE}


def state_plans(sys: Any, attacker: Any, target: Any, options: Any, situation: Any) -> Any:
    """Return rounds-to-kill's fight of :func:`state_chain` with every legal plan (a
    :class:`~workbench.state_chain.PlannedChain`, for optimal play over the state): each round's
    plan is chosen after the area sets' recharge dice and a Telegraphed strike (the state the
    simulation chooses it in, :meth:`Fight.planned_turn`), so a round from a key is one Branch per
    state then. The keys are found first, every plan of every branch played (a vital row makes
    Endurance and Vitality two pools, as for :func:`state_chain`); None past MAX_FIGHT_KEYS keys.
    A frame names a key by its Endurance left (two pools; one pool: ``hp_left`` is Endurance +
    Vitality left) and the rest of its fields that are set."""
    from ...state_chain import PlannedChain

    for pooled in (True, False):
        fight = Fight(attacker, target, options, situation, None, pooled)
        turns: dict[Hashable, list[Any]] = {}
        todo = [fight.start()]
        try:
            while todo:
                key = todo.pop()
                if key in turns:
                    continue
                turns[key] = fight.planned_turn(key)
                todo.extend(k for b in turns[key] for t in b.plans.values() for k in t.keys if k not in turns)
        except _VitalDamage:
            continue
        except _TooManyKeys:
            return None

        def describe(key: Any, pooled: bool = pooled) -> dict[str, Any]:
            named: dict[str, Any] = {} if pooled else {"endurance_left": key[E]}
            conditions = [n for n, bit in CONDITION_NAMES.items() if key[COND] & bit]
            rest = [
                f"{name}={value}"
                for name, value in zip(KEY_FIELDS, key)
                if name in SHOWN and value not in (0, False, -1)
            ]
            named["conditions"] = ", ".join(conditions)
            named["awareness"] = AWARENESS[key[AWARE]]
            named["state"] = ", ".join(rest)
            return named

        return PlannedChain(fight.start(), fight.hp, turns.__getitem__, describe)
    return None
