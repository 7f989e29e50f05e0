"""Shared by the systems' ``test_round_prepare.py``: a catalog compare played with a round class's
``prepare_turns`` hook and without it (workbench/fight/chain.py walks a compare's fights in step and
calls the hook before each level), counting the calls of the function the hook batches."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

import workbench as wb
from workbench.memo import MEMO


def compare_with_and_without(
    monkeypatch: Any, system: str, names: list[str], round_class: type, owner: Any, name: str, size: Any
) -> tuple[pl.DataFrame, list[int], pl.DataFrame, list[int]]:
    """Return (the frame of ``names`` against ``names`` with the hook, the sizes of its calls of
    ``owner.name``, the frame without the hook, its calls), the memo cleared before each;
    ``size(args)`` reads a call's size from its arguments."""

    def run(hook: bool) -> tuple[pl.DataFrame, list[int]]:
        calls: list[int] = []
        real = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls.append(size(args))
            return real(*args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(owner, name, counted)
            if not hook:
                m.setattr(round_class, "prepare_turns", None)
            cat = wb.system(system).catalog()
            cs = [cat.creature(n) for n in names]
            MEMO.clear()
            frame = wb.compare(cs, cs, progress=False, confirm=True)
        return frame, calls

    return (*run(True), *run(False))


def assert_same_frame(a: pl.DataFrame, b: pl.DataFrame) -> None:
    """Assert two compare frames equal: every float column to 1e-12, every other column exactly."""
    assert a.columns == b.columns and a.height == b.height
    for col, dtype in a.schema.items():
        if dtype.is_float():
            np.testing.assert_allclose(a[col].to_numpy(), b[col].to_numpy(), rtol=1e-12, atol=1e-12, equal_nan=True)
        else:
            assert a[col].to_list() == b[col].to_list(), col
