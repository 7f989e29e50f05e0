"""Numbers other people published, as data, with the engine's value beside each
(docs/references.md; ``wb.references()``, ``workbench references``, :func:`workbench.charts.references_chart`).

Every row is one published figure: its source, the figure as printed, the source's own rounding
as the tolerance (a value printed as ``16.7%`` may be off by 0.05 percentage points; an exact
value such as a count or ``3/4`` by float noise only, :data:`EXACT`), and the workbench
expression that reproduces it, which is what runs (evaluated in :data:`NAMESPACE`, so the
expression shown is the code). Where a published figure disagrees with the exact value by more
than its rounding, the row says so (``agrees`` False) with the explanation in ``note``; such a row
still counts as reproduced when the engine's value is outside the tolerance (it must stay outside).
The page's tests (tests/docs/test_references.py) hold the sources' whole tables; these rows are
the figures the page prints.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

import polars as pl

from .dist import Dist

__all__ = ["EXACT", "NAMESPACE", "PUBLISHED", "Published", "references"]

#: the tolerance of a figure printed exactly (a count, a fraction): float noise only
EXACT = 1e-12


class Published(NamedTuple):
    """One published figure: ``value`` as printed (in percent when ``unit`` is ``"%"``), the
    ``tolerance`` its printing allows (same unit), and the ``expression`` (a probability when the
    unit is ``"%"``) that the workbench reproduces it with."""

    section: str
    source: str
    url: str
    figure: str
    value: float
    unit: str
    tolerance: float
    expression: str
    agrees: bool = True
    note: str = ""


def _point(dist: Dist, x: int) -> float:
    """Return P(X = x)."""
    return float(dist.sf(x) - dist.sf(x + 1))


def _variance(frame: pl.DataFrame) -> float:
    """Return the variance of the rounds of a ``rounds_to_kill`` frame (sum over its rows)."""
    mean = float((frame["round"] * frame["p_killed_at"]).sum())
    return float((frame["round"] ** 2 * frame["p_killed_at"]).sum()) - mean**2


def _namespace() -> dict[str, Any]:
    import workbench as wb

    d20 = Dist.die(20)
    return {
        "wb": wb,
        "Dist": Dist,
        "Fraction": Fraction,
        "d20": d20,
        "adv": Dist.highest(d20, 2),  # advantage: the higher of two d20
        "dis": Dist.lowest(d20, 2),  # disadvantage: the lower of two
        "score": Dist.highest(Dist.die(6), 4, 3),  # 4d6, keep the highest 3
        "six": Dist.binomial(1, Fraction(1, 6)),  # a turn that deals 1 damage on a 6
        "point": _point,
        "variance": _variance,
    }


#: the names the expressions use (docs/references.md defines each in its first example)
NAMESPACE = ("wb", "Dist", "Fraction", "d20", "adv", "dis", "score", "six", "point", "variance")

_PARSLIP = (
    "Parslip's Tyranny of Dragons, Understanding the Odds",
    "http://parslip-s-tyranny-of-dragons.obsidianportal.com/wikis/understanding-the-odds",
)
_TGH = (
    "TableGamesHub, D20 Advantage/Disadvantage Calculator",
    "https://tablegameshub.com/d20-advantage-disadvantage-calculator/",
)
_ABER = (
    "Aberystwyth University outreach, dice games answers",
    "https://fbaps-outreach-hub.dcs.aber.ac.uk/Maths/DiceGames/Answers/diceComboAnswers.html",
)
_GG = ("gamesandgadgets.org, Dice Odds for 3d6", "http://gamesandgadgets.org/theblogs/perrol/dice-odds-for-3d6/")
_ANYDICE = ("AnyDice (Jasper Flick), 4d6 Drop Lowest", "https://anydice.catlikecoding.com/articles/4d6-drop-lowest")
_ELEMENTAL = (
    "Elemental d6 wiki, ability check probability",
    "https://www.elementald6.com/doku.php?do=export_xhtml&id=wiki%3Aability+check+probability",
)


def _d20_rows() -> list[Published]:
    rows = []
    for dc, values in ((10, (55.0, 79.75, 30.25)), (15, (30.0, 51.0, 9.0)), (18, (15.0, 27.75, 2.25))):
        for way, value in zip(("d20", "adv", "dis"), values):
            label = {"d20": "straight", "adv": "advantage", "dis": "disadvantage"}[way]
            rows.append(Published("d20", *_PARSLIP, f"DC {dc}, {label}", value, "%", 0.005, f"{way}.sf({dc})"))
    for face, what, values in (
        (19, "crit on 19-20", (10.0, 19.0, 1.0)),
        (17, "crit on 17-20", (20.0, 36.0, 4.0)),
        (5, "needed 5+", (80.0, 96.0, 64.0)),
    ):
        for way, value in zip(("d20", "adv", "dis"), values):
            label = {"d20": "normal", "adv": "advantage", "dis": "disadvantage"}[way]
            rows.append(Published("d20", *_TGH, f"{what}, {label}", value, "%", 0.05, f"{way}.sf({face})"))
    rows.append(
        Published(
            "d20",
            "RPG Stack Exchange 138209, How do you calculate average damage for DPR comparisons?",
            "https://life-improver.com/rpg/rpg-how-to-calculate-average-damage-for-dpr-comparisons/",
            "+4 against AC 15: faces that hit",
            10,
            "",
            EXACT,
            "(d20 + 4).sf(15) * 20",
        )
    )
    return rows


def _sum_rows() -> list[Published]:
    storm = (
        "stormtiger.org, 2d6: How Often A Number Occurs",
        "http://stormtiger.org/bob/gaming/rpg_math/bell_curve/2d6_number_occurance.cgh",
    )
    return [
        Published("sums", *storm, "2d6: P(2)", 2.8, "%", 0.05, "point(Dist.dice(2, 6), 2)"),
        Published("sums", *storm, "2d6: P(7)", 16.7, "%", 0.05, "point(Dist.dice(2, 6), 7)"),
        Published("sums", *_ABER, "2d6: P(2)", 2.78, "%", 0.005, "point(Dist.dice(2, 6), 2)"),
        Published("sums", *_ABER, "2d6: P(7)", 16.67, "%", 0.005, "point(Dist.dice(2, 6), 7)"),
        Published("sums", *_ABER, "d5 + d7: P(2)", 2.86, "%", 0.005, "point(Dist.die(5) + Dist.die(7), 2)"),
        Published("sums", *_ABER, "d5 + d7: P(6)", 14.29, "%", 0.005, "point(Dist.die(5) + Dist.die(7), 6)"),
        Published("sums", *_ABER, "d4 + d8: P(3)", 6.25, "%", 100 * EXACT, "point(Dist.die(4) + Dist.die(8), 3)"),
        Published("sums", *_ABER, "d4 + d8: P(5)", 12.5, "%", 100 * EXACT, "point(Dist.die(4) + Dist.die(8), 5)"),
        Published("sums", *_GG, "3d6: P(9)", 11.5741, "%", 0.00005, "point(Dist.dice(3, 6), 9)"),
        Published("sums", *_GG, "3d6: P(3)", 0.4630, "%", 0.00005, "point(Dist.dice(3, 6), 3)"),
        Published("sums", *_GG, "3d6: P(X <= 8)", 25.93, "%", 0.005, "Dist.dice(3, 6).cdf(8)"),
        Published("sums", *_GG, "3d6: P(X <= 14)", 90.74, "%", 0.005, "Dist.dice(3, 6).cdf(14)"),
        Published(
            "sums", "infinitelexicon.com, 3d6", "https://infinitelexicon.com/3d6", "3d6: mean", 10.5, "", EXACT,
            "Dist.dice(3, 6).mean()",
        ),
        Published(
            "sums", "infinitelexicon.com, 3d6", "https://infinitelexicon.com/3d6", "3d6: standard deviation", 2.96,
            "", 0.005, "Dist.dice(3, 6).std()",
        ),
    ]  # fmt: skip


def _score_rows() -> list[Published]:
    return [
        Published(
            "4d6 drop lowest", "rollmydice.app, Roll 4d6 Drop Lowest",
            "https://www.rollmydice.app/ko/roll-4d6-drop-lowest", "mean score", 12.24, "", 0.005, "score.mean()",
        ),
        Published(
            "4d6 drop lowest", *_ANYDICE, "six scores: at least one 18", 9.34, "%", 0.005,
            "Dist.binomial(6, score.sf(18)).sf(1)",
        ),
        Published(
            "4d6 drop lowest", *_ANYDICE, "six scores: at least two 18s", 0.38, "%", 0.005,
            "Dist.binomial(6, score.sf(18)).sf(2)",
        ),
        Published(
            "4d6 drop lowest", *_ANYDICE, "six scores: at least three of 15+", 14.13, "%", 0.005,
            "Dist.binomial(6, score.sf(15)).sf(3)",
        ),
        Published(
            "4d6 drop lowest", *_ANYDICE, "six scores: at least two of 17+", 4.03, "%", 0.005,
            "Dist.binomial(6, score.sf(17)).sf(2)", False,
            "4.30% with two digits swapped: P(score >= 17) is exactly 75/1296, and the same row's "
            "one-score entry (30.07%) agrees",
        ),
    ]  # fmt: skip


def _pool_rows() -> list[Published]:
    boundless = (
        "Boundless (Fari RPGs), Understanding the Dice",
        "https://boundless.farirpgs.com/faq/understanding-the-dice",
    )
    return [
        Published("success pools", *_ELEMENTAL, "10d6: at least 4 of 5-6", 44.1, "%", 0.05, "Dist.pool(10, 6, 5).sf(4)"),
        Published(
            "success pools", *_ELEMENTAL, "4d6: at least 1 of 5-6", 80.3, "%", 0.05, "Dist.pool(4, 6, 5).sf(1)", False,
            "the exact 80.2469% rounded twice, halves up: to 80.25, then to 80.3 (rounded once it is 80.2)",
        ),
        Published("success pools", *boundless, "6d6: 3+ hits on 5-6", 32, "%", 0.5, "Dist.pool(6, 6, 5).sf(3)"),
    ]  # fmt: skip


def _wait_and_duel_rows() -> list[Published]:
    mosteller = (
        "Mosteller, Fifty Challenging Problems in Probability: Trials Until First Success (sinclam2)",
        "https://github.com/sinclam2/fifty-challenging-problems-in-probability",
    )
    newbedev = (
        "newbedev, expected number of die rolls to get a specific number",
        "https://newbedev.com/what-is-the-expected-value-of-the-number-of-die-rolls-necessary-to-get-a-specific-number",
    )
    return [
        Published("waiting", *mosteller, "throws of a die until a 6: mean", 6, "", EXACT, "wb.mean_rounds_to_kill(six, hp=1)"),
        Published("waiting", *newbedev, "throws until a 6: mean", 6, "", EXACT, "wb.mean_rounds_to_kill(six, hp=1)"),
        Published(
            "waiting", *newbedev, "throws until a 6: variance", 30, "", 1e-9, "variance(wb.rounds_to_kill(six, hp=1))",
            True, "summed over rounds_to_kill's rows, which stop below 1e-15 unresolved mass: 1e-9",
        ),
        Published(
            "duels", "Kevin Fry, quant question bank: 2 player game",
            "https://kevinbfry.github.io/quant-question-bank/two-player-game", "P1 (1/2, first) beats P2 (1/3)", 0.75,
            "", EXACT, "wb.duel(Dist.binomial(1, Fraction(1, 2)), Dist.binomial(1, Fraction(1, 3)), hp_a=1, hp_b=1).p_a_wins",
        ),
        Published(
            "duels", "docstoc, 20. The Three-Cornered Duel", "http://www.docstoc.com/docs/136523004/20",
            "A (0.3) survives C (0.5, first)", 0.2308, "", 0.00005,
            "wb.duel(Dist.binomial(1, Fraction(3, 10)), Dist.binomial(1, Fraction(1, 2)), hp_a=1, hp_b=1, first='b').p_a_wins",
        ),
    ]  # fmt: skip


#: every published figure docs/references.md prints, by section
PUBLISHED: tuple[Published, ...] = (
    *_d20_rows(),
    *_sum_rows(),
    *_score_rows(),
    *_pool_rows(),
    *_wait_and_duel_rows(),
)


@cache
def _frame() -> pl.DataFrame:
    space = _namespace()
    engine = []
    for row in PUBLISHED:
        value = float(eval(row.expression, {"__builtins__": {}}, space))  # noqa: S307 (this module's own expressions)
        engine.append(100 * value if row.unit == "%" else value)
    frame = pl.DataFrame(
        [row._asdict() for row in PUBLISHED],
        schema_overrides={"value": pl.Float64, "tolerance": pl.Float64},
    ).rename({"value": "published"})
    frame = frame.with_columns(pl.Series("engine", engine, dtype=pl.Float64))
    deviation = pl.col("engine") - pl.col("published")
    return frame.with_columns(
        deviation.alias("deviation"),
        (deviation.abs() / pl.col("tolerance")).alias("in_tolerances"),
        (deviation.abs() <= pl.col("tolerance")).alias("within"),
    ).with_columns((pl.col("within") == pl.col("agrees")).alias("reproduced"))


def references(section: str | None = None) -> pl.DataFrame:
    """Return the published figures with the engine's values, one row per figure (docs/references.md).

    Columns: section, source, url, figure, published (as printed; percent when ``unit`` is "%"),
    unit, tolerance (the source's rounding, same unit), expression (what the engine ran), agrees
    (False where the page shows the published figure is wrong), note, engine (the engine's value,
    same unit), deviation (engine - published), in_tolerances (|deviation| / tolerance), within
    (|deviation| <= tolerance) and reproduced (within == agrees: the engine agrees with the page).
    ``section`` keeps one section ("d20", "sums", "4d6 drop lowest", "success pools", "waiting",
    "duels"); another raises RulesError (field ``section``)."""
    frame = _frame()
    if section is None:
        return frame
    sections = list(dict.fromkeys(frame["section"].to_list()))
    if section not in sections:
        from .errors import RulesError, show

        raise RulesError(f"must be one of {', '.join(sections)}, not {show(section)}", field="section")
    return frame.filter(pl.col("section") == section)
