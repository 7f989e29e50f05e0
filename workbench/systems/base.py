"""The rule-system protocol shared by the four systems, and the validated model base.

Every system module defines ``Creature``, ``Attack``, ``Options`` and ``Situation`` as
:class:`Model` subclasses and one :class:`RuleSystem` subclass whose ``outcome_tables``
resolves many matchups at once (vectorised); a single matchup is a 1 x 1 grid of it.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Self, overload

import numpy as np

from ..dist import Dist
from ..errors import RulesError, show
from ..fields import checked
from ..limits import LIMITS, MAX_LIST, MAX_NAME, MAX_OUTCOME

__all__ = [
    "Model",
    "RuleSystem",
    "Catalog",
    "check_int",
    "check_number",
    "check_choice",
    "check_bool",
    "check_str",
    "check_models",
    "show",
    "MAX_MAGNITUDE",
    "dists_from_table",
    "load_models",
    "read_toml",
    "CATALOG_DIR",
]

CATALOG_DIR = Path(__file__).resolve().parent.parent / "catalog"


# --------------------------------------------------------------------------- validation helpers
#: the magnitude past which a whole-number or number field is refused even without its own bound
#: (far inside int64 and float64's exact integers, so nothing downstream wraps or overflows)
MAX_MAGNITUDE = MAX_OUTCOME


def _bounds(value: Any, field: str, minimum: Any, maximum: Any, limit: Any, rule: str | None, shown: str) -> None:
    """Raise RulesError when ``value`` is outside ``minimum..maximum`` (the rule's bounds, citing
    ``rule``) or outside ``-limit..limit`` (a size the rules never need, citing LIMITS; with no
    ``limit``, MAX_MAGNITUDE)."""
    lim = MAX_MAGNITUDE if limit is None else limit
    if minimum is not None and value < minimum:
        raise RulesError(f"must be at least {minimum}, not {shown}", field=field, rule=rule)
    if maximum is not None and value > maximum:
        raise RulesError(f"must be at most {maximum}, not {shown}", field=field, rule=rule)
    if value > lim or value < -lim:
        bound = f"at most {lim}" if value > lim else f"at least {-lim}"
        raise RulesError(
            f"must be {bound} (no rule needs more), not {shown}",
            field=field,
            rule=f"{rule}; {LIMITS}" if rule else LIMITS,
        )


@overload
def check_int(
    field: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    rule: str | None = None,
    optional: Literal[False] = False,
    limit: int | None = None,
) -> int: ...
@overload
def check_int(
    field: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: int | None = None,
) -> int | None: ...
def check_int(
    field: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: int | None = None,
) -> int | None:
    """Return ``value`` as an int, or raise RulesError naming ``field``.

    Bools, non-finite or fractional floats (``1.5`` is refused, never rounded) and anything that
    is not a number are refused; a whole float (``2.0``) is accepted. ``minimum`` / ``maximum``
    are the rule's bounds; ``limit`` bounds the magnitude by a size no rule needs (docs/limits.md;
    10**12 when not given).
    """
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if (
            isinstance(value, (float, np.floating))
            and np.isfinite(value)
            and float(value).is_integer()
            and abs(float(value)) <= MAX_MAGNITUDE
        ):
            value = int(value)
        else:
            raise RulesError(f"must be a whole number, not {show(value)}", field=field, rule=rule)
    value = int(value)
    _bounds(value, field, minimum, maximum, limit, rule, show(value))
    return value


@overload
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: Literal[False] = False,
    limit: float | None = None,
) -> float: ...
@overload
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: float | None = None,
) -> float | None: ...
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: float | None = None,
) -> float | None:
    """Return ``value`` as a finite float, or raise RulesError naming ``field``.

    ``minimum`` / ``maximum`` are the rule's bounds, ``limit`` a magnitude no rule needs (10**12
    when not given); an integer too large for a float is refused, never an OverflowError.
    """
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise RulesError(f"must be a number, not {show(value)}", field=field, rule=rule)
    if isinstance(value, int) and abs(value) > MAX_MAGNITUDE:
        value = math.inf if value > 0 else -math.inf
    else:
        value = float(value)
    if math.isnan(value):
        raise RulesError("must be a number, not NaN", field=field, rule=rule)
    _bounds(value, field, minimum, maximum, MAX_MAGNITUDE if limit is None else limit, rule, show(value))
    return value


def check_choice(
    field: str, value: Any, choices: Iterable[Any], *, rule: str | None = None, optional: bool = False
) -> Any:
    """Return the choice ``value`` names: strings compare case-insensitively, other scalars by
    type and value. Arrays, lists and other non-scalars are refused (never compared elementwise)."""
    if value is None and optional:
        return None
    choices = list(choices)
    if isinstance(value, str):
        key = value.strip().lower()
        for c in choices:
            if isinstance(c, str) and c.lower() == key:
                return c
    elif isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, np.ndarray):
        for c in choices:
            if not isinstance(c, str) and type(c) is type(value) and c == value:
                return c
    raise RulesError(f"must be one of {', '.join(map(str, choices))}; not {show(value)}", field=field, rule=rule)


def check_bool(field: str, value: Any, *, rule: str | None = None) -> bool:
    """Return ``value`` if it is a bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise RulesError(f"must be true or false, not {show(value)}", field=field, rule=rule)
    return bool(value)


def check_str(
    field: str, value: Any, *, rule: str | None = None, allow_empty: bool = False, max_length: int = MAX_NAME
) -> str:
    """Return ``value`` stripped, if it is a (non-empty) string of at most ``max_length`` characters
    that can be written as UTF-8 (a lone surrogate cannot be saved or shared, so it is refused here)."""
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        what = "a text" if allow_empty else "a non-empty text"
        raise RulesError(f"must be {what}, not {show(value)}", field=field, rule=rule)
    if len(value) > max_length:
        raise RulesError(f"must be at most {max_length} characters, not {len(value)}", field=field, rule=LIMITS)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RulesError(
            f"holds a character that is not text ({exc.reason} at position {exc.start}); "
            "it could not be saved or shared",
            field=field,
            rule="io: files and share codes are UTF-8",
        ) from None
    return value.strip()


def check_models(
    field: str, value: Any, model_cls: Any, *, rule: str | None = None, max_items: int = MAX_LIST
) -> tuple:
    """Return ``value`` as a tuple of at most ``max_items`` ``model_cls`` models with distinct names.

    Accepts None (no models), one model or table, or a list of models and tables (tables are built
    with ``from_dict``; their errors are reported as ``field[i].subfield``).
    """
    if value is None:
        return ()
    if isinstance(value, (model_cls, dict)):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"must be a list of {model_cls.__name__} models, not {show(value)}", field=field, rule=rule)
    if len(value) > max_items:
        raise RulesError(
            f"may hold at most {max_items} models (no rule needs more), not {len(value)}",
            field=field,
            rule=f"{rule}; {LIMITS}" if rule else LIMITS,
        )
    out = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            try:
                item = model_cls.from_dict(item)
            except RulesError as exc:
                raise RulesError(exc.message, field=f"{field}[{i}].{exc.field}", rule=exc.rule) from None
        if not isinstance(item, model_cls):
            raise RulesError(
                f"must hold {model_cls.system} {model_cls.__name__} models, not {type(item).__name__}",
                field=f"{field}[{i}]",
                rule=rule,
            )
        out.append(item)
    names = [m.name.strip().lower() for m in out]
    if len(set(names)) != len(names):
        raise RulesError(f"two entries share a name: {[m.name for m in out]}; name them apart", field=field, rule=rule)
    return tuple(out)


# --------------------------------------------------------------------------- models
@dataclass(frozen=True)
class Model:
    """Base of every validated model: a frozen dataclass whose fields are declared with
    :func:`workbench.fields.spec`, checked on construction.

    Subclasses set ``system`` (the registry name) and ``model_kind`` (creature, attack, options,
    situation; not ``kind``, which several systems use as a field name). Construction first checks
    every declared field of a checked kind against its spec (type, bounds, choices; RulesError
    naming the field and the spec's rule), then calls :meth:`validate`, which the subclass
    overrides for the rules that join several fields and the fields of its own notation; it raises
    RulesError for a bad field and may normalise values with ``object.__setattr__``.
    """

    system: ClassVar[str] = ""
    model_kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        try:
            for name, fs in checked(type(self)):
                object.__setattr__(self, name, fs.check(name, getattr(self, name)))
            self.validate()
        except RulesError:
            raise
        except (
            TypeError,
            ValueError,
            OverflowError,
            ArithmeticError,
            AttributeError,
            LookupError,
            UnicodeError,
            MemoryError,
            RecursionError,
        ) as exc:
            # A value no check foresaw: still a RulesError (models raise nothing else), marked
            # ``unforeseen`` so that tests/hostile/test_input.py can find and fix the missing check.
            err = RulesError(
                f"invalid {self.model_kind or type(self).__name__}: {type(exc).__name__}: {show(str(exc), 120)}",
                field=self.model_kind or type(self).__name__,
            )
            err.unforeseen = True
            raise err from None

    def validate(self) -> None:
        """Raise RulesError naming the field and rule for an invalid value."""

    def replace(self, **changes: Any) -> Self:
        """Return a copy with ``changes`` applied, validated again."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"unknown field(s) {sorted(unknown)} for {type(self).__name__}", field=sorted(unknown)[0])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the model as plain data (nested models become dicts, tuples lists)."""

        def plain(v: Any) -> Any:
            if isinstance(v, Model):
                return v.to_dict()
            if isinstance(v, (list, tuple)):
                return [plain(x) for x in v]
            if isinstance(v, dict):
                return {k: plain(x) for k, x in v.items()}
            return v

        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Return a model built from plain data; unknown keys raise RulesError."""
        if not isinstance(data, dict):
            raise RulesError(
                f"expected a table of fields, not {type(data).__name__}", field=cls.model_kind or cls.__name__
            )
        names = {f.name for f in dataclasses.fields(cls)}
        if len(data) > 4 * len(names) + 16 or any(not isinstance(k, str) for k in data):
            raise RulesError(
                f"expected a table of {cls.system} {cls.model_kind or cls.__name__} fields "
                f"({', '.join(sorted(names))})",
                field=cls.model_kind or cls.__name__,
            )
        unknown = set(data) - names
        if unknown:
            raise RulesError(
                f"unknown field(s) {show(sorted(unknown), 200)} for {cls.system} {cls.model_kind or cls.__name__}",
                field=sorted(unknown)[0] or repr(""),
            )
        try:
            return cls(**data)
        except TypeError as exc:  # a missing required field
            raise RulesError(str(exc), field=cls.model_kind or cls.__name__) from None


# --------------------------------------------------------------------------- catalog
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


# --------------------------------------------------------------------------- outcome tables → Dists
def dists_from_table(table, n: int | None = None) -> list[Dist]:
    """Return one damage Dist per matchup of an outcome table with a ``matchup`` column.

    The table's ``probability`` is summed per ``damage`` within each matchup (numpy scatter-add,
    no loop per row).
    """
    m = table["matchup"].to_numpy().astype(np.int64)
    d = table["damage"].to_numpy().astype(np.int64)
    p = table["probability"].to_numpy()
    n = int(m.max()) + 1 if n is None else n
    lo = np.full(n, np.iinfo(np.int64).max)
    hi = np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(lo, m, d)
    np.maximum.at(hi, m, d)
    width = int((hi - lo).max()) + 1
    grid = np.zeros((n, width))
    np.add.at(grid, (m, d - lo[m]), p)
    return [Dist(grid[i] / grid[i].sum(), int(lo[i]), _trusted=True) for i in range(n)]


def _value_key(obj: Any) -> Any:
    """Return ``obj`` if it is hashable (frozen models compare by value), else its identity."""
    try:
        hash(obj)
        return obj
    except TypeError:
        return ("id", id(obj))


def _factorize(keys: Sequence[Any]) -> np.ndarray:
    """Return an int id per key, equal ids for equal keys (first-seen order)."""
    seen: dict[Any, int] = {}
    return np.array([seen.setdefault(k, len(seen)) for k in keys], dtype=np.int64)


def summed_uses(uses: np.ndarray, counts: Sequence[int]) -> list[np.ndarray]:
    """Return the pmf of each plan's total damage: the next ``counts[j]`` rows of ``uses`` (damage
    pmfs from 0, in plan order) convolved, as independent uses sum."""
    from ..dist import _convolve

    out, k = [], 0
    for n in counts:
        total = np.ones(1)
        for row in uses[k : k + n]:
            # counted: a direct convolution is len x len multiply-adds (2e5-wide uses: 4e10, 9 s);
            # past SUMMED_DIRECT of them the FFT's few passes (exact to ~1e-16, clipped at 0)
            total = np.convolve(total, row) if total.size * row.size <= SUMMED_DIRECT else _convolve(total, row)
        out.append(total)
        k += n
    return out


#: multiply-adds of one direct convolution of a plan's uses above which summed_uses convolves by
#: FFT (every catalog turn stays far below: its results stay those of the direct sum, bit for bit)
SUMMED_DIRECT = 10_000_000


def pmf_rows(table, n: int) -> np.ndarray:
    """Return P(matchup, damage) of an outcome table with a ``matchup`` column as a dense (n, D)
    array, damage from 0 (scatter-add over the rows; RulesError for negative damage)."""
    m = table["matchup"].to_numpy().astype(np.int64)
    d = table["damage"].to_numpy().astype(np.int64)
    if d.size and d.min() < 0:
        raise RulesError("damage per use cannot be negative in a fight", field="damage")
    grid = np.zeros((n, int(d.max(initial=0)) + 1))
    np.add.at(grid, (m, d), table["probability"].to_numpy())
    return grid


# --------------------------------------------------------------------------- the protocol
class RuleSystem(ABC):
    """One rule system. Subclasses fill in the class attributes and ``outcome_tables``.

    ``outcome_tables(attacks, attackers, targets, options, situation)`` takes three aligned
    sequences (row i is matchup i) and returns one polars frame with columns ``matchup``
    (0..n-1), ``probability``, ``damage`` and the system's extras; the rows of one matchup are
    its exact joint outcome table and their probabilities sum to 1.
    """

    name: str = ""
    #: seconds per row of a compare grid of distinct matchups, for compare's estimate before it
    #: starts (docs/limits.md, Bounded work); measured per system on the CI machine, this default
    #: is the slowest measured (Unbound)
    compare_seconds_per_row: float = 8.6e-4
    title: str = ""
    rules_file: str = ""
    Creature: ClassVar[type[Model]] = Model
    Attack: ClassVar[type[Model]] = Model
    Options: ClassVar[type[Model]] = Model
    Situation: ClassVar[type[Model]] = Model

    # -- required
    @abstractmethod
    def outcome_tables(
        self,
        attacks: Sequence[Any],
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ):
        """Return the outcome tables of aligned matchups (see the class docstring)."""

    def catalog(self) -> Catalog:
        """Return the bundled creatures and attacks."""
        return Catalog(self.name)

    def usability(
        self,
        attacks: Sequence[Any],
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ) -> list[RulesError | None]:
        """Return, per aligned matchup, the rules' refusal of that use in its situation (a RulesError
        naming the field and rule), None when it is usable: usability as data, so that no caller
        probes ``outcome_tables`` for exceptions. Default: the batch is resolved once; only if the
        rules refuse it is each distinct (attack, attacker) tried alone, then each matchup. Systems
        with vectorised checks override this."""
        n = len(attacks)
        out: list[RulesError | None] = [None] * n
        try:
            if n:
                self.outcome_tables(attacks, attackers, targets, options, situation)
            return out
        except RulesError:
            pass
        sits = self.situations_of(situation, n)
        for i in range(n):
            try:
                self.outcome_tables([attacks[i]], [attackers[i]], [targets[i]], options, [sits[i]])
            except RulesError as exc:
                out[i] = exc
        return out

    # -- combat hooks (systems override where their rules differ)
    #: the creature's hit pools in the order damage spills through them; a turn table has one damage
    #: axis ("channel") per pool, channel i entering at pool i (Annulus: Endurance then Vitality,
    #: with Vital damage entering at Vitality)
    pools: tuple[str, ...] = ("hp",)
    #: what the rules text calls one attack ("attack set" in Annulus), for messages
    attack_noun: str = "attack"
    #: the Creature field holding its attacks (a bestiary frame's column of attack names)
    attacks_field: str = "attacks"
    #: outcome-table columns whose non-zero value changes the fight's state even without damage
    #: (a defence broken for good, say): ``workbench.simulate.can_damage`` counts a non-zero value
    #: in one of them as progress, next to the damage columns, so such a fight is played, not
    #: refused as "never deals damage". Default: none
    progress_columns: tuple[str, ...] = ()

    def actions_per_turn(self, creature: Any, options: Any = None) -> int:
        """Return the number of actions a creature has in one turn."""
        return 2

    def attack_cost(self, attack: Any, options: Any = None) -> int:
        """Return the actions one use of ``attack`` costs."""
        return 1

    def build_cost(self, creature: Any, options: Any = None) -> int | None:
        """Return what ``creature``'s build costs in the system's budget unit (the unit of
        :meth:`build_space`'s ``cost``), or None when the system has no build economy (the default):
        ``wb.head_to_head`` then cannot say which of two builds is the cheaper."""
        return None

    def hit_points(self, creature: Any) -> int:
        """Return the total damage that kills ``creature`` (the sum of its :meth:`hit_pools`)."""
        return int(sum(self.hit_pools(creature)))

    def hit_pools(self, creature: Any) -> tuple[int, ...]:
        """Return the size of each of :attr:`pools` for ``creature`` (default: its ``hp``)."""
        return (int(creature.hp),)

    def attacks_of(self, creature: Any) -> list[Any]:
        """Return the attacks a creature can use."""
        return list(getattr(creature, "attacks", []) or [])

    def hurts_between_rounds(self, me: Any, foe: Any, options: Any = None, situation: Any = None) -> bool:
        """Return True when ``me`` can hurt ``foe`` in a fight by effects played outside its turns
        (between rounds: ``Side.between_rounds``), which ``can_damage`` cannot read from its attacks'
        damage. Default False."""
        return False

    def attack_named(self, creature: Any, name: Any) -> Any:
        """Return ``name`` if it is an attack of this system, else the creature's attack of that name
        (case-insensitive); RulesError naming ``attacks`` otherwise."""
        if isinstance(name, self.Attack):
            return name
        if not isinstance(name, str):
            raise RulesError(f"expected a {self.title} attack or its name, not {type(name).__name__}", field="attacks")
        key = name.strip().lower()
        for a in self.attacks_of(creature):
            if a.name.lower() == key:
                return a
        raise RulesError(f"{creature.name} has no {self.attack_noun} called {name!r}", field="attacks")

    def damage_keys(
        self, pairs: Sequence[tuple[Any, Any]], targets: Sequence[Any], options: Any = None, situation: Any = None
    ) -> np.ndarray:
        """Return a (pairs x targets) int array of matchup ids, equal for matchups whose damage over
        the pools is equal, per use and per turn of ``uses_per_turn`` uses, and whose usability is
        the same (the comparison engine resolves each id once); ``pairs`` are (attacker, attack).
        Default: equal models (by value, else identity) give equal ids."""
        pid = _factorize([(_value_key(c), _value_key(x)) for c, x in pairs])
        tid = _factorize([_value_key(t) for t in targets])
        return pid[:, None] * (int(tid.max(initial=0)) + 1) + tid[None, :]

    def neutral_attacker(self, attack: Any) -> Any:
        """Return the creature that uses a bare ``attack`` (in ``compare``): the system's neutral stat
        line holding only ``attack``, named after it. Systems override this."""
        raise RulesError(f"the {self.title} rule system has no neutral attacker for bare attacks", field="attackers")

    def uses_per_turn(self, attacker: Any, attack: Any, options: Any = None) -> int:
        """Return how often one turn can use ``attack`` alone: actions // cost (a free attack: once)."""
        cost = self.attack_cost(attack, options)
        return 1 if cost == 0 else self.actions_per_turn(attacker, options) // cost

    def legal_plans(self, attacker: Any, target: Any, options: Any, situation: Any) -> list[tuple[str, list[Any]]]:
        """Return every legal way to spend one turn attacking, as (label, items used in order).

        Default: every multiset of the attacker's attacks whose costs fit the turn's actions and to
        which no further attack fits. ``options`` and ``situation`` are this system's (defaults filled).
        """
        from itertools import combinations_with_replacement

        usable = self.attacks_of(attacker)
        if not usable:
            return []
        ap = self.actions_per_turn(attacker, options)
        costs = [self.attack_cost(a, options) for a in usable]
        cheapest = min(costs)
        longest = ap if cheapest == 0 else ap // cheapest
        seen: dict[str, list[Any]] = {}
        for size in range(longest, 0, -1):
            for combo in combinations_with_replacement(range(len(usable)), size):
                cost = sum(costs[i] for i in combo)
                if cost > ap or ap - cost >= cheapest > 0:
                    continue
                seen.setdefault(" + ".join(usable[i].name for i in combo), [usable[i] for i in combo])
        return list(seen.items())

    def plan_items(self, attacker: Any, plan: Sequence[Any], options: Any) -> list[Any]:
        """Return a plan given as attacks or names as the items :meth:`plan_tables` takes, or raise
        RulesError if the turn's action economy does not allow it (default: total cost <= actions)."""
        items = [self.attack_named(attacker, a) for a in plan]
        cost = sum(self.attack_cost(a, options) for a in items)
        ap = self.actions_per_turn(attacker, options)
        if cost > ap:
            raise RulesError(
                f"the plan costs {cost} actions; {attacker.name} has {ap} per turn",
                field="attacks",
                rule=f"{self.rules_file or self.title}: actions per turn",
            )
        return items

    def plan_label(self, attacker: Any, items: Sequence[Any]) -> str:
        """Return the label of a plan's items ("Claw + Bite")."""
        return " + ".join(x.name for x in items)

    def plan_tables(self, plans: Sequence[tuple[Any, Any, Any, list[Any]]], options: Any) -> list[np.ndarray]:
        """Return, per (attacker, target, situation, items) plan, the joint pmf of one turn's damage
        over :attr:`pools` (one axis per pool, damage from 0).

        Default: the items are independent uses summed (every use resolved in ONE ``outcome_tables``
        call); systems whose uses interact within a turn override this.
        """
        flat = [(x, a, t, s) for a, t, s, items in plans for x in items]
        if not flat:
            return [np.ones(1) for _ in plans]
        table = self.outcome_tables(
            [f[0] for f in flat], [f[1] for f in flat], [f[2] for f in flat], options, [f[3] for f in flat]
        )
        return summed_uses(pmf_rows(table, len(flat)), [len(items) for *_, items in plans])

    # -- the turn stage: generic, through the hooks above
    def turn_tables(
        self,
        pairs: Sequence[tuple[Any, Any]],
        options: Any = None,
        situation: Any = None,
        plans: Sequence[Sequence[Any]] | None = None,
    ):
        """Return the :class:`workbench.turns.TurnTable` of every legal plan of each (attacker, target) pair.

        ``situation``: one Situation or one per pair. ``plans``: None (every legal plan, from
        :meth:`legal_plans`) or one plan per pair (attacks or names used in order; an illegal plan
        raises RulesError). A pair with no usable plan gets none, and its ``reason`` says why.
        """
        from ..turns import TurnTable

        pairs = list(pairs)
        options = self.options_of(options)
        sits = self.situations_of(situation, len(pairs))
        rows: list[tuple[int, str, tuple]] = []
        reason: list[RulesError | None] = [None] * len(pairs)
        for i, ((attacker, target), sit) in enumerate(zip(pairs, sits)):
            if plans is None:
                try:
                    legal = self.legal_plans(attacker, target, options, sit)
                except RulesError as exc:  # the rules refuse every plan here, and say why
                    reason[i], legal = exc, []
                    continue
                if not legal:  # nothing usable here: not a refusal of the input (turn_plans is empty)
                    reason[i] = empty = RulesError(
                        f"{attacker.name} has no {self.attack_noun} it can use against {target.name}", field="attacks"
                    )
                    empty.no_plan = True
            else:
                try:
                    items = self.plan_items(attacker, list(plans[i]), options)
                except RulesError as exc:
                    reason[i], legal = exc, []
                else:
                    legal = [(self.plan_label(attacker, items), items)]
            rows.extend((i, label, (attacker, target, sit, items)) for label, items in legal)
        pmfs = self._plan_tables_usable(rows, options, reason)
        keep = [j for j, (i, _, _) in enumerate(rows) if reason[i] is None]
        return TurnTable.build(
            np.array([rows[j][0] for j in keep], dtype=np.int64),
            [rows[j][1] for j in keep],
            [pmfs[j] for j in keep],
            len(self.pools),
            len(pairs),
            reason,
        )

    def _plan_tables_usable(self, rows: list, options: Any, reason: list) -> list:
        """Return :meth:`plan_tables` of ``rows``; a pair whose plan the rules refuse here (out of
        reach, a Gaze without sight, ...) gets that refusal as its ``reason`` and no pmf."""
        try:
            return self.plan_tables([r[2] for r in rows], options)
        except RulesError:
            pass
        out: list = [None] * len(rows)
        by_pair: dict[int, list[int]] = {}
        for j, (i, _, _) in enumerate(rows):
            by_pair.setdefault(i, []).append(j)
        for i, js in by_pair.items():
            try:
                for j, pmf in zip(js, self.plan_tables([rows[j][2] for j in js], options)):
                    out[j] = pmf
            except RulesError as exc:
                reason[i] = exc
        return out

    def turn_plans(self, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> dict[str, Dist]:
        """Return every legal way to spend one turn attacking ``target``: label -> total damage Dist
        (the 1 x 1 case of :meth:`turn_tables`)."""
        table = self.turn_tables([(attacker, target)], options, situation)
        err = table.errors[0]
        if err is not None and not getattr(err, "no_plan", False):
            raise err
        return {table.label[j]: table.dist(j) for j in range(len(table.label))}

    def plan_damage(
        self, attacker: Any, target: Any, attacks: Sequence[Any], options: Any = None, situation: Any = None
    ) -> Dist:
        """Return the total damage Dist of one turn using ``attacks`` in order (the 1 x 1 case of
        :meth:`turn_tables` with ``plans``); RulesError if the rules refuse the plan."""
        table = self.turn_tables([(attacker, target)], options, situation, plans=[list(attacks)])
        table.raise_for(0)
        return table.dist(0)

    # -- derived, shared by every system
    def options_of(self, options: Any) -> Any:
        """Return ``options``, or the default Options when None; RulesError for another system's."""
        options = self.Options() if options is None else options
        if not isinstance(options, self.Options):
            raise RulesError(f"expected {self.title} Options, not {type(options).__name__}", field="options")
        return options

    def situations_of(self, situation: Any, n: int) -> list[Any]:
        """Return one Situation per matchup from None (the default), one shared, or an aligned sequence."""
        situation = self.Situation() if situation is None else situation
        if isinstance(situation, self.Situation):
            return [situation] * n
        if isinstance(situation, (list, tuple)) and len(situation) == n:
            for s in situation:
                if not isinstance(s, self.Situation):
                    raise RulesError(f"expected {self.title} Situations, not {type(s).__name__}", field="situation")
            return list(situation)
        raise RulesError(f"must be one {self.title} Situation or one per matchup ({n})", field="situation")

    def defaults(self, options: Any = None, situation: Any = None) -> tuple[Any, Any]:
        """Return (options, situation) with defaults filled in, each checked to be this system's."""
        return self.options_of(options), self.situations_of(situation, 1)[0]

    def outcomes(self, attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None):
        """Return the exact joint outcome table of one use of ``attack`` (a 1 x 1 grid)."""
        table = self.outcome_tables([attack], [attacker], [target], options, situation)
        return table.drop("matchup")

    def damage(self, attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> Dist:
        """Return the damage Dist of one use of ``attack`` (the outcome table grouped by damage)."""
        return self.damage_dists([attack], [attacker], [target], options, situation)[0]

    def damage_dists(self, attacks, attackers, targets, options=None, situation=None) -> list[Dist]:
        """Return one damage Dist per aligned matchup."""
        table = self.outcome_tables(attacks, attackers, targets, options, situation)
        return dists_from_table(table, len(attacks))

    def __repr__(self) -> str:
        return f"<rule system {self.name!r}: {self.title}>"

    # -- fight simulation and build space (registered by each system)
    #: the model of how a simulated creature spends actions beyond its attack plan (recovery checks,
    #: ...), passed as ``tactics`` to :meth:`simulation_side`; None: this system's simulation takes none
    tactics_class: ClassVar[type | None] = None

    def simulation_side(
        self, me: Any, foe: Any, options: Any = None, situation: Any = None, plan: Any = None, tactics: Any = None
    ) -> Any:
        """Return the simulation side (a ``workbench.simulate.engine.Side``) of ``me`` attacking
        ``foe``: its state arrays and its turn, for fights whose effects carry state (DESIGN.md,
        Combat). Systems with stateful effects override this (importing their side lazily); the
        default is :class:`~workbench.simulate.turn_side.TurnTableSide`, a draw from the turn table
        each turn against the foe's pools (no state but the pools)."""
        if tactics is not None:
            raise RulesError(f"the {self.title} rule system takes no tactics", field="tactics")
        rnd = self.fight_round(me, foe, options, situation, plan)
        if rnd is not None:  # the system's one round description, played with a sampler
            from ..fight.simulation import round_side

            return round_side(rnd, me.name)
        from ..simulate.turn_side import TurnTableSide

        return TurnTableSide(me, foe, options, situation, plan)

    def state_effects(
        self, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
    ) -> set[str]:
        """Return the names of the effects of ``attacker`` fighting ``target`` that carry state from
        turn to turn (conditions, armor spent, ...): any makes ``duel`` and ``rounds_to_kill``
        leave the HP-only chain for :meth:`state_chain` (a duel also asks :meth:`duel_couplings`),
        else simulate. The default is the empty set: HP is the only state, the exact chain applies."""
        return set()

    def state_effects_many(
        self,
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
        plans: Sequence[Any] | None = None,
    ) -> list[set[str]]:
        """Return :meth:`state_effects` of every (``attackers[i]``, ``targets[i]``, ``plans[i]``), one
        set per pair (``explore`` asks this of its returned rows). The default asks
        :meth:`state_effects` once per distinct (attacker, target, plan) object; a system whose
        effects split into an attacker part and a target part overrides it to ask each once."""
        if len(attackers) != len(targets) or (plans is not None and len(plans) != len(attackers)):
            raise RulesError("give as many attackers, targets and plans", field="attackers")
        seen: dict[tuple[int, int, int], set[str]] = {}
        out = []
        for i, (a, t) in enumerate(zip(attackers, targets)):
            plan = None if plans is None else plans[i]
            key = (id(a), id(t), id(plan))
            if key not in seen:
                seen[key] = set(self.state_effects(a, t, options, situation, plan))
            out.append(seen[key])
        return out

    def state_chain(
        self,
        attacker: Any,
        target: Any,
        options: Any = None,
        situation: Any = None,
        plan: Any = None,
        max_rounds: int = 10_000,
        weights: np.ndarray | None = None,
    ) -> tuple[np.ndarray, float] | tuple[np.ndarray, float, np.ndarray] | None:
        """Return the exact rounds-to-kill of a fight whose :meth:`state_effects` are not empty, by
        an absorbing chain over its state: (P(killed by round t) for t = 1.. up to ``max_rounds``
        or a 1e-16 survival, the mean rounds), or None when the state does not fit a chain (the
        fight is then simulated; docs/combat.md). With ``weights`` (a vector over rounds
        t = 0..R_w - 1, R_w <= max_rounds + 1, as ``kill_chains(..., weights=)`` takes) a third item:
        sum_t weights[t] * P(alive after t rounds, damage taken = d) for d = 0..HP - 1, summed over
        the other state components (a duel's winner's HP left, ``combat.duel``). The default: the
        chain derived from :meth:`fight_round` (workbench/fight/chain.py), else None."""
        rnd = self.fight_round(attacker, target, options, situation, plan)
        if rnd is None:
            return None
        from ..fight.chain import passive_chain
        from ..simulate import check_round_weights

        W = None if weights is None else check_round_weights(weights, max_rounds)
        chained = passive_chain(rnd, max_rounds, weights=W)
        if chained is None:
            return None
        if chained.weighted is None:
            return chained.by, chained.mean
        return chained.by, chained.mean, chained.weighted

    def state_plans(self, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> Any:
        """Return rounds-to-kill's fight of ``attacker`` against ``target`` with the state of
        :meth:`state_chain` and every legal plan at each key (a
        :class:`~workbench.state_chain.PlannedChain`: the start key, the target's HP, per key the
        plans label -> one turn, and how to name a key), for optimal play over the state
        (``wb.optimal_play``, ``rounds_to_kill(..., objective="optimal")``); None when the system
        does not offer it for this fight (optimal play is then refused, naming the state). The
        default: the planned chain derived from :meth:`fight_round` (workbench/fight/chain.py),
        else None."""
        rnd = self.fight_round(attacker, target, options, situation, None)
        if rnd is None:
            return None
        from ..fight.chain import planned_chain

        return planned_chain(rnd)

    def fight_round(
        self, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
    ) -> Any:
        """Return the system's one description of ``attacker``'s turn against ``target`` (a
        :class:`workbench.fight.round.FightRound`), from which the exact chain (:meth:`state_chain`),
        optimal play's chain (:meth:`state_plans`) and the simulation (:meth:`simulation_side`) are
        derived by the fight's generic code (issue 33); None for a system not yet described so (it
        overrides those hooks itself)."""
        return None

    def duel_chain(
        self,
        a: Any,
        b: Any,
        options: Any = None,
        situation: Any = None,
        first: str = "a",
        max_rounds: int = 100,
        plan_a: Any = None,
        plan_b: Any = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Return the exact duel of ``a`` and ``b`` whose :meth:`duel_couplings` are not empty (one
        side's turns change the other's fight), by a chain over both sides' state: (win_a, win_b,
        left_a, left_b), as ``combat._duel_of`` gives them (P(a wins in round t), t = 1..max_rounds;
        the same for b; a's damage taken when a wins, d = 0..a's HP - 1, and b's), ``first`` "a",
        "b" or "random" (the two orders averaged); or None when the joint state does not fit a chain
        (the duel is then simulated). The default: the duel chain derived from both sides'
        :meth:`fight_round` (workbench/fight/duel.py), else None."""
        a_on_b = self.fight_round(a, b, options, situation, plan_a)
        b_on_a = self.fight_round(b, a, options, situation, plan_b)
        if a_on_b is None or b_on_a is None:
            return None
        from ..fight.duel import duel_chain

        return duel_chain(a_on_b, b_on_a, first, max_rounds)

    def duel_couplings(
        self,
        a: Any,
        b: Any,
        options: Any = None,
        situation: Any = None,
        plan_a: Any = None,
        plan_b: Any = None,
    ) -> set[str]:
        """Return the names of the state effects through which, in a duel of ``a`` and ``b``, one
        side's turns change the other direction's fight (the foe's attacks or tables, its HP outside
        the attacker's turns, effects between rounds): empty when each direction's state is its own,
        so the duel is exact from the two :meth:`state_chain` (``combat.duel``). The default is
        conservative, every state effect of both directions (the duel is simulated)."""
        return set(self.state_effects(a, b, options, situation, plan_a)) | set(
            self.state_effects(b, a, options, situation, plan_b)
        )

    #: what ``build_space_size`` counts, for explore's estimate ("budget 2 walks 1,234 choice
    #: combinations"), and how many distinct builds one of them makes at most (Annulus: an upgrade
    #: combination is built on each of three seeds)
    build_combinations_noun: str = "choice combinations"
    builds_per_combination: int = 1

    def build_choices(self, options: Any = None) -> dict[str, tuple[Any, ...]] | None:
        """Return the build choices a designer has over one attack, ``{Attack field: (values, ...)}``
        (each value one the rules text names), or None (the default): the system has no build space
        unless it defines its own ``build_space``. Declared choices make :meth:`build_space` the
        generic choice space (``workbench.systems.builds.choice_space``): a build is one catalog
        attack with at most ``budget`` fields set to another of their declared values, each such
        modification costing 1 (the workbench's convention for rules texts without a build economy)."""
        return None

    def build_space_size(self, budget: Any, options: Any = None) -> int | None:
        """Return how many candidates ``build_space(budget, ...)`` walks (counted without walking
        them), for ``explore``'s estimate before it starts; None when the system cannot tell. With
        :meth:`build_choices` declared: the candidates of the choice space
        (``workbench.systems.builds.choice_space_size``); else None."""
        if self.build_choices(options) is None:
            return None
        from .builds import choice_space_size

        return choice_space_size(self, budget, options)

    def build_space(
        self, budget: Any, targets: Sequence[Any], attacker: Any = None, options: Any = None, situation: Any = None
    ) -> Any:
        """Return the :class:`~workbench.systems.builds.BuildSpace` of every legal attack within
        ``budget`` (its cost unit is the system's) used by ``attacker`` against ``targets``, for
        ``explore(budget=...)``. Default: with :meth:`build_choices` declared, the choice space of
        the catalog attacks (``workbench.systems.builds.choice_space``: cost = modifications);
        without, RulesError. Systems with a build economy of their own override this (Annulus)."""
        if self.build_choices(options) is None:
            raise RulesError(f"budget search is not defined for the {self.name} rule system; use vary=", field="budget")
        from .builds import choice_space

        return choice_space(self, budget, targets, attacker, options, situation)
