"""Encounters: a side of creatures against another (``wb.encounter``), exact where the joint state
fits, else simulated from the same round descriptions (workbench/fight/encounter.py; issue 39;
../shared/rules/CLARIFICATIONS.md, "Encounters: groups against groups")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arguments import bounded, check_confirm, check_fights, check_first, check_rounds, check_seed
from .chains import CHAIN_TAIL
from .errors import RulesError
from .work import check, fight_work

__all__ = [
    "EncounterResult",
    "Difficulty",
    "Group",
    "GroupRounds",
    "encounter",
    "encounter_difficulty",
    "group_rounds",
    "parse_group",
    "side_name",
    "ENCOUNTERS",
]

#: the rule cited by the encounter's refusals
ENCOUNTERS = "CLARIFICATIONS.md: Encounters: groups against groups"
#: creatures on one side (the rules never field more; the simulation's cost grows with them)
MAX_SIDE = 50


def side_name(names: Any) -> str:
    """Return a side's creatures in words, "Wolf x2 + Boar" (a creature listed twice is named "Wolf",
    "Wolf #2" in the results)."""
    counts: dict[str, int] = {}
    for n in names:
        base = str(n).split(" #")[0]
        counts[base] = counts.get(base, 0) + 1
    return " + ".join(f"{k} x{v}" if v > 1 else k for k, v in counts.items())


@dataclass(frozen=True)
class EncounterResult:
    """The outcome of an encounter (``wb.encounter``).

    ``a`` / ``b``: the creatures' names of each side (a creature listed twice is "Wolf", "Wolf #2");
    ``p_a_wins``, ``p_b_wins``, ``p_draw`` (both sides fall in one turn), ``p_unresolved`` (both still
    stand at ``max_rounds``); ``rounds``: polars (round, p_a_wins, p_b_wins, p_draw);
    ``survivors``: polars (side, survivors, probability) of the creatures of each side standing at
    the end; ``creatures``: polars per creature (side, name, hp, p_survives, mean_hp_left,
    p_falls_first); ``hp_left``: polars (side, name, outcome, hp_left, probability). ``exact`` True
    when the joint chain over every creature's state solved it; False for a simulation, which has
    ``fights``, ``standard_error`` (of P(a wins)) and ``forced_by`` (why it was simulated).
    ``states``: the most live joint states the exact chain held (None when simulated)."""

    a: tuple[str, ...]
    b: tuple[str, ...]
    p_a_wins: float
    p_b_wins: float
    p_draw: float
    p_unresolved: float
    rounds: Any
    survivors: Any
    creatures: Any
    hp_left: Any
    first: str
    order: str
    targeting: str
    max_rounds: int
    exact: bool = True
    fights: int | None = None
    standard_error: float | None = None
    forced_by: tuple[str, ...] = ()
    states: int | None = None

    def summary(self) -> str:
        """Return a short readable summary."""
        forced = f"; forced by {', '.join(self.forced_by)}" if self.forced_by else ""
        how = "exact" if self.exact else f"simulated ({self.fights:,} fights, s.e. {self.standard_error:.4f}{forced})"
        decided = self.p_a_wins + self.p_b_wins + self.p_draw
        r = self.rounds
        mean = float((r["round"] * (r["p_a_wins"] + r["p_b_wins"] + r["p_draw"])).sum())
        last = (
            f"decided fights last {mean / decided:.2f} rounds on average"
            if decided > 0
            else f"no fight is decided within {self.max_rounds} rounds"
        )
        return (
            f"{side_name(self.a)} vs {side_name(self.b)} ({how}, {self.first} acts first, order {self.order}, "
            f"targeting {self.targeting}, {self.max_rounds} rounds at most): side a wins {self.p_a_wins:.2%}, "
            f"side b wins {self.p_b_wins:.2%}, draw {self.p_draw:.2%}, unresolved {self.p_unresolved:.2%}; {last}"
        )

    def frame(self) -> Any:
        """Return the per-creature polars frame (:attr:`creatures`) with the side-level numbers as
        columns (p_side_wins, p_draw, p_unresolved) and how it was computed (exact, standard_error)."""
        import polars as pl

        wins = {"a": self.p_a_wins, "b": self.p_b_wins}
        return self.creatures.with_columns(
            pl.col("side").replace_strict(wins, return_dtype=pl.Float64).alias("p_side_wins"),
            pl.lit(self.p_draw).alias("p_draw"),
            pl.lit(self.p_unresolved).alias("p_unresolved"),
            pl.lit(self.exact).alias("exact"),
            pl.lit(self.standard_error, dtype=pl.Float64).alias("standard_error"),
        )

    def __repr__(self) -> str:
        return f"EncounterResult({self.summary()})"


def _side_list(side: Any, name: str) -> list[Any]:
    got = list(side) if isinstance(side, (list, tuple)) else [side]
    if not got:
        raise RulesError(f"{name} needs at least one creature", field=name, rule=ENCOUNTERS)
    if len(got) > MAX_SIDE:
        raise RulesError(f"{name} has {len(got)} creatures, over {MAX_SIDE}", field=name, rule=ENCOUNTERS)
    return got


def _picks(items: list[Any]) -> tuple[list[Any], list[Any]]:
    """Return (the creatures of a side's entries, each entry's picked attack or None): an entry is a
    creature or a (creature, attack) pair."""
    creatures, attacks = [], []
    for item in items:
        c, a = item if isinstance(item, tuple) and len(item) == 2 else (item, None)
        creatures.append(c)
        attacks.append(a)
    return creatures, attacks


def _plan(sys: Any, creature: Any, attack: Any, options: Any, field: str) -> list[Any]:
    """Return the plan of a (creature, attack) entry: the attack (one of the creature's own, by model
    or name) as often as one turn can use it (``uses_per_turn``, compare's attack rows)."""
    own = list(sys.attacks_of(creature))
    if isinstance(attack, str):
        match = [x for x in own if x.name.lower() == attack.strip().lower()]
        if not match:
            raise RulesError(
                f"{creature.name} has no attack {attack!r} (its attacks: {', '.join(x.name for x in own)})",
                field=field,
                rule=ENCOUNTERS,
            )
        attack = match[0]
    if not isinstance(attack, sys.Attack):
        raise RulesError(
            f"the second of a pair must be a {sys.title} attack or its name, not {type(attack).__name__}",
            field=field,
            rule=ENCOUNTERS,
        )
    uses = sys.uses_per_turn(creature, attack, options)
    if uses < 1:
        raise RulesError(f"{attack.name} does not fit one turn of {creature.name}", field=field, rule=ENCOUNTERS)
    return [attack] * uses


def _names(creatures: list[Any]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for c in creatures:
        seen[c.name] = seen.get(c.name, 0) + 1
        out.append(c.name if seen[c.name] == 1 else f"{c.name} #{seen[c.name]}")
    return tuple(out)


def _probability(x: Any) -> float:
    """Return a probability summed from many parts, kept in [0, 1]: a sum of parts that add up to 1
    can land a rounding step above it (1.0000000000000002), which a reader should not see."""
    return min(1.0, max(0.0, float(x)))


def _choice(value: Any, allowed: tuple[str, ...], name: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, not {value!r}", field=name, rule=ENCOUNTERS)
    return value


@bounded("encounter")
def encounter(
    side_a: Any,
    side_b: Any,
    options: Any = None,
    situation: Any = None,
    *,
    first: str = "a",
    order: str = "sides",
    targeting: Any = "focus",
    flanking: str = "auto",
    refund: bool = True,
    foes_in_area: dict[str, int] | None = None,
    allies_in_area: int = 0,
    max_rounds: int = 100,
    simulate: bool | None = None,
    fights: int = 100_000,
    seed: int = 0,
    confirm: bool = False,
) -> EncounterResult:
    """Return the :class:`EncounterResult` of ``side_a`` against ``side_b`` (each a creature or a
    list of creatures of one rule system; a creature may appear several times), fought by the group
    rules of CLARIFICATIONS.md "Encounters: groups against groups". An entry ``(creature, attack)``
    (the attack a model or its name) plays that attack as often as a turn allows, as compare's
    attack rows and ``rounds_to_kill(plan=...)``; a bare creature plays its best plan, as in a duel.

    - ``first`` "a", "b" or "random" (a fair coin each fight): the side acting first;
    - ``order`` "sides" (default: every creature of the first side in listed order, then the other's)
      or "alternate" (a1, b1, a2, b2, ..., the larger side's extra creatures last);
    - ``targeting`` "focus" (default: the living foe with the fewest HP left, ties in listed order),
      "spread" (the living foe attacked the fewest times this round), "random" (uniform), or a
      function of the fight's state: called with each foe's :class:`~workbench.foe_order.Foe` (its
      name, place in listed order, HP, and per fight its HP left and the attacks on it this round),
      it returns the foe's score, and the living foe of lowest score is attacked, ties in listed
      order (a function reading HP is played, as ``focus``, from every cell's full state);
    - ``flanking`` (Unbound: +2 to a melee attack "when two characters flank an enemy") "auto"
      (default: under focus whenever another living melee creature of its side stands; otherwise
      when another melee creature of its side attacked that foe earlier this round, or will as
      things stand: ``workbench.fight.encounter.flanked_by_later``), "never", "always";
    - ``refund`` (Glass Empires, default True): "a Strike that kills ends its Attack ... and refunds
      the Attack's action, which makes a new Attack on the next living foe by the same policy in the
      same turn; a kill by that Attack refunds again" while the rule option ``kill_refunds_action``
      holds; a turn of two Attacks is played an Attack at a time (``GlassEmpiresRound.steps``);
    - ``foes_in_area`` (Annulus, default Arc 3, Burst 3, Line 2): an area set "strikes all
      creatures" in its area, its target and the next living foes by the policy up to this many;
      a dict of the areas changed, e.g. ``{"Burst": 5}`` (``AnnulusRound.with_foes_in_area``);
    - ``allies_in_area`` (Annulus, default 0): area attacks "can and will harm the user's allies if
      they are standing in the target area" (annulus-attacks.txt): an area set also strikes this many
      living creatures of its user's side, the first in listed order (never its user), each rolled
      for separately and none of them countering; the plan is still chosen by the damage to the foes
      (``AnnulusRound.group_turn``);
    - ``max_rounds`` (default 100): fights still going then are unresolved.

    Exact (the chain over every creature's state, each turn its system's one round description
    enumerated) when the product of the creatures' HP and the live joint states stay within
    :data:`~workbench.fight.encounter.MAX_ENCOUNTER_STATES`; otherwise (or ``simulate=True``) a
    seeded simulation of ``fights`` fights from the same descriptions, its ``forced_by`` saying why.
    One creature against one equals ``wb.duel``. An Annulus turn can end part-way (a Counter fells
    the striker, a foe falls before the turn's later uses): the chain plays the cells near a fall
    from their full state, as the duel does; an area set that strikes allies (``allies_in_area``)
    strikes them there too. Each creature's Endurance and Vitality are kept as all the creatures that
    can hurt it need them."""
    import polars as pl

    from .fight import encounter as fe
    from .systems import fight_system

    first = check_first(first)
    order = _choice(order, fe.ORDERS, "order")
    policy = targeting if callable(targeting) else _choice(targeting, fe.TARGETING, "targeting")
    targeting = (
        f"function {getattr(targeting, '__name__', type(targeting).__name__)}" if callable(targeting) else policy
    )
    flanking = _choice(flanking, fe.FLANKING, "flanking")
    max_rounds = check_rounds(max_rounds)
    fights = check_fights(fights)
    seed = check_seed(seed)
    confirm = check_confirm(confirm)
    if simulate not in (None, True, False):
        raise RulesError(f"simulate must be None, True or False, not {simulate!r}", field="simulate")
    (sa, picked_a), (sb, picked_b) = _picks(_side_list(side_a, "side_a")), _picks(_side_list(side_b, "side_b"))
    roles = {f"side_a[{i}]": c for i, c in enumerate(sa)} | {f"side_b[{i}]": c for i, c in enumerate(sb)}
    sys = fight_system(roles, ..., options, situation)
    plans: dict[int, list[Any]] = {}
    for name, entries, picked in (("side_a", sa, picked_a), ("side_b", sb, picked_b)):
        for i, (c, attack) in enumerate(zip(entries, picked)):
            if attack is not None:  # its own model object, which its plan is kept under
                entries[i] = c = c.model_copy()
                plans[id(c)] = _plan(sys, c, attack, options, f"{name}[{i}]")
    probe = sys.fight_round(sa[0], sb[0], options, situation, plans.get(id(sa[0])))
    if probe is None:
        raise RulesError(f"{sys.title} describes no round to play an encounter with", field="side_a", rule=ENCOUNTERS)
    if foes_in_area is not None:
        if getattr(probe, "with_foes_in_area", None) is None:
            raise RulesError(
                f"foes_in_area sets how many foes an Annulus area set strikes; {sys.title} has no area sets",
                field="foes_in_area",
                rule=ENCOUNTERS,
            )
        probe.with_foes_in_area(foes_in_area)  # refused here, before any round is built
    if isinstance(allies_in_area, bool) or not isinstance(allies_in_area, (int, np.integer)):
        raise RulesError(
            f"allies_in_area must be a whole number of allies (0 to 50), not {allies_in_area!r}",
            field="allies_in_area",
            rule=ENCOUNTERS,
        )
    if not 0 <= int(allies_in_area) <= 50:
        raise RulesError(
            f"allies_in_area must be 0 to 50 allies, not {allies_in_area}", field="allies_in_area", rule=ENCOUNTERS
        )
    if allies_in_area and getattr(probe, "has_area", None) is None:
        raise RulesError(
            f"allies_in_area sets how many allies an Annulus area set strikes; {sys.title} has no area sets",
            field="allies_in_area",
            rule=ENCOUNTERS,
        )
    base_situation = situation if situation is not None else sys.Situation()

    def make_round(me: Any, foe: Any, flanked: bool) -> Any:
        rnd = sys.fight_round(me, foe, options, base_situation, plans.get(id(me)))
        if foes_in_area is not None:
            rnd = rnd.with_foes_in_area(foes_in_area)
        if flanked:
            hook = getattr(rnd, "flanked", None)
            if hook is not None:
                return hook()
        return rnd

    creatures = sa + sb
    side = np.array([0] * len(sa) + [1] * len(sb))
    if not isinstance(refund, bool):
        raise RulesError(f"refund must be True or False, not {refund!r}", field="refund", rule=ENCOUNTERS)
    enc = fe.Encounter(
        creatures,
        side,
        make_round,
        targeting=policy,
        flanking=flanking,
        refund=refund,
        allies_in_area=int(allies_in_area),
    )
    names = _names(sa) + _names(sb)
    orders = [0, 1] if first == "random" else [0 if first == "a" else 1]
    tally, forced, most, n_fights, standard_error = _solve(
        enc, order, orders, first, max_rounds, simulate, fights, seed, confirm
    )
    return _result(
        tally, enc, names, len(sa), first, order, targeting, max_rounds, n_fights, standard_error, forced, most, pl
    )


def _solve(
    enc: Any,
    order: str,
    orders: list[int],
    first: str,
    max_rounds: int,
    simulate: bool | None,
    fights: int,
    seed: int,
    confirm: bool,
    unsimulated: str | None = None,
) -> tuple[Any, list[str], int | None, int | None, float | None]:
    """Return (the encounter's Tally, what forced a simulation, the most keys x cells the exact chain
    held, the fights simulated, the standard error of P(a wins)): the one place that picks the
    method of an encounter. Exact (each side of ``orders`` acting first, averaged) unless the chain
    does not play a rule of it (``unsimulated`` names it), ``simulate`` is True or the chain passes
    its counted cells; else
    ``fights`` fights seeded by ``seed``, counted before they run."""
    from .fight import encounter as fe
    from .fight import encounter_chain as fe_chain

    forced: list[str] = []
    if unsimulated is not None and simulate is False:
        raise RulesError(
            f"an exact encounter is not available: the exact chain does not play {unsimulated}; "
            "leave simulate=False out to simulate it",
            field="simulate",
            rule=ENCOUNTERS,
        )
    if unsimulated is not None and simulate is None:
        forced.append(unsimulated)
    elif simulate is not True:
        got = []
        why: list[str] = []
        for o in orders:
            one = fe_chain.solve(enc, order, o, max_rounds, why=why)
            if one is None:
                break
            got.append(one)
        if len(got) == len(orders):
            tally = fe.Tally.empty(enc, max_rounds)
            for t, _ in got:
                tally.add(t, 1.0 / len(orders))
            return tally, forced, max(m for _, m in got), None, None
        if simulate is False:
            raise RulesError(
                f"{why[0]}: past the exact encounter's bound; leave simulate=False out to simulate it",
                field="simulate",
                rule=ENCOUNTERS,
            )
        forced.append(why[0])
    check(fight_work("encounter", {"fights": fights}), confirm)
    rng = np.random.default_rng(seed)
    who = rng.integers(0, 2, fights) if first == "random" else np.full(fights, orders[0])
    counts, _ = fe.simulate(enc, order, who, max_rounds, rng)
    tally = fe.Tally.empty(enc, max_rounds)
    tally.add(counts, 1.0 / fights)
    pa = float(tally.ends[0].sum())
    return tally, forced, None, fights, float(np.sqrt(max(pa * (1 - pa), 0.0) / fights))


def _result(
    tally: Any,
    enc: Any,
    names: tuple[str, ...],
    na: int,
    first: str,
    order: str,
    targeting: str,
    max_rounds: int,
    fights: int | None,
    standard_error: float | None,
    forced: list[str],
    most: int | None,
    pl: Any,
) -> EncounterResult:
    ends = tally.ends
    rounds = pl.DataFrame(
        {"round": np.arange(1, max_rounds + 1), "p_a_wins": ends[0], "p_b_wins": ends[1], "p_draw": ends[2]}
    )
    sizes = (na, len(names) - na)
    surv = pl.DataFrame(
        {
            "side": [s for s in ("a", "b") for _ in range(tally.survivors.shape[1])],
            "survivors": [k for _ in (0, 1) for k in range(tally.survivors.shape[1])],
            "probability": tally.survivors.ravel(),
        }
    ).filter(pl.col("survivors") <= pl.col("side").replace_strict({"a": sizes[0], "b": sizes[1]}))
    outcomes = ("a wins", "b wins", "draw", "unresolved")
    rows = []
    per = []
    for i, name in enumerate(names):
        h = tally.hp_left[i]
        side = "a" if i < na else "b"
        left = np.arange(h.shape[1])
        per.append(
            {
                "side": side,
                "name": name,
                "hp": int(enc.hp[i]),
                "p_survives": _probability(h[:, 1:].sum()),
                "mean_hp_left": float((h * left).sum()),
                "p_falls_first": _probability(tally.first[i]),
            }
        )
        for o in range(4):
            for hl in np.flatnonzero(h[o] > 0):
                rows.append((side, name, outcomes[o], int(hl), float(h[o, hl])))
    hp_left = pl.DataFrame(rows, schema=["side", "name", "outcome", "hp_left", "probability"], orient="row")
    p_a, p_b, p_d = (_probability(ends[k].sum()) for k in range(3))
    return EncounterResult(
        names[:na],
        names[na:],
        p_a,
        p_b,
        p_d,
        float(tally.unresolved),
        rounds,
        surv,
        pl.DataFrame(per),
        hp_left,
        first,
        order,
        targeting,
        max_rounds,
        exact=fights is None,
        fights=fights,
        standard_error=standard_error,
        forced_by=tuple(forced),
        states=most,
    )


@dataclass(frozen=True)
class Difficulty:
    """How many copies of a foe a party beats (``wb.encounter_difficulty``): ``curve`` polars (copies,
    p_party_wins, p_foes_win, exact, standard_error), one row per number of copies tried (1 up,
    stopping once P(party wins) falls below every level); ``copies[level]`` the most copies at which
    P(party wins) is at least ``level`` (0: not even one)."""

    party: tuple[str, ...]
    foe: str
    curve: Any
    copies: dict[float, int]

    def summary(self) -> str:
        """Return a short readable summary."""
        parts = [f"{int(n)} at {level:.0%}" for level, n in sorted(self.copies.items())]
        return f"{side_name(self.party)} against copies of {self.foe}: the most copies beaten {', '.join(parts)}"

    def __repr__(self) -> str:
        return f"Difficulty({self.summary()})"


def encounter_difficulty(
    party: Any,
    foe: Any,
    options: Any = None,
    situation: Any = None,
    *,
    levels: Any = (0.5, 0.9),
    max_copies: int = 10,
    **kwargs: Any,
) -> Difficulty:
    """Return the :class:`Difficulty` of ``foe`` for ``party``: P(party wins) against 1, 2, ...
    copies of ``foe`` (each an :func:`encounter`, with its other arguments ``kwargs``: first, order,
    targeting, flanking, max_rounds, simulate, fights, seed), up to ``max_copies`` or until P(party
    wins) is below every level of ``levels``; and for each level the most copies beaten with at
    least that chance. More copies of a foe never help the party, so the scan stops at the first
    number of copies under every level (a simulated point may wobble within its standard error)."""
    import polars as pl

    from .arguments import whole

    max_copies = whole("max_copies", max_copies, minimum=1, limit=MAX_SIDE, why="a side holds at most that many")
    try:
        wanted = sorted(float(x) for x in levels)
    except (TypeError, ValueError) as exc:
        raise RulesError(f"levels must be probabilities, not {levels!r}", field="levels") from exc
    if not wanted or any(not 0.0 < x <= 1.0 for x in wanted):
        raise RulesError(f"levels must be probabilities in (0, 1], not {levels!r}", field="levels")
    side = _side_list(party, "party")
    rows = []
    for n in range(1, max_copies + 1):
        got = encounter(side, [foe] * n, options, situation, **kwargs)
        rows.append((n, got.p_a_wins, got.p_b_wins, got.exact, got.standard_error))
        if got.p_a_wins < wanted[0]:
            break
    curve = pl.DataFrame(
        rows,
        schema={
            "copies": pl.Int64,
            "p_party_wins": pl.Float64,
            "p_foes_win": pl.Float64,
            "exact": pl.Boolean,
            "standard_error": pl.Float64,
        },
        orient="row",
    )
    copies = {}
    for level in wanted:
        beaten = [n for n, p, *_ in rows if p >= level]
        copies[level] = max(beaten) if beaten else 0
    return Difficulty(_names(_picks(side)[0]), foe.name, curve, copies)


# ---------------------------------------------------------------------------------------- groups
@dataclass(frozen=True)
class Group:
    """``copies`` of one creature taken as one target: compare's "3 x Wolf" (``wb.compare(...,
    targets=["3 x Wolf"])``). Its ``name`` is "3 x Wolf"."""

    creature: Any
    copies: int

    @property
    def name(self) -> str:
        return f"{self.copies} x {self.creature.name}"


#: "3 x Wolf", "3x Wolf", "3 × Wolf": copies of a creature given by name (a group target, a side's entry)
GROUP_NAME = re.compile(r"^\s*(\d+)\s*[x×]\s*(.+?)\s*$", re.IGNORECASE)


def parse_group(text: str, field: str = "targets", label: str = "") -> tuple[int, str] | None:
    """Return (copies, the creature's name) of ``text`` written "3 x Wolf", or None when it is not
    one. Copies outside 1 to :data:`MAX_SIDE` are a RulesError naming ``field`` (``label``, say the CLI
    flag, opens the message), showing at most six of the digits written."""
    m = GROUP_NAME.match(text)
    if m is None:
        return None
    digits, name = m.groups()
    if len(digits) > 6 or not 1 <= int(digits) <= MAX_SIDE:
        shown = digits if len(digits) <= 6 else f"{digits[:6]}..."
        raise RulesError(
            f"{label + ' ' if label else ''}{text!r}: a number of copies must be 1 to {MAX_SIDE}, not {shown}",
            field=field,
            rule=ENCOUNTERS,
        )
    return int(digits), name


def check_group(group: Group, field: str = "targets") -> Group:
    """Return ``group`` if its copies are a whole number from 1 to :data:`MAX_SIDE`, else RulesError."""
    n = group.copies
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= int(n) <= MAX_SIDE:
        raise RulesError(
            f"a group needs 1 to {MAX_SIDE} copies of its creature, not {n!r}", field=field, rule=ENCOUNTERS
        )
    return group


#: a group fight is played on to this many times ``max_rounds`` (at most 10,000 rounds) for its mean
GROUP_HORIZON = 4


@dataclass(frozen=True)
class GroupRounds:
    """How long an attacker takes to fell every creature of a passive group: ``p_killed_by[t - 1]``
    P(all fallen by round t), t = 1..max_rounds; ``mean`` the mean round, of the fight played on to
    :data:`GROUP_HORIZON` x max_rounds (NaN while some fights still stand then); ``unresolved``
    P(some still stand at max_rounds); ``exact``, and when simulated ``fights``, ``se`` (of the mean) and
    ``forced_by``."""

    p_killed_by: np.ndarray
    mean: float
    unresolved: float
    exact: bool
    fights: int | None
    se: float
    forced_by: tuple[str, ...]


def group_rounds(
    attacker: Any,
    group: Group,
    options: Any = None,
    situation: Any = None,
    plan: Any = None,
    *,
    targeting: str = "focus",
    max_rounds: int = 100,
    simulate: bool | None = None,
    fights: int = 2_000,
    seed: int = 0,
    confirm: bool = False,
) -> GroupRounds:
    """Return the :class:`GroupRounds` of ``attacker`` (playing ``plan``, as ``rounds_to_kill``'s
    ``plan=``; None the damage play) against ``group``'s creatures as passive targets: rounds-to-kill
    grown to a group (:class:`~workbench.fight.encounter.Encounter` with ``passive``): they neither
    attack nor react, each takes its own turn's ``rest``, the attacker picks its target by
    ``targeting`` (CLARIFICATIONS.md, Encounters: Targets) and strikes with an area set as in any
    encounter. One copy is ``rounds_to_kill``'s fight. Exact where the chain fits, else ``fights``
    simulated fights (:func:`_solve`, the encounter's one chooser)."""
    from .fight import encounter as fe
    from .systems import fight_system

    check_group(group)
    if simulate not in (None, True):
        raise RulesError(
            f"simulate must be None (exact where the chain fits) or True, not {simulate!r}: a group's fight "
            "always carries its creatures' states",
            field="simulate",
            rule=ENCOUNTERS,
        )
    targeting = _choice(targeting, fe.TARGETING, "targeting")
    creatures = [attacker] + [group.creature] * int(group.copies)
    roles = {"attacker": attacker, "target": group.creature}
    sys = fight_system(roles, ..., options, situation)
    base_situation = situation if situation is not None else sys.Situation()

    def make_round(me: Any, foe: Any, flanked: bool) -> Any:
        return sys.fight_round(me, foe, options, base_situation, plan if me is attacker else None)

    probe = make_round(attacker, group.creature, False)
    if probe is None:
        raise RulesError(f"{sys.title} describes no round to play a group with", field="targets", rule=ENCOUNTERS)
    side = np.array([0] + [1] * int(group.copies))
    enc = fe.Encounter(creatures, side, make_round, targeting=targeting, passive=True)
    # played past max_rounds (up to GROUP_HORIZON times it) so that the mean is known where the
    # fights end by then: a group lasts about as long as its copies one after another
    horizon = max(max_rounds, min(GROUP_HORIZON * max_rounds, 10_000))
    # compare and explore count a group row's work as simulated fights (limits.MAX_GROUP_ROW_FIGHTS);
    # a turn that can end part-way is played from the full state near a fall by the exact chain, which
    # costs far more than those fights (benchmarks/README.md, Annulus: exact encounters), so such a
    # group is simulated, as counted
    mid_turn = bool(getattr(probe, "falls_mid_turn", False))
    unsimulated = "a fall part-way through a turn" if mid_turn else None
    tally, forced, _, n_fights, _ = _solve(
        enc, "sides", [0], "a", horizon, simulate, fights, seed, confirm, unsimulated
    )
    at = np.asarray(tally.ends[0], dtype=np.float64)
    by = np.clip(np.cumsum(at), 0.0, 1.0)
    t = np.arange(1, horizon + 1)
    # the mass still standing at the horizon, as the chain or the fights left it (not 1 - a float sum)
    left = float(tally.unresolved)
    mean, se = float("nan"), float("nan")
    if left <= (CHAIN_TAIL if n_fights is None else 0.0):
        mean = float(t @ at)
        if n_fights is not None:
            var = max(float((t * t) @ at) - mean * mean, 0.0) * n_fights / max(n_fights - 1, 1)
            se = float(np.sqrt(var / n_fights))
    unresolved = float(max(0.0, 1.0 - by[max_rounds - 1]))
    if n_fights is not None:  # a count of fights over their number, not a float sum's remainder
        unresolved = round(unresolved * n_fights) / n_fights
    return GroupRounds(by[:max_rounds], mean, unresolved, n_fights is None, n_fights, se, tuple(forced))
