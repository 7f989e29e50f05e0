"""Hostile and careless input (issue 21) to files, share codes, the CLI and the panels: regressions.

Saving is tested by killing a save at random moments (fork + SIGKILL, 200 times) and checking the
file is always the old or the new one, whole, and that no temporary file stays behind.
"""

from __future__ import annotations

import base64
import copy
import errno
import json
import os
import random
import signal
import stat
import sys
import time
import zlib

import pytest

import workbench as wb
from workbench import io as wio
from workbench import limits
from workbench.errors import RulesError

from tests.bounds import assert_bounded, measure


def quick(call):
    """Return what ``call()`` returns or raises (a RulesError), asserting it grew the peak memory by
    under 2 GB (tests/bounds.py; no time is asserted, issue 34)."""
    m = measure(call, RulesError)
    assert_bounded(m)
    return m.error if m.error is not None else m.result


def _code(doc) -> str:
    raw = json.dumps(doc, separators=(",", ":")).encode()
    return wio.SHARE_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode()


@pytest.fixture()
def wolf():
    return wb.system("annulus").catalog().creature("Wolf")


# --------------------------------------------------------------------------- load
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_load_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    err = quick(lambda: wb.load(fifo))
    assert isinstance(err, RulesError) and "regular file" in str(err) and str(fifo) in str(err)


@pytest.mark.skipif(not os.path.exists("/dev/urandom"), reason="no /dev/urandom")
def test_load_refuses_a_device_behind_a_toml_name(tmp_path):
    link = tmp_path / "random.json"
    link.symlink_to("/dev/urandom")
    err = quick(lambda: wb.load(link))
    assert isinstance(err, RulesError) and "regular file" in str(err)
    err = quick(lambda: wb.load(tmp_path))  # a folder
    assert isinstance(err, RulesError)


def test_load_caps_the_file_size(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (limits.MAX_FILE_BYTES + 1))
    err = quick(lambda: wb.load(big))
    assert isinstance(err, RulesError) and "limits" in str(err) and str(limits.MAX_FILE_BYTES) in str(err)


def test_load_a_200_kb_toml_with_a_100000_key_dotted_header(tmp_path):
    path = tmp_path / "dotted.toml"
    path.write_text("[" + ".".join(["a"] * 100_000) + "]\nx = 1\n")
    assert 190_000 < path.stat().st_size < limits.MAX_FILE_BYTES
    err = quick(lambda: wb.load(path))
    assert isinstance(err, RulesError) and "deep" in str(err)
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    assert isinstance(quick(lambda: wb.load(path)), RulesError)
    # the scan skips strings: dots and brackets inside text are not nesting
    path.write_text('format_version = 1\nsystem = "annulus"\nmodel_kind = "attack"\nname = "' + "a.[{" * 40 +
                    '"\ndefense = "agility"\n')
    assert wb.load(path).name == "a.[{" * 40
    path.write_text('format_version = 1\nsystem = "annulus"\nmodel_kind = "attack"\nname = """x.\n' + "." * 50 +
                    '"""\n')
    assert wb.load(path).name.startswith("x.")


def test_model_kind_that_is_a_table_and_deep_json(tmp_path):
    path = tmp_path / "kind.toml"
    path.write_text('system = "annulus"\n[model_kind]\nx = 1\n')
    err = quick(lambda: wb.load(path))
    assert isinstance(err, RulesError) and err.field == "model_kind"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    err = quick(lambda: wb.load(deep))
    assert isinstance(err, RulesError) and "deep" in str(err)
    huge = tmp_path / "huge.json"
    huge.write_text('{"system": "annulus", "model_kind": "options", "actions": 1' + "0" * 5000 + "}")
    assert isinstance(quick(lambda: wb.load(huge)), RulesError)


def test_load_of_a_path_that_is_not_a_path():
    for bad in (None, 3, b"x.toml", ["a.toml"], "a\x00b.toml"):
        assert isinstance(quick(lambda: wb.load(bad)), RulesError)


# --------------------------------------------------------------------------- share codes
def test_share_code_inflation_is_bounded_before_it_completes():
    # 1 GB of spaces compresses to about 1 MB of code: refused by length without decoding
    packed = zlib.compress(b" " * (30 * limits.MAX_DOCUMENT_BYTES), 9)
    code = wio.SHARE_PREFIX + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()
    assert len(code) < limits.MAX_SHARE_CODE  # short enough to be read: the inflation bound must stop it
    err = quick(lambda: wb.from_share_code(code))
    assert isinstance(err, RulesError) and "inflates" in str(err)
    long_code = wio.SHARE_PREFIX + "A" * 1_300_000
    err = quick(lambda: wb.from_share_code(long_code))
    assert isinstance(err, RulesError) and "at most" in str(err)


def test_short_codes_of_huge_models_are_refused_quickly():
    """Codes of a few hundred characters holding models that froze the app: a notation of
    thousands of 100d1000 terms, an upgrade name of 300,000 characters (difflib is quadratic),
    35 Annulus actions, a Glass Empires creature of 10**6 Strikes."""
    docs = [
        {"system": "unbound", "model_kind": "attack", "name": "x", "damage": "+".join(["100d1000"] * 300)},
        {"system": "annulus", "model_kind": "attack", "name": "x", "upgrades": {"Q" * 300_000: 1}},
        {"system": "annulus", "model_kind": "options", "actions": 35},
        {"system": "glass_empires", "model_kind": "creature", "name": "G", "strikes": 10**6},
        {"system": "last_odyssey", "model_kind": "attack", "name": "B", "multiplier": 1e19},
    ]
    for doc in docs:
        code = _code(doc)
        assert len(code) < 800
        err = quick(lambda: wb.from_share_code(code))
        assert isinstance(err, RulesError), doc


def test_share_code_of_a_lone_surrogate_name_cannot_be_made(wolf):
    bad = copy.copy(wolf)  # never the catalog's own object
    object.__setattr__(bad, "name", "Wolf\udcff")  # bypassing validation, as a buggy caller could
    assert isinstance(quick(lambda: wb.share_code(bad)), RulesError)
    assert wolf.name == "Wolf"


# --------------------------------------------------------------------------- saving
def test_resave_keeps_the_file_mode(tmp_path, wolf):
    path = tmp_path / "wolf.toml"
    path.write_text("old\n")
    os.chmod(path, 0o644)
    wb.save(wolf, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    os.chmod(path, 0o640)
    wb.save(wolf, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    fresh = wb.save(wolf, tmp_path / "fresh.json")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_save_through_a_symlink_replaces_its_target(tmp_path, wolf):
    real = tmp_path / "real" / "wolf.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    wb.save(wolf, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert wb.load(real) == wolf and wb.load(link) == wolf
    assert sorted(p.name for p in real.parent.iterdir()) == ["wolf.json"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_disk_full_or_read_only_folder_names_the_path_and_keeps_the_old_file(tmp_path, monkeypatch, wolf, code):
    path = wb.save(wb.system("annulus").catalog().creature("Rat"), tmp_path / "c.toml")
    before = path.read_bytes()
    real_open = os.open
    real_fdopen = os.fdopen

    if code == errno.ENOSPC:  # the disk fills while writing
        def fdopen(fd, *args, **kwargs):
            fh = real_fdopen(fd, *args, **kwargs)

            def write(data):
                raise OSError(code, os.strerror(code))
            fh.write = write
            return fh
        monkeypatch.setattr(wio.os, "fdopen", fdopen)
    else:  # the folder refuses new files
        def refuse(p, flags, *args, **kwargs):
            if flags & os.O_CREAT:
                raise OSError(code, os.strerror(code), str(p))
            return real_open(p, flags, *args, **kwargs)
        monkeypatch.setattr(wio.os, "open", refuse)
    with pytest.raises(RulesError) as err:
        wb.save(wolf, path)
    monkeypatch.undo()
    assert str(path) in str(err.value) and os.strerror(code) in str(err.value) and err.value.field == "path"
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]


def _stranded(folder, name: str, pid: int, content: bytes, nonce: str = "0123456789ab"):
    """Plant the temporary file a save of ``name`` by process ``pid`` would leave (its marked name)."""
    path = folder / f".{name}.wb-{pid}-{nonce}-{wio._mark(name, pid, nonce)}.tmp"
    path.write_bytes(content)
    return path


def test_stale_temporary_files_are_cleaned_by_the_next_save(tmp_path, wolf):
    path = tmp_path / "wolf.toml"
    dead = 2**22 + 12345  # above the default pid_max: no such process
    head = wio.dumps(wolf, ".toml")
    stale = _stranded(tmp_path, "wolf.toml", dead, head[:40])  # killed mid-write
    empty = _stranded(tmp_path, "wolf.toml", dead, b"", "ba9876543210")  # killed before writing
    live = _stranded(tmp_path, "wolf.toml", os.getpid(), head)  # a save under way in a live process
    other = _stranded(tmp_path, "other.toml", dead, head)  # another file's: not ours to clean
    wb.save(wolf, path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert not stale.exists() and not empty.exists()
    assert names == sorted([path.name, live.name, other.name])


def test_look_alike_files_of_a_user_survive_every_save(tmp_path, wolf):
    # issue 35: saving wolf.toml deleted any .wolf.toml.<8 characters>.tmp an hour old, by name alone
    dead = 2**22 + 12345
    old = time.time() - 7200
    planted = [
        tmp_path / ".wolf.toml.abcd_123.tmp",  # the old tempfile.mkstemp form
        tmp_path / ".wolf.toml.notes123.tmp",
        tmp_path / f".wolf.toml.wb-{dead}-0123456789ab.tmp",  # the previous form, no mark
        tmp_path / f".wolf.toml.wb-{dead}-0123456789ab-0000000000000000.tmp",  # a wrong mark
    ]
    for p in planted:
        p.write_text("my own notes")
    # the right mark but a user's own content: not what a save writes
    planted.append(_stranded(tmp_path, "wolf.toml", dead, b"my own notes"))
    for p in planted:
        os.utime(p, (old, old))
    before = {p.name: p.read_bytes() for p in planted}
    for _ in range(3):
        wb.save(wolf, tmp_path / "wolf.toml")
    assert {p.name: p.read_bytes() for p in planted if p.exists()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, "wolf.toml"])


def test_a_save_names_its_temporary_file_with_a_mark_it_can_check():
    name = wio._temporary_name("wolf.toml")
    m = wio._TMP.match(name)
    assert m and m.group("name") == "wolf.toml" and int(m.group("pid")) == os.getpid()
    assert m.group("mark") == wio._mark("wolf.toml", os.getpid(), m.group("nonce"))
    assert wio._mark("wolf.toml", 1, m.group("nonce")) != m.group("mark")


def _kill_rounds(tmp_path, rounds: int) -> dict[str, int]:
    """Fork a child that saves two models in turn, SIGKILL it at a random moment, check the file."""
    annulus = wb.system("annulus").catalog()
    a, b = annulus.creature("Wolf"), annulus.creature("Rat")
    path = tmp_path / "fight.toml"
    wb.save(a, path)
    texts = {wio.to_toml(wio.to_document(a)), wio.to_toml(wio.to_document(b))}
    rng = random.Random(21)
    seen = {"old_or_new": 0, "temporaries_left": 0}
    for _ in range(rounds):
        pid = os.fork()
        if pid == 0:  # the child: save forever until killed
            try:
                while True:
                    wb.save(b, path)
                    wb.save(a, path)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, 0.02))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert path.read_text() in texts  # old or new, whole
        seen["old_or_new"] += 1
        seen["temporaries_left"] += sum(1 for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
        wb.save(a, path)  # the next save cleans what the killed one left
        assert [p.name for p in tmp_path.iterdir()] == [path.name]
    return seen


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_killed_saves_leave_the_old_or_new_file_whole_and_no_temporaries(tmp_path):
    seen = _kill_rounds(tmp_path, 200)
    assert seen["old_or_new"] == 200


# --------------------------------------------------------------------------- the CLI
def _cli(capsys, *argv):
    from workbench.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["damage", "annulus", "Wolf", "Bite"],                     # a usage error
    ["duel", "annulus", "Wolf", "Rat", "--max-rounds", "9" * 5000],
    ["show", "wb1:" + "A" * 100],
    ["show", "wb1:"],
    ["show", "nothing.toml"],
    ["catalog", "annulus", "--out", "x.xlsx"],
    ["compare", "annulus", "-a", "Wolf", "-t", "Rat", "--top", "-5"],
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv):
    code, _, err = _cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


def test_cli_bad_files_are_one_line_and_exit_2(capsys, tmp_path):
    (tmp_path / "o.toml").write_text('format_version = 1\nsystem = "annulus"\nmodel_kind = "options"\nactions = 35\n')
    (tmp_path / "deep.json").write_text("[" * 50_000 + "]" * 50_000)
    os.mkfifo(tmp_path / "pipe.toml")
    for argv in (["damage", "annulus", "Wolf", "Bite", "Rat", "--options", str(tmp_path / "o.toml")],
                 ["show", str(tmp_path / "deep.json")], ["show", str(tmp_path / "pipe.toml")]):
        code, _, err = _cli(capsys, *argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


def test_cli_internal_error_is_one_line_with_a_hint_and_exit_1(capsys, monkeypatch):
    from workbench import cli

    def broken(args):
        raise ZeroDivisionError("something inside")

    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _with(parser(), broken))
    code, _, err = _cli(capsys, "systems")
    assert code == 1 and err.count("\n") == 1
    assert "internal error: ZeroDivisionError: something inside" in err and "WB_DEBUG=1" in err
    monkeypatch.setenv("WB_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        cli.main(["systems"])


def _with(parser, func):
    parser._subparsers._group_actions[0].choices["systems"].set_defaults(func=func)
    return parser


# --------------------------------------------------------------------------- panels
def test_file_panel_stays_inside_its_folder(tmp_path, monkeypatch):
    from widgets.files import FilePanel

    box = {"m": wb.system("annulus").catalog().creature("Wolf")}
    panel = FilePanel({"m": (lambda: box["m"], lambda m: box.__setitem__("m", m))}, folder=tmp_path / "files")
    outside = tmp_path / "outside.toml"
    import workbench

    catalog = os.path.join(os.path.dirname(workbench.__file__), "catalog", "annulus", "creatures.toml")
    before = open(catalog, "rb").read()
    for bad in ("../outside.toml", str(outside), "/etc/passwd.toml", catalog, "sub/../../outside.toml", ""):
        panel.path.value = bad
        assert panel.save() is False and panel.load() is False
        assert "path" in panel.errors_shown()
    assert not outside.exists() and open(catalog, "rb").read() == before
    (tmp_path / "files").mkdir(exist_ok=True)
    (tmp_path / "files" / "escape.toml").symlink_to(outside)        # a link inside pointing out
    panel.path.value = "escape.toml"
    assert panel.save() is False and not outside.exists()
    panel.path.value = "sub/wolf.toml"                              # inside: fine, folders made
    assert panel.save() is True and (tmp_path / "files" / "sub" / "wolf.toml").exists()
    assert panel.load() is True and box["m"].name == "Wolf"
    with pytest.raises(RulesError):
        FilePanel({}, folder=os.path.dirname(workbench.__file__))    # the package itself as the folder
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path / "env"))
    assert FilePanel({}).folder == (tmp_path / "env").resolve()
    monkeypatch.delenv("WORKBENCH_FILES")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # platformdirs' per-user data folder on Linux
    folder = FilePanel({}).folder
    assert folder == (tmp_path / "data" / "rules-workbench" / "workbench-files").resolve()
    assert not (tmp_path / "workbench-files").exists()  # never the working directory (a repository)


def test_optional_bool_shows_unset_and_an_edit_keeps_it():
    from widgets.forms import ModelForm

    unbound = wb.system("unbound")
    sword = unbound.catalog().attack("Longsword")
    assert sword.adds_strength is None
    fighter = next(c for c in unbound.catalog().creatures.values() if c.str_mod > 0)
    target = next(iter(unbound.catalog().creatures.values()))
    before = unbound.damage(sword, fighter, target).mean()
    form = ModelForm(unbound.Attack, sword)
    control = form.controls["adds_strength"]
    assert control.value is None and [o[0] for o in control.options] == ["unset", "yes", "no"]
    form.controls["name"].value = "Longsword (renamed)"            # editing another field
    assert form.value.adds_strength is None
    assert unbound.damage(form.value, fighter, target).mean() == pytest.approx(before, abs=1e-12)
    control.value = False
    assert form.value.adds_strength is False
    control.value = None
    assert form.value.adds_strength is None


def test_compare_panel_ignores_malformed_selection_messages():
    from widgets.compare import ComparePanel

    annulus = wb.system("annulus").catalog()
    panel = ComparePanel("annulus", attackers=[annulus.creature("Wolf")], targets=[annulus.creature("Rat")])
    before = panel.selected
    for message in ({"cell": None}, {"cell": []}, {"cell": {"value": []}}, {"cell": {"value": {"vlPoint": []}}},
                    {"cell": {"value": {"vlPoint": {"or": {"build": "x"}}}}},
                    {"cell": {"value": {"vlPoint": {"or": [["Wolf", "Rat"]]}}}},
                    {"cell": {"value": {"vlPoint": {"or": [{"build": 3, "target": None}]}}}},
                    {"cell": {"value": {"vlPoint": {"or": [{"build": "nope", "target": "Rat"}]}}}},
                    [], None, "cell", 5):
        panel._on_click({"new": message})
        assert panel.selected == before
    good = panel.value.row(0, named=True)
    panel._on_click({"new": {"cell": {"value": {"vlPoint": {"or": [{"build": good["build"],
                                                                   "target": good["target"]}]}}}}})
    assert panel.selected == (good["build"], good["target"])


def test_a_file_name_past_the_file_system_limit_is_refused_naming_the_path(tmp_path, wolf):
    # issue 35: a 300-character file name raised OSError
    with pytest.raises(RulesError) as e:
        wb.save(wolf, tmp_path / ("w" * 300 + ".toml"))
    assert e.value.field == "path" and "255" in e.value.message and "file system" in e.value.rule
    assert not list(tmp_path.iterdir())


def test_a_long_file_name_within_the_limit_saves_and_its_temporary_name_fits(tmp_path, wolf):
    name = "w" * 245 + ".toml"  # 250 bytes: the temporary file's name shortens the target's
    path = wb.save(wolf, tmp_path / name)
    assert wb.load(path) == wolf and [p.name for p in tmp_path.iterdir()] == [name]
    assert len(wio._temporary_name(name).encode()) <= 255
