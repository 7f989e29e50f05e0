"""Unbound (d20): d20 + attack bonus vs AC or touch AC (unbound-d20-attacking.txt).

``wb.system("unbound")`` returns :data:`SYSTEM`; its ``Creature``, ``Attack``, ``Options``,
``Situation`` and ``Action`` are the models here.
"""

from .actions import Slot, expand_turn, offhand_penalty
from .models import ACTION_KINDS, ITERATIVES, RANKS, Action, Attack, Creature, Options, Situation
from .notation import CritSpec, DamageSpec, damage_dist, parse_crit, parse_damage
from .system import SYSTEM, UnboundSystem

__all__ = [
    "SYSTEM",
    "UnboundSystem",
    "Creature",
    "Attack",
    "Options",
    "Situation",
    "Action",
    "Slot",
    "RANKS",
    "ITERATIVES",
    "ACTION_KINDS",
    "parse_damage",
    "parse_crit",
    "damage_dist",
    "DamageSpec",
    "CritSpec",
    "expand_turn",
    "offhand_penalty",
]
