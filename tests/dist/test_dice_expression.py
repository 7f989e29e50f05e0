"""The dice box's expressions (workbench.dice_expression): exact results against icepool and a plain
enumeration, and errors that point at the wrong character."""

from __future__ import annotations

import itertools
import pickle
from collections import Counter
from fractions import Fraction

import pytest

from workbench.dice_expression import EXAMPLES, DiceSyntaxError, parse_dice
from workbench.dist import Dist
from workbench.errors import RulesError

icepool = pytest.importorskip("icepool")
d = icepool.d


def _close(dist: Dist, oracle: dict[int, float]) -> None:
    got = dist.to_dict()
    keys = {k for k, v in got.items() if v > 0} | {k for k, v in oracle.items() if v > 0}
    for k in keys:
        assert abs(got.get(k, 0.0) - float(oracle.get(k, 0.0))) <= 1e-12, (k, got.get(k), oracle.get(k))


def _ice(die) -> dict[int, float]:
    return {int(k): float(v) for k, v in zip(die.outcomes(), die.probabilities())}


CASES = [
    ("3d6+2", lambda: 3 @ d(6) + 2),
    ("2d20kh1+5", lambda: d(20).pool(2).highest(1).sum() + 5),
    ("2d20kl1", lambda: d(20).pool(2).lowest(1).sum()),
    ("4d6kh3", lambda: d(6).pool(4).highest(3).sum()),
    ("4d6dl1", lambda: d(6).pool(4).highest(3).sum()),
    ("5d10dh2", lambda: d(10).pool(5).lowest(3).sum()),
    ("2 @ d8", lambda: 2 @ d(8)),
    ("d20+7 >= 16", lambda: (d(20) + 7 >= 16).map(lambda b: int(b))),
    ("3 @ (d20 + 5 > 12)", lambda: 3 @ (d(20) + 5 > 12).map(lambda b: int(b))),
    ("2d6 - d4", lambda: 2 @ d(6) - d(4)),
    ("10 - 2d4", lambda: 10 - 2 @ d(4)),
    ("-d4", lambda: -d(4)),
    ("2 * d6 + 1", lambda: d(6) * 2 + 1),
    ("d6 * d6", lambda: d(6) * d(6)),
    ("3d6 / 2", lambda: (3 @ d(6)).map(lambda x: x // 2)),
    ("max(d20, d20) + 3", lambda: icepool.highest(d(20), d(20)) + 3),
    ("min(d8, 2d4)", lambda: icepool.lowest(d(8), 2 @ d(4))),
    ("d%", lambda: d(100)),
    ("2 @ (d6)", lambda: 2 @ d(6)),
    ("d20 == 20", lambda: (d(20) == 20).map(lambda b: int(b))),
    ("2d6 != 7", lambda: (2 @ d(6) != 7).map(lambda b: int(b))),
    ("d6 <= 2", lambda: (d(6) <= 2).map(lambda b: int(b))),
    ("d6 < d8", lambda: (d(6) < d(8)).map(lambda b: int(b))),
    ("100d6", lambda: 100 @ d(6)),
    ("3 + 4", lambda: icepool.Die([7])),
]


@pytest.mark.parametrize(("text", "oracle"), CASES, ids=[c[0] for c in CASES])
def test_matches_icepool(text, oracle):
    _close(parse_dice(text), _ice(oracle()))


def _enumerate(n: int, sides: int, keep: int) -> dict[int, Fraction]:
    counts = Counter(sum(sorted(r, reverse=True)[:keep]) for r in itertools.product(range(1, sides + 1), repeat=n))
    total = sides**n
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize(("n", "sides", "keep"), [(4, 6, 3), (3, 8, 2), (2, 20, 1), (5, 4, 2)])
def test_keep_highest_against_enumeration(n, sides, keep):
    oracle = _enumerate(n, sides, keep)
    _close(parse_dice(f"{n}d{sides}kh{keep} + 0"), {k: float(v) for k, v in oracle.items()})


def test_examples_read():
    for text in EXAMPLES:
        assert parse_dice(text).pmf.sum() == pytest.approx(1.0, abs=1e-12)


def test_spaces_and_case_do_not_matter():
    assert parse_dice(" 2D20KH1 +5 ").isclose(parse_dice("2d20kh1+5"))


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "type a dice expression"),
        ("3d6+", 4, "expression ends"),
        ("3d6 + x", 6, "cannot read 'x'"),
        ("2d20kx1", 5, "cannot read 'x'"),
        ("4d6kh5", 5, "cannot keep 5 of 4 dice"),
        ("4d6dl5", 5, "cannot drop 5 of 4 dice"),
        ("(d6 + 2", 7, "')'"),
        ("3 ++ 2", 3, "not '+'"),
        ("d0", 1, "at least one side"),
        ("0d6", 0, "at least one die"),
        ("2d6 >= 3 >= 1", 9, "only one comparison"),
        ("1001d6", 0, "at most 1000 dice"),
        ("3d6 4", 4, "expected an operator"),
        ("d6 / d4", 3, "positive whole number"),
        ("d6 / 0", 3, "positive whole number"),
        ("max(d6 d6)", 7, "','"),
        ("d", 1, "number of sides"),
        ("12345678", 0, "larger than"),
        ("1000 @ 1000d1000", 5, "at most"),
    ],
)
def test_errors_point_at_the_wrong_character(text, position, words):
    with pytest.raises(DiceSyntaxError) as info:
        parse_dice(text)
    err = info.value
    assert isinstance(err, RulesError) and err.field == "expression"
    assert err.position == position, str(err)
    assert words in str(err)
    assert str(err).startswith(f"expression: at {position + 1}: ")
    assert "\n" not in str(err)


def test_error_survives_pickling():
    with pytest.raises(DiceSyntaxError) as info:
        parse_dice("3d6+")
    again = pickle.loads(pickle.dumps(info.value))
    assert again.position == 4 and str(again) == str(info.value)


def test_refuses_non_text_and_very_long_text():
    with pytest.raises(RulesError, match="must be text"):
        parse_dice(36)  # type: ignore[arg-type]
    with pytest.raises(DiceSyntaxError, match="at most 200 characters"):
        parse_dice("1+" * 150 + "1")
