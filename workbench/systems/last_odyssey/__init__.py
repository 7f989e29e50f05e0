"""Last Odyssey (last-odyssey-attacks.txt): strikes, spells and sleights on one d10 hit die.

``wb.system("last_odyssey")`` returns :data:`SYSTEM`.
"""

from .elements import ELEMENTS, element_multiplier
from .models import Attack, Creature, Options, Shell, Situation
from .system import SYSTEM, LastOdyssey

__all__ = [
    "SYSTEM",
    "LastOdyssey",
    "Attack",
    "Creature",
    "Options",
    "Shell",
    "Situation",
    "ELEMENTS",
    "element_multiplier",
]
