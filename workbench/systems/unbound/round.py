"""The Unbound round, described once (issue 33): one side's turn over named state, every random value
from a :class:`~workbench.fight.draw.Draw`. The fight's interpreters (workbench/fight/) derive from
it the exact chain of rounds-to-kill, optimal play's planned chain, the duel chain over both sides'
state and the simulation; this module is the only place the Unbound fight is enacted.

The state of each creature (:class:`Combatant`): the damage it has taken, the AC its own last turn
gave up until its next turn, and the weapons it has braced. Rules (unbound-d20-attacking.txt;
CLARIFICATIONS.md, Unbound):

- Wild Attack: "the attacker also takes a penalty to AC equal to half the highest penalty applied by
  a wild attack until the start of their next turn": the foe's attacks meanwhile hit more easily
  (a to-hit bonus against it, AC and touch AC alike).
- Shield Bash: "If a character chooses to attack with a shield they lose all bonuses from that
  shield until the start of their next turn": the foe's next turn meets its AC less the shield's
  ``shield_ac`` and its touch AC less ``shield_touch_ac`` (``actions.shield_loss``).
- Implaced Weapons: "A character can brace one of these weapons ... as a basic action. While braced
  ... the character gains advantage": a Brace holds from turn to turn (nobody moves in a workbench
  fight), so every later attack with that weapon has advantage.

One turn: the side's own Wild penalty and shield bonuses come back ("until the start of their next
turn"); the damage of the plan it plays against the foe as the foe's last turn left it (its Wild
penalty, its shields' bonuses given up) with its own braced weapons is drawn; the turn's own
consequences (its Wild penalty, the shield bonuses it gives up, the weapons it braces) are its new
state. The damage play is the plan ``turn_plans`` and the one plan chooser pick in that state.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import numpy as np

from ...columns import Columns, Grouped, distinct_rows, fights_of, row_groups, stacked
from ...dist import Dist
from ...fight.draw import Draw
from ...memo import MEMO, hashed
from ...plans import choose_label, dist_table, is_sequence_plan
from ...turns import first_best

__all__ = ["Combatant", "RollStep", "StepCombatant", "UnboundRound", "braced_mask", "state_effects"]

#: the columns of a turn table a round applies
_COLUMNS = ("damage", "penalty", "ac_lost", "touch_lost", "braced")


@dataclasses.dataclass
class Combatant(Columns):
    """Unbound creatures in a batch of fights: ``damage_taken``, ``wild_penalty`` (the AC its own last
    Wild Attack gave up), ``shield_ac_lost`` / ``shield_touch_ac_lost`` (the shield bonuses its last
    Shield Bash gave up) and ``braced`` (its braced weapons: :func:`braced_mask`)."""

    damage_taken: np.ndarray
    wild_penalty: np.ndarray
    shield_ac_lost: np.ndarray
    shield_touch_ac_lost: np.ndarray
    braced: np.ndarray


def braced_mask(creature: Any, names: Any = None) -> int:
    """Return the one encoding of braced weapons: bit i for the creature's weapon i, set when it is
    braced (``Attack.braced``) or named in ``names``."""
    return sum(1 << i for i, w in enumerate(creature.weapons) if w.braced or (names is not None and w.name in names))


def _unflanked(situation: Any) -> Any:
    """Return ``situation`` without flanking (which adds to a roll, not to a plan's rolls)."""
    return situation.replace(flanking=False) if situation.flanking else situation


class UnboundRound:
    """The turn of ``me`` attacking ``foe`` (module docstring): the one Unbound round."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        self.sys = sys  # the Unbound rule system (its turns, action economy and plan tables)
        self.me, self.foe, self.plan = me, foe, plan
        self.options, self.situation = sys.defaults(options, situation)
        named = tuple(plan) if is_sequence_plan(plan) else plan
        self.key = None if callable(plan) else hashed(("unbound", me, foe, self.options, self.situation, named))
        self._tables: dict[tuple[tuple[int, ...], str | None], dict[str, np.ndarray]] = {}
        self._plans_at: dict[tuple[int, ...], tuple[dict[str, Dist], dict[str, Any]]] = {}
        #: the rounds whose fights a batch of this round holds, read by each row's ``fight``: this
        #: round alone, or the rounds of a :meth:`stack`
        self.members: tuple[UnboundRound, ...] = (self,)

    @classmethod
    def stack(cls, rounds: list[UnboundRound]) -> UnboundRound:
        """Return one round over the fights of ``rounds``: each row of a batch plays the round its
        ``fight`` names (:func:`~workbench.columns.fights_of`), so a level of many fights is
        enumerated in one call of :meth:`turn` (workbench/fight/chain.py). Only :meth:`turn` is
        played on it."""
        out = cls.__new__(cls)
        out.members, out.key = tuple(rounds), None
        return out

    # ------------------------------------------------------------------ in a group (optional hooks)
    @property
    def melee(self) -> bool:
        """Return whether the attacker attacks in melee (has a melee weapon): a creature that can
        flank (CLARIFICATIONS.md, Encounters: "another living creature of its side that attacks in
        melee")."""
        return any(w.kind == "melee" for w in self.me.weapons)

    def flanked(self) -> UnboundRound:
        """Return this round with the flanking bonus: "When two characters flank an enemy they gain a
        +2 tactical bonus to hit at base" (unbound-d20-attacking.txt, Situational Bonuses): the
        Situation's ``flanking``, +2 to the turn's melee attacks only (roll.py). When it applies in
        an encounter is the encounter's option ``flanking`` (workbench/fight/encounter.py)."""
        return UnboundRound(self.sys, self.me, self.foe, self.options, self.situation.replace(flanking=True), self.plan)

    def steps(self, refund: bool = True) -> list[UnboundRound]:
        """Return the turn as rounds of one attack roll each (:class:`RollStep`), played in order by an
        encounter, so that when the target falls the rolls left go to the next living foe."""
        if callable(self.plan) and not is_sequence_plan(self.plan):  # (a plan function's turn is one Dist)
            return [self]
        got = self.__dict__.get("_steps")
        if got is None:
            # (a function of the attacker, options, situation and plan: an encounter builds a round
            # per attacker, foe and flanking, and each asks)
            named = tuple(self.plan) if is_sequence_plan(self.plan) else self.plan
            key = ("unbound most rolls", self.me, self.options, _unflanked(self.situation), named)
            most = int(MEMO.get(key, self._most_rolls))
            got = self.__dict__["_steps"] = [RollStep(self, k) for k in range(max(1, most))]
        return got

    def _most_rolls(self) -> int:
        """Return the most attack rolls a turn makes: those of its plan, or of the longest legal plan
        (a state changes the rolls' odds, not their number)."""
        from .actions import as_actions

        sit = _unflanked(self.situation)  # (flanking adds to the roll, not to the plan's rolls)
        if is_sequence_plan(self.plan):
            return len(self.sys.slots(as_actions(list(self.plan)), self.me, self.options, sit))
        actions = self.sys.turn_actions(self.me, self.options, sit)
        return max((len(self.sys.slots(a, self.me, self.options, sit)) for a in actions.values()), default=0)

    # ------------------------------------------------------------------ the state
    def _combatant(self, creature: Any) -> Combatant:
        zero = np.zeros(1, np.int64)
        return Combatant(zero, zero.copy(), zero.copy(), zero.copy(), np.full(1, braced_mask(creature), np.int64))

    def start(self, passive: bool = False) -> tuple[Combatant, Combatant]:
        """Return (the attacker's state, the target's state) as a fight starts: nothing taken or
        given up, the weapons braced that are braced already."""
        return self._combatant(self.me), self._combatant(self.foe)

    def hit_points(self, who: int) -> int:
        """Return the HP of the attacker (0) or the target (1)."""
        return int(self.sys.hit_points(self.foe if who else self.me))

    # ------------------------------------------------------------------ the turn tables
    def braced_me(self, mask: int) -> Any:
        """Return ``me`` with the weapons of ``mask`` (:func:`braced_mask`) braced."""
        if not mask:
            return self.me
        ws = tuple(w.replace(braced=True) if mask >> i & 1 else w for i, w in enumerate(self.me.weapons))
        return self.me.replace(weapons=ws)

    def _setting(self, key: tuple[int, ...]) -> tuple[Any, Any, Any]:
        """Return (me braced, the foe as its last turn left it, the situation) of a state key (the
        foe's Wild penalty, its shield AC and touch AC lost, my braced weapons)."""
        wild, ac_lost, touch_lost, mask = key
        sit = self.situation.replace(bonus=self.situation.bonus + wild)
        foe = self.foe
        if ac_lost or touch_lost:  # the foe without its shields' bonuses (its weapons play no part here)
            bare = tuple(w.replace(shield_ac=0, shield_touch_ac=0) if w.shield else w for w in foe.weapons)
            foe = foe.replace(ac=foe.ac - ac_lost, touch_ac=foe.touch_ac - touch_lost, weapons=bare)
        return self.braced_me(mask), foe, sit

    def _turn_plans(self, key: tuple[int, ...]) -> tuple[dict[str, Dist], dict[str, Any]]:
        """Return (``turn_plans``, ``turn_actions``) in the state ``key``, asked once per key."""
        got = self._plans_at.get(key)
        if got is None:
            me, foe, sit = self._setting(key)
            got = self._plans_at[key] = (
                self.sys.turn_plans(me, foe, self.options, sit),
                self.sys.turn_actions(me, self.options, sit),
            )
        return got

    def _build(self, key: tuple[int, ...], plan: str | None) -> dict[str, np.ndarray]:
        """Return the turn table of a state key: the damage Dist of the plan played there (the damage
        play's, or ``plan``) with the turn's own consequences as constant columns (penalty: its Wild
        Attack AC penalty; ac_lost / touch_lost: its shields' bonuses given up; braced: the weapons
        braced after the turn)."""
        from .actions import as_actions, braced_by, self_ac_penalty, shield_loss

        me, foe, sit = self._setting(key)
        mask = key[3]
        if plan is None and is_sequence_plan(self.plan):
            actions = as_actions(list(self.plan))
            dist = self.sys.plan_damage(me, foe, list(self.plan), self.options, sit)
        else:
            plans, turn_actions = self._turn_plans(key)
            label = plan if plan is not None else choose_label(plans, self.plan)
            if label is None or isinstance(label, Dist):
                d = Dist.constant(0) if label is None else label
                return dist_table(d, penalty=0, ac_lost=0, touch_lost=0, braced=mask)
            actions, dist = turn_actions[label], plans[label]
        pen = self_ac_penalty(self.sys.slots(actions, me, self.options, sit))
        lost_ac, lost_touch = shield_loss(actions, me)
        now = mask | braced_mask(me, braced_by(actions, me))
        return dist_table(dist, penalty=int(pen), ac_lost=lost_ac, touch_lost=lost_touch, braced=now)

    def _table(self, keys: np.ndarray, plan: Any) -> Grouped:
        """Return the turn table of every row of ``keys`` (the row's round among :attr:`members`, then
        its state key) as a Draw's Grouped table (padded with probability 0) (``plan``: None, one
        label, or one per row)."""
        groups, inverse = row_groups(keys, plan)
        tables = []
        for (f, *k), label in groups:
            member, at = self.members[f], (tuple(k), label)
            if at not in member._tables:
                member._tables[at] = member._build(*at)
            tables.append(member._tables[at])
        return stacked(tables, inverse, _COLUMNS)

    # ------------------------------------------------------------------ the round
    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after my turn: my Wild penalty and shield bonuses come back ("until the
        start of their next turn"); one row of the table of my plan against the foe as its last turn
        left it, with my braced weapons, is drawn; the foe takes its damage and my turn's own
        consequences are my new state. Each row plays its own round of :attr:`members` (its
        ``fight``)."""
        me = me.replace(
            wild_penalty=0 * me.wild_penalty,
            shield_ac_lost=0 * me.shield_ac_lost,
            shield_touch_ac_lost=0 * me.shield_touch_ac_lost,
        )
        keys = np.stack(
            [fights_of(me), foe.wild_penalty, foe.shield_ac_lost, foe.shield_touch_ac_lost, me.braced], axis=1
        )
        (drawn_me, drawn_foe), row = draw.row((me, foe), self._table(keys, plan))
        me, foe = cast(Combatant, drawn_me), cast(Combatant, drawn_foe)
        foe = foe.replace(damage_taken=foe.damage_taken + row["damage"])
        me = me.replace(
            wild_penalty=row["penalty"],
            shield_ac_lost=row["ac_lost"],
            shield_touch_ac_lost=row["touch_lost"],
            braced=row["braced"],
        )
        return me, foe

    def plans(self, me: Combatant, foe: Combatant) -> list[str]:
        """Return the plans of ``turn_plans`` in the one state given (my braced weapons, the foe as its
        last turn left it), in the order ties go by."""
        key = (
            int(foe.wild_penalty[0]),
            int(foe.shield_ac_lost[0]),
            int(foe.shield_touch_ac_lost[0]),
            int(me.braced[0]),
        )
        return list(self._turn_plans(key)[0])

    def describe(self, me: Combatant, foe: Combatant) -> dict[str, Any]:
        """Return the weapons braced in the one state given."""
        mask = int(me.braced[0])
        return {"braced": ", ".join(w.name for i, w in enumerate(self.me.weapons) if mask >> i & 1)}


@dataclasses.dataclass
class StepCombatant(Combatant):
    """An Unbound creature whose turn an encounter plays a roll at a time (:class:`RollStep`): also
    the rolls its turn still makes: ``queued_plan``, the turn's plan (its place among the attacker's
    plans, ``turn_actions``; -2 the plan given; -1 none left), ``queued_roll``, the next of its rolls,
    and ``queued_braced``, the weapons braced as the turn began (the rolls are worked out from them)."""

    queued_plan: np.ndarray
    queued_roll: np.ndarray
    queued_braced: np.ndarray
    #: 1 while a roll is about to be made on a foe other than the turn's target, fallen (the
    #: encounter's ``retarget``): the actions after the one under way are planned again; 0 otherwise
    replan: np.ndarray


class RollStep(UnboundRound):
    """Attack roll ``step`` (0-based) of a turn (``turn``: the whole turn's round), as an encounter
    plays it: CLARIFICATIONS.md, Encounters: "A target that dies during a creature's turn: the
    remaining attacks of the action under way go to the next living foe by the same policy (same
    weapons, same penalties)".

    The first roll is the turn's start: my Wild penalty and shield bonuses come back, the plan the
    damage play chooses against the target (or the given plan) is fixed and queued, and the turn's
    own consequences (Wild penalty, shield bonuses given up, braced weapons) are my new state. Each
    roll, the first included, is the plan's next attack roll (``slots``: weapon, penalties, Wild AC
    drop) drawn against the foe attacked then, as its last turn left it. The rolls are independent
    d20s, so against one foe the steps are the whole turn's table."""

    def __init__(self, turn: UnboundRound, step: int):
        self.__dict__.update({k: v for k, v in turn.__dict__.items() if k != "_steps"})
        self.whole, self.step = turn, step
        self.key = None if turn.key is None else hashed((turn.key, "roll", step))
        self.members = (self,)

    def start(self, passive: bool = False) -> tuple[StepCombatant, StepCombatant]:
        """Return the whole turn's start, no rolls queued."""
        none = np.full(1, -1, np.int64)
        return cast(
            tuple[StepCombatant, StepCombatant],
            tuple(
                StepCombatant(
                    **c.__dict__, queued_plan=none.copy(), queued_roll=0 * none, queued_braced=0 * none, replan=0 * none
                )
                for c in self.whole.start(passive)
            ),
        )

    def idle(self, me: StepCombatant) -> tuple[np.ndarray, StepCombatant]:
        """Return (where the turn under way has no roll left: nothing queued, the states as a later
        step leaves them: as they are). An encounter passes those states over, and the step makes no
        attack (workbench/fight/encounter.py)."""
        return np.asarray(me.queued_plan) == -1, me

    def retarget(self, me: StepCombatant) -> StepCombatant:
        """Return my states as this roll finds them where the turn's target fell before it: the
        damage play's marked to plan its actions after the one under way again against the foe
        attacked now ("the remaining attacks of the action under way go to the next living foe ...
        (same weapons, same penalties), and the turn's remaining actions are planned again against
        that foe", CLARIFICATIONS.md, Encounters; :meth:`_planned_again`); a given plan keeps its
        rolls."""
        if self.plan is not None:
            return me
        return me.replace(replan=(np.asarray(me.queued_plan) >= 0).astype(np.int64))

    def _planned_again(self, plan: int, roll: int, mask: int, foe_key: tuple[int, ...]) -> tuple[int, dict[str, int]]:
        """Return (the plan played from roll ``roll`` on, the turn's consequences) where the turn's
        target fell before that roll: among the attacker's plans (:meth:`_labels`) whose actions
        begin with those of plan ``plan`` up to the action of its last roll made (that action's
        rolls go on with the same weapons), the one whose rolls left deal the most expected damage to
        the foe as it stands (``foe_key``), ties to the first listed; its consequences as
        :meth:`_begun` works them out."""
        cache = self.whole.__dict__.setdefault("_again_at", {})
        at = (plan, roll, mask, foe_key)
        got = cache.get(at)
        if got is None:
            slots = self._slots(plan, mask)
            labels = self._labels()
            actions = self.sys.turn_actions(self.me, self.options, self._plain())
            done = actions[labels[plan]][: slots[roll - 1].action + 1]
            same = [k for k, label in enumerate(labels) if actions[label][: len(done)] == done]
            means = [self._mean_left(k, roll, mask, foe_key) for k in same]
            # (the one tie rule of the engine's plan choice: the first listed of the best)
            best = same[int(first_best(np.array(means), np.zeros(len(same), np.int64), 1)[0])]
            got = cache[at] = (best, self._begun((*foe_key, mask), labels[best])[1])
        return got

    def _mean_left(self, plan: int, roll: int, mask: int, foe_key: tuple[int, ...]) -> float:
        """Return the expected damage of plan ``plan``'s rolls from ``roll`` on (begun with ``mask``
        braced) against the foe as it stands (``foe_key``)."""
        tables = (self._roll_table(plan, r, mask, foe_key) for r in range(roll, len(self._slots(plan, mask))))
        return sum(float(t["damage"] @ t["probability"]) for t in tables)

    def _labels(self) -> list[str]:
        """Return the attacker's plans in a fixed order (``turn_actions``: they depend on the attacker,
        the options and the situation, not on the foe)."""
        got = self.__dict__.get("_plan_labels")
        if got is None:
            key = ("unbound plan labels", self.me, self.options, self._plain())
            got = MEMO.get(key, lambda: tuple(self.sys.turn_actions(self.me, self.options, self._plain())))
            got = self.__dict__["_plan_labels"] = list(got)
        return got

    def _plain(self) -> Any:
        """Return the situation without flanking: a plan queued by a step that flanks is read by one
        that does not (flanking adds to the roll, not to the plan's rolls)."""
        return _unflanked(self.situation)

    def _slots(self, plan: int, mask: int) -> list[Any]:
        """Return the attack rolls (``slots``) of plan ``plan`` (:meth:`_labels`; -2 the given plan)
        begun with the weapons of ``mask`` braced."""
        from .actions import as_actions

        cache = self.whole.__dict__.setdefault("_plan_slots", {})
        got = cache.get((plan, mask))
        if got is None:

            def work() -> list[Any]:
                if plan == -2:
                    actions = as_actions(list(self.plan))
                else:
                    actions = self.sys.turn_actions(self.me, self.options, self._plain())[self._labels()[plan]]
                return list(self.sys.slots(actions, self.braced_me(mask), self.options, self._plain()))

            # (shared by the rounds of every foe and flanking: a function of the attacker's plan)
            named = tuple(self.plan) if plan == -2 else plan
            got = MEMO.get(("unbound plan slots", self.me, self.options, self._plain(), named, mask), work)
            got = cache[(plan, mask)] = got
        return got

    def _begun(self, key: tuple[int, ...], plan: Any) -> tuple[int, dict[str, int]]:
        """Return (the plan played from state ``key`` (:meth:`_labels`; -2 the given plan, -1 none), the
        turn's own consequences), worked out once per (key, plan) as the whole turn's table does."""
        from .actions import as_actions, braced_by, self_ac_penalty, shield_loss

        cache = self.whole.__dict__.setdefault("_begun_at", {})
        got = cache.get((key, plan))
        if got is not None:
            return got
        me, _, sit = self._setting(key)
        mask = key[3]
        if plan is None and is_sequence_plan(self.plan):
            actions, index = as_actions(list(self.plan)), -2
        else:
            plans, turn_actions = self._turn_plans(key)
            label = plan if plan is not None else choose_label(plans, self.plan)
            actions = turn_actions[label] if isinstance(label, str) else []
            index = self._labels().index(label) if isinstance(label, str) else -1
        after = {"penalty": 0, "ac_lost": 0, "touch_lost": 0, "braced": mask}
        if actions:
            lost_ac, lost_touch = shield_loss(actions, me)
            after = {
                "penalty": int(self_ac_penalty(self.sys.slots(actions, me, self.options, sit))),
                "ac_lost": int(lost_ac),
                "touch_lost": int(lost_touch),
                "braced": int(mask | braced_mask(me, braced_by(actions, me))),
            }
        got = cache[(key, plan)] = (index, after)
        return got

    def _roll_table(self, plan: int, roll: int, mask: int, foe_key: tuple[int, ...]) -> dict[str, Any]:
        """Return the damage table of roll ``roll`` of plan ``plan`` (begun with ``mask`` braced)
        against the foe as its last turn left it (``foe_key``: its Wild penalty, shield AC and touch AC
        lost)."""
        cache = self.whole.__dict__.setdefault("_roll_tables", {})  # (shared by the turn's steps)
        at = (plan, roll, mask, foe_key)
        got = cache.get(at)
        if got is None:
            _, foe, sit = self._setting((*foe_key, 0))
            slot = self._slots(plan, mask)[roll]
            pmf = self.sys.slot_pmfs([(slot, self.braced_me(mask), foe, sit)], self.options)[0]
            keep = pmf > 0
            got = cache[at] = {"damage": np.flatnonzero(keep).astype(np.int64), "probability": pmf[keep]}
        return got

    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after this roll (class docstring): at the turn's first, my Wild penalty and
        shield bonuses come back and the plan is queued with the turn's consequences; the queued roll
        is drawn against the foe; after the plan's last roll (or the turn's last step) nothing is
        queued."""
        m = cast(StepCombatant, me)
        n = m.size
        foe_keys = np.stack([foe.wild_penalty, foe.shield_ac_lost, foe.shield_touch_ac_lost], axis=1)
        planned = np.asarray(m.queued_plan, np.int64)
        roll = np.asarray(m.queued_roll, np.int64)
        mask = np.asarray(m.queued_braced, np.int64)
        if self.step == 0:  # the turn's start: its plan fixed and its consequences taken
            keys = np.column_stack([foe_keys, m.braced])
            groups, inverse = row_groups(keys, plan)
            begun = [self._begun(tuple(k), label) for k, label in groups]
            planned = np.array([b[0] for b in begun], np.int64)[inverse]
            after = {c: np.array([b[1][c] for b in begun], np.int64)[inverse] for c in begun[0][1]}
            roll, mask = np.zeros(n, np.int64), np.asarray(m.braced, np.int64).copy()
            m = m.replace(
                wild_penalty=after["penalty"],
                shield_ac_lost=after["ac_lost"],
                shield_touch_ac_lost=after["touch_lost"],
                braced=after["braced"],
            )
        again = np.asarray(m.replan) > 0
        if again.any():  # the turn's target fell: the actions after the one under way planned again
            idx = np.flatnonzero(again)
            cells, back = distinct_rows(np.column_stack([planned[idx], roll[idx], mask[idx], foe_keys[idx]]))
            found = [self._planned_again(g, r, b, tuple(fk)) for g, r, b, *fk in cells.tolist()]
            planned = planned.copy()
            planned[idx] = np.array([f[0] for f in found], np.int64)[back]
            changes = {}
            for name, c in (
                ("wild_penalty", "penalty"),
                ("shield_ac_lost", "ac_lost"),
                ("shield_touch_ac_lost", "touch_lost"),
                ("braced", "braced"),
            ):  # (the consequences of the turn as now planned)
                column = np.array(getattr(m, name), np.int64)
                column[idx] = np.array([f[1][c] for f in found], np.int64)[back]
                changes[name] = column
            m = m.replace(**changes, replan=np.zeros(n, np.int64))
        code = np.column_stack([planned, roll, mask, foe_keys])
        uniq, inverse = distinct_rows(code)
        nothing = {"damage": np.zeros(1, np.int64), "probability": np.ones(1)}
        tables, more = [], []
        for g, r, b, *fk in uniq.tolist():
            size = len(self._slots(g, b)) if g != -1 else 0
            tables.append(self._roll_table(g, r, b, tuple(fk)) if r < size else nothing)
            more.append(r + 1 < size)
        go_on = np.array(more, dtype=bool)[inverse] & (self.step < len(self.whole.steps()) - 1)
        m = m.replace(
            queued_plan=np.where(go_on, planned, -1),
            queued_roll=np.where(go_on, roll + 1, 0),
            queued_braced=np.where(go_on, mask, 0),
        )
        (drawn_me, drawn_foe), row = draw.row((m, foe), stacked(tables, inverse, ("damage",)))
        foe2 = cast(Combatant, drawn_foe)
        return cast(Combatant, drawn_me), foe2.replace(damage_taken=foe2.damage_taken + row["damage"])


def state_effects(
    sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
) -> set[str]:
    """Return the effects of the turn ``plan`` picks (default: the best plan) that carry state to
    later turns (unbound-d20-attacking.txt): "wild attack" (a Wild Attack lowers the attacker's own
    AC "until the start of their next turn"), "shield bash" (a bash with a shield whose
    ``shield_ac`` or ``shield_touch_ac`` is not 0: "they lose all bonuses from that shield until the
    start of their next turn"), "braced weapon" (a Brace: "While braced ... the character gains
    advantage" on its later turns too); the empty set when there are none."""
    opts, sit = sys.defaults(options, situation)
    named = tuple(plan) if is_sequence_plan(plan) else plan
    # (a function of the models and the plan alone, asked for every row of a compare: memoised)
    key = ("unbound state effects", attacker, target, opts, sit, named)
    return set(MEMO.get(key, lambda: _state_effects(sys, attacker, target, opts, sit, plan)))


def _state_effects(sys: Any, attacker: Any, target: Any, opts: Any, sit: Any, plan: Any) -> frozenset[str]:
    """Return :func:`state_effects`, worked out (not looked up)."""
    from .actions import as_actions, braced_by, shield_loss

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
    return frozenset(out)
