"""Load the bundled Unbound catalog (workbench/catalog/unbound/attacks.toml, creatures.toml)."""

from __future__ import annotations

from pathlib import Path

from ...errors import RulesError
from ..base import CATALOG_DIR, Catalog, read_toml
from .models import Attack, Creature

__all__ = ["load_catalog", "CATALOG_PATH"]

CATALOG_PATH = CATALOG_DIR / "unbound"


def _entries(path: Path, table: str) -> list[dict]:
    data = read_toml(path)
    rows = data.get(table)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise RulesError(f"{path.name} needs [[{table}]] tables", field=table)
    return rows


def load_catalog(directory: Path = CATALOG_PATH) -> Catalog:
    """Return the validated catalog; a malformed entry raises RulesError naming the file, entry and field.

    Creatures list their ``weapons`` by attack name (from attacks.toml) or as inline tables.
    """
    directory = Path(directory)
    attacks: dict[str, Attack] = {}
    path = directory / "attacks.toml"
    for i, row in enumerate(_entries(path, "attack")):
        try:
            a = Attack.from_dict(row)
        except RulesError as exc:
            raise RulesError(f"{path.name} attack #{i + 1} ({row.get('name', '?')}): {exc.message}",
                             field=exc.field, rule=exc.rule) from None
        if a.name in attacks:
            raise RulesError(f"{path.name}: two attacks called {a.name!r}", field="name")
        attacks[a.name] = a
    lookup = {k.lower(): v for k, v in attacks.items()}
    creatures: dict[str, Creature] = {}
    path = directory / "creatures.toml"
    for i, row in enumerate(_entries(path, "creature")):
        row = dict(row)
        weapons = row.get("weapons", [])
        if not isinstance(weapons, list):
            raise RulesError(f"{path.name} creature #{i + 1}: weapons must be a list", field="weapons")
        resolved = []
        for w in weapons:
            if isinstance(w, str):
                if w.lower() not in lookup:
                    raise RulesError(f"{path.name} creature #{i + 1} ({row.get('name', '?')}): no attack called "
                                     f"{w!r} in attacks.toml", field="weapons")
                resolved.append(lookup[w.lower()])
            else:
                resolved.append(w)
        row["weapons"] = resolved
        try:
            c = Creature.from_dict(row)
        except RulesError as exc:
            raise RulesError(f"{path.name} creature #{i + 1} ({row.get('name', '?')}): {exc.message}",
                             field=exc.field, rule=exc.rule) from None
        if c.name in creatures:
            raise RulesError(f"{path.name}: two creatures called {c.name!r}", field="name")
        creatures[c.name] = c
    return Catalog("unbound", creatures=creatures, attacks=attacks)
