"""The bundled Glass Empires catalog, and its conversion from the published stat lines.

``workbench/catalog/glass_empires/creatures.toml`` and ``weapons.toml`` were produced by
:func:`creatures_from_shared` / :func:`weapons_from_shared` from shared/data/glass_empires_creatures.toml
(each record keeps its ``source``); :func:`load` validates them into a base.Catalog.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import RulesError
from ..base import CATALOG_DIR, Catalog, read_toml
from .models import Attack, Creature

__all__ = ["load", "creatures_from_shared", "weapons_from_shared", "CATALOG_PATH"]

CATALOG_PATH = CATALOG_DIR / "glass_empires"

_WEAPON_KEYS = {"Rock": "rock", "Throwable": "throwable", "Light melee": "light_melee",
                "Medium melee": "medium_melee", "Heavy melee": "heavy_melee", "Sling": "sling", "Bow": "bow",
                "Crossbow": "crossbow", "Windgun pistol": "windgun_pistol", "Windgun": "windgun"}


def _attack_from_shared(a: dict[str, Any]) -> dict[str, Any] | None:
    """Return an Attack record for a published attack, or None when it cannot be resolved
    (an aura, or a weapon whose damage or kind is not stated)."""
    if a.get("kind") not in ("melee", "ranged") or "damage" not in a:
        return None
    rec = {"name": a["name"], "damage": a["damage"], "kind": a["kind"],
           "damage_type": a.get("damage_type", "physical"), "natural": bool(a.get("natural", False))}
    if "range" in a:
        rec["range"] = a["range"]
    if a.get("hands") == "2H":
        rec["two_handed"] = True
    return rec


def creatures_from_shared(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Return Creature records for the published creatures that the model can resolve.

    Kept: a Size is given and at least one weapon (melee or ranged, stated damage) resolves, or the
    creature has resistances (a useful target). Resistances map weak/resistant/immune to
    weak/resist/immune. Size defaults to 5 (a human) only for the human examples.
    """
    out = []
    for c in data.get("creature", []):
        weapons = [w for w in (_attack_from_shared(a) for a in c.get("attacks", [])) if w]
        size = c.get("size")
        if size is None and "human" in c["name"].lower():
            size = 5
        if size is None or (not weapons and not c.get("resist")):
            continue
        rec: dict[str, Any] = {"name": c["name"], "power": c["power"], "hp": c["hp"], "armor": c.get("armor", 0),
                               "size": size, "strikes": c.get("strikes", 1)}
        for key, level in (("resist", "resistant"), ("weak", "weak"), ("immune", "immune")):
            types = [t for t, v in c.get("resist", {}).items() if v == level]
            if types:
                rec[key] = types
        if "hd" in c:
            rec["hd"] = c["hd"]
        if c.get("level"):
            rec["level"] = c["level"]
        rec["source"] = c["source"]
        rec["weapons"] = weapons
        out.append(rec)
    return out


def weapons_from_shared(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one Attack record per row of the weapon table (plus thrown, two-handed and dual variants)."""
    out = []
    for w in data.get("weapon", []):
        key = _WEAPON_KEYS[w["name"]]
        base = {"category": key, "damage": w["damage"], "damage_type": w["damage_type"], "source": w["source"]}
        kind = "ranged" if w["category"] == "ranged" else "melee"
        out.append({"name": w["name"], "kind": kind, **base})
        if "thrown_range" in w:
            out.append({"name": f"{w['name']} (thrown)", "kind": "ranged", "range": w["thrown_range"], **base})
        if "two_handed_bonus" in w:
            out.append({"name": f"{w['name']} (two-handed)", "kind": "melee", "two_handed": True, **base})
        if key == "windgun_pistol":
            out.append({"name": "Windgun pistol (melee)", "kind": "melee", **base})
            out.append({"name": "Dual windgun pistols (melee)", "kind": "melee", "dual_pistols": True, **base})
    return out


def _build(cls, rec: Any, path: Path, i: int):
    try:
        return cls.from_dict(rec)
    except RulesError as exc:
        raise RulesError(f"{path.name} entry {i} ({rec.get('name', '?') if isinstance(rec, dict) else rec!r}): "
                         f"{exc.message}", field=exc.field, rule=exc.rule) from None


def load(directory: Path = CATALOG_PATH) -> Catalog:
    """Return the validated catalog read from ``creatures.toml`` and ``weapons.toml`` in ``directory``."""
    directory = Path(directory)
    cat = Catalog("glass_empires")
    weapons = directory / "weapons.toml"
    for i, rec in enumerate(read_toml(weapons).get("weapon", [])):
        a = _build(Attack, rec, weapons, i)
        cat.attacks[a.name] = a
    creatures = directory / "creatures.toml"
    for i, rec in enumerate(read_toml(creatures).get("creature", [])):
        c = _build(Creature, rec, creatures, i)
        cat.creatures[c.name] = c
    return cat
