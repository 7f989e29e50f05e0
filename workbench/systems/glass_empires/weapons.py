"""The Glass Empires weapon-category table and damage types (CLARIFICATIONS.md, Glass Empires).

Damage is a flat number per weapon category: rock 2, throwable 3, light melee 4, medium melee 5
(+1 two-handed), heavy melee 8, sling 4, bow 5, crossbow 8 (Reload), windgun pistol 5, windgun 8;
dual windgun pistols in melee +1. Ranges (feet) are those of the published equipment table
(shared/data/glass_empires_creatures.toml, ``[[weapon]]``, rules/marketplace/equipment.mdx).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WeaponCategory", "WEAPONS", "DAMAGE_TYPES", "RULES", "CLAR"]

RULES = "glass-empires-attack.txt"
CLAR = "CLARIFICATIONS.md, Glass Empires"

#: the damage types of the published stat lines (shared/data/README.md)
DAMAGE_TYPES = ("physical", "acid", "electric", "fire", "ice", "mind", "poison")


@dataclass(frozen=True)
class WeaponCategory:
    """One row of the weapon table: base damage, kind, listed range (ft) and flags."""

    key: str
    title: str
    damage: int
    kind: str  # "melee" or "ranged"
    range: int | None = None  # listed range of a ranged weapon (ft)
    thrown_range: int | None = None  # a melee weapon that may be thrown (ft)
    two_handed: bool = False  # always wielded in two hands
    versatile: bool = False  # hand-and-a-half: +1 damage two-handed
    reload: bool = False
    windgun: bool = False
    melee_ok: bool = False  # a ranged weapon usable in melee (windgun pistol)


WEAPONS: dict[str, WeaponCategory] = {
    w.key: w
    for w in (
        WeaponCategory("rock", "Rock", 2, "melee", thrown_range=30),
        WeaponCategory("throwable", "Throwable", 3, "melee", thrown_range=30),
        WeaponCategory("light_melee", "Light melee", 4, "melee"),
        WeaponCategory("medium_melee", "Medium melee", 5, "melee", versatile=True),
        WeaponCategory("heavy_melee", "Heavy melee", 8, "melee", two_handed=True),
        WeaponCategory("sling", "Sling", 4, "ranged", range=90, two_handed=True),
        WeaponCategory("bow", "Bow", 5, "ranged", range=150, two_handed=True),
        WeaponCategory("crossbow", "Crossbow", 8, "ranged", range=150, two_handed=True, reload=True),
        WeaponCategory("windgun_pistol", "Windgun pistol", 5, "ranged", range=120, windgun=True, melee_ok=True),
        WeaponCategory("windgun", "Windgun", 8, "ranged", range=180, two_handed=True, windgun=True),
    )
}
