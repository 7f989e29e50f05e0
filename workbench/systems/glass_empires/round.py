"""The Glass Empires side of the simulation: HP, armor points left, a jammed weapon, a Ray Shield.

CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP, 1 AP per 2
damage"; they stay spent from turn to turn. A weapon that jams on a Fumble ("a windgun or Reload
weapon jams") is cleared by the turn's next action, so a jam on the turn's first Attack costs its
second Attack, and only a jam on the turn's last Attack carries into the next turn and costs its
first Attack (CLARIFICATIONS.md, Glass Empires, "Jams"; the ``jam`` column of resolve.py). A Ray Shield, once broken, stays broken for the
rest of the fight (shared/data/glass_empires_creatures.toml, Moon Rabbit Operator: the gem
"instantly shatters, destroying the item"). A state class is one int, :func:`state_key`. ``GlassEmpires.simulation_side`` and
``GlassEmpires.state_effects`` load this module on first use.
"""

from __future__ import annotations

from itertools import product
from typing import Any, cast

import numpy as np
import polars as pl

from ...dist import Dist
from ...errors import RulesError
from ...simulate.engine import Bank, Fights, Side
from ...simulate.plans import choose_label, dist_table, grouped_table, is_sequence_plan

__all__ = ["GlassEmpiresSide", "state_effects", "state_key", "duel_couplings", "ONE_SIDED"]


def state_key(ap: Any, jammed: Any, shield_up: Any) -> Any:
    """Return the state class of a turn table (ints or numpy arrays): (AP left * 2 + jammed) * 2 +
    shield up. The attacker's jam and the target's armor points and Ray Shield are what the turn's
    outcome table depends on besides HP."""
    return (ap * 2 + jammed) * 2 + shield_up


def decode_key(key: int) -> tuple[int, int, int]:
    """Return (AP left, jammed, shield up) of a :func:`state_key`."""
    return key // 4, (key // 2) % 2, key % 2


class GlassEmpiresSide(Side):
    """A Glass Empires creature: HP, its armor points left, whether its weapon is jammed, and
    whether its Ray Shield (if any) is still up."""

    def __init__(self, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        from . import SYSTEM

        self.sys = SYSTEM
        self.me, self.foe, self.plan = me, foe, plan
        self.options = self.sys.options_of(options)
        self.situation = situation if situation is not None else self.sys.Situation()
        self.name = me.name
        self.jam_matters = self.sys.attacks_per_turn(me, self.options) > 1
        # the tables are a function of the models, options, situation and plan alone: kept in the
        # simulation's MEMO under those (a plan function is not: its tables are built per side), so a
        # second side of the same fight (a duel's second pass over a chain) reuses them
        if callable(plan):
            self.bank = Bank(self._build)
        else:
            named = tuple(plan) if is_sequence_plan(plan) else plan
            memo = ("glass_empires", "turn table", me, foe, self.options, self.situation, named)
            self.bank = Bank(self._build, share=lambda key: (*memo, key))

    def _candidates(self, attacks: int) -> dict[str, list[Any]]:
        if is_sequence_plan(self.plan):
            return {"plan": list(self.plan)}
        weapons = self.sys.attacks_of(self.me)
        return {
            " + ".join(w.name for w in c): list(c) for k in range(1, attacks + 1) for c in product(weapons, repeat=k)
        }

    def _plan_frames(self, combo: list[Any], states: list[tuple[int, int]]) -> list[pl.DataFrame]:
        """Return the outcome table of the turn ``combo`` against each (armor points left, shield up)
        in ``states`` (:meth:`GlassEmpires.plan_table` for each, resolved in ONE :func:`resolve` call)."""
        from .resolve import resolve, segment

        n = len(states)
        sits = [
            self.situation.replace(target_ap=int(ap), target_hp=None, target_shield_up=bool(up)) for ap, up in states
        ]
        weapons = self.sys.plan_items(self.me, combo, self.options)
        ap0, hp = self.sys._target_state([self.foe] * n, sits, self.options)
        segs = [segment([w] * n, [self.me] * n, [self.foe] * n, self.options, sits) for w in weapons]
        parts = resolve(segs, ap0, hp, self.options).partition_by("matchup", as_dict=True)
        return [parts[(i,)] for i in range(n)]

    def _build(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        """Return the turn table of each state class (:func:`state_key`): the chosen plan's
        (damage, ap_damage, jam, shield_breaks) rows among :meth:`plan_tables`."""
        return [self._choose(per) for per in self.plan_tables(keys)]

    def plan_tables(self, keys: list[int]) -> list[dict[str, pl.DataFrame]]:
        """Return, per state class (:func:`state_key`), the outcome frame of every plan legal there
        (label -> frame; a jam costs an Attack, and a plan out of reach is left out). The keys with
        the same Attacks left are resolved together, one :func:`resolve` call per candidate plan."""
        out: list[dict[str, pl.DataFrame]] = [{} for _ in keys]
        groups: dict[int, list[int]] = {}
        for i, key in enumerate(keys):
            jammed = decode_key(int(key))[1]
            attacks = self.sys.attacks_per_turn(self.me, self.options) - (1 if jammed else 0)
            groups.setdefault(max(1, attacks), []).append(i)
        for attacks, idx in groups.items():
            states = [decode_key(int(keys[i]))[::2] for i in idx]
            for label, combo in self._candidates(attacks).items():
                try:
                    frames = self._plan_frames(combo, states)
                except RulesError as exc:
                    if exc.field != "distance" or is_sequence_plan(self.plan):
                        raise
                    continue
                for j, i in enumerate(idx):
                    out[i][label] = frames[j]
        return out

    def _choose(self, tables: dict[str, pl.DataFrame]) -> dict[str, np.ndarray]:
        """Return the table of the plan this side plays among ``tables`` (label -> outcome frame):
        the highest expected HP damage, then the most armor points removed, then the likeliest to
        break a Ray Shield; or the given plan."""
        if not tables:
            return {
                "damage": np.zeros(1, np.int64),
                "ap_damage": np.zeros(1, np.int64),
                "jam": np.zeros(1, bool),
                "shield_breaks": np.zeros(1, np.int64),
                "probability": np.ones(1),
            }
        if self.plan is None or is_sequence_plan(self.plan):
            score = {
                k: tuple(float((t[c] * t["probability"]).sum()) for c in ("damage", "ap_damage", "shield_breaks"))
                for k, t in tables.items()
            }
            label = max(score, key=score.__getitem__)
        else:
            dists = {
                k: Dist.from_outcomes(t["damage"].to_numpy(), t["probability"].to_numpy()) for k, t in tables.items()
            }
            chosen = choose_label(dists, self.plan)
            if isinstance(chosen, Dist):
                return dist_table(chosen, ap_damage=0, jam=False, shield_breaks=0)
            assert chosen is not None  # None only when there is no plan, and tables is not empty
            label = chosen
        return grouped_table(tables[label], ["damage", "ap_damage", "jam", "shield_breaks"])

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.ap = np.full(n, self.sys.armor_points(self.me, self.options), dtype=np.int64)
        self.jammed = np.zeros(n, dtype=bool)
        self.shield_up = np.full(n, shield_up_at_start(self.me, self.situation), dtype=bool)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(GlassEmpiresSide, foe)  # both sides of a fight are built by this rule system
        row = self.bank.draw(state_key(foe.ap[idx], self.jammed[idx], foe.shield_up[idx]), sim.rng)
        foe.hp[idx] -= row["damage"]
        foe.ap[idx] = np.maximum(0, foe.ap[idx] - row["ap_damage"])
        foe.shield_up[idx] &= row["shield_breaks"] == 0
        foe.mark_dead(idx, foe.hp[idx] <= 0, sim)
        self.jammed[idx] = row["jam"].astype(bool) & self.jam_matters

    def hp_left(self) -> np.ndarray:
        return self.hp


def shield_up_at_start(creature: Any, situation: Any) -> bool:
    """Return whether ``creature`` starts a fight behind an up Ray Shield: it has one
    (``ray_shield_breaks_at``) and ``situation.target_shield_up`` (True by default)."""
    return bool(creature.ray_shield_breaks_at) and bool(situation.target_shield_up)


def state_effects(sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> set[str]:
    """Return the stateful effects of Glass Empires ``attacker`` fighting ``target`` (empty: HP-only).

    "armor points" when the target has armor points and the attacker a physical weapon
    (CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP"; they stay
    spent), "jams" when a turn has two Attacks and a weapon can jam ("a windgun or Reload weapon
    jams" on a Fumble: a jam on the turn's last Attack costs the next turn's first), "ray shield" when the target starts behind an up
    Ray Shield (shared data, Moon Rabbit Operator: once broken the gem is destroyed, so it stays
    down for the rest of the fight).
    """
    opts = sys.options_of(options)
    sit = sys.situations_of(situation, 1)[0]
    out: set[str] = set()
    if shield_up_at_start(target, sit):
        out.add("ray shield")
    physical = any("physical" in w.types for w in attacker.weapons)
    if sys.armor_points(target, opts) > 0 and physical:
        out.add("armor points")
    if sys.attacks_per_turn(attacker, opts) > 1 and any(w.jams for w in attacker.weapons):
        out.add("jams")
    return out


#: the state effects whose state belongs to one direction of a duel: only the attacker's own turns
#: change it, and the attacker's turns are all that read it (GlassEmpiresSide.turn draws from
#: state_key(the foe's AP, its own jam, the foe's shield) and changes nothing of its own but the jam)
ONE_SIDED = {
    # the target's armor points: "Armor points absorb physical damage before HP, 1 AP per 2 damage or
    # fraction" (CLARIFICATIONS.md, Glass Empires): spent by the attacker's Strikes only, and the
    # target's own Strike Saves, weapons and damage never read them
    "armor points",
    # the attacker's jam: "a windgun or Reload weapon jams" on a Fumble (glass-empires-attack.txt),
    # a jam left at the turn's end costs the attacker's own next Attack; the foe's turns neither jam nor read it
    "jams",
    # the target's Ray Shield: "immune to all damage" until an effect of 6 or more breaks it, then the
    # gem "instantly shatters, destroying the item" (shared/data/glass_empires_creatures.toml, Moon
    # Rabbit Operator); it guards against the attacker's damage only and gives its bearer no attack
    "ray shield",
}


def duel_couplings(
    sys: Any, a: Any, b: Any, options: Any = None, situation: Any = None, plan_a: Any = None, plan_b: Any = None
) -> set[str]:
    """Return the state effects of the duel of ``a`` and ``b`` (both directions' :func:`state_effects`)
    through which one side's turns change the other direction's fight: those not in
    :data:`ONE_SIDED`. Empty for every effect Glass Empires names today; an effect added later
    couples (is simulated) until it is shown to be one-sided."""
    both = state_effects(sys, a, b, options, situation) | state_effects(sys, b, a, options, situation)
    return both - ONE_SIDED
