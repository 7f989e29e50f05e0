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
        """Return a polars frame with one row per creature (or attack) and its fields.

        Nested fields keep their shape: a list of attacks is a ``List(Struct)`` column, a table
        (Annulus upgrades, Glass Empires traits) a ``Struct`` whose fields are the keys any row
        uses (null where a row lacks one). A column whose rows mix types (a Last Odyssey ability's
        ``targets``, a number or a word) holds each cell as JSON text instead. ``wb.compare`` and
        :func:`workbench.comparison.frame_creatures` read the frame back (nulls inside a table
        are the keys it lacks), also after ``to_pandas()``."""
        import json

        import polars as pl

        table = self.creatures if what == "creatures" else self.attacks
        rows = [obj.to_dict() for obj in table.values()]
        columns = list(dict.fromkeys(k for r in rows for k in r))
        series = []
        for c in columns:
            values = [r.get(c) for r in rows]
            try:  # every row read for the nested types; kept only if the cells read back as given
                dtype = _dtype(values)
                if "Struct({})" in str(dtype):  # a table no row fills: parquet cannot hold a struct of no field
                    raise TypeError(f"{c} holds an empty table")
                column = pl.Series(c, values, dtype=dtype, strict=True)
                if _without_nulls(column.to_list()) != _without_nulls(values):
                    raise ValueError(f"{c} does not read back")
            except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
                column = pl.Series(c, [None if v is None else json.dumps(v) for v in values], dtype=pl.String)
            series.append(column)
        return pl.DataFrame(series)


def _dtype(values: list[Any]) -> Any:
    """Return the polars type that holds every one of ``values`` (the union of the tables' keys,
    at any depth); TypeError if they mix kinds (a number and a word)."""
    import polars as pl

    present = [v for v in values if v is not None]
    if not present:
        return pl.Null
    if all(isinstance(v, bool) for v in present):
        return pl.Boolean
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pl.Int64
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if any(isinstance(v, int) for v in present):
            raise TypeError("whole numbers and decimals mixed: they would not read back as given")
        return pl.Float64
    if all(isinstance(v, str) for v in present):
        return pl.String
    if all(isinstance(v, (list, tuple)) for v in present):
        return pl.List(_dtype([x for v in present for x in v]))
    if all(isinstance(v, dict) for v in present):
        keys = list(dict.fromkeys(k for v in present for k in v))
        if not all(isinstance(k, str) for k in keys):
            raise TypeError("a table with keys that are not text")
        return pl.Struct({k: _dtype([v.get(k) for v in present]) for k in keys})
    raise TypeError("values of different kinds")


def _without_nulls(value: Any) -> Any:
    """Return ``value`` with the None values of its tables left out, at any depth (a struct cell
    reads back with a null for each key another row has)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_without_nulls(v) for v in value]
    return value


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
