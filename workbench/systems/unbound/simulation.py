"""The Unbound side of the simulation: HP, the AC a creature's own turn gives up until its next turn
(Wild Attack, Shield Bash), and the weapons it has braced.

Rules (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound):
- Wild Attack: "the attacker also takes a penalty to AC equal to half the highest penalty applied
  by a wild attack until the start of their next turn" -- the foe's attacks meanwhile hit more easily
  (applied as a to-hit bonus against it, AC and touch AC alike).
- Shield Bash: "If a character chooses to attack with a shield they lose all bonuses from that
  shield until the start of their next turn" -- the foe's next turn meets its AC less the shield's
  ``shield_ac`` and its touch AC less ``shield_touch_ac`` (``actions.shield_loss``).
- Implaced Weapons: "A character can brace one of these weapons ... as a basic action. While braced
  ... the character gains advantage": a Brace holds from turn to turn (nobody moves in a
  workbench fight), so every later attack with that weapon has advantage.

``UnboundSystem.simulation_side``, ``state_effects`` and ``state_chain`` load this module on first use.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ...chains import CHAIN_TAIL
from ...dist import Dist
from ...simulate.engine import Bank, Fights, Side
from ...plans import choose_label, dist_table, is_sequence_plan

__all__ = ["UnboundSide", "state_effects", "state_chain", "state_plans", "state_key"]

#: a state key packs (the foe's Wild penalty, its shield AC lost, its shield touch AC lost, the
#: weapons this side has braced as a bit mask over its weapons) into one whole number
_AC, _TOUCH, _MASK = 128, 128 * 128, 21


def state_key(wild: Any, ac_lost: Any, touch_lost: Any, mask: Any) -> Any:
    """Return the whole-number key of a state class (numpy arrays or ints): the foe's Wild Attack
    penalty (< 128), its shield AC and touch AC lost (each <= 100, a Creature's AC bound) and this
    side's braced-weapon bit mask."""
    return wild + _AC * ac_lost + _TOUCH * touch_lost + (mask << _MASK)


def _unpack(key: int) -> tuple[int, int, int, int]:
    return key % _AC, (key // _AC) % 128, (key >> 14) % 128, key >> _MASK


class UnboundSide(Side):
    """An Unbound creature: HP, the AC its own last turn gave up (Wild Attack, Shield Bash) until its
    next turn, and the weapons it has braced."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from . import SYSTEM

        self.sys = SYSTEM
        self.me, self.foe, self.plan = me, foe, plan
        self.options, self.situation = self.sys.defaults(options, situation)
        self.name = me.name
        self.bank = Bank(self._build)

    def braced_me(self, mask: int) -> Any:
        """Return ``me`` with the weapons of bit ``mask`` braced (``Attack.braced``)."""
        if not mask:
            return self.me
        ws = tuple(w.replace(braced=True) if mask >> i & 1 else w for i, w in enumerate(self.me.weapons))
        return self.me.replace(weapons=ws)

    def _build(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        """Return the turn table of each state key: the damage Dist of the plan chosen in that state,
        with the turn's own consequences as constant columns (penalty: its Wild Attack AC penalty;
        ac_lost / touch_lost: its shields' bonuses given up; braced: the bit mask of the weapons it
        has braced after the turn)."""
        from .actions import as_actions, braced_by, self_ac_penalty, shield_loss

        out = []
        for k in keys:
            wild, ac_lost, touch_lost, mask = _unpack(int(k))
            sit = self.situation.replace(bonus=self.situation.bonus + wild)
            foe = self.foe
            if ac_lost or touch_lost:  # the foe without its shields' bonuses (its weapons play no part here)
                bare = tuple(w.replace(shield_ac=0, shield_touch_ac=0) if w.shield else w for w in foe.weapons)
                foe = foe.replace(ac=foe.ac - ac_lost, touch_ac=foe.touch_ac - touch_lost, weapons=bare)
            me = self.braced_me(mask)
            if is_sequence_plan(self.plan):
                actions = as_actions(list(self.plan))
                dist = self.sys.plan_damage(me, foe, list(self.plan), self.options, sit)
            else:
                plans = self.sys.turn_plans(me, foe, self.options, sit)
                label = choose_label(plans, self.plan)
                if label is None or isinstance(label, Dist):
                    out.append(
                        dist_table(
                            Dist.constant(0) if label is None else label,
                            penalty=0,
                            ac_lost=0,
                            touch_lost=0,
                            braced=mask,
                        )
                    )
                    continue
                actions, dist = self.sys.turn_actions(me, self.options, sit)[label], plans[label]
            pen = self_ac_penalty(self.sys.slots(actions, me, self.options, sit))
            lost_ac, lost_touch = shield_loss(actions, me)
            names = braced_by(actions, me)
            now = mask | sum(1 << i for i, w in enumerate(me.weapons) if w.name in names)
            out.append(dist_table(dist, penalty=int(pen), ac_lost=lost_ac, touch_lost=lost_touch, braced=now))
        return out

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.penalty = np.zeros(n, dtype=np.int64)
        self.ac_lost = np.zeros(n, dtype=np.int64)
        self.touch_lost = np.zeros(n, dtype=np.int64)
        self.mask = np.zeros(n, dtype=np.int64)

    def _recover(self, idx: np.ndarray) -> None:
        """ "until the start of their next turn": the Wild penalty and the shield's bonuses return."""
        self.penalty[idx] = 0
        self.ac_lost[idx] = 0
        self.touch_lost[idx] = 0

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(UnboundSide, foe)  # both sides of a fight are built by this rule system
        self._recover(idx)
        keys = state_key(foe.penalty[idx], foe.ac_lost[idx], foe.touch_lost[idx], self.mask[idx])
        row = self.bank.draw(keys, sim.rng)
        foe.hp[idx] -= row["damage"]
        foe.mark_dead(idx, foe.hp[idx] <= 0, sim)
        self.penalty[idx] = row["penalty"]
        self.ac_lost[idx] = row["ac_lost"]
        self.touch_lost[idx] = row["touch_lost"]
        self.mask[idx] = row["braced"]

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        self._recover(idx)

    def hp_left(self) -> np.ndarray:
        return self.hp


def state_effects(
    sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
) -> set[str]:
    """Return the effects of the turn ``plan`` picks (default: the best plan) that carry state to
    later turns (unbound-d20-attacking.txt): "wild attack" (a Wild Attack lowers the attacker's own
    AC "until the start of their next turn"), "shield bash" (a bash with a shield whose
    ``shield_ac`` or ``shield_touch_ac`` is not 0: "they lose all bonuses from that shield until the
    start of their next turn"), "braced weapon" (a Brace: "While braced ... the character gains
    advantage" on its later turns too); the empty set when there are none."""
    from .actions import as_actions, braced_by, shield_loss

    opts, sit = sys.defaults(options, situation)
    if is_sequence_plan(plan):
        actions = as_actions(list(plan))
    else:
        label = choose_label(sys.turn_plans(attacker, target, opts, sit), plan)
        actions = sys.turn_actions(attacker, opts, sit).get(label, []) if isinstance(label, str) else []
    out = set()
    if any(getattr(a, "wild", False) for a in actions):
        out.add("wild attack")
    if any(shield_loss(actions, attacker)):
        out.add("shield bash")
    if braced_by(actions, attacker) - {w.name for w in attacker.weapons if w.braced}:
        out.add("braced weapon")
    return out


def state_chain(
    sys: Any,
    attacker: Any,
    target: Any,
    options: Any,
    situation: Any,
    plan: Any,
    max_rounds: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | tuple[np.ndarray, float, np.ndarray]:
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival is
    below CHAIN_TAIL, the exact mean number of rounds (inf when a reachable state never kills)).
    With ``weights`` (t = 0..R_w - 1, :func:`workbench.simulate.check_round_weights`) a third item:
    sum_t weights[t] * P(alive after t rounds, damage taken = d), d = 0..HP - 1, summed over the
    braced masks (a duel's winner's HP left, ``combat.duel``); the rounds then run to R_w - 1 at
    least, so that every weighted round is counted.

    Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target does nothing,
    so the AC the attacker's own turns give up (Wild Attack, Shield Bash) never meets an attack and
    the target never bashes or attacks Wild: its AC is whole on every turn. What remains is the
    attacker's braced weapons (a Brace holds: Implaced Weapons), a bit mask that only grows: from
    mask m the plan of the state (the tables and plan choice of :class:`UnboundSide`, so chain and
    simulation play the same fight) deals its damage and leads to mask m' >= m. The chain runs over
    (mask, damage taken < HP); the mean solves m_M[h] = 1 + sum_d p_M[d] m_M'[h + d] back from
    the last HP (the fixed mask M' = M first, then the masks before it).
    """
    side = UnboundSide(attacker, target, options, situation, plan)
    hp = int(sys.hit_points(target))
    start = sum(1 << i for i, w in enumerate(attacker.weapons) if w.braced)
    pmf: dict[int, np.ndarray] = {}
    nxt: dict[int, int] = {}
    todo = [start]
    while todo:
        mk = todo.pop()
        t = side.bank.table(int(state_key(0, 0, 0, mk)))
        dmg = np.minimum(np.asarray(t["damage"], dtype=np.int64), hp)
        pmf[mk] = np.bincount(dmg, weights=np.asarray(t["probability"], dtype=np.float64), minlength=hp + 1)
        nxt[mk] = int(np.asarray(t["braced"])[0]) | mk
        if nxt[mk] not in pmf and nxt[mk] not in todo:
            todo.append(nxt[mk])
    # the exact mean: masks in the order fixed point first, then each mask before its successor
    order = sorted(pmf, key=lambda mk: -bin(mk).count("1"))
    mean: dict[int, np.ndarray] = {}
    for mk in order:
        p, succ = pmf[mk], nxt[mk]
        m = np.zeros(hp + 1)  # m[hp] = 0: dead
        if succ == mk:
            stay = 1.0 - p[0]
            for h in range(hp - 1, -1, -1):
                d = min(hp - h, hp)
                m[h] = np.inf if stay <= 0 else (1.0 + p[1 : d + 1] @ m[h + 1 : h + d + 1]) / stay
        else:
            later = mean[succ]
            for h in range(hp):
                m[h] = 1.0 + p[: hp - h + 1] @ later[h : hp + 1]
        mean[mk] = m
    # P(killed by round t): the alive mass over (mask, damage taken) round by round
    wts = None
    if weights is not None:
        from ...simulate import check_round_weights

        wts = check_round_weights(weights, max_rounds)
    alive = {start: np.eye(1, hp, 0).ravel()}
    weighted = np.zeros(hp)
    if wts is not None and wts.size:
        weighted += wts[0] * alive[start]  # t = 0: the untouched target
    by: list[float] = []
    dead = 0.0
    for r in range(1, max_rounds + 1):
        new: dict[int, np.ndarray] = {}
        for mk, v in alive.items():
            w = np.convolve(v, pmf[mk][:hp])[:hp]
            dead += v.sum() - w.sum()
            succ = nxt[mk]
            new[succ] = new[succ] + w if succ in new else w
        alive = new
        by.append(dead)
        if wts is not None and r < wts.size:
            weighted += wts[r] * sum(alive.values())
        if sum(v.sum() for v in alive.values()) < CHAIN_TAIL and (wts is None or r >= wts.size - 1):
            break
    if wts is None:
        return np.asarray(by), float(mean[start][0])
    return np.asarray(by), float(mean[start][0]), weighted


def state_plans(sys: Any, attacker: Any, target: Any, options: Any, situation: Any) -> Any:
    """Return the fight of :func:`state_chain` with every legal plan at each braced-weapon mask (a
    :class:`~workbench.state_chain.PlannedChain`, for optimal play over the state): from mask m, the
    plans of ``turn_plans`` with the weapons of m braced ("While braced ... the character gains
    advantage", unbound-d20-attacking.txt), each leading to m and the weapons its Braces add. The
    target is passive, so the AC an attacker's own turn gives up (Wild Attack, Shield Bash) never
    meets an attack (:func:`state_chain`)."""
    from ...state_chain import KeyedTurn, PlannedChain
    from .actions import braced_by

    opts, sit = sys.defaults(options, situation)
    side = UnboundSide(attacker, target, opts, sit, None)

    def turn(mask: Any) -> dict[str, KeyedTurn]:
        """Every plan with the weapons of ``mask`` braced: its damage, to the mask after its Braces."""
        me = side.braced_me(int(mask))
        plans = sys.turn_plans(me, target, opts, sit)
        acts = sys.turn_actions(me, opts, sit)
        out = {}
        for label, dist in plans.items():
            names = braced_by(acts[label], me)
            after = int(mask) | sum(1 << i for i, w in enumerate(me.weapons) if w.name in names)
            t = dist_table(dist)
            damage = np.asarray(t["damage"], dtype=np.int64)
            out[label] = KeyedTurn([after] * damage.size, damage, np.asarray(t["probability"], dtype=np.float64))
        return out

    def describe(mask: Any) -> dict[str, Any]:
        return {"braced": ", ".join(w.name for i, w in enumerate(attacker.weapons) if int(mask) >> i & 1)}

    start = sum(1 << i for i, w in enumerate(attacker.weapons) if w.braced)
    return PlannedChain(start, int(sys.hit_points(target)), turn, describe)
