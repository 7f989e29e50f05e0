"""Shared by the systems' ``test_round_prepare.py`` and ``test_round_stack.py``: a catalog compare
played with a round class's ``prepare_turns`` hook (or its ``stack``) and without it
(workbench/fight/chain.py walks a compare's fights in step, calls the hook before each level and
enumerates a level of a class with ``stack`` in one call), counting the calls of the function they
batch."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

import workbench as wb
from workbench.memo import MEMO


def compare_with_and_without(
    monkeypatch: Any,
    system: str,
    names: list[str],
    round_class: type,
    owner: Any,
    name: str,
    size: Any,
    hook: str = "prepare_turns",
) -> tuple[pl.DataFrame, list[int], pl.DataFrame, list[int]]:
    """Return (the frame of ``names`` against ``names`` with the round class's ``hook``, the sizes of
    its calls of ``owner.name``, the frame without the hook, its calls), the memo cleared before
    each; ``size(args)`` reads a call's size from its arguments."""

    def run(with_hook: bool) -> tuple[pl.DataFrame, list[int]]:
        calls: list[int] = []
        real = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls.append(size(args))
            return real(*args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(owner, name, counted)
            if not with_hook:
                m.setattr(round_class, hook, None)
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
