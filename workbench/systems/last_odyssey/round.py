"""The Last Odyssey round, described once (issue 33): one side's turn and its phases between rounds
over named state, every random value from a :class:`~workbench.fight.draw.Draw`. The fight's
interpreters (workbench/fight/) derive from it the exact chain of rounds-to-kill, optimal play's
planned chain, the duel chain over both sides' state and the simulation; this module is the only
place the Last Odyssey fight is enacted.

The state of each creature (:class:`Combatant`): its HP damage taken, its Shell points left, its MP
left, its anima, whether it is Poisoned, whether it is still at full HP (kept only where a foe's
ability reads it) and the Effect Phases passed (counted only as far as its own phases read them).
Rules:

- MP: "When a character uses an ability that has an MP cost, their MP is reduced by that amount.
  Characters may never use an ability that costs more than their current MP" (srd/heroes/numbers.md;
  the text has no MP regeneration). Each turn plays the plan chosen at its start from the foe's
  Shell (up or broken) and the MP left: the damage play's (``turn_plans`` and the one plan chooser),
  or a given plan minus the MP abilities the MP left no longer pays for; each ability pays its cost
  on use.
- Shell: "a Shell is a pool of points that takes damage before HP"; once broken "spells lose their
  x2 and strikes gain theirs" (CLARIFICATIONS.md, Last Odyssey: Shell): each ability of a turn is
  drawn as the foe's Shell stands when it is used, its damage absorbed by the Shell points left.
- Phases (srd/combat/round.md): each round is "The Action Phase" (both sides' turns), then "The
  Effect Phase", then "The Paradigm Phase"; "An extra Paradigm Phase also takes place at the
  beginning of the first round of every battle" (:meth:`PhasedRound.between`, ``opening``). In the
  Effect Phase a Poisoned creature "takes damage equal to one tenth of their base maximum HP rounded
  down, with a minimum damage of 1" (srd/combat/statuses.md), then each effect-phase sleight may
  Poison the foe (Miasma, "for the duration of the battle"), then after the third Effect Phase the
  abilities that wait for it (Foretell Doom: "After the Effect Phase in battle passes three times",
  srd/warriors/examples/tier/06.md). In the Paradigm Phase the first paradigm action the anima left
  pays for ("Antagonists can only use one paradigm action per round", srd/anima/paradigm.md), the
  anima it spends handed to the foe, at most 10 ("Any excess anima gained above 10 dissipates
  instead", srd/anima/spending.md). An ability that reads whether the foe is at full HP
  (Dragonslayer: "If the target is not at full HP, the attack deals 2x damage instead") reads its
  ``unhurt``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, cast

import numpy as np

from ...columns import Columns, fights_of, row_groups, stacked
from ...dist import Dist
from ...errors import RulesError
from ...fight.draw import Draw
from ...foe_order import FoeOrder
from ...memo import MEMO, hashed
from ...plans import choose_label, dist_table, is_sequence_plan
from ...turns import best_plan
from .models import MAX_ANIMA, MAX_TARGETS

__all__ = [
    "Combatant",
    "LastOdysseyRound",
    "PhasedRound",
    "StepCombatant",
    "UseStep",
    "fight_round",
    "state_effects",
    "phase_effects",
    "duel_couplings",
    "poison_damage",
    "ONE_SIDED",
    "PHASE_TIMINGS",
]

C = TypeVar("C", bound=Columns)

#: the timings of abilities played between rounds (models.TIMINGS but "action")
PHASE_TIMINGS = ("effect_phase", "paradigm_phase", "after_third_effect_phase")


@dataclasses.dataclass
class Combatant(Columns):
    """Last Odyssey creatures in a batch of fights: ``damage_taken`` (HP lost), ``shell_left`` (its
    Shell points), ``mp_left``, ``anima``, ``poisoned`` (0/1), ``unhurt`` (1 while it has lost no HP,
    kept only where its foe reads it) and ``effect_phases`` (passed, counted up to 3 only where its
    own phases wait for the third)."""

    damage_taken: np.ndarray
    shell_left: np.ndarray
    mp_left: np.ndarray
    anima: np.ndarray
    poisoned: np.ndarray
    unhurt: np.ndarray
    effect_phases: np.ndarray


@dataclasses.dataclass
class _Uses(Columns):
    """Per fight, what a turn or phase carries through its draws so that an enumerated fight keeps its
    own: the use ids of its turn (a row, -1 padded), or the anima a paradigm action spends."""

    uses: np.ndarray


@dataclasses.dataclass
class _GroupTurn(Columns):
    """Per fight, what a turn over several foes carries through its draws
    (:meth:`LastOdysseyRound.group_turn`): the use ids of its plan (a row, -1 padded), the foe (its place among the turn's
    foes) that plan was made against, the action points left, and the attacks made on each foe (its
    uses that struck it while it stood: spread targeting counts them)."""

    uses: np.ndarray
    aimed: np.ndarray
    ap_left: np.ndarray
    struck: np.ndarray


def poison_damage(creature: Any) -> int:
    """Return the damage Poisoned deals each Effect Phase: one tenth of the base maximum HP (the
    creature's ``hp``) rounded down, at least 1 (srd/combat/statuses.md, Poisoned)."""
    return max(1, int(creature.hp) // 10)


class LastOdysseyRound:
    """The turn of ``me`` attacking ``foe`` (module docstring): the one Last Odyssey round."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        self.sys = sys  # the Last Odyssey rule system (its plans, tables and action economy)
        self.me, self.foe, self.plan = me, foe, plan
        self.options = self.sys.options_of(options)
        self.situation = situation if situation is not None else self.sys.Situation()
        self.full_shell = int(self.sys.shell_points(foe))
        named = tuple(plan) if is_sequence_plan(plan) else plan
        # the tables and plans are a function of the models, options, situation and plan alone
        self.key = None if callable(plan) else hashed(("last_odyssey", me, foe, self.options, self.situation, named))
        self._memo = hashed(("last_odyssey", me, foe, self.options, self.situation))
        #: the uses a turn or a phase draws from: (ability, "turn" | "phase") or a plan function's Dist
        self._uses: list[Any] = []
        self._use_at: dict[Any, int] = {}
        self._tables: dict[tuple[int, bool, bool], dict[str, np.ndarray]] = {}
        self._plans: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._labels: dict[tuple[bool, int], list[str]] = {}  # plans(): the labels legal by (Shell up, MP)
        self.reads_full = False  # a phase ability of mine reads whether my foe is at full HP
        self.counts_phases = 0  # the Effect Phases my phases count up to
        #: the joint tables of multi-target uses in a group (:meth:`_draw_multi`)
        self._multi_tables: dict[Any, dict[str, np.ndarray]] = {}
        #: the mean damage of a multi-target use to the foes beside its target (:meth:`_beside`)
        self._beside_means: dict[Any, float] = {}
        #: the rounds whose fights a batch of this round holds, read by each row's ``fight``: this
        #: round alone, or the rounds of a :meth:`stack`
        self.members: tuple[LastOdysseyRound, ...] = (self,)
        self._of: list[tuple[int, int]] = []  # a stack's use ids: (member, the member's own use id)

    @classmethod
    def stack(cls, rounds: list[LastOdysseyRound]) -> LastOdysseyRound:
        """Return one round over the fights of ``rounds``: each row of a batch plays the round its
        ``fight`` names (:func:`~workbench.columns.fights_of`), so a level of many fights is
        enumerated in one call of :meth:`turn` (workbench/fight/chain.py). Its use ids name (member,
        the member's own use) pairs (:meth:`_ids`), and each draw reads the member's tables
        (:meth:`_own`). Only :meth:`turn` is played on it."""
        out = cls.__new__(cls)
        out.members, out.key, out.reads_full = tuple(rounds), None, rounds[0].reads_full
        out._uses, out._use_at, out._of = [], {}, []
        return out

    def _ids(self, f: int, uses: tuple[int, ...]) -> tuple[int, ...]:
        """Return the ids in this round of member ``f``'s own use ids ``uses``: themselves in a
        round that is not a stack."""
        if self.members[0] is self:
            return uses
        out = []
        for u in uses:
            i = self._use_at.get((f, u))
            if i is None:
                i = self._use_at[(f, u)] = len(self._uses)
                self._uses.append(self.members[f]._uses[u])
                self._of.append((f, u))
            out.append(i)
        return tuple(out)

    def _own(self, k: _TableKey) -> tuple[LastOdysseyRound, _TableKey]:
        """Return (the member whose use ``k[0]`` is, ``k`` in its own use ids): this round and ``k``
        in a round that is not a stack."""
        if self.members[0] is self:
            return self, k
        f, u = self._of[k[0]]
        return self.members[f], (u, k[1], k[2])

    # ------------------------------------------------------------------ the state
    def start(self, passive: bool = False) -> tuple[Combatant, Combatant]:
        """Return (the attacker's state, the target's state) as a fight starts: no HP lost, the
        Shells whole, the MP and anima of the stat lines, nobody Poisoned."""
        return self._combatant(self.me), self._combatant(self.foe)

    def _combatant(self, creature: Any) -> Combatant:
        def one(v: int) -> np.ndarray:
            return np.full(1, v, np.int64)

        return Combatant(
            one(0), one(self.sys.shell_points(creature)), one(creature.mp), one(creature.anima), one(0), one(1), one(0)
        )

    def hit_points(self, who: int) -> int:
        """Return the HP of the attacker (0) or the target (1) (a Shell is apart: ``shell_left``)."""
        return int(self.sys.hit_points(self.foe if who else self.me))

    def hurt(self, foe: Combatant, damage: np.ndarray) -> Combatant:
        """Return ``foe`` after ``damage``: "a Shell is a pool of points that takes damage before HP"
        (CLARIFICATIONS.md, Last Odyssey: Shell), the rest is HP lost."""
        absorbed = np.minimum(damage, foe.shell_left)
        lost = damage - absorbed
        unhurt = foe.unhurt & (lost == 0) if self.reads_full else foe.unhurt
        return foe.replace(shell_left=foe.shell_left - absorbed, damage_taken=foe.damage_taken + lost, unhurt=unhurt)

    # ------------------------------------------------------------------ the uses and their tables
    def _use(self, use: Any) -> int:
        """Return the id of a use: (ability, "turn" | "phase"), or a plan function's Dist (by identity:
        a Dist is not hashable; it stays in :attr:`_uses`, so its id is not reused)."""
        key = ("dist", id(use)) if isinstance(use, Dist) else use
        i = self._use_at.get(key)
        if i is None:
            i = self._use_at[key] = len(self._uses)
            self._uses.append(use)
        return i

    def _ensure(self, keys: list[tuple[int, bool, bool]]) -> None:
        """Build the tables of ``keys`` not built yet (:func:`_ensure_all`, one call; a stack's,
        each in its member)."""
        _ensure_all([self._own(k) for k in keys])

    def _draw(
        self, me: Combatant, foe: Combatant, carry: tuple[Columns, ...], draw: Draw, use: np.ndarray
    ) -> tuple[Combatant, Combatant, tuple[Columns, ...], np.ndarray, np.ndarray]:
        """Return (me, foe, carry, the drawn damage, the drawn status) of one use per fight: use
        ``use[i]`` (an index of :attr:`_uses`; -1: none, nothing dealt) drawn as fight i's foe Shell
        and (a phase use) full HP stand; ``carry``, more columns of the fights, is expanded with them."""
        up = foe.shell_left > 0
        full = (foe.unhurt > 0) | (use < 0) | ~self._reads_hp(use)
        keys = np.stack([use, up, full], axis=1).astype(np.int64)
        groups, inverse = row_groups(keys, None)
        none = {"damage": np.zeros(1, np.int64), "status": np.zeros(1, np.int64), "probability": np.ones(1)}
        wanted = [(k[0], bool(k[1]), bool(k[2])) for k, _ in groups]
        self._ensure([k for k in wanted if k[0] >= 0])
        owned = [self._own(k) if k[0] >= 0 else None for k in wanted]
        tables = [none if o is None else o[0]._tables[o[1]] for o in owned]
        states, row = draw.row((me, foe, *carry), stacked(tables, inverse, ("damage", "status")))
        me, foe = cast(Combatant, states[0]), cast(Combatant, states[1])
        return me, foe, states[2:], row["damage"], row["status"]

    def _reads_hp(self, use: np.ndarray) -> np.ndarray:
        """Return, per use id of ``use`` (-1: none), whether its table reads the foe's full HP (a phase
        ability's)."""
        phase = np.array([not isinstance(u, Dist) and u[1] == "phase" for u in self._uses] + [False])
        return phase[use]

    # ------------------------------------------------------------------ the plans
    def _choose(self, shell_on: bool, mp: int, plans: dict[str, Dist] | None = None) -> tuple[Any, ...] | Dist | None:
        """Return the abilities of the turn played while the foe's Shell is up (``shell_on``) or broken,
        with ``mp`` MP left; a Dist when a plan function returns one, None when no plan is legal.
        Without a plan: those of the plan ``turn_plans`` and the one plan chooser pick among the plans
        ``mp`` pays for. A given plan (a list, or a label) is checked against the full MP
        (``plan_items``), and each turn uses its abilities in order, each one the MP left still pays
        for ("Characters may never use an ability that costs more than their current MP",
        srd/heroes/numbers.md): once the MP runs out, its MP abilities are left out of the turn.
        ``plans``: the ``turn_plans`` of the state when the caller has them (:meth:`prepare_turns`)."""
        if not self._chooses(mp):
            named = list(self.plan) if is_sequence_plan(self.plan) else str(self.plan).split(" + ")
            attacks = self.sys.plan_items(self.me, [self.sys.attack_named(self.me, x) for x in named], self.options)
            paid = []
            for a in attacks:
                if a.mp_cost <= mp:
                    paid.append(a)
                    mp -= a.mp_cost
            return tuple(paid) or None
        if plans is None:
            a, t, sit = self._plan_pair(shell_on, mp)
            plans = self.sys.turn_plans(a, t, self.options, sit)
        label = choose_label(plans, self.plan)
        if label is None or isinstance(label, Dist):
            return label
        return tuple(self.sys.attack_named(self.me, x) for x in label.split(" + "))

    def _chooses(self, mp: int) -> bool:
        """Return whether the turn from ``mp`` MP left is the damage play's choice among
        ``turn_plans`` (:meth:`_choose`), not a given plan."""
        return not (is_sequence_plan(self.plan) or (isinstance(self.plan, str) and mp < self.me.mp))

    def _plan_pair(self, shell_on: bool, mp: int) -> tuple[Any, Any, Any]:
        """Return (attacker, target, situation) of the ``turn_plans`` the damage play chooses among
        with ``mp`` MP left, the foe's Shell up (``shell_on``) or broken."""
        sit = self.situation.replace(target_shell_points=self.full_shell if shell_on else 0)
        return self.me.replace(mp=mp), self.foe, sit

    @classmethod
    def prepare_turns(cls, items: list[tuple[LastOdysseyRound, Combatant, Combatant]]) -> None:
        """Build what the turns of many rounds from these states (a level of a compare's fights) read,
        for all of them at once: the damage play's plan of each (Shell up, MP left) met (every
        ``turn_plans`` in ONE ``turn_plans_many`` call, each round's choice made from its own, as
        :meth:`_choose` makes it), then every chosen plan's tables (:func:`_ensure_all`). Nothing
        here changes a number: each round would build the same, one call at a time."""
        states = []
        for rnd, me, foe in items:
            if rnd.key is None:
                continue
            up = (foe.shell_left > 0).tolist()
            for on, mp in dict.fromkeys(zip(up, me.mp_left.tolist())):
                if (on, mp, None) not in rnd._plans:
                    states.append((rnd, bool(on), int(mp)))
        # the damage play's plans of every state met, in ONE turn_plans_many call per options
        choose: dict[Any, list[tuple[LastOdysseyRound, bool, int]]] = {}
        for rnd, on, mp in states:
            if rnd._chooses(mp) and MEMO.lookup((rnd.key, "plan", on, mp)) is None:
                choose.setdefault((rnd.sys, rnd.options), []).append((rnd, on, mp))
        plans: dict[tuple[int, bool, int], Any] = {}
        for (sys, options), asked in choose.items():
            args = [r._plan_pair(on, mp) for r, on, mp in asked]
            got = sys.turn_plans_many([(a, t) for a, t, _ in args], options, [sit for *_, sit in args])
            for (r, on, mp), p in zip(asked, got):
                plans[(id(r), on, mp)] = p
        wanted = []
        for rnd, on, mp in states:
            given = plans.get((id(rnd), on, mp))
            if isinstance(given, RulesError):
                continue  # (its own turn meets the refusal again, and raises)
            try:
                uses = rnd._plan_uses(on, mp, None, tables=False, plans=given)
            except RulesError:
                continue  # (its own turn meets it again, and raises)
            wanted += [(rnd, (u, o, True)) for u in uses for o in ((True, False) if on else (False,))]
        try:
            _ensure_all(wanted)
        except RulesError:
            pass  # (refused in some Shell state: each draw builds its own, and raises when met)

    def _sits(self, models: list[Any], ups: tuple[int, ...]) -> list[Any]:
        """Return the situation of a use on each of ``models``, its Shell up where ``ups`` says so."""
        return [
            self.situation.replace(target_shell_points=int(self.sys.shell_points(t)) if on else 0)
            for t, on in zip(models, ups)
        ]

    def _beside(self, ability: Any, ups: tuple[int, ...], models: list[Any]) -> float:
        """Return the mean damage one use of the multi-target ``ability`` deals to the foes beside its
        target (``models[0]``; the next foes up to its number of targets, each one's Shell up where
        ``ups`` says so): the columns after the first of ``multi_target_outcomes``' joint table."""
        n = len(models) if ability.targets == "all" else min(len(models), int(ability.targets))
        key = (ability.name, ups[:n], tuple(id(m) for m in models[:n]))
        if key not in self._beside_means:
            if n < 2:
                self._beside_means[key] = 0.0
            else:
                frame = self.sys.multi_target_outcomes(
                    ability, self.me, models[:n], self.options, self._sits(models[:n], ups[:n])
                )
                p = frame["probability"].to_numpy()
                self._beside_means[key] = float(sum((frame[f"damage_{k}"].to_numpy() * p).sum() for k in range(1, n)))
        return self._beside_means[key]

    def _rest_plan(
        self, shell_on: bool, mp: int, ap: int, foes: list[Any], ups: tuple[int, ...] = ()
    ) -> tuple[Any, ...]:
        """Return the abilities the damage play uses with the ``ap`` action points left of a turn and
        ``mp`` MP left, against ``foes[0]`` (its Shell up or broken: ``shell_on``): "the turn's
        remaining actions are planned again against that foe" (CLARIFICATIONS.md, Encounters). The
        legal plans within those action points (``legal_plans``), the highest expected damage, a
        multi-target ability counting the foes beside it (``foes[1:]``, their Shells up where
        ``ups[1:]`` says so, :meth:`_beside`), ties to the first listed
        (:func:`~workbench.turns.best_plan`); () when none."""
        cache = self.__dict__.setdefault("_rest_plans", {})
        key = (shell_on, mp, ap, ups, tuple(map(id, foes)))
        got = cache.get(key)
        if got is None:
            a = self.me.replace(mp=mp)
            t = foes[0]
            sit = self.situation.replace(target_shell_points=int(self.sys.shell_points(t)) if shell_on else 0)
            legal = self.sys.legal_plans(a, t, self.options, sit, action_points=ap)
            got = ()
            if legal:
                table = self.sys.turn_tables([(a, t)] * len(legal), self.options, sit, plans=[x for _, x in legal])
                dists = {legal[i][0]: table.dist(j) for j, i in enumerate(table.pair.tolist())}
                more = {}
                if len(foes) > 1:
                    more = {
                        label: sum(self._beside(x, ups, foes) for x in items if x.targets != 1)
                        for label, items in legal
                    }
                if dists:
                    got = tuple(dict(legal)[best_plan(dists, more)])
            cache[key] = got
        return got

    def _plan_uses(
        self,
        shell_on: bool,
        mp: int,
        label: str | None,
        beside: tuple[tuple[int, ...], list[Any]] | None = None,
        tables: bool = True,
        plans: dict[str, Dist] | None = None,
    ) -> tuple[int, ...]:
        """Return the use ids of the turn from (the foe's Shell up, ``mp`` MP left): the plan
        ``label`` (optimal play's choice) or, None, the damage play's (:meth:`_choose`); ``beside``:
        in an encounter, (each struck foe's Shell up, their creatures), the damage play's counting
        the foes a multi-target ability strikes beside its target, "a multi-target ability's
        [damage] to each target" (CLARIFICATIONS.md, Encounters: Targets; :meth:`_rest_plan`).
        The plan's tables are built with it (``tables`` False: left to the caller, which builds
        many rounds' at once, :meth:`prepare_turns`; a draw builds what it still misses); ``plans``:
        the state's ``turn_plans`` when the caller has them."""
        k = (shell_on, mp, label) if beside is None else (shell_on, mp, label, beside[0], tuple(map(id, beside[1])))
        if k not in self._plans:
            if label is not None:
                got: Any = tuple(self.sys.attack_named(self.me, x) for x in label.split(" + "))
            elif beside is not None:  # (a whole turn's action points: the plan counting every foe it strikes)
                ups, models = beside
                ap = int(self.sys.actions_per_turn(self.me, self.options))
                got = self._rest_plan(shell_on, mp, ap, models, ups) or None
            elif self.key is None:
                got = self._choose(shell_on, mp, plans)
            else:
                got = MEMO.get((self.key, "plan", shell_on, mp), lambda: self._choose(shell_on, mp, plans))
            if got is None:
                self._plans[k] = ()
            elif isinstance(got, Dist):
                self._plans[k] = (self._use(got),)
            else:
                self._plans[k] = tuple(self._use((a, "turn")) for a in got)
                if not tables:
                    return self._plans[k]
                # the plan's abilities as the Shell may stand during the turn, built in one call
                shells = (True, False) if shell_on else (False,)
                try:
                    self._ensure([(u, on, True) for u in self._plans[k] for on in shells])
                except RulesError:  # refused in the other Shell state only: it raises when met
                    self._ensure([(u, shell_on, True) for u in self._plans[k]])
        return self._plans[k]

    def plans(self, me: Combatant, foe: Combatant) -> list[str]:
        """Return the plans of ``turn_plans`` the MP left pays for, as the foe's Shell stands, in the
        one state given, in the order ties go by."""
        shell_on, mp = bool(foe.shell_left[0] > 0), int(me.mp_left[0])
        got = self._labels.get((shell_on, mp))
        if got is None:  # (the labels depend on the Shell and the MP alone: asked once per pair)
            sit = self.situation.replace(target_shell_points=self.full_shell if shell_on else 0)
            got = self._labels[shell_on, mp] = list(
                self.sys.turn_plans(self.me.replace(mp=mp), self.foe, self.options, sit)
            )
        return list(got)

    def describe(self, me: Combatant, foe: Combatant) -> dict[str, Any]:
        """Return the MP left and the foe's Shell left in the one state given (with phases, also
        whether the foe is Poisoned, the anima left and the Effect Phases passed)."""
        return {"mp_left": int(me.mp_left[0]), "shell_left": int(foe.shell_left[0])}

    def steps(self, refund: bool = True) -> list[LastOdysseyRound]:
        """Return the turn as rounds of one use each (:class:`UseStep`), played in order by an
        encounter, so that when the target falls the uses left go to the next living foe, planned
        again; the whole turn (this round) when it has one use at most, when a use strikes several
        foes (``group_turn`` plays the turn over them) or when a plan function gives its damage."""
        got = self.__dict__.get("_steps")
        if got is None:
            # (every use costs an action point, or is the turn's last: at most one use a point)
            most = int(self.sys.actions_per_turn(self.me, self.options))
            whole = callable(self.plan) and not is_sequence_plan(self.plan)
            if most <= 1 or whole or self.reach > 1:
                got = [self]
            else:
                cls = PhasedUseStep if isinstance(self, PhasedRound) else UseStep
                got = [cls(self, k) for k in range(most)]
            self.__dict__["_steps"] = got
        return got

    # ------------------------------------------------------------------ the turn
    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after my turn: the plan of the foe's Shell and my MP at its start, its
        abilities used in order, each drawn as the foe's Shell stands, paying its MP cost, its
        damage absorbed by the Shell first (module docstring). Each row plays its own round of
        :attr:`members` (its ``fight``)."""
        up = (foe.shell_left > 0).astype(np.int64)
        groups, inverse = row_groups(np.stack([fights_of(me), up, me.mp_left], axis=1), plan)
        seqs = [self._ids(f, self.members[f]._plan_uses(bool(on), int(mp), label)) for (f, on, mp), label in groups]
        width = max((len(s) for s in seqs), default=0)
        table = np.full((len(seqs), width), -1, np.int64)
        for i, s in enumerate(seqs):
            table[i, : len(s)] = s
        carry = _Uses(table[inverse])
        cost = self._costs()[0]
        for j in range(width):
            me, foe, got, damage, _ = self._draw(me, foe, (carry,), draw, carry.uses[:, j])
            carry = cast(_Uses, got[0])
            me = me.replace(mp_left=me.mp_left - cost[carry.uses[:, j]])  # paid on use (-1: the 0 at the end)
            foe = self.hurt(foe, damage)
        return me, foe

    # ------------------------------------------------------------------ in a group (optional hooks)
    @property
    def reach(self) -> int:
        """Return the most foes one turn of mine strikes: an ability that "targets more than one
        character" ("Multi": Cleave, Elemental Storm ...) strikes every living foe up to its number
        of targets (CLARIFICATIONS.md, Encounters), and each later use of the turn may strike as many
        new ones after those fell, so that number times the uses a turn makes (its action points over
        the cheapest ability's); 1 when none of my abilities does (of a plan given as a list or a
        label, none of its abilities)."""
        abilities = self.sys.attacks_of(self.me)
        if is_sequence_plan(self.plan) or isinstance(self.plan, str):
            named = list(self.plan) if is_sequence_plan(self.plan) else str(self.plan).split(" + ")
            abilities = [self.sys.attack_named(self.me, x) for x in named]
        most = 1
        for a in abilities:
            most = max(most, MAX_TARGETS if a.targets == "all" else int(a.targets))
        if most == 1 or not abilities:
            return 1
        ap = int(self.sys.actions_per_turn(self.me, self.options))
        uses = max(1, ap // min(max(1, int(a.ap_cost)) for a in abilities))
        return min(MAX_TARGETS, most * uses)

    def _multi(self, use: np.ndarray) -> np.ndarray:
        """Return, per use id of ``use`` (-1: none), whether it is a turn's ability with more than one
        target."""
        multi = [not isinstance(u, Dist) and u[1] == "turn" and u[0].targets != 1 for u in self._uses]
        return np.array([*multi, False])[use]

    @staticmethod
    def _targets(u: Any, foes: int) -> int:
        """Return how many foes the use ``u`` of :attr:`_uses` strikes, of ``foes``: an ability's number
        of targets ("all": every one), 1 for another use (a plan function's turn)."""
        if isinstance(u, Dist) or u[1] != "turn" or u[0].targets == 1:
            return 1
        return foes if u[0].targets == "all" else min(foes, int(u[0].targets))

    def _one_target(self, use: np.ndarray) -> np.ndarray:
        """Return, per use id of ``use`` (-1: none), whether it is a turn's ability with one target."""
        one = [not isinstance(u, Dist) and u[1] == "turn" and u[0].targets == 1 for u in self._uses]
        return np.array([*one, False])[use]

    def group_turn(
        self,
        me: Combatant,
        foes: list[Combatant],
        draw: Draw,
        models: list[Any],
        plan: Any = None,
        order: FoeOrder | None = None,
    ) -> tuple[Combatant, list[Combatant], np.ndarray]:
        """Return (me, foes, the attacks on each foe: per fight, my uses that struck it while it stood)
        after my turn in a group (``foes[0]`` my target, then the next living foes by the encounter's
        policy; ``models`` their creatures): the plan of the target's Shell
        and my MP (as :meth:`turn`); an ability with one target drawn against ``foes[0]``, an ability
        with more ("Multi") drawn ONCE for all of ``foes`` up to its number of targets ("the hit die
        is only cast once, and the resulting number determines whether they hit and the base damage
        they deal against each one separately", last-odyssey-attacks.txt; the joint table of
        ``multi_target_outcomes``, each foe's Shell as it stands), each foe's damage absorbed by its
        own Shell first. Once the foe struck has fallen, a use strikes the next living foe by the
        policy's ``order`` as the turn stands ("the remaining attacks of the action under way go to
        the next living foe by the same policy", CLARIFICATIONS.md, Encounters; default the order
        given), with that foe's own table, and the damage play plans the action points left again
        against it ("and the turn's remaining actions are planned again against that foe":
        :meth:`_plan_again`); a multi-target use strikes that foe and the next living ones in the
        order."""
        ups = [(f.shell_left > 0).astype(np.int64) for f in foes]
        # the damage play counts the foes a multi-target ability strikes beside the target
        counts = self.plan is None and len(foes) > 1 and self.reach > 1
        cols = [ups[0], me.mp_left, *(ups if counts else [])]
        groups, inverse = row_groups(np.stack(cols, axis=1), plan)
        seqs = [
            self._plan_uses(bool(k[0]), int(k[1]), label, (tuple(k[2:]), models) if counts and label is None else None)
            for k, label in groups
        ]
        ap = int(self.sys.actions_per_turn(self.me, self.options))
        again = self.plan is None and plan is None and len(foes) > 1  # (the damage play plans the rest again)
        width = max([len(x) for x in seqs] + ([ap] if again else []), default=0)
        table = np.full((len(seqs), width), -1, np.int64)
        for i, x in enumerate(seqs):
            table[i, : len(x)] = x
        n = me.size
        carry = _GroupTurn(
            table[inverse], np.zeros(n, np.int64), np.full(n, ap, np.int64), np.zeros((n, len(foes)), np.int64)
        )
        # per use id: how many foes it strikes from the one it is aimed at (-1, none: 0)
        reach = np.array([*(self._targets(u, len(foes)) for u in self._uses), 0], np.int64)
        hp = np.array([int(self.sys.hit_points(m)) for m in models[: len(foes)]], np.int64)
        order = FoeOrder("given", tuple(range(len(foes)))) if order is None else order
        K = len(foes)
        for j in range(width):
            # the foe struck now: the one the turn strikes while it stands (its target, or the foe it
            # went on to), else the next living foe by the policy as things stand (CLARIFICATIONS.md,
            # Encounters); the others in that order after it
            up = np.stack([f.damage_taken < h for f, h in zip(foes, hp)], axis=1)
            left = hp[None, :] - np.stack([f.damage_taken for f in foes], axis=1)
            held = up[np.arange(me.size), carry.aimed]
            first_up = np.where(held, carry.aimed, order.first(up, left, carry.struck))
            ranked = order.ranked(up, left, carry.struck)
            if again:  # "the turn's remaining actions are planned again against that foe"
                carry = self._plan_again(carry, j, first_up, me, foes, models, up, ranked)
            carry = carry.replace(aimed=first_up)
            use = carry.uses[:, j]
            other = (self._one_target(use) | self._multi(use)) & (first_up > 0)
            at = np.where(other | self._multi(use), first_up, 0)
            # the attacks this use makes: on the foe at ``at`` and the living ones next in the order,
            # up to its number of targets
            places = order.places(up, left, carry.struck, at)
            hit = (up & (np.arange(K)[None, :] == at[:, None])) | (places < reach[use][:, None] - 1)
            hit &= (reach[use] > 0)[:, None]  # (no use: no attack)
            carry = carry.replace(struck=carry.struck + hit)
            # a use with one target on the turn's target: its own table; the others from the foe at
            # ``at`` (each foe's own table, a multi-target use over the foes from there)
            me, first, got, damage, _ = self._draw(
                me,
                foes[0],
                (carry, _Uses(at), _Uses(ranked), *foes[1:]),
                draw,
                np.where(self._multi(use) | other, -1, use),
            )
            carry, at, ranked = cast(_GroupTurn, got[0]), cast(_Uses, got[1]).uses, cast(_Uses, got[2]).uses
            foes = [self.hurt(first, damage), *cast(list[Combatant], list(got[3:]))]
            use = carry.uses[:, j]
            rest = (self._one_target(use) & (at > 0)) | self._multi(use)
            if rest.any():
                living = np.stack([f.damage_taken < h for f, h in zip(foes, hp)], axis=1)  # (as the draws left them)
                me, foes, carry, dealt = self._draw_multi(
                    me, foes, carry, draw, np.where(rest, use, -1), models, at, living, ranked
                )
                foes = [self.hurt(f, d) for f, d in zip(foes, dealt)]
            use = carry.uses[:, j]
            mp_cost, ap_cost = self._costs()
            me = me.replace(mp_left=me.mp_left - mp_cost[use])
            carry = carry.replace(ap_left=carry.ap_left - ap_cost[use])
        return me, foes, carry.struck

    def _costs(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the MP and the action points each use id costs (-1, none: 0; a plan function's
        Dist: 0)."""
        mp = [0 if isinstance(u, Dist) else int(u[0].mp_cost) for u in self._uses]
        ap = [0 if isinstance(u, Dist) else int(u[0].ap_cost) for u in self._uses]
        return np.array([*mp, 0], np.int64), np.array([*ap, 0], np.int64)

    def _plan_again(
        self,
        carry: _GroupTurn,
        j: int,
        first_up: np.ndarray,
        me: Combatant,
        foes: list[Combatant],
        models: list[Any],
        up: np.ndarray,
        ranked: np.ndarray,
    ) -> _GroupTurn:
        """Return ``carry`` with the uses from ``j`` on planned again where the foe the turn's plan
        was made against has fallen and the turn has uses and action points left: against the foe
        struck now (``first_up``), with the MP and action points left (:meth:`_rest_plan`, counting
        the living foes (``up``: standing) next in the policy's order (``ranked``, each fight's foes
        in it) that a multi-target ability strikes)."""
        moved = (first_up != carry.aimed) & (carry.uses[:, j] >= 0) & (carry.ap_left > 0)
        if not moved.any():
            return carry
        idx = np.flatnonzero(moved)
        K = len(foes)
        shells = np.stack([(f.shell_left[idx] > 0).astype(np.int64) for f in foes], axis=1)
        keys = np.column_stack([first_up[idx], me.mp_left[idx], carry.ap_left[idx], shells, up[idx], ranked[idx]])
        groups, inverse = row_groups(keys, None)
        uses = carry.uses.copy()
        uses[idx, j:] = -1
        for g, ((a, mp, left, *rest), _) in enumerate(groups):
            sh, living, ranks = rest[:K], rest[K : 2 * K], rest[2 * K :]
            ks = [
                a,
                *(k for k in ranks if k != a and living[k]),
            ]  # (the foe planned against, the living next in the order)
            plan = self._rest_plan(bool(sh[a]), mp, left, [models[k] for k in ks], tuple(sh[k] for k in ks))
            ids = [self._use((x, "turn")) for x in plan][: uses.shape[1] - j]
            uses[idx[inverse == g], j : j + len(ids)] = ids
        return carry.replace(uses=uses, aimed=np.where(moved, first_up, carry.aimed))

    def _draw_multi(
        self,
        me: Combatant,
        foes: list[Combatant],
        carry: C,
        draw: Draw,
        use: np.ndarray,
        models: list[Any],
        at: np.ndarray | None = None,
        alive: np.ndarray | None = None,
        ranked: np.ndarray | None = None,
    ) -> tuple[Combatant, list[Combatant], C, list[np.ndarray]]:
        """Return (me, foes, carry, the damage each foe takes) of one use per fight (``use[i]``, -1:
        none): one row of the joint table of ``multi_target_outcomes`` against the foe ``at[i]``
        (default the first) and the living foes (``alive``, default all) next in the order
        (``ranked``: each fight's foes in the policy's order; default as given), up to the ability's
        number of targets, as each one's Shell stands (a use with one target: against foe ``at[i]``
        alone)."""
        K = len(foes)
        at = np.zeros(use.size, np.int64) if at is None else at
        alive = np.ones((use.size, K), np.int64) if alive is None else np.asarray(alive, np.int64)
        ranked = np.broadcast_to(np.arange(K), (use.size, K)) if ranked is None else ranked
        ups = np.stack([(f.shell_left > 0).astype(np.int64) for f in foes], axis=1)
        groups, inverse = row_groups(np.column_stack([use, at, ups, alive, ranked]), None)
        cols = tuple(f"damage_{k}" for k in range(K))
        tables = []
        memo = self._multi_tables
        for key, _ in groups:
            u, a, shells, living, ranks = key[0], key[1], key[2 : 2 + K], key[2 + K : 2 + 2 * K], key[2 + 2 * K :]
            if u < 0:
                tables.append({**{c: np.zeros(1, np.int64) for c in cols}, "probability": np.ones(1)})
                continue
            # "every living foe up to the ability's number of targets": ``a``, then the living foes
            # next in the order
            order = [a, *(k for k in ranks if k != a and living[k])][: self._targets(self._uses[u], K)]
            ability = self._uses[u][0]
            n = len(order)
            struck = [models[k] for k in order]
            on = tuple(shells[k] for k in order)
            m_key = (u, on, tuple(id(x) for x in struck))
            if m_key not in memo:
                frame = self.sys.multi_target_outcomes(ability, self.me, struck, self.options, self._sits(struck, on))
                memo[m_key] = {
                    **{f"damage_{k}": frame[f"damage_{k}"].to_numpy().astype(np.int64) for k in range(n)},
                    "probability": frame["probability"].to_numpy().astype(np.float64),
                }
            got = memo[m_key]
            size = got["probability"].size
            tables.append(
                {
                    **{
                        c: got[f"damage_{order.index(k)}"] if k in order else np.zeros(size, np.int64)
                        for k, c in enumerate(cols)
                    },
                    "probability": got["probability"],
                }
            )
        states, row = draw.row((me, *foes, carry), stacked(tables, inverse, cols))
        me = cast(Combatant, states[0])
        foes = cast(list[Combatant], list(states[1 : K + 1]))
        return me, foes, cast(C, states[K + 1]), [row[c] for c in cols]


_TableKey = tuple[int, bool, bool]


def _ensure_all(items: list[tuple[LastOdysseyRound, _TableKey]]) -> None:
    """Build the tables of (round, use id, the foe's Shell up, the foe at full HP) not built yet,
    every round's in ONE ``outcome_tables`` call per options (:func:`_build`); with a key they are
    shared by every round of these models (MEMO)."""
    missing = []
    for rnd, k in dict.fromkeys(items):
        if k in rnd._tables:
            continue
        use = rnd._uses[k[0]]
        got = None if rnd.key is None or isinstance(use, Dist) else MEMO.lookup((rnd._memo, "use", use, *k[1:]))
        if got is None:
            missing.append((rnd, k))
        else:
            rnd._tables[k] = cast(dict[str, np.ndarray], got)
    if missing:
        for (rnd, k), t in zip(missing, _build(missing)):
            rnd._tables[k] = t
            use = rnd._uses[k[0]]
            if rnd.key is not None and not isinstance(use, Dist):
                MEMO.put((rnd._memo, "use", use, *k[1:]), t)


def _build(items: list[tuple[LastOdysseyRound, _TableKey]]) -> list[dict[str, np.ndarray]]:
    """Return the outcome tables of (round, (use id, the foe's Shell up, the foe at full HP)), those of
    every round with the same options resolved in ONE ``outcome_tables`` call: a turn's ability
    (damage), a phase ability (damage, status; it reads full HP), a plan function's Dist (damage)."""
    rows: dict[int, dict[str, np.ndarray]] = {}
    named: dict[Any, list[int]] = {}  # options -> the items resolved with them
    for i, (rnd, k) in enumerate(items):
        if not isinstance(rnd._uses[k[0]], Dist):
            named.setdefault(rnd.options, []).append(i)
    for options, idx in named.items():
        attacks, attackers, targets, sits = [], [], [], []
        for i in idx:
            rnd, (u, shell_on, full) = items[i]
            sit = rnd.situation.replace(target_shell_points=rnd.full_shell if shell_on else 0)
            if rnd._uses[u][1] == "phase":
                hp = int(rnd.sys.hit_points(rnd.foe))
                sit = sit.replace(target_hp=None if full or hp == 1 else hp - 1)
            attacks.append(rnd._uses[u][0])
            attackers.append(rnd.me)
            targets.append(rnd.foe)
            sits.append(sit)
        frame = items[idx[0]][0].sys.outcome_tables(attacks, attackers, targets, options, sits)
        m = frame["matchup"].to_numpy()
        damage = frame["damage"].to_numpy().astype(np.int64)
        prob = frame["probability"].to_numpy().astype(np.float64)
        status = frame["status"].to_numpy().astype(np.int64) if "status" in frame.columns else 0 * damage
        # (the frame is sorted by matchup: each item's rows are one slice)
        bounds = np.searchsorted(m, np.arange(len(idx) + 1))
        for j, i in enumerate(idx):
            rnd, k = items[i]
            sel = slice(bounds[j], bounds[j + 1])
            # outcomes merged per (damage, status): a turn's use reads the damage only
            code = damage[sel] * 2 + (status[sel] if rnd._uses[k[0]][1] == "phase" else 0)
            codes, inv = np.unique(code, return_inverse=True)
            rows[i] = {
                "damage": codes // 2,
                "status": codes % 2,
                "probability": np.bincount(inv.ravel(), weights=prob[sel]),
            }
    out = []
    for i, (rnd, k) in enumerate(items):
        use = rnd._uses[k[0]]
        out.append(
            {c: np.asarray(v) for c, v in dist_table(use, status=0).items()} if isinstance(use, Dist) else rows[i]
        )
    return out


class PhasedRound(LastOdysseyRound):
    """The round of a side with phase abilities that can affect its foe (:func:`phase_effects`):
    its turn, and its phases between rounds (:meth:`between`)."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        super().__init__(sys, me, foe, options, situation, plan)
        self.phase = {t: [a for a in me.phase_abilities if a.timing == t] for t in PHASE_TIMINGS}
        self.reads_full = True
        self.counts_phases = 3 if self.phase["after_third_effect_phase"] else 0
        self.poison = poison_damage(foe)

    def describe(self, me: Combatant, foe: Combatant) -> dict[str, Any]:
        return {
            **super().describe(me, foe),
            "poisoned": bool(foe.poisoned[0]),
            "anima_left": int(me.anima[0]),
            "effect_phases": int(me.effect_phases[0]),
        }

    def between(self, me: Combatant, foe: Combatant, draw: Draw, opening: bool) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after my phases (module docstring): after a round my Effect Phase
        (Poisoned's damage to the foe, my effect-phase sleights, after the third my abilities that
        wait for it), then my Paradigm Phase; before the first round (``opening``) the extra
        Paradigm Phase only."""
        # (each row plays its own round of :attr:`members`: its abilities, as ids in this round, by
        # fight; a row's ``fight`` is read after every draw, which expands the rows)
        members = cast(list[PhasedRound], list(self.members))
        if not opening:
            poison = np.array([m.poison for m in members], np.int64)
            foe = self.hurt(foe, np.where(foe.poisoned > 0, poison[fights_of(me)], 0))
            effect = self._phase_ids("effect_phase")
            for j in range(effect.shape[1]):
                # a Poisoned foe stays Poisoned: only the others draw
                use = np.where(foe.poisoned > 0, -1, effect[fights_of(me), j])
                me, foe, _, _, status = self._draw(me, foe, (), draw, use)
                foe = foe.replace(poisoned=foe.poisoned | (status > 0))
            third = _Uses((me.effect_phases == 2).astype(np.int64))  # carried: each draw expands the fights
            counts = np.array([m.counts_phases for m in members], np.int64)
            me = me.replace(effect_phases=np.minimum(me.effect_phases + 1, counts[fights_of(me)]))
            after = self._phase_ids("after_third_effect_phase")
            for j in range(after.shape[1]):
                use = np.where(third.uses > 0, after[fights_of(me), j], -1)
                me, foe, got, damage, _ = self._draw(me, foe, (third,), draw, use)
                third = cast(_Uses, got[0])
                foe = self.hurt(foe, damage)
        paid = np.full(me.size, -1, np.int64)  # the first paradigm action the anima pays for, one a round
        anima = np.zeros(me.size, np.int64)
        paradigm = self._phase_ids("paradigm_phase")
        price = np.zeros(paradigm.shape, np.int64)
        for i, m in enumerate(members):
            costs = [int(a.anima_cost) for a in m.phase["paradigm_phase"]]
            price[i, : len(costs)] = costs
        f = fights_of(me)
        for j in reversed(range(paradigm.shape[1])):
            fits = (paradigm[f, j] >= 0) & (me.anima >= price[f, j])
            paid = np.where(fits, paradigm[f, j], paid)
            anima = np.where(fits, price[f, j], anima)
        if (paid >= 0).any():
            me, foe, got, damage, _ = self._draw(me, foe, (_Uses(anima),), draw, paid)
            spent = cast(_Uses, got[0]).uses  # spent, and handed to the foe up to MAX_ANIMA
            me = me.replace(anima=me.anima - spent)
            foe = self.hurt(foe.replace(anima=np.minimum(MAX_ANIMA, foe.anima + spent)), damage)
        return me, foe

    def _phase_ids(self, timing: str) -> np.ndarray:
        """Return the ids in this round of each member's phase abilities of ``timing``, in the order
        it lists them: one row per member of :attr:`members`, padded with -1."""
        lists = [cast(PhasedRound, m).phase[timing] for m in self.members]
        out = np.full((len(lists), max((len(x) for x in lists), default=0)), -1, np.int64)
        for i, (m, abilities) in enumerate(zip(self.members, lists)):
            out[i, : len(abilities)] = self._ids(i, tuple(m._use((a, "phase")) for a in abilities))
        return out


@dataclasses.dataclass
class StepCombatant(Combatant):
    """A Last Odyssey creature whose turn an encounter plays a use at a time (:class:`UseStep`): also
    ``queued``, the abilities of the turn under way still to use (in order, one digit each: ability
    k of the attacker's ``attacks_of`` is digit k + 1, the next use the lowest digit; 0 none), and
    ``ap_left``, the turn's action points not spent yet (0 between turns)."""

    queued: np.ndarray
    ap_left: np.ndarray


class UseStep(LastOdysseyRound):
    """Use ``step`` (0-based) of a turn (``whole``: the whole turn's round), as an encounter plays it:
    CLARIFICATIONS.md, Encounters: "A target that dies during a creature's turn: the remaining
    attacks of the action under way go to the next living foe by the same policy (same weapons, same
    penalties), and the turn's remaining actions are planned again against that foe". A use is one
    action (its action points), so no action is under way between two uses.

    The first use is the turn's start: the plan of the foe's Shell and my MP (the whole turn's,
    :meth:`LastOdysseyRound._plan_uses`) is queued with the turn's action points. Each use, the first
    included, is the next queued ability, drawn as the foe attacked then stands (its Shell), paying
    its MP and action points. Where the turn's target fell before this step (:meth:`retarget`), the
    damage play plans the action points left again, against the foe attacked now, with the MP left
    (``legal_plans`` within them, the one plan chooser). Against one foe the uses are the whole
    turn's: each has its own hit die."""

    def __init__(self, turn: LastOdysseyRound, step: int):
        self.__dict__.update({k: v for k, v in turn.__dict__.items() if k != "_steps"})
        self.whole, self.step = turn, step
        self.key = None if turn.key is None else hashed((turn.key, "use", step))
        self.members = (self,)

    def start(self, passive: bool = False) -> tuple[StepCombatant, StepCombatant]:
        """Return the whole turn's start, nothing queued."""
        zero = np.zeros(1, np.int64)
        return cast(
            tuple[StepCombatant, StepCombatant],
            tuple(
                StepCombatant(**c.__dict__, queued=zero.copy(), ap_left=zero.copy()) for c in self.whole.start(passive)
            ),
        )

    def idle(self, me: StepCombatant) -> tuple[np.ndarray, StepCombatant]:
        """Return (where the turn under way has nothing left: no use queued and no action point to
        plan again, the states as a later step leaves them: as they are). An encounter passes those
        states over, and the step makes no attack (workbench/fight/encounter.py)."""
        return (np.asarray(me.queued) == 0) & (np.asarray(me.ap_left) == 0), me

    def retarget(self, me: StepCombatant) -> StepCombatant:
        """Return my states as this step finds them where the turn's target fell before it: the damage
        play's queued uses dropped, so that the step plans the action points left again against the
        foe it attacks ("the turn's remaining actions are planned again against that foe"); a given
        plan keeps its uses."""
        if self.plan is not None:
            return me
        return me.replace(queued=np.zeros(me.size, np.int64))

    def _abilities(self) -> list[Any]:
        """Return the attacker's abilities, whose places are the digits of ``queued``."""
        return self.sys.attacks_of(self.me)

    def _code(self, uses: tuple[int, ...]) -> int:
        """Return ``queued`` of the uses ``uses`` (use ids of this round, in order)."""
        abilities = self._abilities()
        base = len(abilities) + 1
        code = 0
        for u in reversed(uses):
            code = code * base + abilities.index(self._uses[u][0]) + 1
        return code

    def _rest_of_turn(self, shell_on: bool, mp: int, ap: int) -> int:
        """Return ``queued`` of the damage play's plan for the ``ap`` action points left of a turn,
        ``mp`` MP left, against this round's foe (:meth:`~LastOdysseyRound._rest_plan`)."""
        return self._code(tuple(self._use((x, "turn")) for x in self._rest_plan(shell_on, mp, ap, [self.foe])))

    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after this use (class docstring): at the turn's first, the plan queued with
        the turn's action points; where the target fell before this step, the action points left
        planned again; then the next queued ability drawn against the foe, its MP and action points
        paid; after the plan's last use (or the turn's last step) nothing is queued."""
        m = cast(StepCombatant, me)
        up = (foe.shell_left > 0).astype(np.int64)
        queued, ap = np.asarray(m.queued, np.int64), np.asarray(m.ap_left, np.int64)
        if self.step == 0:  # the turn's start: the whole turn's plan, the turn's action points
            groups, inverse = row_groups(np.stack([up, m.mp_left], axis=1), plan)
            codes = [self._code(self._plan_uses(bool(on), int(mp), label)) for (on, mp), label in groups]
            queued = np.array(codes, np.int64)[inverse]
            # (a turn with no plan has no action point to plan again: it passes)
            ap = np.where(queued > 0, int(self.sys.actions_per_turn(self.me, self.options)), 0)
        again = (queued == 0) & (ap > 0)  # the target fell: the action points left planned again
        if again.any():
            groups, inverse = row_groups(np.stack([up[again], m.mp_left[again], ap[again]], axis=1), None)
            codes = [self._rest_of_turn(bool(on), int(mp), int(left)) for (on, mp, left), _ in groups]
            queued = queued.copy()
            queued[again] = np.array(codes, np.int64)[inverse]
        abilities = self._abilities()
        base = len(abilities) + 1
        digit = queued % base  # (0: nothing queued; k + 1: ability k)
        use = np.array([self._use((a, "turn")) for a in abilities] + [-1], np.int64)[digit - 1]
        mp_cost = np.array([int(a.mp_cost) for a in abilities] + [0], np.int64)[digit - 1]
        ap_cost = np.array([int(a.ap_cost) for a in abilities] + [0], np.int64)[digit - 1]
        rest = queued // base
        done = (rest == 0) | (self.step >= len(self.whole.steps()) - 1)
        m = m.replace(
            mp_left=m.mp_left - mp_cost,
            queued=np.where(done, 0, rest),
            ap_left=np.where(done, 0, ap - ap_cost),
        )
        me2, foe2, _, damage, _ = self._draw(m, foe, (), draw, use)
        return me2, self.hurt(foe2, damage)


class PhasedUseStep(UseStep, PhasedRound):
    """A use of the turn of a side with phase abilities (:class:`PhasedRound`): its phases between
    rounds are the whole round's."""


def fight_round(sys: Any, attacker: Any, target: Any, options: Any, situation: Any, plan: Any) -> LastOdysseyRound:
    """Return the round of ``attacker`` against ``target``: a :class:`PhasedRound` when one of its
    phase abilities can affect the target (:func:`phase_effects`), else a :class:`LastOdysseyRound`."""
    cls = PhasedRound if phase_effects(attacker, target) else LastOdysseyRound
    return cls(sys, attacker, target, options, situation, plan)


def state_effects(sys: Any, attacker: Any, target: Any, plan: Any = None) -> set[str]:
    """Return the fight's state beyond HP: "shell" when ``target`` has Shell points (they absorb
    damage and change the multipliers once broken, CLARIFICATIONS.md, Last Odyssey: Shell), "mp"
    when an ability the attacker may play (those of ``plan`` when it is a list or a label, else
    each damaging one) costs MP it can pay at the start: its MP runs down from turn to turn and
    the plans it pays for change (srd/heroes/numbers.md: "When a character uses an ability that has
    an MP cost, their MP is reduced by that amount"); and each phase ability that can affect the
    target (:func:`phase_effects`)."""
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
#: change it, and only the attacker's turns read it (:meth:`LastOdysseyRound.turn`: the plan of (the
#: foe's Shell up, its own MP left), abilities drawn as the foe's Shell stands, damage to the foe alone)
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
# rounds, after both sides' turns (srd/combat/round.md), so a kill by Poisoned (Miasma), Foretell Doom
# or Dragonslayer is not a kill within the attacker's turn: it comes after the foe's turn of that
# round whoever acted first, which the duel of two turn-by-turn chains cannot order. Dragonslayer also
# hands the anima it spends to the foe (srd/anima/spending.md), which pays for the foe's own paradigm
# actions.


def duel_couplings(
    sys: Any, a: Any, b: Any, options: Any = None, situation: Any = None, plan_a: Any = None, plan_b: Any = None
) -> set[str]:
    """Return the state effects of the duel of ``a`` and ``b`` (both directions' :func:`state_effects`)
    through which one side's turns or phases change the other direction's fight: all but
    :data:`ONE_SIDED` (the phase abilities: the comment above). An effect added later couples (is
    simulated) until it is shown to be one-sided."""
    both = state_effects(sys, a, b, plan_a) | state_effects(sys, b, a, plan_b)
    return both - ONE_SIDED
