"""The Last Odyssey catalog and helpers shared by the tests of the published creatures."""

from __future__ import annotations

from pathlib import Path

import polars as pl

import workbench as wb

LO = wb.system("last_odyssey")

CAT = LO.catalog()

DATA = Path("/work/shared/data/last_odyssey_creatures.toml")


def c(name):
    return CAT.creature(name)


def p(table, **where):
    expr = pl.lit(True)
    for k, v in where.items():
        expr = expr & (pl.col(k) == v)
    return table.filter(expr)["probability"].sum()
