"""Simulation sides of Unbound, Glass Empires and Last Odyssey: HP plus the state each system carries.

- Unbound (unbound-d20-attacking.txt, Wild Attack): "the attacker's AC drops by half the highest
  such penalty until its next turn" -- the foe's attacks meanwhile hit more easily.
- Glass Empires (CLARIFICATIONS.md, Glass Empires): armor points absorb physical damage before HP
  and stay spent from turn to turn; a jammed weapon costs an action to clear.
- Last Odyssey (CLARIFICATIONS.md, Last Odyssey: Shell): the Shell takes damage before HP; once it
  is broken, spells lose their x2 and strikes gain theirs, and the target's own element counts.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np
import polars as pl

from ..dist import Dist
from ..errors import RulesError
from .engine import Bank, Fights, Side
from .plans import choose_label, dist_table, is_sequence_plan

__all__ = ["UnboundSide", "GlassEmpiresSide", "LastOdysseySide"]


def _table(frame: pl.DataFrame, columns: list[str]) -> dict[str, np.ndarray]:
    g = frame.group_by(columns).agg(pl.col("probability").sum()).sort(columns)
    return {c: g[c].to_numpy() for c in (*columns, "probability")}


class UnboundSide(Side):
    """An Unbound creature: HP and the AC penalty its own Wild Attacks leave until its next turn."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from ..systems import system

        self.sys = system("unbound")
        self.me, self.foe, self.plan = me, foe, plan
        self.options, self.situation = self.sys.defaults(options, situation)
        self.name = me.name
        self.bank = Bank(self._build)

    def _build(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        from ..systems.unbound.actions import as_actions, self_ac_penalty

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

    def turn(self, idx: np.ndarray, foe: "UnboundSide", sim: Fights) -> None:
        self.penalty[idx] = 0  # "until its next turn"
        row = self.bank.draw(foe.penalty[idx], sim.rng)
        foe.hp[idx] -= row["damage"]
        foe.mark_dead(idx, foe.hp[idx] <= 0, sim)
        self.penalty[idx] = row["penalty"]

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        self.penalty[idx] = 0

    def hp_left(self) -> np.ndarray:
        return self.hp


class GlassEmpiresSide(Side):
    """A Glass Empires creature: HP, its armor points left, and whether its weapon is jammed."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from ..systems import system

        self.sys = system("glass_empires")
        self.me, self.foe, self.plan = me, foe, plan
        self.options = self.sys.options_of(options)
        self.situation = situation if situation is not None else self.sys.Situation()
        self.name = me.name
        self.jam_matters = self.sys.attacks_per_turn(me, self.options) > 1
        self.bank = Bank(self._build)

    def _candidates(self, attacks: int) -> dict[str, list[Any]]:
        if is_sequence_plan(self.plan):
            return {"plan": list(self.plan)}
        weapons = self.sys.attacks_of(self.me)
        return {" + ".join(w.name for w in c): list(c) for k in range(1, attacks + 1) for c in product(weapons, repeat=k)}

    def _build(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        out = []
        for key in keys:
            ap, jammed = divmod(int(key), 2)
            sit = self.situation.replace(target_ap=ap, target_hp=None)
            attacks = self.sys.attacks_per_turn(self.me, self.options) - (1 if jammed else 0)
            tables: dict[str, pl.DataFrame] = {}
            for label, combo in self._candidates(max(1, attacks)).items():
                try:
                    tables[label] = self.sys.plan_table(self.me, self.foe, combo, self.options, sit)
                except RulesError as exc:
                    if exc.field != "distance" or is_sequence_plan(self.plan):
                        raise
            if not tables:
                out.append({"damage": np.zeros(1, np.int64), "ap_damage": np.zeros(1, np.int64),
                            "jam": np.zeros(1, bool), "probability": np.ones(1)})
                continue
            if self.plan is None or is_sequence_plan(self.plan):
                score = {k: (float((t["damage"] * t["probability"]).sum()), float((t["ap_damage"] * t["probability"]).sum()))
                         for k, t in tables.items()}
                label = max(score, key=score.get)
            else:
                dists = {k: Dist.from_outcomes(t["damage"].to_numpy(), t["probability"].to_numpy()) for k, t in tables.items()}
                label = choose_label(dists, self.plan)
                if isinstance(label, Dist):
                    out.append(dist_table(label, ap_damage=0, jam=False))
                    continue
            out.append(_table(tables[label], ["damage", "ap_damage", "jam"]))
        return out

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.ap = np.full(n, self.sys.armor_points(self.me, self.options), dtype=np.int64)
        self.jammed = np.zeros(n, dtype=bool)

    def turn(self, idx: np.ndarray, foe: "GlassEmpiresSide", sim: Fights) -> None:
        row = self.bank.draw(foe.ap[idx] * 2 + self.jammed[idx], sim.rng)
        foe.hp[idx] -= row["damage"]
        foe.ap[idx] = np.maximum(0, foe.ap[idx] - row["ap_damage"])
        foe.mark_dead(idx, foe.hp[idx] <= 0, sim)
        self.jammed[idx] = row["jam"].astype(bool) & self.jam_matters

    def hp_left(self) -> np.ndarray:
        return self.hp


class LastOdysseySide(Side):
    """A Last Odyssey creature: HP and Shell points; each ability of the turn is drawn as the Shell stands."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from ..systems import system

        self.sys = system("last_odyssey")
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
        return [_table(t.filter(pl.col("matchup") == i), ["damage"]) for i in range(len(keys))]

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.shell = np.full(n, self.sys.shell_points(self.me), dtype=np.int64)

    def _hurt(self, idx: np.ndarray, damage: np.ndarray, sim: Fights) -> None:
        absorbed = np.minimum(damage, self.shell[idx])
        self.shell[idx] -= absorbed
        self.hp[idx] -= damage - absorbed
        self.mark_dead(idx, self.hp[idx] <= 0, sim)

    def turn(self, idx: np.ndarray, foe: "LastOdysseySide", sim: Fights) -> None:
        on = foe.shell[idx] > 0
        for state in (True, False):
            sel = idx[on == state]
            plan = self._plan(state) if sel.size else None
            if plan is None:
                continue
            if isinstance(plan, Dist):
                foe._hurt(sel, Bank(lambda ks, d=plan: [dist_table(d)]).draw(np.zeros(sel.size), sim.rng)["damage"], sim)
                continue
            for a in plan:  # the abilities of the turn, in order: the Shell may break between them
                sel = sel[foe.alive()[sel]]
                if sel.size == 0:
                    break
                row = self.uses.draw(a * 2 + (foe.shell[sel] > 0), sim.rng)
                foe._hurt(sel, row["damage"], sim)

    def hp_left(self) -> np.ndarray:
        return self.hp
