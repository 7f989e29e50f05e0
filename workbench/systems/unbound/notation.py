"""Dice and critical-profile notation of Unbound weapons ("2d6+3", "19-20x2").

Rules: unbound-d20-attacking.txt (weapon profiles such as "Kite - 2d8 (B) 20x2") and
CLARIFICATIONS.md, Unbound: '"20x2" is threat range and multiplier ("19-20x2", "20x3")'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...dist import Dist
from ...errors import RulesError, show
from ...limits import LIMITS

__all__ = ["DamageSpec", "CritSpec", "parse_damage", "parse_crit", "damage_dist", "MAX_DICE", "MAX_SIDES"]

RULE_DAMAGE = "unbound-d20-attacking.txt: weapon profiles (e.g. 'Kite - 2d8 (B) 20x2')"
RULE_CRIT = "CLARIFICATIONS.md, Unbound: '20x2' is threat range and multiplier"
MAX_DICE = 100
MAX_SIDES = 1000
#: bounds of a whole notation (docs/limits.md; the largest published weapon is '2d6+3', the longest
#: '1d4+1d6'): characters, terms, the static bonus and the span of one roll (max - min of the dice)
MAX_NOTATION = 100
MAX_TERMS = 10
MAX_STATIC = 1000
MAX_SPAN = 10_000
_DIGITS = 7  # no number of a notation within these bounds has more digits
_TERM = re.compile(r"([+-]?)(\d*)[dD](\d+)|([+-]?)(\d+)")
_CRIT = re.compile(r"(\d+)(?:\s*[-–]\s*(\d+))?\s*[xX×]\s*(\d+)")


@dataclass(frozen=True)
class DamageSpec:
    """Parsed damage: ``dice`` as (count, sides, sign) terms plus a ``static`` bonus."""

    dice: tuple[tuple[int, int, int], ...]
    static: int

    def text(self) -> str:
        """Return the canonical notation ("1d4+1d6+2")."""
        parts = [f"{'-' if s < 0 else '+'}{n}d{k}" for n, k, s in self.dice]
        if self.static:
            parts.append(f"{self.static:+d}")
        out = "".join(parts).lstrip("+")
        return out or "0"


@dataclass(frozen=True)
class CritSpec:
    """Parsed critical profile: natural rolls ``threat_low``..20 threaten; ``multiplier`` on a crit."""

    threat_low: int
    multiplier: int

    def text(self) -> str:
        """Return the canonical notation ("19-20x2")."""
        lo = "20" if self.threat_low == 20 else f"{self.threat_low}-20"
        return f"{lo}x{self.multiplier}"


def parse_damage(text: object, field: str = "damage") -> DamageSpec:
    """Return the DamageSpec of a notation such as "1d8", "2d6+3", "1d4+1d6", "2d6-1".

    Raises RulesError naming ``field`` for anything else (empty, unknown symbols, 0 dice or sides,
    more than MAX_DICE dice of one kind or dice over MAX_SIDES sides, no dice at all).
    """
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"must be dice notation such as '2d6+3', not {show(text)}", field=field, rule=RULE_DAMAGE)
    if len(text) > MAX_NOTATION:
        raise RulesError(
            f"must be at most {MAX_NOTATION} characters of dice notation, not {len(text)}",
            field=field,
            rule=f"{RULE_DAMAGE}; {LIMITS}",
        )
    if re.search(rf"\d{{{_DIGITS + 1}}}", text):
        raise RulesError(
            f"{show(text)} holds a number of more than {_DIGITS} digits; no weapon needs it",
            field=field,
            rule=f"{RULE_DAMAGE}; {LIMITS}",
        )
    s = re.sub(r"\s*([+-])\s*", r"\1", text.strip())
    pos, dice, static = 0, [], 0
    for m in _TERM.finditer(s):
        if m.start() != pos or (pos > 0 and not (m.group(1) or m.group(4))):
            break
        if m.group(3) is not None:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise RulesError(f"{m.group(0)!r} needs 1 to {MAX_DICE} dice", field=field, rule=RULE_DAMAGE)
            if not 2 <= sides <= MAX_SIDES:
                raise RulesError(f"{m.group(0)!r} needs dice of 2 to {MAX_SIDES} sides", field=field, rule=RULE_DAMAGE)
            dice.append((count, sides, -1 if m.group(1) == "-" else 1))
        else:
            static += int(m.group(5)) * (-1 if m.group(4) == "-" else 1)
        pos = m.end()
        if len(dice) > MAX_TERMS:
            raise RulesError(
                f"{text!r} has more than {MAX_TERMS} kinds of dice", field=field, rule=f"{RULE_DAMAGE}; {LIMITS}"
            )
    if pos != len(s):
        raise RulesError(
            f"cannot read {text!r} as dice notation (e.g. '1d8', '2d6+3', '1d4+1d6', '2d6-1')",
            field=field,
            rule=RULE_DAMAGE,
        )
    if not dice:
        raise RulesError(f"{text!r} has no dice; write e.g. '1d4+2'", field=field, rule=RULE_DAMAGE)
    if abs(static) > MAX_STATIC:
        raise RulesError(
            f"the static bonus of {text!r} must be within -{MAX_STATIC}..{MAX_STATIC}",
            field=field,
            rule=f"{RULE_DAMAGE}; {LIMITS}",
        )
    span = sum(n * (k - 1) for n, k, _ in dice)
    if span > MAX_SPAN:
        raise RulesError(
            f"the dice of {text!r} span {span} values; at most {MAX_SPAN}", field=field, rule=f"{RULE_DAMAGE}; {LIMITS}"
        )
    return DamageSpec(tuple(dice), static)


def parse_crit(text: object, field: str = "crit") -> CritSpec:
    """Return the CritSpec of "20x2", "19-20x2", "18-20x3": threat range (ending at 20) and multiplier >= 2."""
    if not isinstance(text, str):
        raise RulesError(f"must be a critical profile such as '19-20x2', not {show(text)}", field=field, rule=RULE_CRIT)
    if len(text) > 20 or re.search(r"\d{4}", text):
        raise RulesError(
            f"cannot read {show(text)} as a critical profile (e.g. '20x2', '19-20x2', '18-20x3')",
            field=field,
            rule=RULE_CRIT,
        )
    m = _CRIT.fullmatch(text.strip())
    if not m:
        raise RulesError(
            f"cannot read {text!r} as a critical profile (e.g. '20x2', '19-20x2', '18-20x3')",
            field=field,
            rule=RULE_CRIT,
        )
    lo, hi, mult = int(m.group(1)), int(m.group(2) or m.group(1)), int(m.group(3))
    if hi != 20:
        raise RulesError(f"the threat range of {text!r} must end at 20", field=field, rule=RULE_CRIT)
    if not 2 <= lo <= 20:
        raise RulesError(
            f"the threat range of {text!r} must start within 2..20 (a natural 1 always misses)",
            field=field,
            rule=RULE_CRIT,
        )
    if not 2 <= mult <= 10:
        raise RulesError(f"the multiplier of {text!r} must be within 2..10", field=field, rule=RULE_CRIT)
    return CritSpec(lo, mult)


@lru_cache(maxsize=4096)
def damage_dist(spec: DamageSpec, bonus: int = 0, times: int = 1, minimum: int = 0) -> Dist:
    """Return the damage of rolling ``spec`` + ``bonus`` ``times`` times and adding, at least ``minimum``.

    CLARIFICATIONS.md, Unbound: "a confirmed critical rolls the weapon's damage (dice and static
    bonus) multiplier times and adds them"; the minimum applies to the total (Options.minimum_damage).
    """
    one = Dist.constant(spec.static + bonus)
    for count, sides, sign in spec.dice:
        d = Dist.dice(count, sides)
        one = one + (d if sign > 0 else -d)
    total = one.sum_of(times)
    return total.clip(minimum, None) if total.min() < minimum else total
