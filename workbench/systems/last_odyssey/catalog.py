"""The bundled Last Odyssey catalog: creatures converted from the published stat lines.

``workbench/catalog/last_odyssey/creatures.toml`` holds all 40 records of
``shared/data/last_odyssey_creatures.toml`` converted by :func:`from_published`; the catalog's
attacks are every creature's abilities, keyed ``"Creature: Ability"`` (and by the bare ability
name when only one creature has it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import RulesError
from ..base import CATALOG_DIR, Catalog, read_toml
from .models import Creature

__all__ = ["CATALOG_FILE", "load_catalog", "from_published", "RANGED_WEAPONS"]

CATALOG_FILE = CATALOG_DIR / "last_odyssey" / "creatures.toml"
_STATS = ("hp", "tier", "physical_accuracy", "magical_accuracy", "status_accuracy", "physical_attack",
          "magical_attack", "physical_defense", "magical_defense", "evasion", "resistance")
#: Hero weapon types whose basic strike is Ranged; every other weapon's is Melee.
RANGED_WEAPONS = ("Bow", "Gun")
_FRONT_ROW_GROUPS = ("front_row", "front_row_opponents")


def _element(value: Any) -> str | None:
    return None if value in (None, "Colorless") else value


def _ability(rec: dict[str, Any]) -> dict[str, Any] | None:
    """Return a catalog ability from a published one, or None if it is not a usable attack."""
    if rec.get("kind") not in ("strike", "spell", "sleight") or "ap_cost" not in rec or rec.get("type") == "passive":
        return None
    kind_of_type = rec["type"]
    if kind_of_type == "multi":
        kind_of_type = "melee" if rec.get("targets") in _FRONT_ROW_GROUPS else "ranged"
    out: dict[str, Any] = {"name": rec["name"], "kind": rec["kind"]}
    if _element(rec.get("element")):
        out["element"] = rec["element"]
    out["targets"] = 1 if rec.get("targets", "single") == "single" else "all"
    if rec.get("status"):
        out["status"] = rec["status"]
    if rec.get("damage_multiplier"):
        out["multiplier"] = float(rec["damage_multiplier"])
    if "no_damage" in rec.get("tags", []):
        out["multiplier"] = 0.0
    out["ability_type"] = kind_of_type
    out["ap_cost"] = int(rec["ap_cost"])
    if rec.get("mp_cost"):
        out["mp_cost"] = int(rec["mp_cost"])
    tags = list(rec.get("tags", []))
    if rec.get("basic"):
        tags.insert(0, "basic")
    if rec.get("targets") not in (None, "single"):
        tags.append(f"targets_{rec['targets']}")
    if tags:
        out["tags"] = tags
    return out


def from_published(record: dict[str, Any]) -> dict[str, Any]:
    """Return the catalog table (Creature fields) of one published ``[[creature]]`` record.

    Colorless becomes no element; a warrior's ``shell`` is kept, a hero's sheet Shell becomes
    ``shell_max`` (heroes start battle without one); heroes get the colorless basic strike
    (Ranged with a bow or gun); abilities without an action-point cost (passives, triggers,
    paradigm actions) and non-attacks are left out; a ``no_damage`` attack gets multiplier 0.
    """
    out: dict[str, Any] = {"name": record["name"]}
    out.update({k: int(record[k]) for k in _STATS})
    if _element(record.get("element")):
        out["element"] = record["element"]
    if record.get("shell"):
        out["shell"] = {"points": int(record["shell"]["points"])}
        if _element(record["shell"].get("element")):
            out["shell"]["element"] = record["shell"]["element"]
    if record.get("shell_max") is not None:
        out["shell_max"] = int(record["shell_max"])
    if record.get("immune_damage"):
        out["immune_elements"] = list(record["immune_damage"])
    if record.get("immune_status"):
        out["immune_statuses"] = list(record["immune_status"])
    out["record_type"] = record["record_type"]
    out["source"] = record["source"]
    abilities = [a for a in (_ability(r) for r in record.get("abilities", [])) if a]
    if record["record_type"] == "hero":
        weapon = record.get("equipped_weapon", {}).get("type")
        abilities.insert(0, {"name": "Attack", "kind": "strike", "ability_type":
                             "ranged" if weapon in RANGED_WEAPONS else "melee", "ap_cost": 1,
                             "tags": ["basic", f"weapon_{weapon}"]})
    out["abilities"] = abilities
    return out


def load_catalog(path: Path = CATALOG_FILE) -> Catalog:
    """Return the validated catalog from ``path``; a bad record raises RulesError naming file and field."""
    data = read_toml(path)
    records = data.get("creature")
    if not isinstance(records, list) or not records:
        raise RulesError(f"{path.name}: needs one or more [[creature]] tables", field="creature")
    cat = Catalog("last_odyssey")
    counts: dict[str, int] = {}
    for i, rec in enumerate(records):
        try:
            creature = Creature.from_dict(rec)
        except RulesError as exc:
            who = rec.get("name", f"#{i}") if isinstance(rec, dict) else f"#{i}"
            raise RulesError(f"{path.name}, creature {who!r}: {exc.message}", field=f"creature[{i}].{exc.field}",
                             rule=exc.rule) from None
        if creature.name in cat.creatures:
            raise RulesError(f"{path.name}: two creatures called {creature.name!r}", field=f"creature[{i}].name")
        cat.creatures[creature.name] = creature
        for a in creature.abilities:
            cat.attacks[f"{creature.name}: {a.name}"] = a
            counts[a.name] = counts.get(a.name, 0) + 1
    for c in cat.creatures.values():
        for a in c.abilities:
            if counts[a.name] == 1:
                cat.attacks[a.name] = a
    return cat
