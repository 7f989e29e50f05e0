"""explore(output=DIR) streams every row to a Parquet dataset chunk by chunk, with a manifest:
an interrupted run (Ctrl-C) resumes from the written chunks to the same dataset and the same
result; a folder of another run is refused naming the field (issue 19 item 1)."""

from __future__ import annotations

import json

import polars as pl
import pytest

import workbench as wb
import workbench.exploration as ex
from workbench.exploration import explore

A = wb.system("annulus")
CAT = A.catalog()
TARGETS = [CAT.creature("Wolf"), CAT.creature("Hill Giant"), CAT.creature("Rat")]
ARGS = dict(targets=TARGETS, budget=3, top_k=4, chunk_size=20, progress=False)


def _parts(folder):
    return sorted(p.name for p in folder.glob("part-*.parquet"))


def test_every_row_is_written_once(tmp_path):
    f = explore("annulus", **ARGS, output=tmp_path / "run")
    rows = pl.read_parquet(tmp_path / "run" / "*.parquet")
    plain = explore("annulus", **{**ARGS, "top_k": 1000}, merge=False)  # every usable row
    assert rows.height == plain.height == rows.unique(["build_id", "target_id"]).height
    assert {"name", "seed", "cost", "sets", "target", "maths_hi", "maths_lo"} <= set(rows.columns)
    joined = plain.join(rows, on=["name", "target"], suffix="_ds")
    assert joined.height == plain.height
    assert (joined["mean_turn_damage"] == joined["mean_turn_damage_ds"]).all()
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["complete"] is True and len(manifest["chunks"]) == len(_parts(tmp_path / "run")) > 3
    assert f.height > 0


def test_interrupt_then_resume_gives_the_same_dataset_and_result(tmp_path, monkeypatch):
    whole = explore("annulus", **ARGS, output=tmp_path / "whole")
    real, calls = ex._run_unit, []

    def stopped(*args, **kwargs):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ex, "_run_unit", stopped)
    with pytest.raises(KeyboardInterrupt):
        explore("annulus", **ARGS, output=tmp_path / "cut")
    manifest = json.loads((tmp_path / "cut" / "manifest.json").read_text())
    assert manifest["chunks"] == [0, 1, 2] and manifest["complete"] is False
    assert _parts(tmp_path / "cut") == ["part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]
    assert not list((tmp_path / "cut").glob(".*.tmp"))  # nothing half written is left behind

    counted = []
    monkeypatch.setattr(ex, "_run_unit", lambda *a, **k: counted.append(1) or real(*a, **k))
    resumed = explore("annulus", **ARGS, output=tmp_path / "cut", resume=True)
    n = len(_parts(tmp_path / "whole"))
    assert len(counted) == n - 3  # the written chunks were read back, not computed again
    assert _parts(tmp_path / "cut") == _parts(tmp_path / "whole")
    for name in _parts(tmp_path / "whole"):  # the same dataset, row for row
        a, b = pl.read_parquet(tmp_path / "whole" / name), pl.read_parquet(tmp_path / "cut" / name)
        assert a.equals(b), name
    assert resumed.equals(whole)
    again = explore("annulus", **ARGS, output=tmp_path / "cut", resume=True)  # complete: all read back
    assert again.equals(whole) and len(counted) == n - 3


def test_another_run_in_the_same_folder_is_refused(tmp_path):
    explore("annulus", **ARGS, output=tmp_path / "run")
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **{**ARGS, "top_k": 5}, output=tmp_path / "run", resume=True)
    assert e.value.field == "top_k"
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **{**ARGS, "targets": TARGETS[:2]}, output=tmp_path / "run", resume=True)
    assert e.value.field == "targets"
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **ARGS, output=tmp_path / "run")  # the same run, without resume
    assert e.value.field == "resume"
    (tmp_path / "file").write_text("x")
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **ARGS, output=tmp_path / "file")
    assert e.value.field == "output"


def test_canonical_values_do_not_depend_on_the_last_bit():
    """A value whose denominator divides GRID is kept exactly and an ulp either way rounds back to
    it (3339/8192 sits on a decimal tie: 12-place rounding flipped it); others move < 0.5 / GRID."""
    import numpy as np

    exact = np.array([3339 / 8192, 13 / 12, 0.5, 5.875, 1 / 27, 2.0**-36, 0.0, 1.0])
    for v in (exact, np.nextafter(exact, 2.0), np.nextafter(exact, -1.0)):
        assert (ex._canonical(v) == exact).all()
    other = np.array([1 / 7, 2 / 3**5, 0.1, 123.456])
    assert np.abs(ex._canonical(other) - other).max() <= 0.5 / ex.GRID + 1e-16
    assert (ex._canonical(other) != other).any()


def test_a_resumed_run_removes_only_the_temporary_files_it_can_prove_a_run_wrote(tmp_path):
    # issue 35: the run removed every '.part-*.tmp' of its folder by name alone
    from workbench import io as wio

    folder = tmp_path / "run"
    explore("annulus", **ARGS, output=folder)
    dead = 2**22 + 12345  # above the default pid_max: no such process
    name = "part-000001.parquet"
    stranded = folder / f".{name}.wb-{dead}-0123456789ab-{wio._mark(name, dead, '0123456789ab')}.tmp"
    stranded.write_bytes(b"PAR1 half a part")  # a killed run's half-written part
    planted = {
        folder / ".part-notes.tmp": b"my notes",  # a user's look-alikes
        folder / f".{name}.{dead}-0123456789ab.tmp": b"PAR1 mine",  # the old name form, no mark
        folder / f".{name}.wb-{dead}-0123456789ab-0000000000000000.tmp": b"PAR1",  # a wrong mark
        folder / f".{name}.wb-{dead}-ba9876543210-{wio._mark(name, dead, 'ba9876543210')}.tmp": b"not parquet",
    }
    for path, content in planted.items():
        path.write_bytes(content)
    explore("annulus", **ARGS, output=folder, resume=True)
    assert not stranded.exists()
    assert {p: p.read_bytes() for p in planted if p.exists()} == planted
