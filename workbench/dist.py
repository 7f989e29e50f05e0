"""Exact integer-valued probability distributions on numpy float64.

A :class:`Dist` is a probability mass function over a contiguous range of integers,
``pmf[i] = P(X = offset + i)``. Everything the rule systems compute reduces to these:
dice, pools of successes, keep-highest, mixtures, sums. Arithmetic is exact up to
float64 rounding (checked against icepool and dyce to 1e-12 in tests/dist/test_against_oracles.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import islice
from math import comb
from typing import Any, cast

import numpy as np

try:  # what np.convolve calls (numpy >= 2; numpy 1.26, which pyproject.toml allows, names it numpy.core)
    from numpy._core.multiarray import correlate as _correlate
except ImportError:  # pragma: no cover - numpy < 2
    from numpy.core.multiarray import correlate as _correlate  # type: ignore[no-redef]

from .errors import RulesError, show
from .limits import LIMITS, MAX_KEEP_DICE, MAX_MIXTURE, MAX_OUTCOME, MAX_POOL_DICE, MAX_SUPPORT

__all__ = ["Dist", "ROUNDING_MODES"]

ROUNDING_MODES = ("floor", "nearest_half_up", "ceil")

# Above this many multiply-adds a direct convolution loses to FFT on the 2-core development
# machine (a hand measurement: no benchmark script records it); below it np.convolve is exact
# and faster. tests/dist/test_against_oracles.py::test_long_support_uses_fft_and_stays_exact checks that the FFT
# path agrees with icepool to 1e-12.
_FFT_MIN_WORK = 200_000
_FFT_MIN_SIDE = 64
#: faces x dice^2 of a keep-2-or-more walk (about 1 s at the bound on these machines)
_MAX_KEEP_WORK = 250_000


def _whole(field: str, value: Any, minimum: int = -MAX_OUTCOME, maximum: int = MAX_OUTCOME) -> int:
    """Return ``value`` as an int within ``minimum..maximum`` (a whole float such as 2.0 is accepted;
    1.5, bools, NaN and non-numbers are refused), or raise RulesError naming ``field``."""
    if type(value) is int and minimum <= value <= maximum:  # the common case, at once (bool is not int here)
        return value
    if isinstance(value, (bool, np.bool_)):
        raise RulesError(f"must be a whole number, not {value!r}", field=field)
    if (
        isinstance(value, (float, np.floating))
        and np.isfinite(value)
        and float(value).is_integer()
        and value.__abs__() <= MAX_OUTCOME
    ):  # abs(value); mypy types abs() of a union as object
        value = int(value)
    if not isinstance(value, (int, np.integer)):
        raise RulesError(f"must be a whole number, not {show(value)}", field=field)
    value = int(value)
    if not minimum <= value <= maximum:
        rule = LIMITS if (value > MAX_OUTCOME or value < -MAX_OUTCOME or maximum < MAX_OUTCOME) else None
        raise RulesError(f"must be within {minimum}..{maximum}, not {show(value)}", field=field, rule=rule)
    return value


def _probability(field: str, p: Any) -> float | Fraction:
    """Return ``p`` (a float or a Fraction) if it is a probability within 0..1, else raise RulesError."""
    if isinstance(p, Fraction):
        ok = 0 <= p <= 1
    elif isinstance(p, (int, float, np.integer, np.floating)) and not isinstance(p, (bool, np.bool_)):
        p = float(p) if p.__abs__() <= 2 else 2.0  # abs(p), typed per member (see _whole)
        ok = 0.0 <= p <= 1.0  # False for NaN
    else:
        raise RulesError(f"a probability must be a number, not {show(p)}", field=field)
    if not ok:
        raise RulesError(f"probability must be within 0..1, not {show(p)}", field=field)
    return p


def _width(field: str, n: int) -> None:
    """Raise RulesError when a distribution would span more than MAX_SUPPORT outcomes."""
    if n > MAX_SUPPORT:
        raise RulesError(f"would span {show(n)} outcomes; a Dist spans at most {MAX_SUPPORT}", field=field, rule=LIMITS)


def _operand(field: str, other: Any) -> Dist:
    """Return ``other`` when it is a Dist, else raise RulesError naming ``field`` (an operation of two
    distributions takes two; ``d + 3`` shifts, but ``d.max_with(3)`` is ``d.max_with(Dist.constant(3))``)."""
    if not isinstance(other, Dist):
        raise RulesError(f"must be a Dist (e.g. Dist.constant(3) for a fixed value), not {show(other)}", field=field)
    return other


def _points(field: str, x: Any) -> np.ndarray:
    """Return ``x`` (a number or an array of numbers) as float64, or raise RulesError naming
    ``field`` for NaN, a bool or anything that is not a number (an outcome is a number; NaN is none)."""
    if isinstance(x, (bool, np.bool_, str, bytes)):
        raise RulesError(f"must be a number or an array of numbers, not {show(x)}", field=field)
    try:
        a = np.asarray(x)
        if a.dtype == bool or not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
            raise TypeError
        a = a.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise RulesError(f"must be a number or an array of numbers, not {show(x)}", field=field) from None
    if np.isnan(a).any():
        raise RulesError("must be a number, not NaN", field=field)
    return a


def _user_function(func: Any, *args: np.ndarray) -> np.ndarray:
    """Return ``np.asarray(func(*args))``; a non-callable ``func`` or an exception inside it is a
    RulesError naming ``func`` (the caller's own function failed: bad input, said so)."""
    if not callable(func):
        raise RulesError(f"must be a function of numpy arrays, not {show(func)}", field="func")
    try:
        return np.asarray(func(*args))
    except RulesError:
        raise
    except Exception as exc:  # noqa: BLE001 - the caller's function: its error is bad input
        raise RulesError(f"the function raised {type(exc).__name__}: {show(str(exc), 120)}", field="func") from None


def _trim(p: np.ndarray) -> tuple[np.ndarray, int]:
    """Return (``p`` without its zero tails, the number of leading zeros cut); RulesError when all 0."""
    if p[0] != 0.0 and p[-1] != 0.0:
        return p, 0
    nz = np.flatnonzero(p)
    if nz.size == 0:
        raise RulesError("a distribution needs at least one outcome with probability > 0", field="pmf")
    lo, hi = int(nz[0]), int(nz[-1])
    return p[lo : hi + 1], lo


def convolve_full(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return ``np.convolve(a, b)`` of two non-empty 1-D float64 arrays, by np.convolve's own steps
    (the longer first, correlated with the other reversed) without its argument conversion: most
    pmfs here are small, and the call overhead dominates."""
    if b.size > a.size:
        a, b = b, a
    return _correlate(a, b[::-1], "full")


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the full convolution of two pmfs, by FFT when both are long."""
    if min(a.size, b.size) < _FFT_MIN_SIDE or a.size * b.size < _FFT_MIN_WORK:
        return convolve_full(a, b)
    n = a.size + b.size - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    # FFT round-off leaves ~1e-17 noise (of either sign) where the exact value is 0;
    # zero it so that supports stay tight and probabilities stay non-negative.
    out[out < 4 * np.finfo(float).eps * out.max()] = 0.0
    return out / out.sum()  # both inputs sum to 1: keep the total at 1 through repeated squaring


class Dist:
    """An exact distribution over integers: ``pmf`` (float64) starting at ``offset``.

    Build one with the constructors (:meth:`constant`, :meth:`die`, :meth:`dice`,
    :meth:`pool`, :meth:`highest`, :meth:`mixture`, ...). ``a + b`` is the distribution of
    the sum of independent values, ``n @ d`` the sum of ``n`` independent copies.
    """

    __slots__ = ("pmf", "offset")
    __hash__ = None  # type: ignore[assignment]  # equality is approximate (within 1e-12), so Dists are not hashable
    TOLERANCE = 1e-12

    def __init__(self, pmf: Sequence[float] | np.ndarray, offset: int = 0, *, _trusted: bool = False):
        if not _trusted:
            try:
                p = np.asarray(pmf, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):
                raise RulesError(f"pmf must be a sequence of probabilities, not {show(pmf)}", field="pmf") from None
            if p.ndim != 1 or p.size == 0:
                raise RulesError("pmf must be a non-empty 1-D sequence of probabilities", field="pmf")
            if p.size > MAX_SUPPORT:
                raise RulesError(f"pmf may hold at most {MAX_SUPPORT} outcomes, not {p.size}", field="pmf", rule=LIMITS)
            if not np.all(np.isfinite(p)) or np.any(p < 0):
                raise RulesError("probabilities must be finite and non-negative", field="pmf")
            total = p.sum()
            if abs(total - 1.0) > 1e-9:
                raise RulesError(f"probabilities must sum to 1, not {total!r}", field="pmf")
            p = p / total
            offset = _whole("offset", offset)
        else:
            p = cast(np.ndarray, pmf)  # trusted: the constructors pass a float64 array
        lo = 0
        if p[0] == 0.0 or p[-1] == 0.0:  # trim zero tails so that min() and max() are outcomes
            p, lo = _trim(p)
        offset = int(offset) + lo
        if offset < -MAX_OUTCOME or offset + p.size - 1 > MAX_OUTCOME:
            raise RulesError(
                f"outcomes must stay within -{MAX_OUTCOME:.0e}..{MAX_OUTCOME:.0e} (int64 must not wrap)",
                field="offset",
                rule=LIMITS,
            )
        self.pmf = p
        self.offset = offset

    # ----------------------------------------------------------------- constructors
    # Every constructor checks its arguments and raises RulesError (never TypeError, ValueError or
    # OverflowError) for a wrong type, a value outside its range or a size past docs/limits.md.
    @classmethod
    def constant(cls, value: int) -> Dist:
        """Return the distribution that is always ``value`` (a whole number; 1.5 is refused)."""
        return cls(np.array([1.0]), _whole("value", value), _trusted=True)

    @classmethod
    def uniform(cls, low: int, high: int) -> Dist:
        """Return the uniform distribution on ``low..high`` inclusive (at most MAX_SUPPORT outcomes)."""
        low, high = _whole("low", low), _whole("high", high)
        if high < low:
            raise RulesError(f"empty range {low}..{high}", field="high")
        n = high - low + 1
        _width("high", n)
        return cls(np.full(n, 1.0 / n), low, _trusted=True)

    @classmethod
    def die(cls, sides: int) -> Dist:
        """Return one die with faces ``1..sides``."""
        if type(sides) is not int or not 1 <= sides <= MAX_SUPPORT:  # else the checks, one by one
            if isinstance(sides, (bool, np.bool_)) or not isinstance(sides, (int, np.integer)) or sides < 1:
                raise RulesError(f"a die needs a positive whole number of sides, not {show(sides)}", field="sides")
            sides = int(sides)
            _width("sides", sides)
        p = np.empty(sides)
        p.fill(1.0 / sides)  # np.full's own steps
        return cls(p, 1, _trusted=True)

    @classmethod
    def dice(cls, n: int, sides: int) -> Dist:
        """Return the sum of ``n`` dice with ``sides`` faces (``NdS``)."""
        n = _whole("n", n, 0)
        d = cls.die(sides)
        _width("n", n * (d.pmf.size - 1) + 1)
        return d._power(n)

    @classmethod
    def bernoulli(cls, p: float) -> Dist:
        """Return 1 with probability ``p``, else 0."""
        p = float(_probability("p", p))
        return cls(np.array([1.0 - p, p]), 0, _trusted=True)

    @classmethod
    def pool(cls, n: int, sides: int = 6, success_on: int = 4) -> Dist:
        """Return the number of successes among ``n`` dice, a die succeeding on ``success_on``+.

        A binomial distribution, built exactly from the binomial coefficients.
        """
        n = _whole("n", n, 0, MAX_POOL_DICE)
        sides = _whole("sides", sides, 1, MAX_SUPPORT)
        success_on = _whole("success_on", success_on)
        if not 1 <= success_on <= sides + 1:
            raise RulesError(f"success_on must be within 1..{sides + 1}, not {success_on}", field="success_on")
        p = Fraction(sides - success_on + 1, sides)
        return cls.binomial(n, p)

    @classmethod
    def binomial(cls, n: int, p: float | Fraction) -> Dist:
        """Return Binomial(n, p): ``n`` trials (0..MAX_POOL_DICE), ``p`` within 0..1; with a Fraction
        ``p`` each term is exact before rounding."""
        n = _whole("n", n, 0, MAX_POOL_DICE)
        p = _probability("p", p)
        if isinstance(p, Fraction):
            terms = [comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
            return cls(np.array([float(t) for t in terms]), 0, _trusted=True)
        k = np.arange(n + 1)
        # comb(1000, 500) < 1e300: the float coefficients stay finite within MAX_POOL_DICE
        coeffs = np.array([comb(n, i) for i in range(n + 1)], dtype=np.float64)
        pmf = coeffs * p**k * (1.0 - p) ** (n - k)
        return cls(pmf / pmf.sum(), 0, _trusted=True)

    @classmethod
    def highest(cls, die: Dist | int, n: int, keep: int = 1) -> Dist:
        """Return the sum of the ``keep`` highest of ``n`` independent rolls of ``die``."""
        return cls._keep(die, n, keep, highest=True)

    @classmethod
    def lowest(cls, die: Dist | int, n: int, keep: int = 1) -> Dist:
        """Return the sum of the ``keep`` lowest of ``n`` independent rolls of ``die``."""
        return cls._keep(die, n, keep, highest=False)

    @classmethod
    def _keep(cls, die: Dist | int, n: int, keep: int, highest: bool) -> Dist:
        if isinstance(die, Dist):
            d = die
        elif isinstance(die, (int, np.integer)) and not isinstance(die, (bool, np.bool_)):
            d = cls.die(die)
        else:
            raise RulesError(f"must be a Dist or a number of sides, not {show(die)}", field="die")
        n = _whole("n", n, 1, MAX_OUTCOME)
        keep = _whole("keep", keep)
        if not 0 <= keep <= n:
            raise RulesError(f"cannot keep {keep} of {n} dice", field="keep")
        if keep == 0:
            return cls.constant(0)
        if keep == 1:
            # P(max <= x) = F(x)^n: one vectorised expression.
            cdf = np.add.accumulate(d.pmf if highest else d.pmf[::-1])
            cdf[-1] = 1.0
            cdf **= n
            pmf = np.empty_like(cdf)
            pmf[0] = cdf[0]
            np.subtract(cdf[1:], cdf[:-1], out=pmf[1:])
            np.maximum(pmf, 0.0, out=pmf)  # round-off of a difference of near-equal powers
            return cls(pmf if highest else pmf[::-1].copy(), d.offset, _trusted=True)
        if n > MAX_KEEP_DICE or d.pmf.size * n * n > _MAX_KEEP_WORK:
            raise RulesError(
                f"keeping {keep} of {n} dice of {d.pmf.size} faces is past the bound "
                f"(at most {MAX_KEEP_DICE} dice, faces x dice^2 <= {_MAX_KEEP_WORK})",
                field="n",
                rule=LIMITS,
            )
        _width("keep", keep * (d.pmf.size - 1) + 1)
        if abs(d.offset) * keep > MAX_OUTCOME or abs(d.max()) * keep > MAX_OUTCOME:
            raise RulesError("the kept sum leaves the bounded outcome range", field="keep", rule=LIMITS)
        # Walk the faces from the kept end. state[c, s] = weight of "c dice placed so far,
        # kept sum s"; placing j dice on face v multiplies by C(n - c, j) p_v^j, whose
        # product over the walk is the multinomial coefficient.
        faces = d.outcomes
        order = np.argsort(faces)[::-1] if highest else np.argsort(faces)
        shift = faces - d.offset  # work in non-negative face indices, add the offset back
        width = keep * int(shift.max()) + 1
        state = np.zeros((n + 1, width))
        state[0, 0] = 1.0
        for idx in order:
            pv, v = float(d.pmf[idx]), int(shift[idx])
            if pv == 0.0:
                continue
            new = np.zeros_like(state)
            for c in range(n + 1):
                row = state[c]
                if not row.any():
                    continue
                for j in range(0, n - c + 1):
                    kept = max(0, min(j, keep - c))
                    w = comb(n - c, j) * pv**j
                    s = kept * v
                    new[c + j, s:] += w * row[: width - s] if s else w * row
            state = new
        return cls(state[n], d.offset * keep, _trusted=True)

    @classmethod
    def mixture(cls, dists: Sequence[Dist], weights: Sequence[float] | None = None) -> Dist:
        """Return the mixture: pick ``dists[i]`` with probability ``weights[i]``.

        Weights are normalised; by default all components are equally likely. At most
        MAX_MIXTURE components; weights must be finite and non-negative, not all 0.
        """
        if type(dists) is list or type(dists) is tuple:  # the common case: no generator to bound
            if len(dists) > MAX_MIXTURE:
                dists = dists[: MAX_MIXTURE + 1]
        elif isinstance(dists, Dist) or not isinstance(dists, Iterable):
            raise RulesError(f"must be a list of Dists, not {show(dists)}", field="dists")
        else:
            dists = list(islice(dists, MAX_MIXTURE + 1))
        if not dists:
            raise RulesError("a mixture needs at least one distribution", field="dists")
        if len(dists) > MAX_MIXTURE:
            raise RulesError(f"a mixture may have at most {MAX_MIXTURE} components", field="dists", rule=LIMITS)
        for i, d in enumerate(dists):
            if not isinstance(d, Dist):
                raise RulesError(f"must be a Dist, not {show(d)}", field=f"dists[{i}]")
        if weights is None:
            wl = [1.0] * len(dists)
        elif (type(weights) is list or type(weights) is tuple) and all(type(x) is float for x in weights):
            wl = list(weights)  # plain floats: what the conversion below would give, without numpy
        else:
            try:
                arr = np.asarray(weights, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):
                raise RulesError(f"must be numbers, not {show(weights)}", field="weights") from None
            # a handful of weights is the common case: plain floats are cheaper than numpy here
            wl = arr.tolist() if arr.shape == (len(dists),) else []
        total = math.fsum(wl) if len(wl) == len(dists) else 0.0
        # x >= 0 refuses NaN too; an infinite weight makes the total infinite (or NaN)
        if not (0.0 < total < math.inf) or not all(x >= 0 for x in wl):
            raise RulesError(
                "mixture weights must be finite and non-negative, one per distribution, not all 0", field="weights"
            )
        lo = min([d.offset for d in dists])
        hi = max([d.offset + d.pmf.size for d in dists])
        _width("dists", hi - lo)
        out = np.zeros(hi - lo)
        for d, wi in zip(dists, wl):
            if wi:
                start = d.offset - lo
                out[start : start + d.pmf.size] += d.pmf * (wi / total)
        out /= np.add.reduce(out)  # out.sum()'s own step
        return cls(out, lo, _trusted=True)

    @classmethod
    def from_outcomes(cls, values: Iterable[int] | np.ndarray, probabilities: Iterable[float] | np.ndarray) -> Dist:
        """Return the distribution of integer ``values`` with the given probabilities (summed per value).

        Values must be whole numbers within +-MAX_OUTCOME spanning at most MAX_SUPPORT; probabilities
        finite, non-negative, summing to 1 (within 1e-9).
        """
        try:
            v = np.asarray(values)
            p = np.asarray(probabilities, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise RulesError("values and probabilities must be sequences of numbers", field="values") from None
        if v.shape != p.shape or v.size == 0:
            raise RulesError("values and probabilities must be non-empty and of equal length", field="values")
        v, p = v.ravel(), p.ravel()
        if v.dtype == bool or not (np.issubdtype(v.dtype, np.integer) or np.issubdtype(v.dtype, np.floating)):
            raise RulesError(f"outcomes must be whole numbers, not {v.dtype} values", field="values")
        if not np.issubdtype(v.dtype, np.integer):
            if not np.all(np.isfinite(v)) or not np.all(np.equal(np.mod(v, 1), 0)):
                raise RulesError("outcomes must be whole numbers", field="values")
        if v.min() < -MAX_OUTCOME or v.max() > MAX_OUTCOME:
            raise RulesError(
                f"outcomes must be within -{MAX_OUTCOME:.0e}..{MAX_OUTCOME:.0e}", field="values", rule=LIMITS
            )
        v = v.astype(np.int64)
        if not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
            raise RulesError("probabilities must be finite, non-negative and sum to 1", field="probabilities")
        lo = int(v.min())
        _width("values", int(v.max()) - lo + 1)
        pmf = np.bincount(v - lo, weights=p)
        return cls(pmf / pmf.sum(), lo, _trusted=True)

    @classmethod
    def from_mapping(cls, mapping: dict[int, float]) -> Dist:
        """Return the distribution given as ``{outcome: probability}``."""
        if not isinstance(mapping, Mapping):
            raise RulesError(f"must be a table {{outcome: probability}}, not {show(mapping)}", field="mapping")
        return cls.from_outcomes(list(mapping.keys()), list(mapping.values()))

    # ----------------------------------------------------------------- transformations
    def map(self, func: Callable[[np.ndarray], np.ndarray]) -> Dist:
        """Return the distribution of ``func(X)``; ``func`` takes and returns integer arrays (an
        exception inside it, or a function that is none, is a RulesError naming ``func``)."""
        values = _user_function(func, self.outcomes)
        if values.shape != self.pmf.shape:
            raise RulesError("the mapped function must return one value per outcome", field="func")
        return Dist.from_outcomes(values, self.pmf)

    def clip(self, low: int | None = 0, high: int | None = None) -> Dist:
        """Return ``min(max(X, low), high)``; by default negative outcomes become 0."""
        low = None if low is None else _whole("low", low)
        high = None if high is None else _whole("high", high)
        if low is not None and high is not None and high < low:
            raise RulesError(f"clip bounds {low}..{high} are empty", field="high")
        return self.map(lambda x: np.clip(x, low, high))

    def scale(self, factor: float | Fraction, rounding: str = "floor") -> Dist:
        """Return ``round(X * factor)`` with the named rounding mode.

        ``floor`` (halving rounded down), ``nearest_half_up`` (x.5 rounds up) or ``ceil``.
        The factor is taken as an exact fraction, so 0.5 and 1/4 scale without float error.
        """
        if rounding not in ROUNDING_MODES:
            raise RulesError(f"unknown rounding mode {rounding!r}; use one of {ROUNDING_MODES}", field="rounding")
        if (
            isinstance(factor, (bool, np.bool_))
            or not isinstance(factor, (int, float, Fraction, np.integer, np.floating))
            or not np.isfinite(float(factor))
            or factor.__abs__() > 10**6
        ):  # abs(factor), see _whole
            raise RulesError(f"the factor must be a finite number within -1e6..1e6, not {show(factor)}", field="factor")
        f = Fraction(factor).limit_denominator(10**9)
        num, den = f.numerator, f.denominator
        if max(abs(self.offset), abs(self.max())) * (abs(num) + 1) * 2 > 2**62:
            raise RulesError("scaling would leave the bounded outcome range", field="factor", rule=LIMITS)
        x = self.outcomes * num
        if rounding == "floor":
            y = np.floor_divide(x, den)
        elif rounding == "ceil":
            y = -np.floor_divide(-x, den)
        else:
            y = np.floor_divide(2 * x + den, 2 * den)
        return Dist.from_outcomes(y, self.pmf)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):
            return Dist(self.pmf, self.offset + int(other), _trusted=True)
        if not isinstance(other, Dist):
            return NotImplemented
        _width("other", self.pmf.size + other.pmf.size - 1)  # counted before the convolution allocates
        return Dist(_convolve(self.pmf, other.pmf), self.offset + other.offset, _trusted=True)

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist(self.pmf[::-1].copy(), -(self.offset + self.pmf.size - 1), _trusted=True)

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):
            return self + (-int(other))
        if not isinstance(other, Dist):
            return NotImplemented
        return self + (-other)

    def __rsub__(self, other: int) -> Dist:
        return (-self) + other

    def __mul__(self, k: int) -> Dist:
        """Return ``X * k`` (each outcome multiplied), as icepool's ``die * k``."""
        if not isinstance(k, (int, np.integer)) or isinstance(k, (bool, np.bool_)):
            return NotImplemented
        if max(abs(self.offset), abs(self.max())) * abs(int(k)) > MAX_OUTCOME:
            raise RulesError(f"multiplying by {show(k)} leaves the bounded outcome range", field="k", rule=LIMITS)
        return self.map(lambda x: x * int(k))

    __rmul__ = __mul__

    def __rmatmul__(self, n: int) -> Dist:
        """Return ``n @ d``: the sum of ``n`` independent copies, by repeated squaring."""
        if not isinstance(n, (int, np.integer)) or isinstance(n, (bool, np.bool_)):
            return NotImplemented
        return self.sum_of(int(n))

    def sum_of(self, n: int) -> Dist:
        """Return the sum of ``n`` independent copies (repeated squaring: O(log n) convolutions)."""
        n = _whole("n", n)
        if n < 0:
            raise RulesError(f"cannot sum a negative number ({n}) of copies", field="n")
        _width("n", n * (self.pmf.size - 1) + 1)
        if max(abs(self.offset), abs(self.max())) * n > MAX_OUTCOME:
            raise RulesError(f"the sum of {n} copies leaves the bounded outcome range", field="n", rule=LIMITS)
        return self._power(n)

    def _power(self, n: int) -> Dist:
        """Return the sum of ``n >= 0`` copies, ``n`` already checked (repeated squaring)."""
        if n == 0:
            return Dist.constant(0)
        # on the pmfs, one Dist at the end; the zero tails trimmed as each sum's Dist would
        offset, result, base, lo_r, lo_b = self.offset * n, None, self.pmf, 0, 0
        while n:
            if n & 1:
                if result is None:
                    result, lo_r = base, lo_b
                else:
                    result, cut = _trim(_convolve(result, base))
                    lo_r += lo_b + cut
            n >>= 1
            if n:
                base, cut = _trim(_convolve(base, base))
                lo_b = 2 * lo_b + cut
        assert result is not None  # n >= 1 here
        return Dist(result, offset + lo_r, _trusted=True)

    def max_with(self, other: Dist) -> Dist:
        """Return ``max(X, Y)`` for independent X (self) and Y (a Dist; anything else is a
        RulesError naming ``other``). Its support is max(min X, min Y)..max(max X, max Y), no wider
        than the wider operand's."""
        return self._extreme(_operand("other", other), highest=True)

    def min_with(self, other: Dist) -> Dist:
        """Return ``min(X, Y)`` for independent X (self) and Y (a Dist; anything else is a
        RulesError naming ``other``). Its support is min(min X, min Y)..min(max X, max Y)."""
        return self._extreme(_operand("other", other), highest=False)

    def _extreme(self, other: Dist, highest: bool) -> Dist:
        # only the result's own support: max(X, Y) is never below the larger minimum, min(X, Y)
        # never above the smaller maximum (Dist.constant(-10**12).max_with(Dist.constant(0)) is 0)
        if highest:
            lo, hi = max(self.offset, other.offset), max(self.max(), other.max())
        else:
            lo, hi = min(self.offset, other.offset), min(self.max(), other.max())
        _width("other", hi - lo + 1)
        xs = np.arange(lo, hi + 1)
        if highest:
            c = self.cdf(xs) * other.cdf(xs)
            return Dist(np.diff(c, prepend=0.0), lo, _trusted=True)
        s = self.sf(xs) * other.sf(xs)
        return Dist(s - np.append(s[1:], 0.0), lo, _trusted=True)

    def combine(self, other: Dist, func: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Dist:
        """Return the distribution of ``func(X, Y)`` over all pairs (numpy broadcasting).

        ``other`` must be a Dist and ``func`` a function of numpy arrays (else RulesError naming
        them); the pairs, len(X) x len(Y), are counted before anything is allocated and may number
        at most MAX_SUPPORT (docs/limits.md), e.g. two dice of 3,162 faces."""
        other = _operand("other", other)
        if not callable(func):
            raise RulesError(f"must be a function of numpy arrays, not {show(func)}", field="func")
        pairs = self.pmf.size * other.pmf.size
        if pairs > MAX_SUPPORT:
            raise RulesError(
                f"would combine {show(pairs)} pairs of outcomes; combine takes at most {MAX_SUPPORT}",
                field="other",
                rule=LIMITS,
            )
        x = self.outcomes[:, None]
        y = other.outcomes[None, :]
        got = _user_function(func, x, y)
        try:
            values = np.broadcast_to(got, (x.size, y.size))
        except ValueError:
            raise RulesError("the function must return one value per pair of outcomes", field="func") from None
        return Dist.from_outcomes(values.ravel(), np.outer(self.pmf, other.pmf).ravel())

    # ----------------------------------------------------------------- statistics
    @property
    def outcomes(self) -> np.ndarray:
        """The integer outcomes ``offset .. offset + len(pmf) - 1`` (int64)."""
        return np.arange(self.offset, self.offset + self.pmf.size, dtype=np.int64)

    def min(self) -> int:
        """Return the smallest outcome with probability > 0."""
        return self.offset

    def max(self) -> int:
        """Return the largest outcome with probability > 0."""
        return self.offset + self.pmf.size - 1

    def mean(self) -> float:
        """Return E[X]."""
        return float(self.pmf @ self.outcomes)

    def var(self) -> float:
        """Return Var[X], computed about the mean for accuracy."""
        d = self.outcomes - self.mean()
        return float(self.pmf @ (d * d))

    def std(self) -> float:
        """Return the standard deviation of X."""
        return float(np.sqrt(self.var()))

    def cdf(self, x):
        """Return P(X <= x); ``x`` may be a number or an array (NaN or a non-number is a RulesError
        naming ``x``; +-inf give 1 and 0)."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            i = int(x) - self.offset + 1
            return 0.0 if i <= 0 else 1.0 if i >= self.pmf.size else float(np.add.reduce(self.pmf[:i]))
        xa = _points("x", x)
        c = np.concatenate(([0.0], np.cumsum(self.pmf)))
        c[-1] = 1.0
        idx = np.clip(np.floor(xa) - self.offset + 1, 0, self.pmf.size).astype(np.int64)
        out = c[idx]
        return float(out) if np.ndim(out) == 0 else out

    def sf(self, x):
        """Return P(X >= x) (at least ``x``); ``x`` may be a number or an array (NaN or a
        non-number is a RulesError naming ``x``; +-inf give 0 and 1)."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            i = int(x) - self.offset
            return 1.0 if i <= 0 else 0.0 if i >= self.pmf.size else float(np.add.reduce(self.pmf[i:]))
        xa = _points("x", x)
        s = np.concatenate((np.cumsum(self.pmf[::-1])[::-1], [0.0]))
        s[0] = 1.0
        idx = np.clip(np.ceil(xa) - self.offset, 0, self.pmf.size).astype(np.int64)
        out = s[idx]
        return float(out) if np.ndim(out) == 0 else out

    def quantile(self, q):
        """Return the smallest outcome x with P(X <= x) >= q (q in 0..1, number or array; NaN, a
        non-number or a q outside 0..1 is a RulesError naming ``q``)."""
        qa = _points("q", q)
        if np.any((qa < 0) | (qa > 1)):
            raise RulesError(f"quantile must be within 0..1, not {q}", field="q")
        c = np.cumsum(self.pmf)
        # A relative slack keeps q=0.5 exact when the cdf lands on 0.5 up to round-off.
        idx = np.searchsorted(c, qa - 1e-12, side="left")
        out = self.offset + np.minimum(idx, self.pmf.size - 1)
        return int(out) if np.ndim(out) == 0 else out

    def probability(self, x: int) -> float:
        """Return P(X = x) (0.0 outside the support); ``x`` must be a whole number."""
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            if isinstance(x, (float, np.floating)) and np.isfinite(x) and float(x).is_integer():
                x = int(x)
            else:
                raise RulesError(f"an outcome is a whole number, not {show(x)}", field="x")
        i = int(x) - self.offset
        return float(self.pmf[i]) if 0 <= i < self.pmf.size else 0.0

    # A Dist reads like a mapping {outcome: probability} (the same as ``to_dict()``):
    #   d[x]      P(X = x), 0.0 for an outcome outside the support; RulesError for a non-integer;
    #   iter(d)   the outcomes with probability > 0, smallest first (``list(d) == list(d.to_dict())``);
    #   x in d    True when P(X = x) > 0 (False for anything that is not a whole number);
    #   len(d)    the width of the range min..max (``d.pmf.size``), which counts inner outcomes of
    #             probability 0 that iteration skips.
    # ``np.asarray(d)`` is refused with RulesError: the pmf alone loses the offset; use ``d.pmf``
    # (probabilities from ``d.min()``) and ``d.outcomes``.
    __getitem__ = probability

    def __iter__(self):
        return iter(self.outcomes[self.pmf > 0].tolist())

    def __contains__(self, x: object) -> bool:
        try:
            return self.probability(x) > 0  # type: ignore[arg-type]
        except RulesError:
            return False

    def __array__(self, dtype=None, copy=None):
        raise RulesError(
            "a Dist is not an array: use d.pmf (probabilities of d.outcomes, from d.min()) or d.to_polars()",
            field="dist",
        )

    def to_dict(self) -> dict[int, float]:
        """Return ``{outcome: probability}`` for outcomes with probability > 0."""
        return {int(v): float(p) for v, p in zip(self.outcomes, self.pmf) if p > 0}

    def to_polars(self):
        """Return a polars DataFrame with columns ``damage`` (Int64) and ``probability`` (Float64)."""
        import polars as pl

        mask = self.pmf > 0
        return pl.DataFrame({"damage": self.outcomes[mask], "probability": self.pmf[mask]})

    def to_pandas(self):
        """Return a pandas DataFrame with columns ``damage`` (int64) and ``probability`` (float64),
        the rows of :meth:`to_polars`."""
        from importlib import import_module

        pd = import_module("pandas")  # no pandas stubs in the type check: its frame is Any here
        mask = self.pmf > 0
        return pd.DataFrame({"damage": self.outcomes[mask], "probability": self.pmf[mask]})

    # ----------------------------------------------------------------- comparison & display
    def isclose(self, other: Dist, tol: float = TOLERANCE) -> bool:
        """Return True when both give every outcome the same probability within ``tol``."""
        if not isinstance(other, Dist):
            return False
        # compared on the overlap of the two supports; outside it each side's mass is compared to 0
        # (never a grid over both ranges: Dist.constant(-10**12) vs Dist.constant(10**12) is 2 values)
        lo, hi = max(self.offset, other.offset), min(self.max(), other.max())
        if hi < lo:
            return bool(max(self.pmf.max(), other.pmf.max()) <= tol)
        a = self.pmf[lo - self.offset : hi - self.offset + 1]
        b = other.pmf[lo - other.offset : hi - other.offset + 1]
        outside = np.concatenate(
            (
                self.pmf[: lo - self.offset],
                self.pmf[hi - self.offset + 1 :],
                other.pmf[: lo - other.offset],
                other.pmf[hi - other.offset + 1 :],
                [0.0],
            )
        )
        return bool(max(float(np.max(np.abs(a - b))), float(outside.max())) <= tol)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self.isclose(other)

    def __len__(self) -> int:
        return self.pmf.size

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Jupyter's rich display: a bar chart titled with mean, sd and range, the key numbers in
        HTML, the repr as text (:mod:`workbench.display`)."""
        from .display import dist_bundle

        return dist_bundle(self, include, exclude)

    def __repr__(self) -> str:
        head = f"Dist({self.min()}..{self.max()}, mean={self.mean():.4g}, sd={self.std():.4g})"
        if self.pmf.size > 12:
            return head
        body = ", ".join(f"{v}: {p:.4g}" for v, p in zip(self.outcomes, self.pmf) if p > 0)
        return f"{head} {{{body}}}"
