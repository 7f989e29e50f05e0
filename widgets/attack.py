"""``AttackSetBuilder``: pick an attack (the attacker's own or the catalog's) or edit its fields.

The generic builder edits the Attack model's plain fields. A system with a richer builder (e.g.
upgrade pickers) registers it in :data:`BUILDERS`; :func:`attack_builder` returns the right one.
"""

from __future__ import annotations

from typing import Any

import traitlets as T

from .attack_builders import BUILDERS
from .base import guarded
from .forms import CatalogEditor

__all__ = ["AttackSetBuilder", "BUILDERS", "attack_builder"]


class AttackSetBuilder(CatalogEditor):
    """Build one attack of ``system``; ``value`` is the valid Attack shown.

    The picker lists the ``attacker``'s attacks first (``system.attacks_of``), then the catalog's;
    setting the ``attacker`` trait refreshes that list (and swaps an attack of the old attacker's
    for the new attacker's first).
    """

    attacker = T.Any(allow_none=True, help="the creature whose attacks are offered first")

    def __init__(
        self, system: Any, value: Any = None, *, attacker: Any = None, title: str | None = None, **form_kwargs: Any
    ) -> None:
        from workbench.systems import system as lookup

        self.system = lookup(system)
        entries = self._entries(attacker)
        super().__init__(self.system.Attack, entries, value, system=self.system, title=title, **form_kwargs)
        self.attacker = attacker

    def _entries(self, attacker: Any) -> dict[str, Any]:
        """Return the picker's entries: the attacker's own attacks, then the catalog's, each attack
        once (issue 36, item 4: Last Odyssey listed 154 entries, the Cop's Truncheon twice and nine
        identical "Attack"s): a catalog attack equal to one listed already is left out."""
        own = self.system.attacks_of(attacker) if attacker is not None else []
        entries = {str(getattr(a, "name", i)): a for i, a in enumerate(own)}
        seen = set(entries.values())
        for name, a in self.system.catalog().attacks.items():
            if name in entries or a in seen:
                continue
            entries[name] = a
            seen.add(a)
        return entries

    @T.observe("attacker")
    @guarded
    def _on_attacker(self, change: dict) -> None:
        """Offer the new attacker's attacks; if the attack shown was the old attacker's own, switch
        to the new attacker's first attack."""
        old_own = self.system.attacks_of(change["old"]) if change["old"] is not None else []
        new_own = self.system.attacks_of(change["new"]) if change["new"] is not None else []
        self.set_entries(self._entries(change["new"]))
        if new_own and any(a == self.value for a in old_own) and not any(a == self.value for a in new_own):
            self.form.value = new_own[0]


def attack_builder(system: Any, value: Any = None, *, attacker: Any = None, **kwargs: Any) -> Any:
    """Return the system's registered attack builder, or the generic :class:`AttackSetBuilder`."""
    from workbench.systems import system as lookup

    from . import annulus  # noqa: F401 - imported for its side effect: registers the Annulus builder

    sys = lookup(system)
    cls = BUILDERS.get(sys.name, AttackSetBuilder)
    return cls(sys, value, attacker=attacker, **kwargs)
