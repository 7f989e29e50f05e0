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

from ...columns import Columns, Grouped, fights_of, row_groups, stacked
from ...dist import Dist
from ...fight.draw import Draw
from ...memo import MEMO, hashed
from ...plans import choose_label, dist_table, is_sequence_plan

__all__ = ["Combatant", "UnboundRound", "braced_mask", "state_effects"]

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
