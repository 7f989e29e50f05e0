"""Annulus (annulus-attacks.txt): pools of d6 successes minus a defense, 54 attack-set upgrades,
a d12 Trigger Die. ``SYSTEM`` is the rule system the registry returns for ``wb.system("annulus")``."""

from .models import Attack, Creature, Options, Situation
from .system import SYSTEM, AnnulusSystem
from .tactics import Tactics
from .upgrades import UPGRADES, Upgrade

__all__ = ["SYSTEM", "AnnulusSystem", "Attack", "Creature", "Options", "Situation", "UPGRADES", "Upgrade", "Tactics"]
