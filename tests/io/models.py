"""Models shared by the load/save and share-code tests: every catalog creature and attack of every
system.
"""

from __future__ import annotations

import workbench as wb

SYSTEMS = wb.systems()


def catalog_objects(name: str) -> list:
    c = wb.system(name).catalog()
    return list(c.creatures.values()) + list(c.attacks.values())


def _guard():
    return wb.system("annulus").catalog().creature("Town Guard")
