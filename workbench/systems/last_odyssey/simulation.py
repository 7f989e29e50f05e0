"""The Last Odyssey side of the simulation: HP and Shell points.

CLARIFICATIONS.md, Last Odyssey: Shell: the Shell takes damage before HP; once it is broken,
spells lose their x2 and strikes gain theirs, and the target's own element counts. Each ability of
a turn is drawn as the Shell stands. ``LastOdyssey.simulation_side`` and
``LastOdyssey.state_effects`` load this module on first use.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import polars as pl

from ...dist import Dist
from ...simulate.engine import Bank, Fights, Side
from ...simulate.plans import choose_label, dist_table, grouped_table, is_sequence_plan

__all__ = ["LastOdysseySide", "state_effects"]


class LastOdysseySide(Side):
    """A Last Odyssey creature: HP and Shell points; each ability of the turn is drawn as the Shell stands."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from . import SYSTEM

        self.sys = SYSTEM
        self.me, self.foe, self.plan = me, foe, plan
        self.options = self.sys.options_of(options)
        self.situation = situation if situation is not None else self.sys.Situation()
        self.name = me.name
        self.full_shell = self.sys.shell_points(foe)
        self.uses = Bank(self._build_use)
        self._plans: dict[bool, list[int] | Dist | None] = {}
        self.abilities: list[Any] = []

    def _sit(self, shell_on: bool) -> Any:
        return self.situation.replace(target_shell_points=self.full_shell if shell_on else 0)

    def _ability_index(self, a: Any) -> int:
        for i, b in enumerate(self.abilities):
            if b is a or b == a:
                return i
        self.abilities.append(a)
        return len(self.abilities) - 1

    def _plan(self, shell_on: bool) -> list[int] | Dist | None:
        if shell_on not in self._plans:
            sit = self._sit(shell_on)
            if is_sequence_plan(self.plan):
                attacks = [self.sys.attack_named(self.me, x) for x in list(self.plan)]
                self.sys.plan_damage(self.me, self.foe, attacks, self.options, sit)  # checks the action points
            else:
                label = choose_label(self.sys.turn_plans(self.me, self.foe, self.options, sit), self.plan)
                if label is None or isinstance(label, Dist):
                    self._plans[shell_on] = label
                    return label
                attacks = [self.sys.attack_named(self.me, x) for x in label.split(" + ")]
            self._plans[shell_on] = [self._ability_index(a) for a in attacks]
        return self._plans[shell_on]

    def _build_use(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        attacks = [self.abilities[k // 2] for k in keys]
        sits = [self._sit(bool(k % 2)) for k in keys]
        t = self.sys.outcome_tables(attacks, [self.me] * len(keys), [self.foe] * len(keys), self.options, sits)
        return [grouped_table(t.filter(pl.col("matchup") == i), ["damage"]) for i in range(len(keys))]

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.shell = np.full(n, self.sys.shell_points(self.me), dtype=np.int64)

    def _hurt(self, idx: np.ndarray, damage: np.ndarray, sim: Fights) -> None:
        absorbed = np.minimum(damage, self.shell[idx])
        self.shell[idx] -= absorbed
        self.hp[idx] -= damage - absorbed
        self.mark_dead(idx, self.hp[idx] <= 0, sim)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(LastOdysseySide, foe)  # both sides of a fight are built by this rule system
        on = foe.shell[idx] > 0
        for state in (True, False):
            sel = idx[on == state]
            plan = self._plan(state) if sel.size else None
            if plan is None:
                continue
            if isinstance(plan, Dist):
                foe._hurt(sel, _dist_bank(plan).draw(np.zeros(sel.size), sim.rng)["damage"], sim)
                continue
            for a in plan:  # the abilities of the turn, in order: the Shell may break between them
                sel = sel[foe.alive()[sel]]
                if sel.size == 0:
                    break
                row = self.uses.draw(a * 2 + (foe.shell[sel] > 0), sim.rng)
                foe._hurt(sel, row["damage"], sim)

    def hp_left(self) -> np.ndarray:
        return self.hp


def _dist_bank(d: Dist) -> Bank[float]:
    """Return the Bank whose one state class is the outcome table of the damage Dist ``d``."""
    return Bank(lambda keys: [dist_table(d)])


def state_effects(sys: Any, attacker: Any, target: Any) -> set[str]:
    """Return {"shell"} when ``target`` has Shell points (they absorb damage and change the
    multipliers once broken, CLARIFICATIONS.md, Last Odyssey: Shell), else the empty set."""
    return {"shell"} if sys.shell_points(target) > 0 else set()
