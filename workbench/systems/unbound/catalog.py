"""Load the bundled Unbound catalog (workbench/catalog/unbound/attacks.toml, creatures.toml)."""

from __future__ import annotations

from pathlib import Path

from ...errors import RulesError
from ..catalog import CATALOG_DIR, Catalog, load_models
from .models import Attack, Creature

__all__ = ["load_catalog", "CATALOG_PATH"]

CATALOG_PATH = CATALOG_DIR / "unbound"


def load_catalog(directory: Path = CATALOG_PATH) -> Catalog:
    """Return the validated catalog; a malformed entry raises RulesError naming the file, entry and field.

    Creatures list their ``weapons`` by attack name (from attacks.toml) or as inline tables.
    """
    directory = Path(directory)
    attacks = load_models(directory / "attacks.toml", "attack", Attack)
    lookup = {k.lower(): v for k, v in attacks.items()}

    def resolve_weapons(row: dict) -> dict:
        weapons = row.get("weapons", [])
        if not isinstance(weapons, list):
            raise RulesError("weapons must be a list", field="weapons")
        for w in weapons:
            if isinstance(w, str) and w.lower() not in lookup:
                raise RulesError(f"no attack called {w!r} in attacks.toml", field="weapons")
        row["weapons"] = [lookup[w.lower()] if isinstance(w, str) else w for w in weapons]
        return row

    creatures = load_models(directory / "creatures.toml", "creature", Creature, resolve_weapons)
    return Catalog("unbound", creatures=creatures, attacks=attacks)
