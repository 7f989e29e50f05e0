"""Rules Workbench: exact attack maths for tabletop rule systems.

>>> import workbench as wb
>>> wb.systems()
['annulus', 'unbound', 'last_odyssey', 'glass_empires']

The engine never imports ipywidgets; polars and altair load on first use.
"""

from __future__ import annotations

from .api import damage, outcomes
from .combat import DuelResult, duel, mean_rounds_to_kill, rounds_to_kill
from .dist import Dist
from .errors import RulesError
from .io import from_share_code, load, save, share_code
from .systems import system, system_of, systems
from .turns import turn_damage, turn_plans

__version__ = "0.1.0"

__all__ = [
    "Dist", "RulesError", "systems", "system", "system_of", "outcomes", "damage",
    "rounds_to_kill", "mean_rounds_to_kill", "turn_damage", "turn_plans", "duel", "DuelResult",
    "load", "save", "share_code", "from_share_code",
    "__version__",
]
