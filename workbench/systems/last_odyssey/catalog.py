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
from ..catalog import CATALOG_DIR, Catalog, read_toml
from .models import Creature

__all__ = ["CATALOG_FILE", "load_catalog", "from_published", "RANGED_WEAPONS"]

CATALOG_FILE = CATALOG_DIR / "last_odyssey" / "creatures.toml"
_STATS = (
    "hp",
    "tier",
    "physical_accuracy",
    "magical_accuracy",
    "status_accuracy",
    "physical_attack",
    "magical_attack",
    "physical_defense",
    "magical_defense",
    "evasion",
    "resistance",
)
#: Hero weapon types whose basic strike is Ranged; every other weapon's is Melee.
RANGED_WEAPONS = ("Bow", "Gun")
_FRONT_ROW_GROUPS = ("front_row", "front_row_opponents")
#: the anima of a catalog antagonist with a paradigm action: no stat line publishes it (a Villain's
#: starting anima is taken from the GM's Anima Pool, srd/anima/antagonists/villains.md), so the catalog
#: gives the most anyone holds in combat (srd/anima/spending.md: "Any excess anima gained above 10
#: dissipates")
ANTAGONIST_ANIMA = 10


def _element(value: Any) -> str | None:
    return None if value in (None, "Colorless") else value


def _timing(rec: dict[str, Any]) -> str | None:
    """Return when a published attack ability is used (models.TIMINGS), or None if it is no attack.

    An ability with an action-point cost is a turn action. Without one: a passive used "During the
    Effect Phase of each round" (tag ``every_effect_phase``: Miasma), a paradigm action (Dragonslayer:
    "does not cost any action points"), or a trigger "After the Effect Phase in battle passes three
    times" (tag ``triggers_after_third_effect_phase``: Foretell Doom)."""
    if rec.get("kind") not in ("strike", "spell", "sleight"):
        return None
    tags = rec.get("tags", [])
    if rec.get("type") == "paradigm action":
        return "paradigm_phase"
    if "every_effect_phase" in tags:
        return "effect_phase"
    if "triggers_after_third_effect_phase" in tags:
        return "after_third_effect_phase"
    if "ap_cost" not in rec or rec.get("type") == "passive":
        return None
    return "action"


#: published targets naming creature types an ability spares
_SPARES = {"all_non_undead_characters": ("Undead",)}


def _ability(rec: dict[str, Any]) -> dict[str, Any] | None:
    """Return a catalog ability from a published one, or None if it is not an attack."""
    timing = _timing(rec)
    if timing is None:
        return None
    kind_of_type = rec["type"]
    if kind_of_type in ("passive", "paradigm action"):
        kind_of_type = "special"  # "The possible targets of this ability are contextual"
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
    # phase abilities cost no action points (Dragonslayer: "does not cost any action points";
    # Miasma: "no AP or MP cost"; Foretell Doom: "does not cost any MP or AP")
    out["ap_cost"] = int(rec.get("ap_cost", 0))
    if rec.get("mp_cost"):
        out["mp_cost"] = int(rec["mp_cost"])
    if rec.get("anima_cost"):
        out["anima_cost"] = int(rec["anima_cost"])
    if timing != "action":
        out["timing"] = timing
    if "x4_vs_full_hp_target_else_x2" in rec.get("tags", []):
        out["multiplier_not_full_hp"] = 2.0
    if rec.get("targets") in _SPARES:
        out["spares_creature_types"] = list(_SPARES[rec["targets"]])
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
    (Ranged with a bow or gun); strikes, spells and sleights with an action-point cost are
    ``abilities``; those used outside the turn's action points (Miasma each Effect Phase, the
    paradigm action Dragonslayer, Foretell Doom after the third Effect Phase) are
    ``phase_abilities``; other passives and non-attacks are left out; a ``no_damage`` attack gets
    multiplier 0. ``creature_type`` is copied; ``mp`` is the hero's MP box or the warrior's Mana
    (srd/heroes/numbers.md: "Mana is their base maximum MP during combat"); a creature with a
    paradigm action gets ``anima`` = ANTAGONIST_ANIMA (its anima is not published).
    """
    out: dict[str, Any] = {"name": record["name"]}
    out.update({k: int(record[k]) for k in _STATS})
    out["mp"] = int(record["mp"] if "mp" in record else record["mana"])  # a hero's MP box, a warrior's Mana
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
    if record.get("creature_type"):
        out["creature_type"] = record["creature_type"]
    found = [a for a in (_ability(r) for r in record.get("abilities", [])) if a]
    abilities = [a for a in found if "timing" not in a]
    phase = [a for a in found if "timing" in a]
    if record["record_type"] == "hero":
        weapon = record.get("equipped_weapon", {}).get("type")
        abilities.insert(
            0,
            {
                "name": "Attack",
                "kind": "strike",
                "ability_type": "ranged" if weapon in RANGED_WEAPONS else "melee",
                "ap_cost": 1,
                "tags": ["basic", f"weapon_{weapon}"],
            },
        )
    out["abilities"] = abilities
    if phase:
        out["phase_abilities"] = phase
    if any(a["timing"] == "paradigm_phase" for a in phase):
        out["anima"] = ANTAGONIST_ANIMA  # not published: the cap (a visible default, docs/systems/last_odyssey.md)
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
            raise RulesError(
                f"{path.name}, creature {who!r}: {exc.message}", field=f"creature[{i}].{exc.field}", rule=exc.rule
            ) from None
        if creature.name in cat.creatures:
            raise RulesError(f"{path.name}: two creatures called {creature.name!r}", field=f"creature[{i}].name")
        cat.creatures[creature.name] = creature
        for a in (*creature.abilities, *creature.phase_abilities):
            cat.attacks[f"{creature.name}: {a.name}"] = a
            counts[a.name] = counts.get(a.name, 0) + 1
    for c in cat.creatures.values():
        for a in (*c.abilities, *c.phase_abilities):
            if counts[a.name] == 1:
                cat.attacks[a.name] = a
    return cat
