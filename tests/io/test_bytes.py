"""workbench.io.dumps / loads: a save file's bytes without the file (browser download and upload)."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.io import dumps, loads
from workbench.limits import MAX_FILE_BYTES

WOLF = wb.system("annulus").catalog().creature("Wolf")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_dumps_is_what_save_writes_and_loads_reads_it_back(tmp_path, suffix):
    path = tmp_path / f"wolf{suffix}"
    wb.save([WOLF, WOLF], path)
    assert dumps([WOLF, WOLF], suffix) == path.read_bytes()
    assert loads(path.read_bytes(), path.name) == wb.load(path) == [WOLF, WOLF]


@pytest.mark.parametrize(
    "data, name, field, words",
    [
        (b"x", "wolf.png", "path", ".toml or .json"),
        (b"\xff\xfe", "wolf.toml", "path", "not UTF-8"),
        (b"x" * (MAX_FILE_BYTES + 1), "wolf.toml", "path", "at most"),
        ("text", "wolf.toml", "data", "bytes"),
        (b"name = 3", "wolf.toml", "system", "wolf.toml"),
    ],
)
def test_bad_bytes_are_rules_errors(data, name, field, words):
    with pytest.raises(wb.RulesError) as e:
        loads(data, name)
    assert e.value.field == field and words in str(e.value)


def test_dumps_refuses_another_format():
    with pytest.raises(wb.RulesError) as e:
        dumps(WOLF, ".yaml")
    assert e.value.field == "suffix"
