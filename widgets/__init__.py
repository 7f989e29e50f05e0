"""Reusable ipywidget panels over the workbench engine (the engine never imports these).

Each panel is an ``ipywidgets.VBox`` that owns its controls and (if it draws) one
``alt.JupyterChart``, and exposes its model as the ``value`` trait for ``traitlets.link``.
"""

import workbench  # noqa: F401  (first: its import makes altair's import 3 s cheaper, workbench.iri_stand_in)

from .annulus import AnnulusAttackBuilder
from .app import Workbench
from .attack import AttackSetBuilder, attack_builder
from .base import Panel, enable_offline
from .compare import ComparePanel
from .creature import CreatureEditor
from .damage import DamagePanel
from .duel import DuelPanel
from .files import FilePanel
from .forms import CatalogEditor, ModelForm
from .situation import OptionsPanel, SituationPanel
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
    "ComparePanel",
    "FilePanel",
    "SweepPanel",
    "Workbench",
]
