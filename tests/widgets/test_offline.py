"""widgets.offline: the JupyterChart offline bundle made once per install and read from a cache
(issue 17, item 9: "doing the offline set-up once, lazily")."""

from __future__ import annotations

import altair as alt
import pytest
import vl_convert

from widgets import offline


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A kernel that has not set up offline charts yet, with its cache in ``tmp_path``; the class
    state altair keeps is restored afterwards (other tests share this process)."""
    cls = alt.JupyterChart
    saved = {k: cls.__dict__[k] for k in ("_esm", "_is_offline") if k in cls.__dict__}
    monkeypatch.setenv("WB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(offline, "_offline", False)
    monkeypatch.setattr(cls, "_is_offline", False)
    yield tmp_path / "cache"
    for k, v in saved.items():
        setattr(cls, k, v)


def test_the_first_kernel_bundles_and_caches_what_altair_bundles(fresh):
    offline.enable_offline()
    path = offline.bundle_path()
    assert path.parent == fresh and path.is_file()
    assert alt.JupyterChart._is_offline and path.read_text(encoding="utf-8") == alt.JupyterChart._esm
    assert "vega" in alt.JupyterChart._esm.lower() and len(alt.JupyterChart._esm) > 100_000
    assert [p.name for p in fresh.iterdir()] == [path.name]  # no temporary file left


def test_a_later_kernel_reads_the_cache_and_bundles_nothing(fresh, monkeypatch):
    offline.enable_offline()
    bundled = alt.JupyterChart._esm
    monkeypatch.setattr(offline, "_offline", False)
    monkeypatch.setattr(alt.JupyterChart, "_is_offline", False)
    monkeypatch.setattr(alt.JupyterChart, "_esm", "online source")

    def refuse(*args, **kwargs):
        raise AssertionError("bundled again although the cache holds the bundle")

    monkeypatch.setattr(vl_convert, "javascript_bundle", refuse)
    offline.enable_offline()
    assert alt.JupyterChart._is_offline and alt.JupyterChart._esm == bundled


def test_an_empty_cache_file_is_bundled_again(fresh):
    path = offline.bundle_path()
    fresh.mkdir(parents=True)
    path.write_text("", encoding="utf-8")
    offline.enable_offline()
    assert alt.JupyterChart._is_offline and path.read_text(encoding="utf-8") == alt.JupyterChart._esm != ""


def test_an_unwritable_cache_only_costs_the_bundle(fresh, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("WB_CACHE_DIR", str(blocker / "cache"))
    offline.enable_offline()  # no exception: charts still go offline
    assert alt.JupyterChart._is_offline and "vega" in alt.JupyterChart._esm.lower()


def test_an_upgrade_never_reads_an_old_bundle(fresh, monkeypatch):
    before = offline.bundle_path()
    monkeypatch.setattr(offline, "_version", lambda dist: "99.0" if dist == "vl-convert-python" else "1.0")
    assert offline.bundle_path() != before and offline.bundle_path().parent == before.parent
