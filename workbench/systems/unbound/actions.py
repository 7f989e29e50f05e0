"""Unbound attack actions: the attack rolls each action makes, with their penalties.

Rules (unbound-d20-attacking.txt, "Attack Actions", "Multiple Attacks", "Two Weapon Fighting",
"Natural Attacks") and CLARIFICATIONS.md, Unbound:
- "Every attack past the first a character makes in the same turn takes a stacking -4 penalty".
- All Out Attack: once per turn, "all attacks they have available, such as from iterative attacks
  or ... two weapon fighting"; Push the Attack: one attack per basic action.
- Two-weapon fighting: "both attacks take the multiple attack penalty from the off hand": -4, -3
  with a light off-hand weapon, -2 when both are light; it stacks with the iterative penalty.
- Paired natural weapons "are treated as one attack for the purposes of multiple attack penalties".
- Multi Action (two basic actions): "attack with all primary and secondary natural weapons
  available or with an available secondary natural weapon after attacking with a wielded weapon":
  every natural weapon, or a wielded weapon then ONE secondary natural weapon (Action.secondary,
  default the first natural weapon); secondary attacks after another attack take -3 more.
- All Out Attack iteratives by the rank of the weapon's group ("an iterative attack at professional
  rank and grandmaster+ rank with weapons in that weapon group"; a shield bash is a close weapon).
- Brace (Implaced Weapons): "A character can brace one of these weapons ... as a basic action.
  While braced ... the character gains advantage": one basic action, no roll; the braced weapon's
  later attacks this turn have advantage.
- Wild Attack: target's AC -(2 + half the multiple attack penalty); the attacker's AC drops by half
  the highest such penalty until its next turn.
- Shield Bash: "If a character chooses to attack with a shield they lose all bonuses from that
  shield until the start of their next turn": :func:`shield_loss`, shown in :func:`plan_label`.
- Snipe (two basic actions): one ranged attack on an unaware target.
- An attack action and the spell casting action exclude each other in one turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast, overload

from ...errors import RulesError
from .models import RULES, Action, Attack, Creature, Options, Situation

__all__ = [
    "Slot",
    "expand_turn",
    "resolve_weapon",
    "offhand_penalty",
    "action_label",
    "as_actions",
    "secondary_weapon",
    "shield_loss",
    "braced_by",
    "plan_label",
    "self_ac_penalty",
    "BASIC_ACTIONS",
]

#: "Two basic actions per turn" (CLARIFICATIONS.md, Unbound)
BASIC_ACTIONS = 2


@dataclass(frozen=True)
class Slot:
    """One attack roll of a turn: the attack, its to-hit modifier, the Wild Attack AC drop, its action."""

    attack: Attack
    modifier: int
    ac_drop: int
    action: int


@overload
def resolve_weapon(attacker: Creature, weapon: Attack | str, field: str = "weapon") -> Attack: ...
@overload
def resolve_weapon(attacker: Creature, weapon: Attack | str | None, field: str = "weapon") -> Attack | None: ...
def resolve_weapon(attacker: Creature, weapon: Attack | str | None, field: str = "weapon") -> Attack | None:
    """Return ``weapon`` as an Attack (a name is looked up in the attacker's weapons)."""
    if weapon is None or isinstance(weapon, Attack):
        return weapon
    try:
        return attacker.weapon(weapon)
    except RulesError as exc:
        raise RulesError(exc.message, field=field) from None


def offhand_penalty(main: Attack, off: Attack) -> int:
    """Return the two-weapon penalty magnitude: 4, 3 with a light off hand, 2 when both are light."""
    return 4 - int(off.light) - int(off.light and main.light)


def _naturals(attacker: Creature) -> list[Attack]:
    return [w for w in attacker.weapons if w.natural]


def secondary_weapon(action: Action, attacker: Creature) -> Attack:
    """Return the one secondary natural weapon a Multi Action makes after its wielded weapon:
    ``action.secondary`` (a natural weapon of the attacker), else the attacker's first natural weapon."""
    naturals = _naturals(attacker)
    rule = f"{RULES}: Secondary Natural Attacks ('an available secondary natural weapon')"
    if action.secondary is None:
        if not naturals:
            raise RulesError(f"{attacker.name} has no natural weapon for the Multi Action", field="weapons", rule=rule)
        return naturals[0]
    x = resolve_weapon(attacker, action.secondary, "secondary")
    if not x.natural:
        raise RulesError(f"{x.name} is not a natural weapon", field="secondary", rule=rule)
    return x


def action_label(action: Action, attacker: Creature) -> str:
    """Return a readable label such as "All Out Attack (Short sword + Dagger)"."""
    # Action.validate: only a Multi Action may leave out its weapon (its branch checks for None)
    w = cast(Attack, resolve_weapon(attacker, action.weapon))
    o = resolve_weapon(attacker, action.off_hand, "off_hand")
    if action.action == "multi" and w is not None:
        names = [w.name, secondary_weapon(action, attacker).name]
    elif action.action == "multi":
        names = [x.name for x in _naturals(attacker)]
    else:
        names = [w.name] + ([o.name] if o else [])
    return f"{'Wild ' if action.wild else ''}{action.label_kind} ({' + '.join(names)})"


def as_actions(items: Action | Attack | str | Sequence[Action | Attack | str]) -> list[Action]:
    """Return a list of Actions: a bare attack (object or name) is one Push the Attack."""
    if isinstance(items, (Action, Attack, str)):
        items = [items]
    out = []
    for i, it in enumerate(items):
        if isinstance(it, Action):
            out.append(it)
        elif isinstance(it, Attack) and it.kind == "spell":
            out.append(Action(action="cast", weapon=it))
        elif isinstance(it, (Attack, str)):
            out.append(Action(action="push", weapon=it))
        else:
            raise RulesError(f"[{i}] must be an unbound Action, Attack or weapon name, not {it!r}", field="attacks")
    return out


def _check_turn(actions: list[Action], options: Options, situation: Situation) -> None:
    cost = sum(a.cost for a in actions)
    if cost > BASIC_ACTIONS:
        raise RulesError(
            f"the actions take {cost} basic actions; a turn has {BASIC_ACTIONS}",
            field="attacks",
            rule="CLARIFICATIONS.md, Unbound: two basic actions per turn",
        )
    if sum(a.action == "all_out" for a in actions) > 1:
        raise RulesError(
            "All Out Attack may only be performed once per turn", field="attacks", rule=f"{RULES}: All Out Attack"
        )
    casts = sum(a.action == "cast" for a in actions)
    if casts and casts < sum(a.action != "brace" for a in actions):
        raise RulesError(
            "an attack action and the spell casting action cannot share a turn",
            field="attacks",
            rule=f"{RULES}: 'If a character performs an attack action on their turn they are "
            "unable to perform the spell casting action'",
        )
    if casts > options.casts_per_turn:
        raise RulesError(
            f"{casts} spell attack actions; Options.casts_per_turn allows {options.casts_per_turn}",
            field="attacks",
            rule=f"{RULES}: Spell Attacks",
        )
    if any(a.action == "snipe" for a in actions) and not situation.target_unaware:
        raise RulesError(
            "Snipe needs an unaware target (Situation.target_unaware)", field="target_unaware", rule=f"{RULES}: Snipe"
        )


def expand_turn(
    actions: Action | Attack | str | Sequence[Action | Attack | str],
    attacker: Creature,
    options: Options,
    situation: Situation,
    earlier: int = 0,
) -> list[Slot]:
    """Return the attack rolls of a turn's actions, in order, with their penalties and Wild Attack AC drops.

    ``earlier`` counts attacks already made this turn. Raises RulesError for an illegal turn.
    """
    actions = as_actions(actions)
    _check_turn(actions, options, situation)
    m, sec = options.multiple_attack_penalty, options.secondary_natural_penalty
    counted = earlier
    slots: list[Slot] = []
    # weapons braced by an earlier Brace action this turn, or braced before it (Attack.braced: a brace
    # holds, "While braced ... the character gains advantage")
    braced: set[str] = {w.name for w in attacker.weapons if w.braced}
    for i, act in enumerate(actions):
        # Action.validate: only a Multi Action may leave out its weapon (its branch checks for None)
        w = cast(Attack, resolve_weapon(attacker, act.weapon))
        off = resolve_weapon(attacker, act.off_hand, "off_hand")
        rolls: list[tuple[Attack, int, int]] = []  # (attack, multiple attack penalty, extra penalty)

        def add(att: Attack, mapen: int, extra: int = 0, rolls: list[tuple[Attack, int, int]] = rolls) -> None:
            if att.braceable and att.name in braced and not att.braced:
                att = att.replace(braced=True)
            rolls.extend([(att, mapen, extra)] * (2 if att.paired else 1))

        if act.action == "brace":
            if not w.braceable:
                raise RulesError(
                    f"{w.name} is not a firearm or crossbow that can be braced",
                    field="weapon",
                    rule=f"{RULES}: Implaced Weapons ('brace one of these weapons ... as a basic action')",
                )
            braced.add(w.name)
            continue

        if act.action in ("push", "all_out", "snipe") and w.kind == "spell":
            raise RulesError(
                f"{w.name} is a spell: use the spell attack action ('cast')",
                field="weapon",
                rule=f"{RULES}: Spell Attacks",
            )
        if act.action == "cast":
            if w.kind != "spell":
                raise RulesError(f"{w.name} is not a spell attack", field="weapon", rule=f"{RULES}: Spell Attacks")
            add(w, m * counted)
            counted += 1
        elif act.action == "push":
            add(w, m * counted)
            counted += 1
        elif act.action == "snipe":
            if w.kind not in ("ranged", "thrown"):
                raise RulesError(
                    f"Snipe makes a ranged attack; {w.name} is {w.kind}", field="weapon", rule=f"{RULES}: Snipe"
                )
            add(w, m * counted)
            counted += 1
        elif act.action == "all_out":
            # "it does not gain iterative attacks" (Primary Natural Attacks)
            n_iter = 1 if w.natural else attacker.iteratives_with(w)
            twf = 0
            if off is not None:
                for role, x in (("weapon", w), ("off_hand", off)):
                    if x.natural or x.two_handed or x.kind not in ("melee", "thrown"):
                        raise RulesError(
                            f"{x.name} is not a one-handed wielded weapon",
                            field=role,
                            rule=f"{RULES}: Two Weapon Fighting ('a one handed weapon in both "
                            "their main and off hand')",
                        )
                twf = offhand_penalty(w, off)
            for j in range(n_iter):
                add(w, m * (counted + j) + twf)
            if off is not None:
                if options.offhand_counts_as_attack:
                    add(off, m * (counted + n_iter) + twf)
                    counted += 1
                else:
                    add(off, m * counted + twf)
            counted += n_iter
        elif act.action == "multi":
            naturals = _naturals(attacker)
            if w is not None:
                if w.natural or w.kind == "spell":
                    raise RulesError(
                        f"{w.name} is not a wielded weapon; leave weapon empty to attack with every natural weapon",
                        field="weapon",
                        rule=f"{RULES}: Secondary Natural Attacks",
                    )
                # "or with an available secondary natural weapon after attacking with a wielded weapon"
                secondaries = [secondary_weapon(act, attacker)]
                add(w, m * counted)
                counted += 1
            else:
                if not naturals:
                    raise RulesError(
                        f"{attacker.name} has no natural weapons",
                        field="weapons",
                        rule=f"{RULES}: Secondary Natural Attacks",
                    )
                add(naturals[0], m * counted)
                counted += 1
                secondaries = naturals[1:]
            for x in secondaries:
                add(x, m * counted, sec)
                counted += 1
        for att, mapen, extra in rolls:
            drop = 2 + mapen // 2 if act.wild else 0
            slots.append(Slot(att, -(mapen + extra), drop, i))
    return slots


def _used(act: Action, attacker: Creature) -> list[Attack]:
    """Return the weapons ``act`` attacks with (none for a Brace)."""
    if act.action == "brace":
        return []
    w = resolve_weapon(attacker, act.weapon)
    if act.action == "multi":
        return [w, secondary_weapon(act, attacker)] if w is not None else _naturals(attacker)
    o = resolve_weapon(attacker, act.off_hand, "off_hand")
    return [x for x in (w, o) if x is not None]


def shield_loss(actions: Sequence[Action], attacker: Creature) -> tuple[int, int]:
    """Return the (AC, touch AC) the attacker goes without until the start of its next turn because
    the actions bash with its shields: the ``shield_ac`` / ``shield_touch_ac`` of every distinct
    shield that attacks, at most the creature's own AC / touch AC.

    Shield Bash (unbound-d20-attacking.txt): "If a character chooses to attack with a shield they
    lose all bonuses from that shield until the start of their next turn"."""
    shields = {x.name: x for a in actions for x in _used(a, attacker) if x.shield}
    ac = sum(x.shield_ac for x in shields.values())
    touch = sum(x.shield_touch_ac for x in shields.values())
    return min(ac, attacker.ac), min(touch, attacker.touch_ac)


def braced_by(actions: Sequence[Action], attacker: Creature) -> set[str]:
    """Return the names of the weapons the actions brace (Implaced Weapons: "A character can brace
    one of these weapons ... as a basic action. While braced ... the character gains advantage")."""
    out = set()
    for a in actions:
        if a.action == "brace":
            w = resolve_weapon(attacker, a.weapon)
            if w is not None:
                out.add(w.name)
    return out


def plan_label(actions: Sequence[Action], attacker: Creature) -> str:
    """Return the label of a turn's actions, "Push the Attack (Tower) + All Out Attack (Tower)", with
    the shield's AC the turn gives up when it bashes: "... [shield bash: own AC -4 until its next
    turn]" (Shield Bash: "they lose all bonuses from that shield until the start of their next turn";
    :func:`shield_loss`)."""
    label = " + ".join(action_label(a, attacker) for a in actions)
    ac, touch = shield_loss(actions, attacker)
    if ac or touch:
        parts = ([f"own AC -{ac}"] if ac else []) + ([f"touch AC -{touch}"] if touch else [])
        label += f" [shield bash: {', '.join(parts)} until its next turn]"
    return label


def self_ac_penalty(slots: Sequence[Slot]) -> int:
    """Return the attacker's AC penalty after its Wild Attacks: half the highest AC drop, rounded down."""
    return max((s.ac_drop for s in slots), default=0) // 2
