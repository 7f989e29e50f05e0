"""A rule system's catalog: its bundled creatures and attacks by name (:class:`Catalog`), and the
loading of published stat lines from TOML files (:func:`read_toml`, :func:`load_models`)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RulesError

__all__ = ["Catalog", "read_toml", "load_models", "CATALOG_DIR"]

#: the folder of the bundled catalogs (workbench/catalog)
CATALOG_DIR = Path(__file__).resolve().parent.parent / "catalog"


@dataclass
class Catalog:
    """Bundled creatures and attacks of one system, by name."""

    system: str
    creatures: dict[str, Any] = field(default_factory=dict)
    attacks: dict[str, Any] = field(default_factory=dict)

    def creature(self, name: str):
        """Return the catalog creature called ``name`` (case-insensitive)."""
        return self._find(self.creatures, name, "creature")

    def attack(self, name: str):
        """Return the catalog attack called ``name`` (case-insensitive)."""
        return self._find(self.attacks, name, "attack")

    def _find(self, table: dict[str, Any], name: str, what: str):
        for key, value in table.items():
            if key.lower() == str(name).strip().lower():
                return value
        raise RulesError(f"no {what} called {name!r} in the {self.system} catalog", field=what)

    def names(self) -> dict[str, list[str]]:
        """Return the creature and attack names."""
        return {"creatures": list(self.creatures), "attacks": list(self.attacks)}

    def frame(self, what: str = "creatures"):
        """Return a polars frame with one row per creature (or attack) and its fields."""
        import polars as pl

        table = self.creatures if what == "creatures" else self.attacks
        rows = []
        for obj in table.values():
            d = obj.to_dict()
            rows.append(
                {k: (v if isinstance(v, (int, float, str, bool)) or v is None else repr(v)) for k, v in d.items()}
            )
        return pl.DataFrame(rows, infer_schema_length=None)


def read_toml(path: Path) -> dict[str, Any]:
    """Return the parsed TOML file, or raise RulesError naming the file and the parse error."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}", field="path") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path} is not valid TOML: {exc}", field="path") from None


def load_models(path: Path, table: str, model_cls: Any, prepare: Any = None) -> dict[str, Any]:
    """Return ``{name: model}`` built from the ``[[table]]`` entries of the TOML file ``path``.

    ``prepare(entry)`` may rewrite an entry first (e.g. resolve attack names). A malformed entry
    raises RulesError naming the file, the entry and the field; two entries may not share a name.
    """
    rows = read_toml(path).get(table)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise RulesError(f"{path.name} needs [[{table}]] tables", field=table)
    out: dict[str, Any] = {}
    for i, row in enumerate(rows):
        where = f"{path.name} {table} #{i + 1} ({row.get('name', '?')})"
        try:
            model = model_cls.from_dict(prepare(dict(row)) if prepare else row)
        except RulesError as exc:
            raise RulesError(f"{where}: {exc.message}", field=exc.field, rule=exc.rule) from None
        if model.name in out:
            raise RulesError(f"{where}: a second {table} called {model.name!r}", field="name")
        out[model.name] = model
    return out
