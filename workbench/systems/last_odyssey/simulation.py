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
from ...errors import RulesError
from ...simulate.engine import MEMO, Bank, Fights, Side
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
        #: the name of this side's tables and plans in the simulation's memo (model values only)
        self._memo = ("last_odyssey", me, foe, self.options, self.situation)
        self.uses = Bank(self._build_use, share=lambda k: (*self._memo, "use", self.abilities[k // 2], k % 2))
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
            if callable(self.plan):
                got = self._choose(shell_on)
            else:  # chosen from the models alone: memoised (a list plan under its tuple)
                plan = tuple(self.plan) if is_sequence_plan(self.plan) else self.plan
                got = MEMO.get((*self._memo, "plan", plan, shell_on), lambda: self._choose(shell_on))
            self._plans[shell_on] = (
                got if got is None or isinstance(got, Dist) else [self._ability_index(a) for a in got]
            )
        return self._plans[shell_on]

    def _choose(self, shell_on: bool) -> tuple[Any, ...] | Dist | None:
        """Return the abilities of the turn played while the foe's Shell is up (``shell_on``) or
        broken: the given plan's (its action points checked), else those of the plan
        ``turn_damage`` chooses; a Dist when a plan function returns one, None when no plan is legal."""
        sit = self._sit(shell_on)
        if is_sequence_plan(self.plan):
            # the checks of plan_damage: the action points (plan_items), then the abilities' outcome
            # tables, which the fights draw from: built here, Shell up and broken in one call
            attacks = self.sys.plan_items(
                self.me, [self.sys.attack_named(self.me, x) for x in list(self.plan)], self.options
            )
            index = [self._ability_index(a) for a in dict.fromkeys(attacks)]
            try:
                self.uses.prefetch([i * 2 + s for i in index for s in (1, 0)])
            except RulesError:  # refused in the other Shell state only: it raises when met
                self.uses.prefetch([i * 2 + shell_on for i in index])
            return tuple(attacks)
        label = choose_label(self.sys.turn_plans(self.me, self.foe, self.options, sit), self.plan)
        if label is None or isinstance(label, Dist):
            return label
        return tuple(self.sys.attack_named(self.me, x) for x in label.split(" + "))

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

    def settled(self, idx: np.ndarray, foe: Side, passive: bool) -> bool:
        """Return True when this side's turns can no longer change the fights ``idx``: a passive
        turn does nothing, and an active one, for the Shell state of each of these fights (up or
        broken), plays no plan or only abilities whose every outcome deals 0 damage (so HP and
        Shell, the whole state, stay as they are). Only tables already drawn from count."""
        if passive:
            return True
        foe = cast(LastOdysseySide, foe)
        on = foe.shell[idx] > 0
        for state in (True, False):
            if not (on == state).any():
                continue
            if state not in self._plans:
                return False
            plan = self._plans[state]
            if plan is None:
                continue
            if isinstance(plan, Dist):
                if np.any(dist_table(plan)["damage"] != 0):
                    return False
                continue
            for a in plan:
                t = self.uses.known(a * 2 + state)
                if t is None or np.any(t["damage"] != 0):
                    return False
        return True

    def hp_left(self) -> np.ndarray:
        return self.hp


def _dist_bank(d: Dist) -> Bank[float]:
    """Return the Bank whose one state class is the outcome table of the damage Dist ``d``."""
    return Bank(lambda keys: [dist_table(d)])


def state_effects(sys: Any, attacker: Any, target: Any) -> set[str]:
    """Return {"shell"} when ``target`` has Shell points (they absorb damage and change the
    multipliers once broken, CLARIFICATIONS.md, Last Odyssey: Shell), else the empty set."""
    return {"shell"} if sys.shell_points(target) > 0 else set()
