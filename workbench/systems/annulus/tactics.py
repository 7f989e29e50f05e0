"""How a simulated Annulus creature spends actions beyond its attack plan (annulus-attacks.txt).

Kept apart from the simulation (``simulation.py``, which loads the simulation engine) so that the
rule system can name it as its ``tactics_class`` without importing the engine.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...errors import RulesError
from ...fields import spec
from ...model import Model

__all__ = ["Tactics", "CONDITION_BIT", "RECOVERABLE", "DISARM"]

RULES = "annulus-attacks.txt"

# condition bits (recovered by a recovery check)
BURN, CHOKE, SAP, FATIGUE, PRONE, WEAK, DISARM = 1, 2, 4, 8, 16, 32, 64
CONDITION_BIT = {
    "burn": BURN,
    "choke": CHOKE,
    "sap": SAP,
    "fatigue": FATIGUE,
    "knockdown": PRONE,
    "weaken": WEAK,
    "disarm": DISARM,  # one or more Disarm (Set) conditions; a check removes one
}
RECOVERABLE = tuple(CONDITION_BIT)
# a turn has a few actions (Options.actions is bounded too); more checks or uses than this in one
# turn is a typo, and an unbounded count would make the simulated turn loop unbounded
MAX_TACTIC_ACTIONS = 20


def _conditions(field: str, names: Any) -> tuple[str, ...]:
    """Return ``names`` as a tuple of conditions one recovers from (the field's own check, so that
    it is reported with the other broken fields)."""
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise RulesError(f"must be a list of condition names, not {names!r}", field=field)
    bad = [x for x in names if x not in CONDITION_BIT]
    if bad:
        raise RulesError(
            f"{bad[0]!r} is not a condition one recovers from; choose from {', '.join(RECOVERABLE)}",
            field=field,
            rule=f"{RULES}: conditions ... recovery check",
        )
    return tuple(names)


class Tactics(Model):
    """How a simulated Annulus creature spends actions beyond its attack plan.

    - ``recover_from`` (burn, choke, sap): the conditions it makes recovery checks against, in
      priority order (annulus-attacks.txt: "A recovery check is made by spending 1 action and
      rolling 4 dice ... 3 or more successes"); any of burn, choke, sap, fatigue, knockdown, weaken,
      disarm (a check against Disarm removes the condition on the set the creature values most).
    - ``recovery_actions`` (1): at most this many checks per turn while such a condition is on.
    - ``blood_price_uses`` (0): extra uses per turn of a Blood Price set paid with Vitality instead
      of actions ("There is no limit to how many times you may use an attack each round in this
      manner"), only while the Vitality left exceeds the price.
    """

    recover_from: tuple[str, ...] = spec(
        ("burn", "choke", "sap"),
        kind="list",
        choices=RECOVERABLE,
        help="conditions it spends actions on recovery checks against, in priority order",
        rule=f"{RULES}: A recovery check is made by spending 1 action and rolling 4 dice",
        checker=_conditions,
    )
    recovery_actions: int = spec(
        1,
        kind="int",
        minimum=0,
        maximum=MAX_TACTIC_ACTIONS,
        help="at most this many recovery checks per turn while such a condition is on",
        rule=f"{RULES}: A recovery check is made by spending 1 action",
    )
    blood_price_uses: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=MAX_TACTIC_ACTIONS,
        help="extra uses per turn of a Blood Price set, paid with Vitality while more than the price is left",
        rule=f"{RULES}: There is no limit to how many times you may use an attack each round in this manner",
    )

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "tactics"
