"""``CreatureEditor``: pick a creature from a system's catalog or edit its fields by hand."""

from __future__ import annotations

from typing import Any

from .forms import CatalogEditor

__all__ = ["CreatureEditor"]


class CreatureEditor(CatalogEditor):
    """Edit one creature of ``system``; ``value`` is the valid Creature shown (default: the first in
    the catalog, else ``system.Creature()``)."""

    def __init__(self, system: Any, value: Any = None, *, title: str | None = None, **form_kwargs: Any) -> None:
        from workbench.systems import system as lookup

        self.system = lookup(system)
        super().__init__(
            self.system.Creature, self.system.catalog().creatures, value, system=self.system, title=title, **form_kwargs
        )
