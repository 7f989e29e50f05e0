"""The Unbound side of the simulation: HP and the AC penalty of the creature's own Wild Attacks.

CLARIFICATIONS.md, Unbound (d20), Wild Attack: "the attacker's AC drops by half the highest such
penalty until its next turn" -- the foe's attacks meanwhile hit more easily.
``UnboundSystem.simulation_side`` and ``UnboundSystem.state_effects`` load this module on first use.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ...dist import Dist
from ...simulate.engine import Bank, Fights, Side
from ...simulate.plans import choose_label, dist_table, is_sequence_plan

__all__ = ["UnboundSide", "state_effects"]


class UnboundSide(Side):
    """An Unbound creature: HP and the AC penalty its own Wild Attacks leave until its next turn."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from . import SYSTEM

        self.sys = SYSTEM
        self.me, self.foe, self.plan = me, foe, plan
        self.options, self.situation = self.sys.defaults(options, situation)
        self.name = me.name
        self.bank = Bank(self._build)

    def _build(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        from .actions import as_actions, self_ac_penalty

        out = []
        for k in keys:  # k: the foe's AC penalty (a to-hit bonus against it, same as a lower AC)
            sit = self.situation.replace(bonus=self.situation.bonus + int(k))
            if is_sequence_plan(self.plan):
                actions = as_actions(list(self.plan))
                dist = self.sys.plan_damage(self.me, self.foe, list(self.plan), self.options, sit)
            else:
                plans = self.sys.turn_plans(self.me, self.foe, self.options, sit)
                label = choose_label(plans, self.plan)
                if label is None:
                    out.append(dist_table(Dist.constant(0), penalty=0))
                    continue
                if isinstance(label, Dist):
                    out.append(dist_table(label, penalty=0))
                    continue
                actions, dist = self.sys.turn_actions(self.me, self.options, sit)[label], plans[label]
            pen = self_ac_penalty(self.sys.slots(actions, self.me, self.options, sit))
            out.append(dist_table(dist, penalty=int(pen)))
        return out

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.penalty = np.zeros(n, dtype=np.int64)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(UnboundSide, foe)  # both sides of a fight are built by this rule system
        self.penalty[idx] = 0  # "until its next turn"
        row = self.bank.draw(foe.penalty[idx], sim.rng)
        foe.hp[idx] -= row["damage"]
        foe.mark_dead(idx, foe.hp[idx] <= 0, sim)
        self.penalty[idx] = row["penalty"]

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        self.penalty[idx] = 0

    def hp_left(self) -> np.ndarray:
        return self.hp


def state_effects(
    sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
) -> set[str]:
    """Return {"wild attack"} when the turn ``plan`` picks (default: the best plan) holds a Wild
    Attack, else the empty set: a Wild Attack lowers the attacker's own AC "until its next turn"
    (unbound-d20-attacking.txt), state that the exact chain cannot carry."""
    from .actions import as_actions

    opts, sit = sys.defaults(options, situation)
    if is_sequence_plan(plan):
        actions = as_actions(list(plan))
    else:
        label = choose_label(sys.turn_plans(attacker, target, opts, sit), plan)
        actions = sys.turn_actions(attacker, opts, sit).get(label, []) if isinstance(label, str) else []
    return {"wild attack"} if any(getattr(a, "wild", False) for a in actions) else set()
