"""Which Annulus effects carry state from turn to turn in a fight (``AnnulusSystem.state_effects``):
the names that make ``duel`` and ``rounds_to_kill`` play the fight over its state
(``annulus/round.py``) instead of the chain over the two pools."""

from __future__ import annotations

from typing import Any

from ...errors import RulesError
from ...memo import MEMO
from .round import _EFFECTS

__all__ = ["state_effects", "state_effects_many", "STATEFUL_TRIGGERS"]

#: the triggers whose effect outlives the use (the outcome columns the round applies, by their
#: upgrade names; Disarm is the attacker's loss, found apart), and Drain's healing
STATEFUL_TRIGGERS = frozenset({e.capitalize() for e in _EFFECTS if e != "disarm"} | {"Drain"})


def _can_damage(sys: Any, attack: Any, attacker: Any, target: Any, options: Any, situation: Any) -> bool:
    """Return False only when ``attack`` is usable here and can never deal damage to ``target``.

    A set unusable now (e.g. Swansong above half Vitality) may become usable as the fight goes on,
    so it counts as able to damage.
    """
    try:
        return sys.damage(attack, attacker, target, options, situation).max() > 0
    except RulesError:
        return True


def state_effects(sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> set[str]:
    """Return the stateful effects of Annulus ``attacker`` fighting ``target`` (empty: HP-only).

    Stateful triggers (Burn, Daze, ...) of a set that can deal damage (annulus-attacks.txt: "a
    triggered effect is only applied when you manage to deal at least one point of damage"),
    Reckless self-damage, area recharge, Swansong, Telegraphed, a Counter the target's sets can
    provoke, First Blood, a target not yet Alert (awareness changes after the first attack), and
    "disarm" when a Disarm set of the target can take one of the attacker's sets (Burn is none in an
    airless environment: "the condition is automatically removed"). Memoised by value (the rows of one compare pair ask once; the plan does not change it); the
    1 x 1 case of :func:`state_effects_many`.
    """
    opts, sit = sys.defaults(options, situation)
    return set(
        MEMO.get(
            ("annulus", attacker, target, opts, sit, "state_effects"),
            lambda: frozenset(state_effects_many(sys, [attacker], [target], opts, sit)[0]),
        )
    )


def state_effects_many(
    sys: Any, attackers: list, targets: list, options: Any = None, situation: Any = None
) -> list[set[str]]:
    """Return the stateful effects of every (``attackers[i]``, ``targets[i]``) (:func:`state_effects`
    is the 1 x 1 case), with the attacker's part (Reckless, area recharge, Swansong, Telegraphed, First Blood, the
    stateful triggers and Counter types of its sets) found once per distinct attacker and the
    target's (not yet Alert, the defenses its sets target, its Disarm sets: "disarm" names the
    attacker's loss of a set) once per distinct target; only a set with
    a stateful trigger is resolved against the target ("a triggered effect is only applied when you
    manage to deal at least one point of damage", annulus-attacks.txt), once per (attacker, set, target)."""
    opts, sit = sys.defaults(options, situation)
    parts: dict[int, tuple[set[str], list, list]] = {}  # attacker -> (effects, triggered sets, counter sets)
    foes: dict[int, tuple[bool, set[str], list]] = {}  # target -> (not alert, defenses of its sets, Disarm sets)
    hurts: dict[tuple[int, int, int], bool] = {}
    out = []
    for attacker, target in zip(attackers, targets):
        if id(attacker) not in parts:
            own: set[str] = set()
            triggered, counters = [], []
            for s in attacker.attack_sets:
                trig = {t.lower() for t in s.triggers if t in STATEFUL_TRIGGERS}
                if sit.airless:  # Burn: "enters water or an airless environment, the condition is ... removed"
                    trig.discard("burn")
                if trig:
                    triggered.append((s, trig))
                if s.has("Reckless"):
                    own.add("reckless")
                if s.area:
                    own.add("recharge")
                if s.alteration in ("Swansong", "Telegraphed"):
                    own.add(s.alteration.lower())
                if s.alteration == "Counter":
                    counters.append(s.counter_type)
                if s.has("First Blood"):
                    own.add("first_blood")
            parts[id(attacker)] = (own, triggered, counters)
        if id(target) not in foes:
            foes[id(target)] = (
                (sit.target_awareness or target.awareness) != "alert",
                {t.defense for t in target.attack_sets},
                [t for t in target.attack_sets if "Disarm" in t.triggers],
            )
        own, triggered, counters = parts[id(attacker)]
        unaware, defenses, disarms = foes[id(target)]
        got = set(own)
        for s, trig in triggered:
            key = (id(attacker), id(s), id(target))
            if key not in hurts:
                hurts[key] = _can_damage(sys, s, attacker, target, opts, sit)
            if hurts[key]:
                got |= trig
        # Disarm is the attacker's loss: the target's Disarm sets can take one of its sets (not an Inherent
        # one) when they deal damage to it; a duel asks both sides, so the disarmer's fight names it too
        if disarms and not all(x.has("Inherent") for x in attacker.attack_sets):
            for s in disarms:
                key = (id(target), id(s), id(attacker))
                if key not in hurts:
                    hurts[key] = _can_damage(sys, s, target, attacker, opts, sit)
                if hurts[key]:
                    got.add("disarm")
                    break
        if any(c in defenses for c in counters):
            got.add("counter")
        if unaware:
            got.add("awareness")
        out.append(got)
    return out
