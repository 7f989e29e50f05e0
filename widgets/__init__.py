"""Reusable ipywidget panels over the workbench engine (the engine never imports these).

Each panel is an ``ipywidgets.VBox`` that owns its controls and (if it draws) one
``alt.JupyterChart``, and exposes its model as the ``value`` trait for ``traitlets.link``.
"""

from typing import TYPE_CHECKING

import workbench  # noqa: F401  (first: its import makes altair's import 3 s cheaper, workbench.iri_stand_in)

from .annulus import AnnulusAttackBuilder
from .app import Workbench
from .attack import AttackSetBuilder, attack_builder
from .base import Panel, enable_offline
from .creature import CreatureEditor
from .damage import DamagePanel
from .files import FilePanel
from .forms import CatalogEditor, ModelForm
from .situation import OptionsPanel, SituationPanel

if TYPE_CHECKING:  # the lazy names (below) as a type checker sees them
    from .compare import ComparePanel
    from .duel import DuelPanel
    from .encounter import EncounterPanel
    from .sweep import SweepPanel

__all__ = [
    "Panel",
    "enable_offline",
    "ModelForm",
    "CatalogEditor",
    "CreatureEditor",
    "AttackSetBuilder",
    "attack_builder",
    "AnnulusAttackBuilder",
    "SituationPanel",
    "OptionsPanel",
    "DamagePanel",
    "DuelPanel",
    "EncounterPanel",
    "ComparePanel",
    "FilePanel",
    "SweepPanel",
    "Workbench",
]

# The panels of the app's tabs not shown at start load on first use, so that the app's first view
# imports only what it shows (issue 38, item 6).
_LAZY = {"ComparePanel": "compare", "DuelPanel": "duel", "EncounterPanel": "encounter", "SweepPanel": "sweep"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
