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
from ...plans import choose_label, dist_table, grouped_table, is_sequence_plan
from ...simulate.engine import MEMO, Bank, Fights, Side

__all__ = [
    "LastOdysseySide",
    "state_effects",
    "poison_damage",
    "PHASE_TIMINGS",
    "MAX_ANIMA",
    "duel_couplings",
    "ONE_SIDED",
]


class LastOdysseySide(Side):
    """A Last Odyssey creature: HP, Shell points and MP; each ability of the turn is drawn as the foe's
    Shell stands, and each turn's plan is one the MP left pays for."""

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
        self._plans: dict[tuple[bool, int], list[int] | Dist | None] = {}
        self.abilities: list[Any] = []
        # phase abilities: tables keyed ability index * 4 + Shell up * 2 + foe at full HP
        self.phase = {t: [a for a in me.phase_abilities if a.timing == t] for t in PHASE_TIMINGS}
        self.phase_uses = Bank(self._build_phase, share=lambda k: (*self._memo, "phase", self.abilities[k // 4], k % 4))
        self.after = 0  # the rounds whose Effect Phase has passed

    def _sit(self, shell_on: bool) -> Any:
        return self.situation.replace(target_shell_points=self.full_shell if shell_on else 0)

    def _ability_index(self, a: Any) -> int:
        for i, b in enumerate(self.abilities):
            if b is a or b == a:
                return i
        self.abilities.append(a)
        return len(self.abilities) - 1

    def _plan(self, shell_on: bool, mp: int) -> list[int] | Dist | None:
        key = (shell_on, mp)
        if key not in self._plans:
            if callable(self.plan):
                got = self._choose(shell_on, mp)
            else:  # chosen from the models alone: memoised (a list plan under its tuple)
                plan = tuple(self.plan) if is_sequence_plan(self.plan) else self.plan
                got = MEMO.get((*self._memo, "plan", plan, shell_on, mp), lambda: self._choose(shell_on, mp))
            self._plans[key] = got if got is None or isinstance(got, Dist) else [self._ability_index(a) for a in got]
        return self._plans[key]

    def _choose(self, shell_on: bool, mp: int) -> tuple[Any, ...] | Dist | None:
        """Return the abilities of the turn played while the foe's Shell is up (``shell_on``) or
        broken, with ``mp`` MP left; a Dist when a plan function returns one, None when no plan is
        legal. Without a plan: those of the plan ``turn_damage`` chooses among the plans ``mp`` pays
        for. A given plan (a list, or a label) is checked against the full MP (plan_items), and each
        turn uses its abilities in order, each one the MP left still pays for ("Characters may
        never use an ability that costs more than their current MP", srd/heroes/numbers.md): once
        the MP runs out, its MP abilities are left out of the turn."""
        sit = self._sit(shell_on)
        if is_sequence_plan(self.plan) or (isinstance(self.plan, str) and mp < self.me.mp):
            named = list(self.plan) if is_sequence_plan(self.plan) else str(self.plan).split(" + ")
            # the checks of plan_damage: the action points and MP (plan_items), then the abilities'
            # outcome tables, which the fights draw from: built here, Shell up and broken in one call
            attacks = self.sys.plan_items(self.me, [self.sys.attack_named(self.me, x) for x in named], self.options)
            paid = []
            for a in attacks:
                if a.mp_cost <= mp:
                    paid.append(a)
                    mp -= a.mp_cost
            if not paid:
                return None
            index = [self._ability_index(a) for a in dict.fromkeys(paid)]
            try:
                self.uses.prefetch([i * 2 + s for i in index for s in (1, 0)])
            except RulesError:  # refused in the other Shell state only: it raises when met
                self.uses.prefetch([i * 2 + shell_on for i in index])
            return tuple(paid)
        label = choose_label(self.sys.turn_plans(self.me.replace(mp=mp), self.foe, self.options, sit), self.plan)
        if label is None or isinstance(label, Dist):
            return label
        return tuple(self.sys.attack_named(self.me, x) for x in label.split(" + "))

    def _build_phase(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        """Return the (damage, status) tables of phase-ability uses: key = ability * 4 + Shell up * 2 +
        foe at full HP (not full: one HP below it, which is all Dragonslayer reads)."""
        attacks = [self.abilities[k // 4] for k in keys]
        hp = self.sys.hit_points(self.foe)
        sits = [self._sit(bool(k // 2 % 2)).replace(target_hp=None if k % 2 or hp == 1 else hp - 1) for k in keys]
        t = self.sys.outcome_tables(attacks, [self.me] * len(keys), [self.foe] * len(keys), self.options, sits)
        return [grouped_table(t.filter(pl.col("matchup") == i), ["damage", "status"]) for i in range(len(keys))]

    def _phase_draw(self, a: Any, sel: np.ndarray, foe: LastOdysseySide, sim: Fights) -> dict[str, np.ndarray]:
        """Return one use of the phase ability ``a`` in the fights ``sel``, drawn as the foe's Shell and
        HP stand (damage and status per fight)."""
        full = foe.hp[sel] >= self.sys.hit_points(foe.me)
        return self.phase_uses.draw(self._ability_index(a) * 4 + (foe.shell[sel] > 0) * 2 + full, sim.rng)

    def between_rounds(self, idx: np.ndarray, foe: Side, sim: Fights, after_round: int) -> None:
        """Play this side's phase abilities between rounds (the module docstring): after round
        ``after_round`` its Effect Phase (Poisoned's damage, then the effect-phase sleights, then,
        after the third, the abilities that wait for it), then the Paradigm Phase; before the first
        round (0) the extra Paradigm Phase only."""
        foe = cast(LastOdysseySide, foe)

        def live(sel: np.ndarray) -> np.ndarray:
            return sel[self.alive()[sel] & foe.alive()[sel]]

        if after_round >= 1:
            self.after = after_round
            sel = live(idx[self.foe_poisoned[idx]])
            if sel.size:
                foe._hurt(sel, np.full(sel.size, poison_damage(foe.me), dtype=np.int64), sim)
            for a in self.phase["effect_phase"]:
                sel = live(idx)
                if sel.size:
                    self.foe_poisoned[sel] |= self._phase_draw(a, sel, foe, sim)["status"].astype(bool)
            if after_round == 3:
                for a in self.phase["after_third_effect_phase"]:
                    sel = live(idx)
                    if sel.size:
                        foe._hurt(sel, self._phase_draw(a, sel, foe, sim)["damage"], sim)
        used = np.zeros(self.n, dtype=bool)  # one paradigm action per round
        for a in self.phase["paradigm_phase"]:
            sel = live(idx)
            sel = sel[~used[sel] & (self.anima[sel] >= a.anima_cost)]
            if sel.size == 0:
                continue
            used[sel] = True
            self.anima[sel] -= a.anima_cost
            foe.anima[sel] = np.minimum(MAX_ANIMA, foe.anima[sel] + a.anima_cost)
            foe._hurt(sel, self._phase_draw(a, sel, foe, sim)["damage"], sim)

    def _phases_pending(self, idx: np.ndarray, foe: LastOdysseySide) -> bool:
        """Return whether a phase of this side may still change the fights ``idx``: a Poisoned foe,
        an effect-phase sleight on a foe not yet Poisoned, an ability waiting for the third Effect
        Phase, a paradigm action the anima left pays for."""
        if self.foe_poisoned[idx].any():
            return True
        if self.phase["effect_phase"] and not self.foe_poisoned[idx].all():
            return True
        if self.phase["after_third_effect_phase"] and self.after < 3:
            return True
        return any(bool((self.anima[idx] >= a.anima_cost).any()) for a in self.phase["paradigm_phase"])

    def _build_use(self, keys: list[int]) -> list[dict[str, np.ndarray]]:
        attacks = [self.abilities[k // 2] for k in keys]
        sits = [self._sit(bool(k % 2)) for k in keys]
        t = self.sys.outcome_tables(attacks, [self.me] * len(keys), [self.foe] * len(keys), self.options, sits)
        return [grouped_table(t.filter(pl.col("matchup") == i), ["damage"]) for i in range(len(keys))]

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.hp = np.full(n, self.sys.hit_points(self.me), dtype=np.int64)
        self.shell = np.full(n, self.sys.shell_points(self.me), dtype=np.int64)
        self.mp = np.full(n, int(self.me.mp), dtype=np.int64)
        self.anima = np.full(n, int(self.me.anima), dtype=np.int64)
        self.foe_poisoned = np.zeros(n, dtype=bool)  # the foe is Poisoned by this side's sleights
        self.after = 0

    def _hurt(self, idx: np.ndarray, damage: np.ndarray, sim: Fights) -> None:
        absorbed = np.minimum(damage, self.shell[idx])
        self.shell[idx] -= absorbed
        self.hp[idx] -= damage - absorbed
        self.mark_dead(idx, self.hp[idx] <= 0, sim)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(LastOdysseySide, foe)  # both sides of a fight are built by this rule system
        on = foe.shell[idx] > 0
        for (state, mp), sel in _groups(idx, on, self.mp[idx]):
            plan = self._plan(state, mp)
            if plan is None:
                continue
            if isinstance(plan, Dist):
                foe._hurt(sel, _dist_bank(plan).draw(np.zeros(sel.size), sim.rng)["damage"], sim)
                continue
            for a in plan:  # the abilities of the turn, in order: the Shell may break between them
                sel = sel[foe.alive()[sel]]
                if sel.size == 0:
                    break
                self.mp[sel] -= self.abilities[a].mp_cost  # paid on use (srd/heroes/numbers.md)
                row = self.uses.draw(a * 2 + (foe.shell[sel] > 0), sim.rng)
                foe._hurt(sel, row["damage"], sim)

    def settled(self, idx: np.ndarray, foe: Side, passive: bool) -> bool:
        """Return True when this side's turns can no longer change the fights ``idx``: a passive
        turn does nothing, and an active one, for the Shell state and MP left of each of these
        fights, plays no plan or only abilities that cost no MP and whose every outcome deals 0
        damage (so HP, Shell and MP, the whole state, stay as they are). Only tables already drawn
        from count."""
        if passive:
            return True
        foe = cast(LastOdysseySide, foe)
        if self._phases_pending(idx, foe):
            return False
        for key, _ in _groups(idx, foe.shell[idx] > 0, self.mp[idx]):
            if key not in self._plans:
                return False
            plan = self._plans[key]
            if plan is None:
                continue
            if isinstance(plan, Dist):
                if np.any(dist_table(plan)["damage"] != 0):
                    return False
                continue
            for a in plan:
                t = self.uses.known(a * 2 + key[0])
                if t is None or np.any(t["damage"] != 0) or self.abilities[a].mp_cost:
                    return False
        return True

    def hp_left(self) -> np.ndarray:
        return self.hp


def _dist_bank(d: Dist) -> Bank[float]:
    """Return the Bank whose one state class is the outcome table of the damage Dist ``d``."""
    return Bank(lambda keys: [dist_table(d)])


#: the timings of abilities played between rounds (models.TIMINGS but "action")
PHASE_TIMINGS = ("effect_phase", "paradigm_phase", "after_third_effect_phase")
#: srd/anima/spending.md: "All Heroes can have a maximum of 10 anima at a time"; with an Antagonist,
#: "Any excess anima gained above 10 dissipates instead"
MAX_ANIMA = 10


def poison_damage(creature: Any) -> int:
    """Return the damage Poisoned deals each Effect Phase: one tenth of the base maximum HP (the
    creature's ``hp``) rounded down, at least 1 (srd/combat/statuses.md, Poisoned)."""
    return max(1, int(creature.hp) // 10)


def _groups(idx: np.ndarray, on: np.ndarray, mp: np.ndarray) -> list[tuple[tuple[bool, int], np.ndarray]]:
    """Return the fights ``idx`` grouped by (foe's Shell up, MP left): ((state, mp), fights) pairs,
    Shell up first, then by MP (numpy unique over the joint key)."""
    if idx.size == 0:
        return []
    key = mp.astype(np.int64) * 2 + (~on).astype(np.int64)
    values, inverse = np.unique(key, return_inverse=True)
    return [((not bool(v % 2), int(v // 2)), idx[inverse == j]) for j, v in enumerate(values.tolist())]


def state_effects(sys: Any, attacker: Any, target: Any, plan: Any = None) -> set[str]:
    """Return the fight's state beyond HP: "shell" when ``target`` has Shell points (they absorb
    damage and change the multipliers once broken, CLARIFICATIONS.md, Last Odyssey: Shell), "mp"
    when an ability the attacker may play (those of ``plan`` when it is a list or a label, else
    each damaging one) costs MP it can pay at the start: its MP runs down from turn to turn and
    the plans it pays for change (srd/heroes/numbers.md: "When a character uses an ability that has
    an MP cost, their MP is reduced by that amount")."""
    out = {"shell"} if sys.shell_points(target) > 0 else set()
    if is_sequence_plan(plan) or isinstance(plan, str):
        named = list(plan) if is_sequence_plan(plan) else str(plan).split(" + ")
        played = [sys.attack_named(attacker, x) for x in named]
    else:
        played = [a for a in sys.attacks_of(attacker) if a.deals_damage]
    if any(0 < a.mp_cost <= attacker.mp for a in played):
        out.add("mp")
    out |= phase_effects(attacker, target)
    return out


def phase_effects(attacker: Any, target: Any) -> set[str]:
    """Return the names (lowercased) of the attacker's phase abilities that can affect ``target``:
    all but a paradigm action its anima cannot pay for, and a sleight that spares the target's
    creature type (Miasma: "every non-Undead character") or inflicts a status it is immune to."""
    out = set()
    for a in attacker.phase_abilities:
        if a.timing == "paradigm_phase" and attacker.anima < a.anima_cost:
            continue
        spared = target.creature_type is not None and target.creature_type.lower() in {
            x.lower() for x in a.spares_creature_types
        }
        immune = not a.deals_damage and (a.status or "").lower() in {x.lower() for x in target.immune_statuses}
        if not (spared or immune):
            out.add(a.name.lower())
    return out


#: the state effects whose state belongs to one direction of a duel: only the attacker's own turns
#: change it, and only the attacker's turns read it (LastOdysseySide.turn: the plan of (the foe's
#: Shell up, its own MP left), abilities drawn as the foe's Shell stands, damage to the foe alone)
ONE_SIDED = {
    # the attacker's MP: "When a character uses an ability that has an MP cost, their MP is reduced by
    # that amount. Characters may never use an ability that costs more than their current MP"
    # (srd/heroes/numbers.md); it pays for the attacker's own abilities, nothing of the foe's
    "mp",
    # the target's Shell: it "takes damage before HP" and, once broken, changes the multipliers of the
    # attacks made on it (CLARIFICATIONS.md, Last Odyssey: Shell): the attacker's damage only; the
    # Shell's bearer attacks as it would without one
    "shell",
}
# Not one-sided: every phase ability (state_effects names each, lowercased). They are played between
# rounds, after both sides' turns (srd/combat/round.md: the Action Phase, then the Effect Phase, then
# the Paradigm Phase; "An extra Paradigm Phase also takes place at the beginning of the first
# round"), so a kill by Poisoned (Miasma), Foretell Doom or Dragonslayer is not a kill within the
# attacker's turn: it comes after the foe's turn of that round whoever acted first, which the duel of
# two turn-by-turn chains cannot order. Dragonslayer also hands the anima it spends to the foe
# (srd/anima/spending.md), which pays for the foe's own paradigm actions.


def duel_couplings(
    sys: Any, a: Any, b: Any, options: Any = None, situation: Any = None, plan_a: Any = None, plan_b: Any = None
) -> set[str]:
    """Return the state effects of the duel of ``a`` and ``b`` (both directions' :func:`state_effects`)
    through which one side's turns or phases change the other direction's fight: all but
    :data:`ONE_SIDED` (the phase abilities: the comment above). An effect added later couples (is
    simulated) until it is shown to be one-sided."""
    both = state_effects(sys, a, b, plan_a) | state_effects(sys, b, a, plan_b)
    return both - ONE_SIDED
