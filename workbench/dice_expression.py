"""Dice expressions typed by a person ("3d6+2", "2d20kh1+5", "4d6kh3", "2 @ d8", "d20+7 >= 16"),
read into an exact :class:`~workbench.dist.Dist`.

The grammar (spaces are ignored; docs/panels.md, "Dice box", shows examples)::

    expression := sum [("==" | "!=" | ">=" | "<=" | ">" | "<") sum]   a comparison is 1 when true, else 0
    sum        := product (("+" | "-") product)*
    product    := repeat (("*" | "/") repeat)*      "/" divides by a whole number, rounding down
    repeat     := NUMBER "@" repeat | unary         "n @ X": the sum of n independent copies of X
    unary      := "-" unary | atom
    atom       := dice | NUMBER | "(" expression ")" | ("max" | "min") "(" expression "," expression ")"
    dice       := [NUMBER] "d" (NUMBER | "%") [keep]
    keep       := ("kh" | "kl" | "k" | "dh" | "dl") [NUMBER]   keep highest / lowest, drop highest / lowest

``n @ X`` is the workbench's own ``n @ dist`` (a sum of copies), not AnyDice's "n-th highest".
Every value is exact (the Dist operations of :mod:`workbench.dist`). A bad expression raises a
:class:`~workbench.errors.RulesError` whose ``position`` is the 0-based index of the character
that is wrong and whose message says so in one line ("at 4: ...").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .dist import Dist
from .errors import RulesError
from .limits import LIMITS

__all__ = ["parse_dice", "DiceSyntaxError", "MAX_EXPRESSION", "EXAMPLES"]

#: the longest expression read (characters)
MAX_EXPRESSION = 200
#: the most dice a single term rolls ("1000d6")
MAX_DICE = 1000
#: the largest number written in an expression
MAX_NUMBER = 1_000_000
#: a few expressions to try (the dice box's placeholder and docs)
EXAMPLES = ("3d6+2", "2d20kh1+5", "4d6kh3", "2 @ d8", "d20+7 >= 16")

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<op>>=|<=|==|!=|kh|kl|dh|dl|max|min|[-+*/@()<>,%dk]))",
    re.IGNORECASE,
)
_COMPARE: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    ">=": np.greater_equal,
    "<=": np.less_equal,
    ">": np.greater,
    "<": np.less,
    "==": np.equal,
    "!=": np.not_equal,
}


class DiceSyntaxError(RulesError):
    """A RulesError of a dice expression, with ``position``: the 0-based index of the wrong character."""

    def __init__(self, message: str, position: int, *, rule: str | None = None):
        self.position = position
        super().__init__(f"at {position + 1}: {message}", field="expression", rule=rule)

    def __reduce__(self):
        return (_rebuild, (self.message, self.position, self.rule))


def _rebuild(message: str, position: int, rule: str | None) -> DiceSyntaxError:
    err = DiceSyntaxError("", position, rule=rule)
    err.message = message
    err.args = (str(err),)
    return err


@dataclass(frozen=True)
class _Token:
    kind: str  # "num", "op" or "end"
    text: str
    pos: int


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = _TOKEN.match(text, i)
        if m is None:
            raise DiceSyntaxError(f"cannot read {text[i]!r} (dice such as 3d6+2, 4d6kh3, d20+7 >= 16)", i)
        kind = "num" if m.group("num") is not None else "op"
        start = m.start(kind)
        out.append(_Token(kind, m.group(kind).lower(), start))
        i = m.end()
    out.append(_Token("end", "", len(text)))
    return out


Value = int | Dist


def _dist(v: Value) -> Dist:
    return Dist.constant(v) if isinstance(v, int) else v


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    # -- tokens
    @property
    def tok(self) -> _Token:
        return self.toks[self.i]

    def take(self, *texts: str) -> _Token | None:
        t = self.tok
        if t.kind == "op" and t.text in texts:
            self.i += 1
            return t
        return None

    def expect(self, text: str, what: str) -> _Token:
        t = self.take(text)
        if t is None:
            raise DiceSyntaxError(f"expected {what}, {self.found()}", self.tok.pos)
        return t

    def found(self) -> str:
        t = self.tok
        return "but the expression ends" if t.kind == "end" else f"not {t.text!r}"

    def number(self, what: str) -> int:
        t = self.tok
        if t.kind != "num":
            raise DiceSyntaxError(f"expected {what}, {self.found()}", t.pos)
        self.i += 1
        value = int(t.text) if len(t.text) <= 7 else MAX_NUMBER + 1
        if value > MAX_NUMBER:
            raise DiceSyntaxError(f"{t.text} is larger than {MAX_NUMBER:,}", t.pos, rule=LIMITS)
        return value

    @staticmethod
    def guard(pos: int, action: Callable[[], Value]) -> Value:
        """Run a Dist operation; its RulesError (a bound passed) is reported at ``pos``."""
        try:
            return action()
        except DiceSyntaxError:
            raise
        except RulesError as err:
            raise DiceSyntaxError(err.message, pos, rule=err.rule) from None

    # -- grammar
    def parse(self) -> Dist:
        if self.tok.kind == "end":
            raise DiceSyntaxError("type a dice expression such as 3d6+2", 0)
        value = self.expression()
        if self.tok.kind != "end":
            raise DiceSyntaxError(
                f"expected an operator (+ - * / @ >= ...) or the end, not {self.tok.text!r}", self.tok.pos
            )
        return _dist(value)

    def expression(self) -> Value:
        left = self.sum()
        t = self.take(*_COMPARE)
        if t is None:
            return left
        right = self.sum()
        if self.tok.kind == "op" and self.tok.text in _COMPARE:
            raise DiceSyntaxError("only one comparison per expression; add parentheses", self.tok.pos)
        func = _COMPARE[t.text]
        return self.guard(t.pos, lambda: _dist(left).combine(_dist(right), lambda a, b: func(a, b).astype(np.int64)))

    def sum(self) -> Value:
        value = self.product()
        while (t := self.take("+", "-")) is not None:
            right = self.product()
            value = self.guard(t.pos, functools.partial(_add, value, right, t.text))
        return value

    def product(self) -> Value:
        value = self.repeat()
        while (t := self.take("*", "/")) is not None:
            right = self.repeat()
            if t.text == "*":
                value = self.guard(t.pos, functools.partial(_mul, value, right))
            else:
                if not isinstance(right, int) or right <= 0:
                    raise DiceSyntaxError("'/' divides by a positive whole number (e.g. 3d6/2)", t.pos)
                value = self.guard(t.pos, functools.partial(_div, value, right))
        return value

    def repeat(self) -> Value:
        t = self.tok
        if t.kind == "num" and self.toks[self.i + 1].text == "@":
            n = self.number("a number of copies")
            at = self.expect("@", "'@'")
            if n > MAX_DICE:
                raise DiceSyntaxError(f"at most {MAX_DICE} copies, not {n}", t.pos, rule=LIMITS)
            inner = self.repeat()
            return self.guard(at.pos, lambda: n @ _dist(inner) if isinstance(inner, Dist) else n * inner)
        return self.unary()

    def unary(self) -> Value:
        t = self.take("-")
        if t is not None:
            inner = self.unary()
            return self.guard(t.pos, lambda: -inner)
        return self.atom()

    def atom(self) -> Value:
        t = self.tok
        if t.kind == "num":
            n = self.number("a number")
            if self.tok.kind == "op" and self.tok.text == "d":
                return self.dice(n, t.pos)
            return n
        if self.take("d"):
            return self.dice(1, t.pos)
        if self.take("("):
            inner = self.expression()
            self.expect(")", "')' to close the '(' at " + str(t.pos + 1))
            return inner
        f = self.take("max", "min")
        if f is not None:
            self.expect("(", f"'(' after {f.text}")
            a = self.expression()
            self.expect(",", f"',' between the two values of {f.text}(...)")
            b = self.expression()
            self.expect(")", f"')' to close {f.text}(")
            if f.text == "max":
                return self.guard(f.pos, lambda: _dist(a).max_with(_dist(b)))
            return self.guard(f.pos, lambda: _dist(a).min_with(_dist(b)))
        if t.kind == "end":
            raise DiceSyntaxError("expected a number, dice or '(', but the expression ends", t.pos)
        raise DiceSyntaxError(f"expected a number, dice or '(', not {t.text!r}", t.pos)

    def dice(self, n: int, pos: int) -> Value:
        """``n`` d ``sides`` [keep]: the 'd' is the current token."""
        if self.tok.text == "d":
            self.i += 1
        if n == 0:
            raise DiceSyntaxError("roll at least one die", pos)
        if n > MAX_DICE:
            raise DiceSyntaxError(f"at most {MAX_DICE} dice, not {n}", pos, rule=LIMITS)
        if self.take("%"):
            sides = 100
        else:
            side_tok = self.tok
            sides = self.number("the number of sides after 'd' (d6, d20, d%)")
            if sides == 0:
                raise DiceSyntaxError("a die needs at least one side", side_tok.pos)
        k = self.take("kh", "kl", "k", "dh", "dl")
        if k is None:
            return self.guard(pos, lambda: Dist.dice(n, sides))
        count_tok = self.tok
        count = self.number("how many dice") if count_tok.kind == "num" else 1
        keep = count if k.text in ("kh", "kl", "k") else n - count
        if not 0 <= keep <= n or (k.text in ("dh", "dl") and count > n):
            verb = "keep" if k.text in ("kh", "kl", "k") else "drop"
            where = count_tok.pos if count_tok.kind == "num" else k.pos
            raise DiceSyntaxError(f"cannot {verb} {count} of {n} dice", where)
        highest = k.text in ("kh", "k", "dl")
        if keep == 0:
            return 0
        return self.guard(k.pos, lambda: Dist.highest(sides, n, keep) if highest else Dist.lowest(sides, n, keep))


def _add(a: Value, b: Value, op: str) -> Value:
    if isinstance(a, int) and isinstance(b, int):
        return a + b if op == "+" else a - b
    if isinstance(a, int):
        a, b = b, a  # int + Dist: Dist + int (for "-": -(Dist - int))
        return a + b if op == "+" else -(a - b)
    return a + b if op == "+" else a - b


def _mul(a: Value, b: Value) -> Value:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(b, int):
        return a * b
    if isinstance(a, int):
        return b * a
    return a.combine(b, np.multiply)


def _div(a: Value, k: int) -> Value:
    if isinstance(a, int):
        return a // k
    return a.map(lambda x: x // k)


def parse_dice(text: str) -> Dist:
    """Return the exact distribution of the dice expression ``text`` (see the module's grammar).

    >>> parse_dice("2d20kh1+5").max()
    25

    RulesError (a :class:`DiceSyntaxError` with ``position``, field ``expression``) for anything
    that is not such an expression or passes a bound of docs/limits.md."""
    if not isinstance(text, str):
        raise RulesError(f"must be text such as '3d6+2', not {type(text).__name__}", field="expression")
    if len(text) > MAX_EXPRESSION:
        raise DiceSyntaxError(f"at most {MAX_EXPRESSION} characters, not {len(text)}", MAX_EXPRESSION, rule=LIMITS)
    return _Parser(text).parse()
