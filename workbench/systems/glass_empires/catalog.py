"""The bundled Glass Empires catalog, and its conversion from the published stat lines.

``workbench/catalog/glass_empires/creatures.toml`` and ``weapons.toml`` were produced by
:func:`creatures_from_shared` / :func:`weapons_from_shared` from shared/data/glass_empires_creatures.toml
(each record keeps its ``source``); :func:`load` validates them into a :class:`~workbench.systems.catalog.Catalog`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import RulesError
from ..catalog import CATALOG_DIR, Catalog, read_toml
from .models import Attack, Creature

__all__ = ["load", "creatures_from_shared", "weapons_from_shared", "creatures_toml", "CATALOG_PATH"]

CATALOG_PATH = CATALOG_DIR / "glass_empires"

_WEAPON_KEYS = {
    "Rock": "rock",
    "Throwable": "throwable",
    "Light melee": "light_melee",
    "Medium melee": "medium_melee",
    "Heavy melee": "heavy_melee",
    "Sling": "sling",
    "Bow": "bow",
    "Crossbow": "crossbow",
    "Windgun pistol": "windgun_pistol",
    "Windgun": "windgun",
}


def _attack_from_shared(a: dict[str, Any], c: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """Return (an Attack record, a note) for a published attack, or (None, why) when it cannot be
    resolved. An aura (area or passive damage) is no Attack; a weapon with no range stated cannot be
    shot; where the data is silent a default is used and the note says which:

    - no ``kind`` but a stated damage (the Warrior King's "Weapon (unspecified)"): melee, physical;
    - no damage stated (the mercenary's spear, the longswords): the damage per Strike the
      published Battle Rating implies, 4 x damage multiplier / Strikes (README "Derived fields":
      damagemultiplier = best damage per turn / 4; the Mercenary's 1.5 is read back from its BR
      4.5 = Power 2 x (1 + Armor 2/4) x multiplier).
    """
    props = a.get("properties", [])
    if a.get("kind") == "aura":
        return None, f"{a['name']}: an aura (area or passive damage), not an Attack"
    if "range_not_stated" in props:
        return None, f"{a['name']}: range not stated, so it cannot be shot"
    notes = []
    rec: dict[str, Any] = {"name": a["name"]}
    damage = a.get("damage")
    if damage is None:
        strikes = c.get("strikes", 1)
        mult = c.get("damage_multiplier")
        if mult is None and c.get("br") is not None:
            mult = c["br"] / (c["power"] * (1 + c.get("armor", 0) / 4) * (c.get("combat_features", 0) + 1))
        assert mult is not None  # the published creatures whose attacks state no damage all state a BR
        per_strike = 4 * mult / strikes
        if abs(per_strike - round(per_strike)) > 1e-9:
            return None, f"{a['name']}: damage not stated and the BR implies {per_strike:g} per Strike"
        damage = int(round(per_strike))
        notes.append(
            f"{a['name']}: damage not stated; {damage} per Strike is what the published damage "
            f"multiplier {mult:g} implies (4 x {mult:g} / {strikes} Strike{'s' * (strikes > 1)})"
        )
    rec["damage"] = damage
    kind = a.get("kind")
    if kind is None:
        kind = "melee"
        notes.append(f"{a['name']}: weapon kind not stated; melee assumed")
    rec["kind"] = kind
    if "damage_type" not in a:
        notes.append(f"{a['name']}: damage type not stated; physical assumed")
    rec["damage_type"] = a.get("damage_type", "physical")
    rec["natural"] = bool(a.get("natural", False))
    if "range" in a:
        rec["range"] = a["range"]
    if a.get("hands") == "2H":
        rec["two_handed"] = True
    return rec, "; ".join(notes)


#: published keys copied onto the Creature as traits (shared/data README, "Resistances")
_DEFENSE_KEYS = {
    "single_target_damage_max": "single_target_damage_max",
    "area_damage_multiplier": "area_damage_multiplier",
    "damage_reduction_vs_direct_attacks": "damage_reduction",
    "ray_shield_breaks_on_effect_dealing_at_least": "ray_shield_breaks_at",
}


def creatures_from_shared(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Return Creature records for every published creature the model can resolve (all 40 today).

    - A variant row without a Size takes its base creature's (``variant_of``), and says so in ``note``;
      a worked (human) example without one is Size 5 (a human).
    - A creature with no weapon (True Immortal, Kain) is kept: a legal target with no plans.
    - Weapons with unstated facts get the defaults of :func:`_attack_from_shared`, noted.
    - Resistances map weak/resistant/immune to weak/resist/immune; ``resist_conditional``,
      ``damage_taken_multiplier``, ``armor_bypassed_by``, ``defenses``, ``strike_save_bonus``
      (``vs_`` prefix dropped), ``immobile``, ``immune_conditions`` and ``features`` become ``traits``.
    """
    out = []
    by_name = {c["name"]: c for c in data.get("creature", [])}
    for c in data.get("creature", []):
        notes = []
        size = c.get("size")
        base = by_name.get(c.get("variant_of", ""))
        if size is None and base is not None and base.get("size") is not None:
            size = base["size"]
            notes.append(
                f"Size not stated for this variant (its row does not inherit the base's Size: the bestiary may"
                f" call it smaller or larger); the base creature's ({base['name']}) Size {size:g} ft is used"
            )
        if size is None and ("human" in c["name"].lower() or "example" in c["name"].lower()):
            # the worked examples are human (README: HD 2 is the human race value; the Warrior
            # King's HD 10 is "2 human HD + 8 from eating great beasts")
            size = 5
            notes.append("Size not stated; 5 ft (a human) is used")
        if size is None:
            continue
        weapons = []
        for a in c.get("attacks", []):
            w, why = _attack_from_shared(a, c)
            if w is not None:
                weapons.append(w)
                if why:
                    notes.append(why)
            elif a.get("kind") != "aura":
                notes.append(f"left out: {why}")
        if not c.get("attacks"):
            notes.append("no weapon listed: a target only")
        if c.get("behaviour"):
            notes.append(f"behaviour: {c['behaviour'].replace('_', ' ')} (not simulated)")
        if "cannot be fought" in str(c.get("group", "")):
            notes.append("the bestiary says it cannot be fought")
        rec: dict[str, Any] = {
            "name": c["name"],
            "power": c["power"],
            "hp": c["hp"],
            "armor": c.get("armor", 0),
            "size": size,
            "strikes": c.get("strikes", 1),
        }
        for key, level in (("resist", "resistant"), ("weak", "weak"), ("immune", "immune")):
            types = [t for t, v in c.get("resist", {}).items() if v == level]
            if types:
                rec[key] = types
        if "hd" in c:
            rec["hd"] = c["hd"]
        if c.get("level"):
            rec["level"] = c["level"]
        rec["source"] = c["source"]
        traits: dict[str, Any] = {}
        if c.get("damage_taken_multiplier"):
            traits["damage_taken_multiplier"] = dict(c["damage_taken_multiplier"])
        if c.get("armor_bypassed_by"):
            traits["armor_bypassed_by"] = list(c["armor_bypassed_by"])
        if c.get("resist_conditional"):
            traits["resist_conditional"] = [[r["type"], r["level"], r["condition"]] for r in c["resist_conditional"]]
        for key, field in _DEFENSE_KEYS.items():
            if key in c.get("defenses", {}):
                traits[field] = c["defenses"][key]
        if c.get("defenses", {}).get("condition"):
            notes.append(f"damage reduction holds {c['defenses']['condition'].replace('_', ' ')}")
        if c.get("strike_save_bonus"):
            traits["strike_save_bonus"] = {k.removeprefix("vs_"): v for k, v in c["strike_save_bonus"].items()}
        if c.get("immobile"):
            traits["immobile"] = True
        if c.get("immune_conditions"):
            traits["immune_conditions"] = list(c["immune_conditions"])
        if c.get("features"):
            traits["features"] = list(c["features"])
        if traits:
            rec["traits"] = traits
        if notes:
            rec["note"] = "; ".join(notes)
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


def _value(v: Any) -> str:
    """Return one TOML value (strings, numbers, booleans, lists and inline tables)."""
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(_value(x) for x in v) + "]"


def creatures_toml(records: list[dict[str, Any]]) -> str:
    """Return the text of ``creatures.toml`` for :func:`creatures_from_shared` records (one
    ``[[creature]]`` table each, weapons as inline tables), with the file's header comment."""
    lines = [
        "# Glass Empires catalog, converted by workbench.systems.glass_empires.catalog from",
        "# shared/data/glass_empires_creatures.toml (CyclopeanArts/Site-GlassEmpires-SRD @ 8819cc5f).",
        "# `source` is the path in that repository. Facts and numbers only. `note` says which default",
        "# was used where the published data is silent. Regenerate with",
        "# creatures_toml(creatures_from_shared(tomllib.load(...))).",
        "",
    ]
    for rec in records:
        lines.append("[[creature]]")
        for k, v in rec.items():
            if k == "weapons":
                lines.append("weapons = [")
                lines.extend(f"  {_value(w)}," for w in v)
                lines.append("]")
            else:
                lines.append(f"{k} = {_value(v)}")
        lines.append("")
    return "\n".join(lines)


def _build(cls, rec: Any, path: Path, i: int):
    try:
        return cls.from_dict(rec)
    except RulesError as exc:
        raise RulesError(
            f"{path.name} entry {i} ({rec.get('name', '?') if isinstance(rec, dict) else rec!r}): {exc.message}",
            field=exc.field,
            rule=exc.rule,
        ) from None


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
