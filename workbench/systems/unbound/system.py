"""The Unbound (d20) rule system object: outcome tables, action tables and the combat hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from ...errors import RulesError
from ..base import RuleSystem, pmf_rows, summed_uses
from ..catalog import Catalog
from . import models as m
from .actions import BASIC_ACTIONS, Slot, as_actions, expand_turn, plan_label, self_ac_penalty, shield_loss
from .catalog import load_catalog
from .models import RULES, Action, Attack, Creature, Options, Situation
from .roll import attack_rows

__all__ = ["UnboundSystem", "SYSTEM"]

_COUNT_COLS = ["hits", "threats", "crits"]


def _aligned(name: str, seq: Any, n: int, cls: type, default: Any) -> list:
    if seq is None:
        return [default] * n
    if isinstance(seq, cls):
        return [seq] * n
    seq = list(seq)
    if len(seq) != n:
        raise RulesError(f"must be one {cls.__name__} or {n} aligned ones, not {len(seq)}", field=name)
    for x in seq:
        if not isinstance(x, cls):
            raise RulesError(f"expected unbound {cls.__name__}, not {type(x).__name__}", field=name)
    return seq


def _check_models(attacks, attackers, targets) -> None:
    for field, seq, cls in (
        ("attack", attacks, Attack),
        ("attacker", attackers, Creature),
        ("target", targets, Creature),
    ):
        for x in seq:
            if not isinstance(x, cls):
                raise RulesError(f"expected an unbound {cls.__name__}, not {type(x).__name__}", field=field)


class UnboundSystem(RuleSystem):
    """Unbound (d20): d20 + attack bonus vs AC or touch AC, iteratives, two-weapon fighting, crits."""

    name = "unbound"
    title = "Unbound (d20)"
    rules_file = RULES
    # the model classes (public: wb.system(...).Creature, ...); in this class body the bare names are these
    # attributes, so method annotations name the classes through the models module: m.Creature, ...
    Creature = Creature
    Attack = Attack
    Options = Options
    Situation = Situation
    attacks_field = "weapons"
    Action = Action

    def __init__(self) -> None:
        self._catalog: Catalog | None = None

    # ------------------------------------------------------------------ one attack
    def outcome_tables(
        self,
        attacks: Sequence[m.Attack],
        attackers: Sequence[m.Creature],
        targets: Sequence[m.Creature],
        options: m.Options | None = None,
        situation: m.Situation | Sequence[m.Situation] | None = None,
    ) -> pl.DataFrame:
        """Return the joint outcome tables of aligned matchups: matchup, probability, damage, hit, threat, crit.

        ``situation`` is one Situation for all matchups or one per matchup. One use of an attack is
        a single attack roll with no multiple-attack penalty (see :meth:`action_tables` for actions).
        """
        options = Options() if options is None else options
        if not isinstance(options, Options):
            raise RulesError(f"expected unbound Options, not {type(options).__name__}", field="options")
        attacks, attackers, targets = list(attacks), list(attackers), list(targets)
        _check_models(attacks, attackers, targets)
        sits = _aligned("situation", situation, len(attacks), Situation, Situation())
        return attack_rows(attacks, attackers, targets, options, sits)

    # ------------------------------------------------------------------ actions
    def action_tables(
        self,
        actions: Sequence[m.Action | m.Attack | str | Sequence],
        attackers: Sequence[m.Creature],
        targets: Sequence[m.Creature],
        options: m.Options | None = None,
        situation: m.Situation | Sequence[m.Situation] | None = None,
    ) -> pl.DataFrame:
        """Return the joint outcome of each matchup's action (or list of actions = one turn).

        Columns: matchup, probability, damage (summed over the action's attack rolls), attacks,
        hits, threats, crits (counts), self_ac_penalty (the attacker's AC penalty from Wild Attack)
        and shield_ac_lost / shield_touch_ac_lost (the AC and touch AC of the shields it bashes with,
        lost "until the start of their next turn": Shield Bash, ``actions.shield_loss``).
        """
        options = Options() if options is None else options
        attackers, targets = list(attackers), list(targets)
        n = len(attackers)
        actions = list(actions)
        if len(actions) != n or len(targets) != n:
            raise RulesError(
                "actions, attackers and targets must be aligned sequences of equal length", field="actions"
            )
        sits = _aligned("situation", situation, n, Situation, Situation())
        reps: dict[tuple[int, int, int, int], int] = {}
        rep = np.fromiter(
            (
                reps.setdefault((id(a), id(c), id(t), id(s)), i)
                for i, (a, c, t, s) in enumerate(zip(actions, attackers, targets, sits))
            ),
            np.int64,
            n,
        )
        unique = np.unique(rep)
        if unique.size < n:  # identical matchups are resolved once and shared
            table = self.action_tables(
                [actions[i] for i in unique],
                [attackers[i] for i in unique],
                [targets[i] for i in unique],
                options,
                [sits[i] for i in unique],
            )
            position = np.zeros(n, np.int64)
            position[unique] = np.arange(unique.size)
            link = pl.DataFrame({"matchup": np.arange(n), "rep": position[rep]})
            return (
                link.join(table.rename({"matchup": "rep"}), on="rep", how="inner")
                .drop("rep")
                .sort("matchup", maintain_order=True)
            )
        cache: dict[tuple[int, int, int], list[Slot]] = {}
        slot_lists = []
        for act, c, s in zip(actions, attackers, sits):
            key = (id(act), id(c), id(s))
            if key not in cache:
                cache[key] = expand_turn(act, c, options, s)
            slot_lists.append(cache[key])
        frame = pl.DataFrame(
            {
                "matchup": np.arange(n),
                "probability": np.ones(n),
                "damage": np.zeros(n, np.int64),
                "hits": np.zeros(n, np.int64),
                "threats": np.zeros(n, np.int64),
                "crits": np.zeros(n, np.int64),
            }
        )
        keys = ["matchup", "damage", *_COUNT_COLS]
        for k in range(max(len(sl) for sl in slot_lists)):
            rows = np.array([i for i, sl in enumerate(slot_lists) if len(sl) > k], dtype=np.int64)
            slots = [slot_lists[i][k] for i in rows]
            t = attack_rows(
                [s.attack for s in slots],
                [attackers[i] for i in rows],
                [targets[i] for i in rows],
                options,
                [sits[i] for i in rows],
                np.array([s.modifier for s in slots]),
                np.array([s.ac_drop for s in slots]),
            )
            t = t.with_columns(
                pl.Series("matchup", rows[t["matchup"].to_numpy()]),
                pl.col("hit").cast(pl.Int64).alias("h"),
                pl.col("threat").cast(pl.Int64).alias("t"),
                pl.col("crit").cast(pl.Int64).alias("c"),
            ).drop("hit", "threat", "crit")
            inside = frame.filter(pl.col("matchup").is_in(rows))
            outside = frame.filter(~pl.col("matchup").is_in(rows))
            joined = (
                inside.join(t, on="matchup", suffix="_r")
                .select(
                    "matchup",
                    (pl.col("probability") * pl.col("probability_r")).alias("probability"),
                    (pl.col("damage") + pl.col("damage_r")).alias("damage"),
                    (pl.col("hits") + pl.col("h")).alias("hits"),
                    (pl.col("threats") + pl.col("t")).alias("threats"),
                    (pl.col("crits") + pl.col("c")).alias("crits"),
                )
                .group_by(keys)
                .agg(pl.col("probability").sum())
            )
            frame = pl.concat([outside, joined.select(frame.columns)])
        frame = frame.sort(keys)
        m = frame["matchup"].to_numpy()
        n_rolls = np.array([len(sl) for sl in slot_lists], dtype=np.int64)
        self_ac = np.array([self_ac_penalty(sl) for sl in slot_lists], dtype=np.int64)
        lost = np.array([shield_loss(as_actions(a), c) for a, c in zip(actions, attackers)], dtype=np.int64)
        return frame.with_columns(
            pl.Series("attacks", n_rolls[m]),
            pl.Series("self_ac_penalty", self_ac[m]),
            pl.Series("shield_ac_lost", lost[m, 0]),
            pl.Series("shield_touch_ac_lost", lost[m, 1]),
        ).select(
            "matchup",
            "probability",
            "damage",
            "attacks",
            *_COUNT_COLS,
            "self_ac_penalty",
            "shield_ac_lost",
            "shield_touch_ac_lost",
        )

    def action_outcomes(
        self,
        action: m.Action | m.Attack | str | Sequence,
        attacker: m.Creature,
        target: m.Creature,
        options: m.Options | None = None,
        situation: m.Situation | None = None,
    ) -> pl.DataFrame:
        """Return the joint outcome table of one action (or one turn's list of actions): the 1 x 1 case."""
        return self.action_tables([action], [attacker], [target], options, situation).drop("matchup")

    def slots(
        self, actions, attacker: m.Creature, options: m.Options | None = None, situation: m.Situation | None = None
    ) -> list[Slot]:
        """Return the attack rolls (attack, to-hit modifier, Wild Attack AC drop) the actions of one turn make."""
        options, situation = self.defaults(options, situation)
        return expand_turn(actions, attacker, options, situation)

    # ------------------------------------------------------------------ combat hooks
    def actions_per_turn(self, creature: m.Creature, options: m.Options | None = None) -> int:
        """Return 2: "Two basic actions per turn" (CLARIFICATIONS.md, Unbound)."""
        return BASIC_ACTIONS

    def attack_cost(self, attack: m.Attack | m.Action, options: m.Options | None = None) -> int:
        """Return the basic actions one use costs: 1 (Push the Attack / spell attack), an Action its own cost."""
        return attack.cost if isinstance(attack, Action) else 1

    def attacks_of(self, creature: m.Creature) -> list[m.Attack]:
        """Return the creature's weapons, natural weapons, spells and shields."""
        return list(creature.weapons)

    def neutral_attacker(self, attack: m.Attack) -> m.Creature:
        """Return every modifier 0, untrained, AC 10, holding only ``attack`` (named after it)."""
        return Creature(name=attack.name, hp=1, ac=10, touch_ac=10, weapons=(attack,))

    def uses_per_turn(self, attacker: m.Creature, attack: m.Attack, options: m.Options | None = None) -> int:
        """Return the most Push the Attack actions (2, else 1) with ``attack`` that a turn allows
        (CLARIFICATIONS.md, Unbound: two basic actions per turn; a spell is cast ``casts_per_turn``
        times); 0 if the text allows none."""
        options, situation = self.defaults(options, None)
        for n in (BASIC_ACTIONS, 1):
            try:
                expand_turn([attack] * n, attacker, options, situation)
            except RulesError:
                continue
            return n
        return 0

    def turn_actions(
        self, attacker: m.Creature, options: m.Options | None = None, situation: m.Situation | None = None
    ) -> dict[str, list[m.Action]]:
        """Return every legal way to spend one turn attacking, as {label: [Action, ...]}.

        Two one-action attack actions in either order (All Out Attack at most once), a Brace of each
        braceable weapon followed by one attack action with it (Implaced Weapons: "brace one of these
        weapons ... as a basic action"), the Multi Actions (every natural weapon; a wielded weapon then
        each secondary natural weapon in turn: "an available secondary natural weapon"), Snipe
        (unaware target only), spell attacks (never mixed with attack actions); with
        ``options.wild_plans`` also the all-Wild version of each attack-action plan. A plan that
        bashes with a shield says so in its label (:func:`actions.plan_label`).
        """
        options, situation = self.defaults(options, situation)
        weapons = list(attacker.weapons)
        usable = [w for w in weapons if w.kind != "spell"]
        spells = [w for w in weapons if w.kind == "spell"]
        naturals = [w for w in weapons if w.natural]
        one: list[Action] = [Action(action="push", weapon=w) for w in usable]
        for w in usable:
            if not w.natural and attacker.iteratives > 1:
                one.append(Action(action="all_out", weapon=w))
        handy = [w for w in usable if not w.natural and not w.two_handed and w.kind in ("melee", "thrown")]
        for i, w in enumerate(handy):
            for j, o in enumerate(handy):
                if i != j:
                    one.append(Action(action="all_out", weapon=w, off_hand=o))
        plans: dict[str, list[Action]] = {}

        def put(acts: list[m.Action]) -> None:
            plans.setdefault(plan_label(acts, attacker), acts)

        for a in one:
            for b in one:
                if not (a.action == b.action == "all_out"):
                    put([a, b])
        if naturals and len(naturals) + sum(x.paired for x in naturals) > 1:
            put([Action(action="multi")])
        for w in usable:
            if naturals and not w.natural:
                put([Action(action="multi", weapon=w)])
                for x in naturals[1:]:
                    put([Action(action="multi", weapon=w, secondary=x.name)])
        for w in usable:
            if w.braceable:  # the brace spends one basic action; one attack action with the weapon follows
                put([Action(action="brace", weapon=w), Action(action="push", weapon=w)])
                if attacker.iteratives_with(w) > 1:
                    put([Action(action="brace", weapon=w), Action(action="all_out", weapon=w)])
        if situation.target_unaware:
            for w in usable:
                if w.kind in ("ranged", "thrown"):
                    put([Action(action="snipe", weapon=w)])
        if options.wild_plans:
            for acts in list(plans.values()):
                put([a.replace(wild=True) for a in acts])
        for s in spells:
            put([Action(action="cast", weapon=s)] * max(1, options.casts_per_turn) if options.casts_per_turn else [])
        return {k: v for k, v in plans.items() if v}

    def legal_plans(self, attacker: m.Creature, target: m.Creature, options: m.Options, situation: m.Situation):
        """Return every legal turn of :meth:`turn_actions` as (label, actions)."""
        return list(self.turn_actions(attacker, options, situation).items())

    def plan_items(self, attacker: m.Creature, plan, options) -> list[m.Action]:
        """Return the plan as Actions (a bare attack or weapon name is one Push the Attack); the
        turn's legality is checked with its situation when it is resolved (``expand_turn``)."""
        return as_actions(list(plan))

    def plan_label(self, attacker: m.Creature, items) -> str:
        """Return the plan's label as :meth:`turn_actions` writes it (:func:`actions.plan_label`)."""
        return plan_label(list(items), attacker)

    def plan_tables(self, plans, options) -> list[np.ndarray]:
        """Return the damage pmf of each (attacker, target, situation, actions) turn: the attack
        rolls of every plan (``expand_turn``: iteratives, penalties, Wild Attack) resolved in ONE
        ``attack_rows`` call, each plan's rolls summed (independent d20s)."""
        slot_lists = [expand_turn(items, attacker, options, sit) for attacker, _, sit, items in plans]
        flat = [(s, attacker, target, sit) for (attacker, target, sit, _), sl in zip(plans, slot_lists) for s in sl]
        if not flat:
            return [np.ones(1) for _ in plans]
        return summed_uses(self.slot_pmfs(flat, options), [len(sl) for sl in slot_lists])

    def slot_pmfs(
        self, rolls: Sequence[tuple[Slot, m.Creature, m.Creature, m.Situation]], options: m.Options
    ) -> np.ndarray:
        """Return P(roll, damage) of each (Slot, attacker, target, situation) of ``rolls`` as a dense
        (n, D) array, damage from 0: every attack roll resolved in ONE ``attack_rows`` call (a turn's
        rolls are independent d20s: its damage is their sum)."""
        table = attack_rows(
            [f[0].attack for f in rolls],
            [f[1] for f in rolls],
            [f[2] for f in rolls],
            options,
            [f[3] for f in rolls],
            np.array([f[0].modifier for f in rolls]),
            np.array([f[0].ac_drop for f in rolls]),
        )
        return pmf_rows(table, len(rolls))

    # ------------------------------------------------------------------ catalog
    def catalog(self) -> Catalog:
        """Return the bundled creatures and attacks (workbench/catalog/unbound/*.toml), loaded once."""
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    # ------------------------------------------------------------------ build space
    def build_choices(self, options: m.Options | None = None) -> dict[str, tuple[Any, ...]]:
        """Return the choices a designer has over one Unbound attack, each value one the rules name:
        ``damage`` the dice of the text's only weapon profiles (Shield Bash, "Shield Weapon
        Profiles: Buckler - 2d6 (B) 20x2 ... Kite - 2d8 ... Tower - 2d10"), ``crit`` the threat range
        and multiplier of those profiles and of CLARIFICATIONS.md, Unbound ('"20x2" is threat range
        and multiplier ("19-20x2", "20x3")'), ``touch`` the two applications ("targeting either
        normal armor class or touch armor class", Attacking). explore's budget counts these
        modifications (workbench/systems/builds.py, choice_space)."""
        return {
            "damage": ("2d6", "2d8", "2d10"),
            "crit": ("20x2", "19-20x2", "20x3"),
            "touch": (False, True),
        }

    # -- the fight: one round description (unbound/round.py), interpreted by workbench/fight/
    def build_levers(self, attacker, attack):
        """Return the levers of a budget search about the build on screen (Unbound: the weapon's damage dice, its critical range or multiplier, the attack's ability modifier, another weapon of its kind;
        ``levers.py`` of this package)."""
        from .levers import levers

        return levers(self, attacker, attack)

    def fight_round(self, attacker, target, options=None, situation=None, plan=None):
        """Return the :class:`~workbench.systems.unbound.round.UnboundRound` of ``attacker`` against
        ``target``: Wild Attack and Shield Bash give up AC until the side's next turn, a Brace holds."""
        from .round import UnboundRound

        return UnboundRound(self, attacker, target, options, situation, plan)

    def state_effects(self, attacker, target, options=None, situation=None, plan=None) -> set[str]:
        """Return the state the chosen plan carries to later turns: "wild attack", "shield bash",
        "braced weapon" (unbound/round.py :func:`~workbench.systems.unbound.round.state_effects`)."""
        from .round import state_effects

        return state_effects(self, attacker, target, options, situation, plan)

    def duel_couplings(self, a, b, options=None, situation=None, plan_a=None, plan_b=None) -> set[str]:
        """Return the state effects through which one side's turns change the other's fight: "wild
        attack" and "shield bash" lower the attacker's own AC "until the start of their next turn"
        (unbound-d20-attacking.txt, Wild Attack; Shield Bash: "they lose all bonuses from that shield
        until the start of their next turn"), which the foe's attacks meet. "braced weapon" couples
        nothing: a Brace gives its own weapon advantage ("While braced ... the character gains
        advantage on attack roles with these weapons", Implaced Weapons), so that direction's chain
        over the braced mask is the whole of it and the duel is exact."""
        own = {"wild attack", "shield bash"}
        return (
            set(self.state_effects(a, b, options, situation, plan_a))
            | set(self.state_effects(b, a, options, situation, plan_b))
        ) & own


SYSTEM = UnboundSystem()
