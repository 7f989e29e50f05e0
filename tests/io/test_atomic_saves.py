"""Atomic saves (workbench/io.py): an unserialisable object or a failure during the write never touches
the existing file; a save replaces it.
"""

from __future__ import annotations

import os

import pytest

import workbench as wb
from tests.io.models import _guard
from workbench import io as wio
from workbench.errors import RulesError


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_unserialisable_object_leaves_existing_file_untouched(tmp_path, suffix):
    path = wb.save(_guard(), tmp_path / f"keep{suffix}")
    before = path.read_bytes()
    with pytest.raises(RulesError) as err:
        wb.save(wb.Dist([0.5, 0.5]), path)
    assert str(path) in str(err.value)
    bad = _guard().replace(name="Guard")
    object.__setattr__(bad, "size", object())  # a value no file can hold
    with pytest.raises(RulesError, match="size"):
        wb.save(bad, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_failure_during_write_never_corrupts_the_existing_file(tmp_path, monkeypatch, where):
    path = wb.save(_guard(), tmp_path / "keep.toml")
    before = path.read_bytes()
    wolf = wb.system("annulus").catalog().creature("Wolf")

    class Boom(OSError):
        pass

    if where == "write":
        real_fdopen = os.fdopen

        def half_writer(fd, *args, **kwargs):
            fh = real_fdopen(fd, *args, **kwargs)
            real_write = fh.write

            def write(text):
                real_write(text[: len(text) // 2])
                fh.flush()
                raise Boom("disk full")

            fh.write = write
            return fh

        monkeypatch.setattr(wio.os, "fdopen", half_writer)
    elif where == "fsync":
        monkeypatch.setattr(wio.os, "fsync", lambda fd: (_ for _ in ()).throw(Boom("io error")))
    else:
        monkeypatch.setattr(wio.os, "replace", lambda a, b: (_ for _ in ()).throw(Boom("cross-device")))
    with pytest.raises(RulesError) as err:  # an OSError becomes a RulesError naming the path
        wb.save(wolf, path)
    assert str(path) in str(err.value) and err.value.field == "path"
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert wb.load(path) == _guard()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # temporary file removed


def test_save_replaces_an_existing_file(tmp_path):
    path = wb.save(_guard(), tmp_path / "c.json")
    wolf = wb.system("annulus").catalog().creature("Wolf")
    wb.save(wolf, path)
    assert wb.load(path) == wolf
