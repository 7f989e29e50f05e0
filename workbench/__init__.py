"""Rules Workbench: exact attack maths for tabletop rule systems.

>>> import workbench as wb
>>> len(wb.systems())   # the four bundled rule systems, and any registered (wb.register_system)
4

The engine never imports ipywidgets; polars and altair load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import iri_stand_in  # noqa: F401  (first: installs itself before anything imports altair; saves 3 s)
from .api import damage, outcomes
from .combat import duel, mean_rounds_to_kill, rounds_to_kill
from .dist import Dist
from .duel_result import DuelResult
from .errors import RulesError
from .io import from_share_code, load, save, share_code
from .systems import register_system, system, system_of, systems, unregister_system
from .turns import turn_damage, turn_plans

if TYPE_CHECKING:  # the lazy names (below, loaded on first use) as a type checker sees them
    from .comparison import compare, export, pivot, rank
    from .explanations import explain
    from .exploration import explore
    from .policies import optimal_play
    from .published import references
    from .races import head_to_head
    from .rule_variants import variants
    from .sweeps import sweep

__version__ = "0.1.0"

__all__ = [
    "Dist",
    "RulesError",
    "systems",
    "system",
    "system_of",
    "register_system",
    "unregister_system",
    "outcomes",
    "damage",
    "rounds_to_kill",
    "mean_rounds_to_kill",
    "turn_damage",
    "turn_plans",
    "duel",
    "DuelResult",
    "encounter",
    "EncounterResult",
    "encounter_difficulty",
    "load",
    "save",
    "share_code",
    "from_share_code",
    "compare",
    "explore",
    "rank",
    "pivot",
    "export",
    "sweep",
    "head_to_head",
    "variants",
    "explain",
    "optimal_play",
    "references",
    "__version__",
]

# The comparison engine pulls in polars and every rule system: load it on first use so that
# `import workbench` stays fast. (The modules are comparison.py / exploration.py, not compare.py /
# explore.py, because importing a submodule would rebind `workbench.compare` to the module.)
_LAZY = {
    "compare": "comparison",
    "rank": "comparison",
    "pivot": "comparison",
    "export": "comparison",
    "explore": "exploration",
    "sweep": "sweeps",
    "head_to_head": "races",
    "variants": "rule_variants",
    "explain": "explanations",
    "optimal_play": "policies",
    "references": "published",
    "encounter": "encounters",
    "EncounterResult": "encounters",
    "encounter_difficulty": "encounters",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
