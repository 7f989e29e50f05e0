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
    monkeypatch.setattr(offline, "_offline", None)
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
    monkeypatch.setattr(offline, "_offline", None)
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


@pytest.fixture
def no_vl_convert(monkeypatch):
    """vl-convert-python not installed (the ``export`` extra left out): its import fails."""
    import sys

    monkeypatch.setitem(sys.modules, "vl_convert", None)  # `import vl_convert` then raises ImportError


def test_without_vl_convert_charts_load_from_the_cdn_with_a_warning_naming_the_extra(fresh, no_vl_convert):
    with pytest.warns(UserWarning, match=r"rules-workbench\[export\]"):
        assert offline.enable_offline() is False
    assert not alt.JupyterChart._is_offline and not fresh.exists()  # nothing bundled, nothing cached
    assert offline.enable_offline() is False  # settled for this kernel: no second warning


def test_without_vl_convert_a_required_offline_set_up_is_a_rules_error(fresh, no_vl_convert):
    from workbench.errors import RulesError

    with pytest.raises(RulesError, match=r"offline charts .* needs the optional package vl-convert-python") as err:
        offline.enable_offline(required=True)
    assert err.value.field == "vl-convert" and "rules-workbench[export]" in str(err.value)


def test_in_the_browser_the_cdn_is_no_warning_and_panels_draw(fresh, no_vl_convert, monkeypatch, recwarn):
    from widgets import DamagePanel

    monkeypatch.setattr("sys.platform", "emscripten")
    panel = DamagePanel("annulus")  # its first chart sets up the JavaScript lazily
    assert panel.chart is not None and panel.value is not None
    assert not alt.JupyterChart._is_offline and offline._offline is False
    assert not [w for w in recwarn if "vl-convert" in str(w.message)]


def test_a_cached_bundle_is_used_without_vl_convert(fresh, monkeypatch):
    assert offline.enable_offline() is True  # bundled and cached while vl-convert is installed
    bundled = alt.JupyterChart._esm
    monkeypatch.setattr(offline, "_offline", None)
    monkeypatch.setattr(alt.JupyterChart, "_is_offline", False)
    monkeypatch.setattr(offline, "_version", lambda dist: "same")  # the key the cache was written under
    path = offline.bundle_path()
    path.write_text(bundled, encoding="utf-8")
    monkeypatch.setitem(__import__("sys").modules, "vl_convert", None)
    assert offline.enable_offline() is True and alt.JupyterChart._esm == bundled
