"""Tables that read for people: ``readable(frame)`` shows infinity as "never" and a missing value
(null, NaN) as "-", and rounds floats to 12 decimals and then to a few significant digits (so float
noise never shows and a table fits a 1366 px screen). The frame's numbers are unchanged; only what is printed differs.
"""

from __future__ import annotations

import math

import polars as pl


def cell(value, digits: int = 4, never: str = "never", missing: str = "-") -> str:
    """Return one value as table text."""
    if value is None:
        return missing
    if isinstance(value, float):
        if math.isnan(value):
            return missing
        if math.isinf(value):
            return never if value > 0 else f"-{never}"
        value = round(value, 12) + 0.0  # float noise (below 1e-12, it differs between CPUs) shows as 0
        return f"{value:.{digits}g}" if abs(value) >= 10 ** -digits or value == 0 else f"{value:.{digits - 1}e}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


ROUNDS = ("mean_rounds", "rounds_q")  # columns of rounds: an empty one is a kill that never comes


def readable(frame: pl.DataFrame, digits: int = 4, never: str = "never", missing: str = "-") -> pl.DataFrame:
    """Return ``frame`` with its float columns, and any column holding nulls, as text: infinity as
    ``never``, null and NaN as ``missing`` (``never`` in a column of rounds, ``mean_rounds`` and
    ``rounds_q*``), floats to ``digits`` significant digits."""
    columns = []
    for name, dtype in frame.schema.items():
        series = frame[name]
        if dtype.is_float() or series.null_count() or dtype == pl.Null:
            empty = never if name.startswith(ROUNDS) else missing
            columns.append(pl.Series(name, [cell(v, digits, never, empty) for v in series.to_list()], dtype=pl.String))
        else:
            columns.append(series)
    return pl.DataFrame(columns)
