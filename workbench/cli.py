"""The ``workbench`` command: catalogs, damage, duels, encounters, comparisons and build searches from a shell.

Creatures and attacks are named from the system's catalog, or given as TOML/JSON files
(:func:`workbench.io.load`) or share codes (``wb1:...``). Tables print on stdout; ``--out`` writes
the frame (CSV or Parquet), ``--chart`` a PNG or SVG chart. A bad name or file prints one line on
stderr and exits with code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .errors import RulesError

__all__ = ["main", "build_parser"]

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1
EXIT_INTERRUPTED = 130
_FRAME_SUFFIXES = (".csv", ".parquet")
_CHART_SUFFIXES = (".png", ".svg")


# --------------------------------------------------------------------------- resolving inputs
def _is_file_arg(text: str) -> bool:
    return Path(text).suffix.lower() in (".toml", ".json", ".csv", ".parquet")


def _load_thing(text: str) -> Any:
    """Return the model(s) of a TOML/JSON file or a share code."""
    from .io import SHARE_PREFIX, from_share_code, load

    if text.strip().startswith(SHARE_PREFIX):
        return from_share_code(text)
    return load(text)


def _single(obj: Any, text: str, what: str, sys: Any) -> Any:
    if isinstance(obj, list):
        if len(obj) != 1:
            raise RulesError(f"{text} holds {len(obj)} models; give a file with one {what}", field=what)
        obj = obj[0]
    expected = getattr(sys, "Creature" if what == "creature" else "Attack")
    if not isinstance(obj, expected):
        raise RulesError(
            f"{text} holds a {getattr(type(obj), 'system', '?')} {type(obj).__name__}, not a {sys.name} {what}",
            field=what,
        )
    return obj


def _creature(sys: Any, text: str) -> Any:
    """Return a creature from the catalog (by name), a file or a share code."""
    if _is_file_arg(text) or text.strip().startswith("wb1:"):
        return _single(_load_thing(text), text, "creature", sys)
    return sys.catalog().creature(text)


def _attack(sys: Any, attacker: Any, text: str) -> Any:
    """Return the attacker's own attack of that name, else a catalog attack, a file or a share code."""
    if _is_file_arg(text) or text.strip().startswith("wb1:"):
        return _single(_load_thing(text), text, "attack", sys)
    own = sys.attacks_of(attacker)
    for a in own:
        if getattr(a, "name", "").lower() == text.strip().lower():
            return a
    try:
        return sys.catalog().attack(text)
    except RulesError:
        names = ", ".join(a.name for a in own) or "none"
        raise RulesError(
            f"no attack called {text!r}: not one of {attacker.name}'s ({names}) nor in the {sys.name} catalog",
            field="attack",
        ) from None


def _model(sys: Any, text: str | None, kind: str) -> Any:
    """Return the Options or Situation of a file or share code (None when not given)."""
    if text is None:
        return None
    obj = _load_thing(text)
    cls = getattr(sys, kind.capitalize())
    if isinstance(obj, list) and len(obj) == 1:
        obj = obj[0]
    if not isinstance(obj, cls):
        raise RulesError(f"{text} does not hold {sys.name} {kind}", field=kind)
    return obj


def _roster(sys: Any, texts: Sequence[str], what: str, groups: bool = False) -> list[Any]:
    """Return compare's input list: models from TOML/JSON/codes, frames from CSV/Parquet,
    ``system:name`` strings for catalog names; with ``groups``, "3 x Wolf" as "3 x system:Wolf"
    (a group target, :func:`workbench.compare`)."""
    from .encounters import parse_group

    out: list[Any] = []
    for text in texts:
        group = parse_group(text, what, "-t") if groups and not _is_file_arg(text) else None
        if group is not None:
            copies, name = group
            sys.catalog().creature(name.rpartition(":")[2])  # an unknown name fails here
            out.append(f"{copies} x {sys.name}:{name.rpartition(':')[2].strip()}")
            continue
        suffix = Path(text).suffix.lower()
        if suffix in (".csv", ".parquet"):
            out.extend(_bestiary(sys, _read_frame(text), what))
        elif _is_file_arg(text) or text.strip().startswith("wb1:"):
            obj = _load_thing(text)
            out.extend(obj if isinstance(obj, list) else [obj])
        else:
            prefix, _, name = text.rpartition(":")
            if prefix and prefix.strip().lower().replace("-", "_") != sys.name:
                raise RulesError(f"{text!r} is not a {sys.name} name", field=what)
            sys.catalog().creature(name)  # an unknown name fails here, with the catalog's message
            out.append(f"{sys.name}:{name.strip()}")
    if not out:
        raise RulesError(f"give at least one {what}", field=what)
    return out


def _read_frame(text: str):
    import polars as pl

    path = Path(text)
    if not path.exists():
        raise RulesError(f"no such file: {path}", field="path")
    try:
        return pl.read_csv(path) if path.suffix.lower() == ".csv" else pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RulesError(f"cannot read {path}: {first}", field="path") from None


def _bestiary(sys: Any, frame: Any, what: str) -> list[Any]:
    """Return the creatures of a bestiary frame, one per row, as ``workbench catalog --out`` writes
    it (:func:`workbench.comparison.creature_from_row` reads each row and names a bad cell)."""
    from .comparison import creature_from_row

    out = []
    for i, row in enumerate(frame.iter_rows(named=True)):
        if row.get("system") not in (None, sys.name):
            raise RulesError(f"row {i}: a {row['system']} creature in a {sys.name} bestiary", field="system")
        out.append(creature_from_row(row, i, sys.name, what))
    return out


# --------------------------------------------------------------------------- output
def _check_suffix(path: str | None, allowed: tuple[str, ...], flag: str) -> None:
    if path is not None and Path(path).suffix.lower() not in allowed:
        raise RulesError(f"{path}: {flag} takes a {' or '.join(allowed)} file", field=flag)


def _print_frame(frame: Any, rows: int = 40, width: int = 200, text: int = 40) -> None:
    import polars as pl

    with pl.Config(
        tbl_rows=rows,
        tbl_cols=-1,
        tbl_width_chars=width,
        fmt_str_lengths=text,
        tbl_hide_dataframe_shape=False,
        float_precision=4,
    ):
        print(frame)


def _write_frame(frame: Any, path: str | None) -> None:
    if path is None:
        return
    import polars as pl

    from .io import _as_path, _os_error, check_file_name

    out = check_file_name(_as_path(path))  # a name past the file system's limit: RulesError (path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".csv":
            nested = [c for c, t in frame.schema.items() if t.is_nested() or t == pl.Object]
            frame = frame.with_columns(pl.col(c).map_elements(str, return_dtype=pl.String) for c in nested)
            frame.write_csv(out)
        else:
            frame.write_parquet(out)
    except OSError as exc:  # a file where a folder should be, a read-only folder, a full disk
        raise _os_error(exc, out, "write") from None
    print(f"wrote {out}", file=sys.stderr)


def _write_chart(chart: Any, path: str | None) -> None:
    if path is None:
        return
    from . import charts

    out = Path(path)
    (charts.save_png if out.suffix.lower() == ".png" else charts.save_svg)(chart, out)
    print(f"wrote {out}", file=sys.stderr)


# --------------------------------------------------------------------------- commands
#: the help of every --yes: the counted bounds of docs/limits.md, bounded work
_YES = "run work past its counted bound (else refused, naming the count; docs/limits.md)"


def _progress() -> bool | None:
    """Return the engine's ``progress`` argument: its default (a bar after 1 s) on a terminal, none
    when stderr is piped or captured, so that the command's output is the same from run to run."""
    return None if sys.stderr.isatty() else False


def cmd_systems(args: argparse.Namespace) -> int:
    """Print the rule systems."""
    from .systems import system, systems

    for name in systems():
        print(f"{name:<15} {system(name).title}")
    return 0


def cmd_catalog(args: argparse.Namespace) -> int:
    """Print a system's catalog creatures (or attacks) as a table."""
    import polars as pl

    from .systems import system

    sys_ = system(args.system)
    catalog = sys_.catalog()
    if args.attacks:
        rows = [{k: _cell(v) for k, v in obj.to_dict().items()} for obj in catalog.attacks.values()]
    else:
        rows = [_creature_row(sys_, obj) for obj in catalog.creatures.values()]
    frame = pl.DataFrame(rows, infer_schema_length=None)
    _print_frame(frame, rows=200)
    _write_frame(frame, args.out)
    return 0


def _creature_row(sys: Any, creature: Any) -> dict[str, Any]:
    """Return a catalog creature as one bestiary row that :func:`_bestiary` reads back as the same
    creature: its attacks by name (``"Creature: Attack"`` when the catalog's attack of that name is
    another one), other lists joined by ``"; "``, tables (a Last Odyssey Shell) as JSON."""
    import json

    key = sys.attacks_field
    row: dict[str, Any] = {}
    for name, value in creature.to_dict().items():
        if name == key:
            row[name] = "; ".join(_attack_label(sys, creature, a) for a in sys.attacks_of(creature))
        elif isinstance(value, dict) or (isinstance(value, list) and value and isinstance(value[0], dict)):
            row[name] = json.dumps(value)  # a table, or a list of models (Last Odyssey phase abilities)
        else:
            row[name] = _cell(value)
    return row


def _attack_label(sys: Any, creature: Any, attack: Any) -> str:
    """Return ``attack``'s bare name when the catalog's attack of that name is this attack, else
    ``"Creature: Attack"`` (both are read back by :func:`_named_attack`)."""
    try:
        if sys.catalog().attack(attack.name) == attack:
            return attack.name
    except RulesError:
        pass
    return f"{creature.name}: {attack.name}"


def _cell(value: Any) -> Any:
    """Return a catalog field as one table cell: lists of attacks become their names joined by "; "
    (the form compare's bestiary frames read back)."""
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v["name"]) if isinstance(v, dict) and "name" in v else _cell(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(
            f"{k} {_cell(v)}" if not isinstance(v, dict) else f"{k} ({_cell(v)})"
            for k, v in value.items()
            if v is not None
        )
    return value


def cmd_damage(args: argparse.Namespace) -> int:
    """Print the damage distribution of one use of an attack: mean, sd, P(any damage), the table."""
    import polars as pl

    from .api import damage
    from .systems import system

    sys_ = system(args.system)
    attacker = _creature(sys_, args.attacker)
    attack = _attack(sys_, attacker, args.attack)
    target = _creature(sys_, args.target)
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    dist = damage(attack, attacker, target, options, situation)
    print(f"{attacker.name} uses {attack.name} on {target.name} ({sys_.name})")
    print(f"mean {dist.mean():.4f}   sd {dist.std():.4f}   P(any damage) {dist.sf(1):.4%}")
    frame = dist.to_polars().with_columns(at_least=pl.col("probability").reverse().cum_sum().reverse())
    _print_frame(frame, rows=60)
    _write_frame(frame, args.out)
    if args.chart:
        from .charts import damage_chart

        _write_chart(damage_chart(dist, f"{attack.name}: {attacker.name} vs {target.name}"), args.chart)
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    """Print who wins a duel between two creatures, and in which round."""
    import polars as pl

    from .combat import duel
    from .systems import system

    sys_ = system(args.system)
    a, b = _creature(sys_, args.a), _creature(sys_, args.b)
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    result = duel(
        a,
        b,
        options,
        situation,
        first=args.first,
        max_rounds=args.max_rounds,
        progress=_progress(),
        objective=args.objective,
        confirm=args.yes,
        plan_a=args.attack_a,
        plan_b=args.attack_b,
    )
    print(result.summary())
    rounds = result.rounds.filter((pl.col("p_a_wins") + pl.col("p_b_wins")) > 1e-9)
    _print_frame(rounds, rows=30)
    _write_frame(result.rounds, args.out)
    if args.chart:
        from .charts import duel_chart

        _write_chart(
            duel_chart(result.p_a_wins, result.p_b_wins, result.p_draw, (a.name, b.name), f"{a.name} vs {b.name}"),
            args.chart,
        )
    return 0


def _members(sys: Any, text: str) -> list[Any]:
    """Return the creatures of one side entry: a catalog name, a TOML/JSON file or share code (a file
    may hold a list of creatures) or a CSV/Parquet bestiary (every row)."""
    suffix = Path(text).suffix.lower()
    if suffix in (".csv", ".parquet"):
        return _bestiary(sys, _read_frame(text), "creature")
    if _is_file_arg(text) or text.strip().startswith("wb1:"):
        obj = _load_thing(text)
        items = obj if isinstance(obj, list) else [obj]
        return [_single(o, text, "creature", sys) for o in items]
    return [sys.catalog().creature(text)]


def _side(sys: Any, texts: Sequence[str], field: str, flag: str) -> list[Any]:
    """Return one side of an encounter, in listed order: each entry a creature (catalog name, file,
    share code) or ``NxNAME`` / ``N x NAME`` for N copies of it. A bad entry is a RulesError naming
    ``field`` (the engine's name of the side: side_a, side_b, party, foe)."""
    from .encounters import ENCOUNTERS, parse_group

    out: list[Any] = []
    for text in texts:
        count, name = parse_group(text, field, flag) or (1, text)
        try:
            got = _members(sys, name)
        except RulesError as exc:
            one = len(exc.errors) == 1 and exc.field in (None, "creature")
            raise RulesError(exc.message if one else str(exc), field=field, rule=exc.rule if one else None) from None
        if not got:
            raise RulesError(f"{flag} {text!r} holds no creature", field=field, rule=ENCOUNTERS)
        out.extend(got * count)
    return out


def _areas(texts: Sequence[str] | None) -> dict[str, Any] | None:
    """Return ``--foes-in-area Burst=5 Line=3`` as {"Burst": 5, "Line": 3} (None when not given)."""
    if not texts:
        return None
    out: dict[str, Any] = {}
    for text in texts:
        area, sep, n = text.partition("=")
        if not sep or not n.strip().isdigit() or len(n.strip()) > 6:
            raise RulesError(f"--foes-in-area {text!r}: write AREA=N, e.g. Burst=5", field="foes_in_area")
        out[area.strip().capitalize()] = int(n)
    return out


def _encounter_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Return the group rules and the fight settings of ``encounter`` / ``encounter-difficulty``."""
    return {
        "first": args.first,
        "order": args.order,
        "targeting": args.targeting,
        "flanking": args.flanking,
        "refund": args.refund,
        "foes_in_area": _areas(args.foes_in_area),
        "allies_in_area": args.allies_in_area,
        "max_rounds": args.max_rounds,
        "simulate": args.simulate,
        "fights": args.fights,
        "seed": args.seed,
        "confirm": args.yes,
    }


def cmd_encounter(args: argparse.Namespace) -> int:
    """Print who wins an encounter of side A against side B, and how each creature fares."""
    from .encounters import MAX_SIDE, encounter
    from .systems import system

    sys_ = system(args.system)
    side_a = _side(sys_, args.side_a, "side_a", "-a")
    side_b = _side(sys_, args.side_b, "side_b", "-b")
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    result = encounter(side_a, side_b, options, situation, **_encounter_kwargs(args))
    print(result.summary())
    _print_frame(result.creatures, rows=2 * MAX_SIDE)
    _write_frame(result.frame(), args.out)
    return 0


def cmd_encounter_difficulty(args: argparse.Namespace) -> int:
    """Print how many copies of a foe the party beats: the summary, then P(party wins) per number of copies."""
    from .encounters import GROUP_NAME, encounter_difficulty
    from .systems import system

    sys_ = system(args.system)
    party = _side(sys_, args.party, "party", "-a")
    if GROUP_NAME.match(args.foe):
        raise RulesError(
            f"--foe {args.foe!r}: give one creature; the command tries 1 to --max-copies copies of it", field="foe"
        )
    foe = _side(sys_, [args.foe], "foe", "--foe")
    if len(foe) != 1:
        raise RulesError(f"--foe {args.foe!r} holds {len(foe)} creatures; give one", field="foe")
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    hard = encounter_difficulty(
        party,
        foe[0],
        options,
        situation,
        levels=tuple(args.levels),
        max_copies=args.max_copies,
        **_encounter_kwargs(args),
    )
    print(hard.summary())
    if hard.curve.height == args.max_copies and hard.curve["p_party_wins"][-1] >= min(hard.copies):
        print(f"(the scan stopped at --max-copies {args.max_copies}: the party may beat more)")
    _print_frame(hard.curve, rows=60)
    _write_frame(hard.curve, args.out)
    return 0


def _compare_chart(frame: Any, title: str, value: str | None = None):
    """Return a heatmap of the comparison (attacker x target) coloured by ``value`` (default: the
    share of the target's HP dealt per turn)."""
    from .charts import compare_bars, heatmap

    cols = frame.columns
    if value is not None and value not in cols:
        raise RulesError(f"no column {value!r}; columns: {', '.join(cols)}", field="--chart-value")
    value = value or next(
        (c for c in ("hp_share_per_turn", "mean_rounds", "mean_turn_damage", "mean_damage", "score") if c in cols), None
    )
    x = next((c for c in ("target", "target_name") if c in cols), None)
    y = next((c for c in ("attacker", "attacker_name", "build", "name") if c in cols), None)  # name: explore
    if value is None or y is None:
        raise RulesError(f"no column to chart among {cols}", field="chart")
    reverse = value.startswith(("mean_rounds", "rounds_"))
    if x is None:
        return compare_bars(frame, y, value, title=title)
    if "attack" in cols and frame.select(y, x).is_duplicated().any():
        import polars as pl

        frame = frame.with_columns(pl.concat_str([pl.col(y), pl.col("attack")], separator=" · ").alias(y))
    return heatmap(frame, x, y, value, title, reverse=reverse)


def _engine(name: str):
    """Return ``workbench.compare``, ``workbench.explore`` or ``workbench.sweep`` (loaded on first use)."""
    import workbench

    return getattr(workbench, name)


#: the columns ``compare`` prints unless ``--all-columns`` (``--out`` always writes every column)
SHORT_COLUMNS = [
    "attacker",
    "attack",
    "target",
    "target_hp",
    "plan",
    "mean_damage",
    "p_any_damage",
    "mean_turn_damage",
    "p_kill_one_turn",
    "mean_rounds",
    "rounds_q50",
    "hp_share_per_turn",
    "method",
    "se",
]


def _shown(frame: Any, all_columns: bool) -> Any:
    if all_columns:
        return frame
    cols = [c for c in SHORT_COLUMNS if c in frame.columns]
    extra = [c for c in ("rank",) if c in frame.columns]
    return frame.select(extra + cols) if cols else frame


def cmd_compare(args: argparse.Namespace) -> int:
    """Print the comparison grid of attackers' attacks against targets (optionally ranked or sorted)."""
    compare = _engine("compare")
    from .systems import system

    sys_ = system(args.system)
    attackers = _roster(sys_, args.attackers, "attackers")
    targets = _roster(sys_, args.targets, "targets", groups=True)
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    frame = compare(
        attackers,
        targets,
        options=options,
        situation=situation,
        system=sys_.name,
        max_rounds=args.max_rounds,
        progress=_progress(),
        confirm=args.yes,
        objective=args.objective,
        simulate=False if args.ignore_state else None,
        fights=args.fights,
        seed=args.seed,
    )
    if args.rank:
        from .comparison import rank

        frame = rank(frame, by=args.rank)
    if args.sort:
        if args.sort not in frame.columns:
            raise RulesError(f"no column {args.sort!r}; columns: {', '.join(frame.columns)}", field="--sort")
        frame = frame.sort(args.sort, descending=not args.ascending, nulls_last=True)
    shown = _shown(frame, args.all_columns)
    _print_frame(shown if args.top is None else shown.head(args.top), rows=args.rows)
    from .fight_rows import method_line

    print(f"method: {method_line(frame)}")
    _write_frame(frame, args.out)
    if args.chart:
        _write_chart(_compare_chart(frame, f"{sys_.title}: comparison", args.chart_value), args.chart)
    return 0


def _sweep_values(text: str) -> list[float | int]:
    """Return the values of ``--values``: "10:30" (10 to 30), "10:30:5" (every 5th), or "1,4,9"."""
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError
            lo, hi, step = parts[0], parts[1], parts[2] if len(parts) == 3 else 1.0
            if step <= 0 or hi < lo or (hi - lo) / step > 10_000:
                raise ValueError
            n = int((hi - lo) / step + 1e-9) + 1
            values = [lo + i * step for i in range(n)]
        else:
            values = [float(p) for p in text.split(",") if p.strip()]
    except (ValueError, OverflowError):
        raise RulesError(
            f"{text!r}: give LOW:HIGH, LOW:HIGH:STEP or a comma-separated list of numbers", field="--values"
        ) from None
    return [int(v) if v.is_integer() else v for v in values]


def cmd_sweep(args: argparse.Namespace) -> int:
    """Print the one fight of the attackers against a target as one parameter runs over a range."""
    sweep = _engine("sweep")
    from .systems import system

    sys_ = system(args.system)
    attackers = _roster(sys_, args.attackers, "attackers")
    targets = _roster(sys_, [args.target], "targets")
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    frame = sweep(
        attackers,
        targets[0] if len(targets) == 1 else targets,
        args.parameter,
        _sweep_values(args.values),
        on=args.on,
        options=options,
        situation=situation,
        system=sys_.name,
        max_rounds=args.max_rounds,
        progress=_progress(),
        confirm=args.yes,
        fights=args.fights,
        seed=args.seed,
    )
    cols = ["value", "attacker", "attack", args.show, "rounds_q10", "rounds_q50", "rounds_q90", "method"]
    shown = frame.select(list(dict.fromkeys(c for c in cols if c in frame.columns)))
    _print_frame(shown, rows=args.rows)
    from .fight_rows import method_line

    print(f"parameter: {frame['parameter'][0]}; method: {method_line(frame)}")
    _write_frame(frame, args.out)
    if args.chart:
        from .charts import sweep_chart

        _write_chart(sweep_chart(frame, args.show, f"{sys_.title}: {args.show.replace('_', ' ')}"), args.chart)
    return 0


def cmd_race(args: argparse.Namespace) -> int:
    """Print how often build A downs the target before build B does, and who out-damages whom."""
    head_to_head = _engine("head_to_head")
    from .systems import system

    sys_ = system(args.system)
    a, b, target = (_creature(sys_, x) for x in (args.a, args.b, args.target))
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    frame = head_to_head(
        a,
        b,
        target,
        options=options,
        situation=situation,
        max_rounds=args.max_rounds,
        fights=args.fights,
        seed=args.seed,
        progress=_progress(),
        curves=bool(args.chart),
        plan_a=args.attack_a,
        plan_b=args.attack_b,
    )
    r = frame.row(0, named=True)
    print(f"{r['a']} vs {r['b']}, each against its own {r['target']} ({r['method']}):")
    print(
        f"  downs it first:   {r['a']} {r['p_a_first']:.2%}, same round {r['p_tie']:.2%}, {r['b']} {r['p_b_first']:.2%}"
    )
    print(f"  mean rounds:      {r['a']} {r['mean_rounds_a']:.3f}, {r['b']} {r['mean_rounds_b']:.3f}")
    print(
        f"  one turn more:    {r['a']} {r['p_a_outdamages']:.2%}, equal {r['p_equal_turn']:.2%}, {r['b']} {r['p_b_outdamages']:.2%}"
    )
    print(f"  dominance:        turn damage: {r['turn_dominance']}; rounds: {r['rounds_dominance']}")
    if r["cheaper"] is not None:
        print(
            f"  cheaper build:    {r['cheaper']} ({min(r['cost_a'], r['cost_b'])} vs {max(r['cost_a'], r['cost_b'])}): "
            f"first {r['p_cheaper_first']:.2%}, more in one turn {r['p_cheaper_outdamages']:.2%}"
        )
    if r["se"] is not None:
        print(f"  standard error of the first line: about {r['se']:.4f} (simulated)")
    _write_frame(frame.drop([c for c in ("p_killed_by_a", "p_killed_by_b") if c in frame.columns]), args.out)
    if args.chart:
        from .charts import race_chart

        _write_chart(race_chart(frame), args.chart)
    return 0


def cmd_references(args: argparse.Namespace) -> int:
    """Print the published figures of docs/references.md beside the engine's values; exit 1 when a
    figure is no longer reproduced (the engine drifted from a source, or from the page's account of
    a source's error)."""
    from .published import references

    frame = references(args.section)
    import polars as pl

    # as the sources print them: the figure with its unit, the tolerance as a ± (the exact ones 1e-12)
    rows = zip(frame["published"], frame["engine"], frame["tolerance"], frame["unit"])
    text = [(f"{p:g}{u}", f"{e:.8g}{u}", f"±{t:g}{u}") for p, e, t, u in rows]
    shown = frame.select("section", "source", "figure").with_columns(
        pl.Series("published", [t[0] for t in text]),
        pl.Series("engine", [t[1] for t in text]),
        pl.Series("tolerance", [t[2] for t in text]),
        frame["within"],
        frame["agrees"],
    )
    _print_frame(shown, rows=200, text=48)
    bad = frame.filter(~frame["reproduced"])
    wrong = int((~frame["agrees"]).sum())
    print(
        f"{frame.height - bad.height} of {frame.height} published figures reproduced: "
        f"{int(frame['within'].sum())} within their source's rounding, {wrong} published wrong as docs/references.md explains"
    )
    for row in bad.iter_rows(named=True):
        print(f"NOT reproduced: {row['source']}: {row['figure']} ({row['published']} vs {row['engine']:.6g})")
    _write_frame(frame, args.out)
    if args.chart:
        from .charts import references_chart

        _write_chart(references_chart(frame), args.chart)
    return 0 if bad.height == 0 else EXIT_INTERNAL


def cmd_optimal(args: argparse.Namespace) -> int:
    """Print optimal play: which plan to use at each state of the fight (the target's pools, and any
    state the fight carries), and how many rounds it saves over the best single plan."""
    import polars as pl

    from .combat import rounds_to_kill
    from .policies import optimal_play
    from .systems import system

    sys_ = system(args.system)
    a, target = _creature(sys_, args.attacker), _creature(sys_, args.target)
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    policy, frame = optimal_play(a, target, options, situation, ignore_state=args.ignore_state)
    # the best single plan of the same fight: with its state unless the state is ignored
    fixed = rounds_to_kill(
        a,
        target,
        options=options,
        situation=situation,
        objective="rounds",
        simulate=False if args.ignore_state else None,
    )
    best = float((fixed["round"] * fixed["p_killed_at"]).sum())
    pools = {"hp_left", "endurance_left", "vitality_left"}
    over = "its pools" if set(frame.columns[:-2]) <= pools else "the fight"
    print(f"{a.name} against {target.name} ({sys_.name}), optimal play (a plan for each state of {over}):")
    print(f"  mean rounds {policy.mean:.4f}; the best single plan {best:.4f} ({max(best - policy.mean, 0.0):.4f} more)")
    state = [c for c in frame.columns if c not in ("plan", "mean_rounds_left")]
    if "hp_left" in state:  # per state beside HP left, the runs of HP left that play one plan
        others = [c for c in state if c != "hp_left"]
        ordered = frame.sort([*others, "hp_left"], maintain_order=True) if others else frame
        changed = [pl.col(c).ne_missing(pl.col(c).shift(1)) for c in [*others, "plan"]]
        runs = ordered.with_columns(run=pl.any_horizontal(changed).fill_null(True).cum_sum())
        table = runs.group_by("run", maintain_order=True).agg(
            *[pl.col(c).first() for c in others],
            pl.col("hp_left").min().alias("hp_left from"),
            pl.col("hp_left").max().alias("to"),
            pl.col("plan").first(),
        )
        if table.height > 40:
            print(f"  {table.height:,} runs of states; the first 40 (--out writes every state):")
        _print_frame(table.drop("run").head(40), rows=40, text=100)  # plan labels differ in their tails
    else:  # two pools: each plan, how many states play it, and (the rarer ones) which
        most = frame["plan"].drop_nulls().mode().sort()[0] if frame["plan"].drop_nulls().len() else None
        where = pl.format("(" + ", ".join(["{}"] * len(state)) + ")", *[pl.col(c) for c in state])
        table = frame.group_by("plan", maintain_order=True).agg(
            pl.len().alias("states"), where.head(12).str.join(" ").alias(f"({', '.join(state)})")
        )
        table = table.with_columns(
            pl.when(pl.col("plan") == most)
            .then(pl.lit("every other state"))
            .otherwise(pl.col(table.columns[2]))
            .alias(table.columns[2])
        )
        _print_frame(table, rows=40, text=100)
    _write_frame(frame, args.out)
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    """Print the comparison grid under each rule variant, with its change from the baseline."""
    variants = _engine("variants")
    from .systems import system

    sys_ = system(args.system)
    options: dict[str, Any] = {}
    for item in args.variant:
        label, sep, where = item.partition("=")
        if not sep or not label.strip() or not where.strip():
            raise RulesError(
                f"{item!r}: give LABEL=FILE (an Options file or share code) or LABEL=default", field="--variant"
            )
        options[label.strip()] = (
            sys_.Options() if where.strip() == "default" else _model(sys_, where.strip(), "options")
        )
    frame = variants(
        _roster(sys_, args.attackers, "attackers"),
        _roster(sys_, args.targets, "targets"),
        options,
        situation=_model(sys_, args.situation, "situation"),
        system=sys_.name,
        max_rounds=args.max_rounds,
        progress=_progress(),
        confirm=args.yes,
    )
    show = args.show
    cols = ["variant", "attacker", "attack", "target", show, f"delta_{show}", "method"]
    _print_frame(frame.select([c for c in cols if c in frame.columns]), rows=args.rows)
    _write_frame(frame, args.out)
    if args.chart:
        from .charts import variant_heatmap

        others = [v for v in options if v != frame["baseline"][0]]
        _write_chart(variant_heatmap(frame, others[0], show), args.chart)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    """Print how compare's row of ATTACKER (with --attack, else its best plan) on TARGET was computed."""
    explain = _engine("explain")
    from .explanations import explanation_markdown
    from .systems import system

    sys_ = system(args.system)
    attacker, target = _creature(sys_, args.attacker), _creature(sys_, args.target)
    attack = None if args.attack is None else _attack(sys_, attacker, args.attack)
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    print(explanation_markdown(explain(attacker, target, attack, options, situation)))
    return 0


def cmd_explore(args: argparse.Namespace) -> int:
    """Print the best builds within a budget against the targets."""
    explore = _engine("explore")
    from .encounters import GROUP_NAME
    from .exploration import check_by
    from .systems import system

    sys_ = system(args.system)
    targets = _roster(sys_, args.targets, "targets", groups=True)
    grouped = any(isinstance(t, str) and GROUP_NAME.match(t) for t in targets)
    by = args.by if grouped else check_by(args.by or "mean_turn_damage")
    options, situation = _model(sys_, args.options, "options"), _model(sys_, args.situation, "situation")
    kwargs: dict[str, Any] = {
        "targets": targets,
        "budget": args.budget,
        "top_k": args.top_k,
        "options": options,
        "situation": situation,
        "progress": _progress(),
        "confirm": args.yes,
        "say": True,
        "by": by,
        "output": args.dataset,
        "resume": args.resume,
        "seed": args.seed,
    }  # the estimate first, on stderr
    if args.fights is not None:
        kwargs["fights"] = args.fights
    frame = explore(sys_.name, **kwargs)
    if grouped:
        return _explore_groups_out(sys_, frame, args)
    from .exploration import cost_front, method_line

    # se and p_unresolved are null on every row (one turn, no fight): printed only in --out
    shown = frame.drop([c for c in ("se", "p_unresolved") if frame[c].null_count() == frame.height])
    _print_frame(shown, rows=max(args.top_k * max(len(targets), 1), 10), width=320)
    print(f"method: {method_line(frame)}")
    if args.front:
        front = cost_front(frame, by)
        print(f"\ncost front ({by} per cost, per target; cheapest best):")
        # the build space's own descriptive columns (Annulus: sets; a choice space: base, changes)
        cols = ["target", "cost", by, "name", *[c for c in ("sets", "base", "changes") if c in front.columns]]
        _print_frame(front.select(*cols, "same_as"), rows=front.height, width=200)
    if args.dataset:
        print(f"every row: {args.dataset} (Parquet dataset)")
    _write_frame(frame, args.out)
    if args.chart:
        from .charts import cost_front_chart

        chart = (
            cost_front_chart(frame, by, f"{sys_.title}: cost front")
            if args.front
            else _compare_chart(frame, f"{sys_.title}: best builds")
        )
        _write_chart(chart, args.chart)
    return 0


def _explore_groups_out(sys_: Any, frame: Any, args: argparse.Namespace) -> int:
    """Print (and write, chart) explore's ranking against groups: the frame, how its fights ran, and
    with --front the builds on the cost front."""
    import polars as pl

    from .group_builds import group_method_line

    # se and p_unresolved are null on every exact row: printed only in --out
    bare = frame.drop([c for c in ("se", "p_unresolved") if frame[c].null_count() == frame.height])
    _print_frame(bare, rows=max(args.top_k * frame["target"].n_unique(), 10), width=320)
    print(f"method: {group_method_line(frame)}")
    shown = frame
    if args.front and "cost" in frame.columns:
        shown = frame.filter(pl.col("pareto")).sort(["target", "cost"])
        by = args.by or "mean_rounds"  # the ranked column
        print(f"\ncost front ({by} per cost, per group; cheapest first):")
        cols = ["target", "cost", by, "name", *[c for c in ("sets", "base", "changes") if c in shown.columns]]
        _print_frame(shown.select(cols), rows=shown.height, width=200)
    _write_frame(frame, args.out)
    if args.chart:
        _write_chart(_compare_chart(shown, f"{sys_.title}: best builds against a group", "mean_rounds"), args.chart)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print a model (catalog name, file or share code) as TOML; --save writes it, --code prints its code."""
    from .io import save, share_code, to_document, to_toml
    from .systems import system

    if args.system_or_thing.strip().startswith("wb1:") or _is_file_arg(args.system_or_thing):
        if args.name is not None:
            raise RulesError("give either SYSTEM NAME or one file/share code", field="name")
        obj = _load_thing(args.system_or_thing)
    else:
        if args.name is None:
            raise RulesError("give the creature or attack NAME after the system", field="name")
        sys_ = system(args.system_or_thing)
        catalog = sys_.catalog()
        try:
            obj = catalog.creature(args.name)
        except RulesError:
            try:
                obj = catalog.attack(args.name)
            except RulesError:
                raise RulesError(
                    f"no creature or attack called {args.name!r} in the {sys_.name} catalog", field="name"
                ) from None
    if args.code:
        print(share_code(obj))
    else:
        print(to_toml(to_document(obj)), end="")
    if args.save:
        save(obj, args.save)
        print(f"wrote {args.save}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- parser
class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (the error, then the usage
    folded onto the same line) and exit code 2, like every other bad input."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split())
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {' '.join(message.split())}; {usage}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``workbench`` command."""
    p = _Parser(
        prog="workbench",
        description="Exact attack maths for tabletop rule systems.",
        epilog="Creatures and attacks: catalog names, TOML/JSON files or wb1: share codes.",
    )
    from . import __version__

    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser, out: bool = True, chart: bool = True, rules: bool = True) -> None:
        if rules:
            sp.add_argument("--options", metavar="FILE", help="rule options (TOML/JSON file or share code)")
            sp.add_argument("--situation", metavar="FILE", help="situation (TOML/JSON file or share code)")
        if out:
            sp.add_argument("--out", metavar="FILE", help="write the table to a .csv or .parquet file")
        if chart:
            sp.add_argument("--chart", metavar="FILE", help="write a chart to a .png or .svg file")

    def attack_plans(sp: argparse.ArgumentParser) -> None:
        for side in ("a", "b"):
            sp.add_argument(
                f"--attack-{side}",
                metavar="ATTACK",
                help=f"{side.upper()} plays this attack (its own or a catalog attack, by name) as often as "
                "a turn allows (default: its best plan)",
            )

    s = sub.add_parser("systems", help="list the rule systems", description="List the rule systems.")
    s.set_defaults(func=cmd_systems)

    s = sub.add_parser(
        "catalog", help="list a system's catalog", description="List a system's catalog creatures (or attacks)."
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("--attacks", action="store_true", help="list the attacks instead of the creatures")
    common(s, chart=False, rules=False)
    s.set_defaults(func=cmd_catalog)

    s = sub.add_parser(
        "damage",
        help="damage distribution of one attack",
        description="Exact damage distribution of one use of ATTACK by ATTACKER on TARGET: "
        "mean, sd, P(any damage) and the table.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("attacker", metavar="ATTACKER")
    s.add_argument("attack", metavar="ATTACK", help="one of the attacker's attacks, a catalog attack or a file")
    s.add_argument("target", metavar="TARGET")
    common(s)
    s.set_defaults(func=cmd_damage)

    s = sub.add_parser(
        "duel", help="who wins a duel", description="Exact duel: A and B attack each other each round until one falls."
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("a", metavar="A")
    s.add_argument("b", metavar="B")
    s.add_argument("--first", choices=("a", "b", "random"), default="a", help="who acts first (default a)")
    attack_plans(s)
    s.add_argument("--max-rounds", type=int, default=100, metavar="N", help="rounds before a draw (default 100)")
    s.add_argument(
        "--objective",
        default="damage",
        metavar="OBJ",
        help="how each side picks its plan: damage (default), rounds, kill_within_K",
    )
    s.add_argument("--yes", action="store_true", help=_YES)
    common(s)
    s.set_defaults(func=cmd_duel)

    def encounter_rules(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--first", choices=("a", "b", "random"), default="a", help="the side acting first (default a)")
        sp.add_argument(
            "--order",
            choices=("sides", "alternate"),
            default="sides",
            help="sides (default: every creature of the first side, then the other's) or alternate (a1, b1, a2, ...)",
        )
        sp.add_argument(
            "--targeting",
            choices=("focus", "spread", "random"),
            default="focus",
            help="focus (default: the living foe with the fewest HP left), spread (the foe attacked the fewest "
            "times this round) or random",
        )
        sp.add_argument(
            "--flanking",
            choices=("auto", "never", "always"),
            default="auto",
            help="Unbound's +2 to a flanking melee attack: auto (default), never, always",
        )
        sp.add_argument(
            "--no-refund",
            dest="refund",
            action="store_false",
            help="Glass Empires: a Strike that kills does not refund its Attack's action",
        )
        sp.add_argument(
            "--foes-in-area",
            nargs="+",
            metavar="AREA=N",
            help="Annulus: the foes an area set strikes, e.g. Burst=5 (default Arc=3 Burst=3 Line=2)",
        )
        sp.add_argument(
            "--allies-in-area",
            type=int,
            default=0,
            metavar="N",
            help="Annulus: the allies (first in listed order) an area set also strikes (default 0)",
        )
        sp.add_argument(
            "--max-rounds", type=int, default=100, metavar="N", help="rounds before unresolved (default 100)"
        )
        how = sp.add_mutually_exclusive_group()
        how.add_argument(
            "--simulate",
            dest="simulate",
            action="store_const",
            const=True,
            default=None,
            help="simulate even when the exact chain fits",
        )
        how.add_argument(
            "--exact",
            dest="simulate",
            action="store_const",
            const=False,
            help="refuse rather than simulate when the exact chain does not fit",
        )
        sp.add_argument(
            "--fights", type=int, default=100_000, metavar="N", help="simulated fights when simulated (default 100000)"
        )
        sp.add_argument("--seed", type=int, default=0, metavar="S", help="seed of a simulation (default 0)")
        sp.add_argument("--yes", action="store_true", help=_YES)

    side_help = "a catalog name, a TOML/JSON file or share code, or NxNAME for N copies (3xWolf, '3 x Wolf')"
    s = sub.add_parser(
        "encounter",
        help="who wins a fight of groups",
        description="An encounter (wb.encounter): side A's creatures against side B's, by the group rules of "
        "docs/encounters.md; exact where the joint state fits, else simulated. Prints the summary and, per "
        "creature, P(survives), mean HP left and P(falls first).",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-a", "--side-a", nargs="+", required=True, metavar="NAME", help=f"side A: {side_help}")
    s.add_argument("-b", "--side-b", nargs="+", required=True, metavar="NAME", help=f"side B: {side_help}")
    encounter_rules(s)
    common(s, chart=False)
    s.set_defaults(func=cmd_encounter)

    s = sub.add_parser(
        "encounter-difficulty",
        help="how many copies of a foe a party beats",
        description="The party against 1, 2, ... copies of the foe (wb.encounter_difficulty), until P(party "
        "wins) falls under every level: per level the most copies beaten with at least that chance, and the curve.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-a", "--party", nargs="+", required=True, metavar="NAME", help=f"the party: {side_help}")
    s.add_argument("--foe", required=True, metavar="NAME", help="the foe: one creature (catalog name, file or code)")
    s.add_argument(
        "--levels",
        nargs="+",
        type=float,
        default=[0.5, 0.9],
        metavar="P",
        help="chances of the party winning to report (default 0.5 0.9)",
    )
    s.add_argument("--max-copies", type=int, default=10, metavar="N", help="most copies tried (default 10)")
    encounter_rules(s)
    common(s, chart=False)
    s.set_defaults(func=cmd_encounter_difficulty)

    s = sub.add_parser(
        "compare",
        help="attackers x targets grid",
        description="Compare every attack of the "
        "attackers against every target (catalog names, TOML/JSON files, CSV/Parquet frames).",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-a", "--attackers", nargs="+", required=True, metavar="ATTACKER")
    s.add_argument("-t", "--targets", nargs="+", required=True, metavar="TARGET")
    s.add_argument("--max-rounds", type=int, default=100, metavar="N", help="rounds-to-kill horizon (default 100)")
    s.add_argument(
        "--objective",
        default="damage",
        metavar="OBJ",
        help="how the best-plan rows are chosen: damage (default), rounds, kill_within_K",
    )
    s.add_argument(
        "--fights",
        type=int,
        default=2000,
        metavar="N",
        help="simulated fights per row whose fight carries state (default 2000)",
    )
    s.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the simulated rows (default 0)")
    s.add_argument(
        "--ignore-state",
        action="store_true",
        help="run the exact chain on every row, ignoring the state (simulate=False)",
    )
    s.add_argument("--sort", metavar="COLUMN", help="sort by this column (descending)")
    s.add_argument("--ascending", action="store_true", help="sort ascending")
    s.add_argument("--top", type=int, metavar="N", help="print only the first N rows")
    s.add_argument("--rank", metavar="COLUMN", help="rank within each target by this column (e.g. mean_rounds)")
    s.add_argument("--rows", type=int, default=40, metavar="N", help="rows to print (default 40)")
    s.add_argument("--all-columns", action="store_true", help="print every column (--out always writes all)")
    s.add_argument("--chart-value", metavar="COLUMN", help="heatmap colour column (default hp_share_per_turn)")
    s.add_argument("--yes", action="store_true", help=_YES)
    common(s)
    s.set_defaults(func=cmd_compare)

    s = sub.add_parser(
        "sweep",
        help="one target parameter over a range",
        description="Run the attackers against one target while one of its parameters (or of the "
        "options or situation, --on) runs over a range: damage, kill chance and rounds to kill per value.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-a", "--attackers", nargs="+", required=True, metavar="ATTACKER")
    s.add_argument("-t", "--target", required=True, metavar="TARGET")
    s.add_argument("-p", "--parameter", required=True, metavar="FIELD", help="a number field, e.g. ac, hp, armor")
    s.add_argument("--values", required=True, metavar="RANGE", help="LOW:HIGH, LOW:HIGH:STEP or a,b,c")
    s.add_argument("--on", default="target", choices=["target", "options", "situation"], help="whose field")
    s.add_argument("--show", default="mean_rounds", metavar="COLUMN", help="column printed and charted")
    s.add_argument("--max-rounds", type=int, default=100, metavar="N", help="rounds-to-kill horizon (default 100)")
    s.add_argument("--fights", type=int, default=2000, metavar="N", help="simulated fights per stateful row")
    s.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the simulated rows (default 0)")
    s.add_argument("--rows", type=int, default=60, metavar="N", help="rows to print (default 60)")
    s.add_argument("--yes", action="store_true", help=_YES)
    common(s)
    s.set_defaults(func=cmd_sweep)

    s = sub.add_parser(
        "race",
        help="who downs the same target first, A or B",
        description="Two builds, each against its own copy of the target: how often each downs it first, "
        "who out-damages whom in one turn, and whether one dominates.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("a", metavar="A")
    s.add_argument("b", metavar="B")
    s.add_argument("-t", "--target", required=True, metavar="TARGET")
    attack_plans(s)
    s.add_argument("--max-rounds", type=int, default=100, metavar="N", help="rounds horizon (default 100)")
    s.add_argument("--fights", type=int, default=100_000, metavar="N", help="simulated fights when state forces it")
    s.add_argument("--seed", type=int, default=0, metavar="S", help="seed of a simulated fight (default 0)")
    common(s)
    s.set_defaults(func=cmd_race)

    s = sub.add_parser(
        "references",
        help="published numbers beside the engine's",
        description="Numbers others published (d20 odds, dice sums, 4d6 scores, success pools, waiting times, "
        "duels), each with the engine's value and the source's rounding as the tolerance (docs/references.md).",
    )
    s.add_argument(
        "--section", metavar="NAME", help="one section: d20, sums, 4d6 drop lowest, success pools, waiting, duels"
    )
    common(s, rules=False)
    s.set_defaults(func=cmd_references)

    s = sub.add_parser(
        "optimal",
        help="the best plan at each state of the fight (its pools, and any state it carries)",
        description="Optimal play against a passive target: the plan for each HP left (Annulus: Endurance and "
        "Vitality left) that makes the expected rounds to kill fewest, by dynamic programming.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("attacker", metavar="ATTACKER")
    s.add_argument("-t", "--target", required=True, metavar="TARGET")
    s.add_argument(
        "--ignore-state", action="store_true", help="solve over the pools even if the fight carries other state"
    )
    common(s, chart=False)
    s.set_defaults(func=cmd_optimal)

    s = sub.add_parser(
        "variants",
        help="the grid under several rule variants",
        description="Compare the attackers against the targets under two or more rule Options, "
        "with each row's change from the first (the baseline).",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-a", "--attackers", nargs="+", required=True, metavar="ATTACKER")
    s.add_argument("-t", "--targets", nargs="+", required=True, metavar="TARGET")
    s.add_argument(
        "--variant",
        action="append",
        required=True,
        metavar="LABEL=FILE",
        help="a variant: its label and an Options file or share code, or LABEL=default (repeat)",
    )
    s.add_argument(
        "--show",
        default="mean_rounds",
        metavar="COLUMN",
        help="column printed with its change (one of mean_damage, mean_turn_damage, p_kill_one_turn, mean_rounds, rounds_q50)",
    )
    s.add_argument("--max-rounds", type=int, default=100, metavar="N", help="rounds-to-kill horizon (default 100)")
    s.add_argument("--rows", type=int, default=60, metavar="N", help="rows to print (default 60)")
    s.add_argument("--yes", action="store_true", help=_YES)
    s.add_argument("--situation", metavar="FILE", help="situation (TOML/JSON file or share code)")
    common(s, rules=False)
    s.set_defaults(func=cmd_variants)

    s = sub.add_parser(
        "explain",
        help="how one compare number was computed, and Python that reproduces it",
        description="Show the working behind compare's row of ATTACKER on TARGET: one use, one turn, the fight "
        "(exact or simulated, and why), and wb.* calls that give the number again.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("attacker", metavar="ATTACKER")
    s.add_argument("target", metavar="TARGET")
    s.add_argument("--attack", metavar="ATTACK", help="one of the attacker's attacks (default: its best plan)")
    common(s, out=False, chart=False)
    s.set_defaults(func=cmd_explain)

    s = sub.add_parser(
        "explore",
        help="best builds within a budget",
        description="Enumerate legal builds within a budget and rank them against the targets.",
    )
    s.add_argument("system", metavar="SYSTEM")
    s.add_argument("-t", "--targets", nargs="+", required=True, metavar="TARGET")
    s.add_argument(
        "--budget",
        type=int,
        metavar="N",
        help="build budget: Annulus Experience; elsewhere modifications of a catalog attack (1 each)",
    )
    s.add_argument("--top-k", type=int, default=10, metavar="K", help="builds to keep (default 10)")
    s.add_argument(
        "--by",
        default=None,
        metavar="FIGURE",
        help="the figure to rank by, higher is better: mean_turn_damage (default), mean_damage, p_any_damage, "
        "p_kill_one_turn, p_kill_within_K (P(killed within K rounds), e.g. p_kill_within_3); against a group "
        '("3 x Wolf"): mean_rounds (default, fewest first), p_kill_one_turn or p_kill_within_K',
    )
    s.add_argument(
        "--fights",
        type=int,
        default=None,
        metavar="N",
        help="against a group: simulated fights per build (default 2000)",
    )
    s.add_argument("--seed", type=int, default=0, metavar="S", help="against a group: seed of the simulated fights")
    s.add_argument("--front", action="store_true", help="print the cost front per target (--chart: its scatter)")
    s.add_argument("--dataset", metavar="DIR", help="write every row to a Parquet dataset in DIR, chunk by chunk")
    s.add_argument("--resume", action="store_true", help="continue the run already in --dataset DIR")
    s.add_argument("--yes", action="store_true", help=_YES)
    common(s)
    s.set_defaults(func=cmd_explore)

    s = sub.add_parser(
        "show",
        help="print a model as TOML, save it, or make its share code",
        description="Print a catalog creature/attack, a file or a share code as TOML; "
        "--save writes it to a .toml/.json file, --code prints its share code.",
    )
    s.add_argument("system_or_thing", metavar="SYSTEM|FILE|CODE")
    s.add_argument("name", metavar="NAME", nargs="?", help="catalog creature or attack (after SYSTEM)")
    s.add_argument("--save", metavar="FILE", help="write it to a .toml or .json file")
    s.add_argument("--code", action="store_true", help="print its share code instead of TOML")
    s.set_defaults(func=cmd_show)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``workbench`` command; return the exit code (2 for bad input, one line on stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2, already printed by argparse)
        return int(exc.code or 0)
    try:
        _check_suffix(getattr(args, "out", None), _FRAME_SUFFIXES, "--out")
        _check_suffix(getattr(args, "chart", None), _CHART_SUFFIXES, "--chart")
        for flag in ("max_rounds", "top_k", "top", "rows"):
            value = getattr(args, flag, None)
            if value is not None and value < 1:
                raise RulesError(f"must be at least 1, not {value}", field="--" + flag.replace("_", "-"))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code = args.func(args)
        for w in caught:
            print(f"workbench: warning: {' '.join(str(w.message).split())}", file=sys.stderr)
        return code
    except RulesError as exc:
        print(f"workbench: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into ``head``
        sys.stderr.close()
        return 0
    except OSError as exc:
        print(f"workbench: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("workbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - a bug, not bad input: one line and a hint, never a traceback
        if os.environ.get("WB_DEBUG"):
            raise
        text = " ".join(str(exc).split())
        text = text if len(text) <= 200 else text[:197] + "..."
        print(
            f"workbench: internal error: {type(exc).__name__}: {text} (a bug in the workbench, not in your "
            f"input; rerun with WB_DEBUG=1 for the traceback and report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
