"""The exact Unbound duel when one side's turn lowers the AC the other attacks (Wild Attack, Shield
Bash): an absorbing chain over both sides' state.

unbound-d20-attacking.txt: Wild Attack, "the attacker also takes a penalty to AC ... until the start
of their next turn"; Shield Bash, "If a character chooses to attack with a shield they lose all
bonuses from that shield until the start of their next turn"; Implaced Weapons, "While braced ...
the character gains advantage". A side's state is what its last turn left (its Wild penalty, the
shield AC and touch AC it gave up, the weapons it has braced): the simulation's state classes
(:class:`~workbench.systems.unbound.simulation.UnboundSide`), whose turn tables, keyed by the foe's
state and the side's own braced weapons, give the damage of the plan played there and the state
it leaves. The chain carries, for each pair of side states, the joint alive mass over (damage taken
by a, damage taken by b); each turn convolves it along the foe's axis with that table's damage and
moves it to the acting side's new state; the mass that reaches the foe's HP is a win in that round,
kept by the winner's damage taken (its HP left). So chain and simulation play the same fight.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...arguments import check_time
from ...chains import CHAIN_TAIL
from .simulation import UnboundSide, state_key

__all__ = ["duel_chain", "MAX_CELLS"]

#: the chain is refused (the duel is simulated) past this many alive cells: (a's HP x b's HP) per
#: pair of side states met (the largest Unbound catalog duel needs a few thousand)
MAX_CELLS = 4_000_000

_State = tuple[int, int, int, int]  # (Wild penalty, shield AC lost, shield touch AC lost, braced mask)


def _turn(side: UnboundSide, me: _State, foe: _State, hp_foe: int) -> tuple[np.ndarray, _State]:
    """Return (the pmf of the damage ``side`` deals this turn, capped at ``hp_foe``; the state it
    leaves) from its table of the state class (the foe's penalty and AC lost, its own braced mask)."""
    t = side.bank.table(int(state_key(foe[0], foe[1], foe[2], me[3])))
    dmg = np.minimum(np.asarray(t["damage"], dtype=np.int64), hp_foe)
    pmf = np.bincount(dmg, weights=np.asarray(t["probability"], dtype=np.float64), minlength=hp_foe + 1)
    after = tuple(int(np.asarray(t[c])[0]) for c in ("penalty", "ac_lost", "touch_lost", "braced"))
    return pmf, (after[0], after[1], after[2], after[3])


def _one_order(
    sides: tuple[UnboundSide, UnboundSide],
    hps: tuple[int, int],
    start: tuple[_State, _State],
    order: tuple[int, int],
    rounds: int,
):
    """Return (wins of each side per round, each winner's damage-taken mass) with ``order`` the
    acting order within a round (0: a, 1: b); None past MAX_CELLS."""
    hp_a, hp_b = hps
    alive: dict[tuple[_State, _State], np.ndarray] = {start: np.zeros((hp_a, hp_b))}
    alive[start][0, 0] = 1.0
    wins = np.zeros((2, rounds))
    left = [np.zeros(hp_a), np.zeros(hp_b)]
    cache: dict[tuple[int, _State, _State], tuple[np.ndarray, _State]] = {}
    for r in range(rounds):
        for x in order:
            nxt: dict[tuple[_State, _State], np.ndarray] = {}
            hp_foe = hps[1 - x]
            for key, m in alive.items():
                me, foe = key[x], key[1 - x]
                got = cache.get((x, me, foe))
                if got is None:
                    got = cache[(x, me, foe)] = _turn(sides[x], me, foe, hp_foe)
                pmf, after = got
                # the foe's axis: 1 for a acting (b's damage taken), 0 for b acting
                mm = m if x == 0 else m.T  # (the actor's damage taken, the foe's)
                new = pmf[0] * mm
                killed = np.zeros(mm.shape[0])
                for d in np.flatnonzero(pmf[1:]) + 1:
                    p = pmf[d]
                    if d < hp_foe:
                        new[:, d:] += p * mm[:, : hp_foe - d]
                    killed += p * mm[:, max(hp_foe - d, 0) :].sum(axis=1)
                wins[x, r] += killed.sum()
                left[x] += killed
                k2 = (after, foe) if x == 0 else (foe, after)
                out = new if x == 0 else new.T
                nxt[k2] = nxt[k2] + out if k2 in nxt else out
            alive = nxt
            if len(alive) * hp_a * hp_b > MAX_CELLS:
                return None
        check_time(f"the duel chain over both sides' state, round {r + 1:,}")
        if sum(float(m.sum()) for m in alive.values()) < CHAIN_TAIL:
            break
    return wins, left


def duel_chain(
    sys: Any, a: Any, b: Any, options: Any, situation: Any, first: str, max_rounds: int, plan_a: Any, plan_b: Any
):
    """Return (win_a, win_b, left_a, left_b) of the duel of ``a`` and ``b`` (see the module
    docstring and ``RuleSystem.duel_chain``), or None when the joint state is past MAX_CELLS."""
    sides = (UnboundSide(a, b, options, situation, plan_a), UnboundSide(b, a, options, situation, plan_b))
    hps = (int(sys.hit_points(a)), int(sys.hit_points(b)))
    if hps[0] * hps[1] > MAX_CELLS:
        return None
    start = tuple((0, 0, 0, sum(1 << i for i, w in enumerate(c.weapons) if w.braced)) for c in (a, b))
    orders = [(0, 1), (1, 0)] if first == "random" else [(0, 1) if first == "a" else (1, 0)]
    total_w, total_l = np.zeros((2, max_rounds)), [np.zeros(hps[0]), np.zeros(hps[1])]
    for order in orders:
        got = _one_order(sides, hps, (start[0], start[1]), order, max_rounds)
        if got is None:
            return None
        w, left = got
        total_w += w
        total_l[0] += left[0]
        total_l[1] += left[1]
    n = len(orders)
    return total_w[0] / n, total_w[1] / n, total_l[0] / n, total_l[1] / n
