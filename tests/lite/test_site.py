"""The JupyterLite site (issue 41, item 4): ``lite/build.py`` builds it offline, and it holds the
wheel and its dependencies' wheels (indexed for piplite), every notebook with its install cell, the
app notebook and page, and the configuration. What Pyodide does with them in a browser needs its
CDN, which this machine cannot reach (docs/lite.md); what can be checked here is: every requirement
of the served wheels is met by Pyodide's lock file (from npm) or by the site itself, and the app
page hands a share link's ``?setup=`` to the app notebook (its script run under node).

Marked ``slow`` (about 15 s: the wheel build and ``jupyter lite build``); part of the suite.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from urllib.parse import urlencode, urljoin

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _load_builder():
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lite = _load_builder()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return lite.build(tmp_path_factory.mktemp("lite") / "site")


def test_the_wheel_and_its_dependencies_are_indexed_for_piplite(site):
    index = json.loads((site / "pypi" / "all.json").read_text())
    assert {"rules-workbench", "anywidget", "psygnal", "tqdm", "ipywidgets"} <= set(index)
    (wheel,) = (site / "pypi").glob("rules_workbench-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert {"workbench/__init__.py", "widgets/workers.py", "widgets/page.py", "workbench/extras.py"} <= names
    assert any(n.startswith("workbench/catalog/") and n.endswith(".toml") for n in names)
    assert "vl-convert-python" not in lite.requirements(wheel)  # it has no build for Pyodide: an extra
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    urls = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["pipliteUrls"]
    assert any(u.startswith("./pypi/all.json") for u in urls)


def test_every_requirement_is_met_by_pyodide_or_the_site(site, tmp_path):
    version = lite.pyodide_version()
    lock = lite.pyodide_lock(version, tmp_path)
    assert lock is not None, f"npm could not fetch pyodide@{version} (its lock file lists Pyodide's packages)"
    assert lock["info"]["python"].startswith(lite.PYODIDE_PYTHON)
    served = sorted((site / "pypi").glob("*.whl"))
    assert lite.unresolved(served, lock) == []
    # the check can fail: without polars in Pyodide's packages the workbench's wheel is not met
    without = {**lock, "packages": {k: v for k, v in lock["packages"].items() if k != "polars"}}
    assert [p for p in lite.unresolved(served, without) if "polars" in p and "rules_workbench" in p]
    for name in ("numpy", "scipy", "polars", "pandas", "pyarrow", "altair"):
        assert name in lock["packages"], name


def test_the_notebooks_install_the_workbench_first(site):
    files = site / "files"
    wanted = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert wanted <= {p.name for p in files.glob("*.ipynb")}
    assert {"00-quickstart.ipynb", "10-lesson-annulus.ipynb", "app.ipynb"} <= wanted
    for helper in lite.HELPERS:
        assert (files / helper).read_bytes() == (ROOT / "notebooks" / helper).read_bytes()
    quickstart = json.loads((files / "00-quickstart.ipynb").read_text())
    first = "".join(quickstart["cells"][0]["source"])
    assert quickstart["cells"][0]["cell_type"] == "code" and "%pip install -q rules-workbench" in first
    saved = json.loads((ROOT / "notebooks" / "00-quickstart.ipynb").read_text())
    assert quickstart["cells"][1:] == saved["cells"]  # the rest as saved, outputs and all


def test_the_app_notebook_and_page(site):
    app = json.loads((site / "files" / "app.ipynb").read_text())
    code = "".join("".join(c["source"]) for c in app["cells"] if c["cell_type"] == "code")
    assert "%pip install -q rules-workbench" in code
    assert 'Workbench("annulus", link_page="../app.html")' in code and "follow_setup_link(app)" in code
    page = (site / "app.html").read_text()
    assert "notebooks/index.html?" in page and (site / "notebooks" / "index.html").is_file()
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert config["appName"] == "Rules Workbench"
    loaded = {e["name"] for e in config["federated_extensions"]}
    assert {"anywidget", "@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension"} <= loaded


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the app page's script")
def test_a_share_link_reaches_the_app_notebook_with_its_setup(site):
    """The page's script under node with a share link's address: it opens the app notebook with the
    setup, which the app reads back (the link the app's Files panel makes resolves to this page)."""
    import workbench as wb
    from widgets.app import setup_from_query

    code = wb.share_code(wb.system("glass_empires").catalog().creature("Wolf"))
    script = (site / "app.html").read_text().split("<script>")[1].split("</script>")[0]
    search = "?" + urlencode({"setup": code})
    runner = (
        f"var window = {{location: {{search: {json.dumps(search)}, replace: function (u) {{ console.log(u); }}}}}};\n"
        + script
    )
    opened = subprocess.run(["node", "-e", runner], capture_output=True, text=True, check=True).stdout.strip()
    assert opened.startswith("notebooks/index.html?")
    query = opened.split("?", 1)[1]
    assert setup_from_query(query) == code and "path=app.ipynb" in query
    # the Files panel's link, "../app.html?setup=...", seen from the notebook page, is this page
    notebook_page = "https://example.org/site/notebooks/index.html?path=app.ipynb"
    assert urljoin(notebook_page, "../app.html?setup=x") == "https://example.org/site/app.html?setup=x"


@pytest.mark.browser
def test_the_app_page_opens_the_app_notebook_in_chromium(site):
    """The site served over HTTP in Debian's chromium, every request off this machine refused: the
    app page opens the app notebook with the link's setup in its address, JupyterLite draws its
    cells, and the one thing fetched from outside is Pyodide itself (its CDN, unreachable here:
    docs/lite.md)."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(chromium).exists():
        note = "Debian's chromium is not installed (`apt-get install chromium`; .ci/run installs it)"
        pytest.fail(note) if os.environ.get("CI") else pytest.skip(note)
    import socket
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    refused: list[str] = []

    def only_local(route):
        if route.request.url.startswith(f"http://127.0.0.1:{port}/"):
            return route.continue_()
        refused.append(route.request.url)
        return route.abort()

    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.route("**/*", only_local)
            outside: list[str] = []  # what the page and its kernel's worker ask of other hosts
            page.on("request", lambda r: None if r.url.startswith(f"http://127.0.0.1:{port}/") else outside.append(r.url))
            for _ in range(50):  # the server may take a moment to listen
                try:
                    page.goto(f"http://127.0.0.1:{port}/app.html?setup=wb1%3Aabc", wait_until="load")
                    break
                except sync_api.Error:
                    page.wait_for_timeout(200)
            page.wait_for_url("**/notebooks/index.html?*", timeout=30_000)
            page.locator(".jp-Cell").nth(2).wait_for(timeout=60_000)
            for _ in range(300):  # the kernel starting: Pyodide from its CDN
                if any("/pyodide/" in u for u in outside):
                    break
                page.wait_for_timeout(200)
            url, cells, title = page.url, page.locator(".jp-Cell").count(), page.title()
            text = page.locator(".jp-Cell").nth(2).inner_text()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    assert "path=app.ipynb" in url and "setup=wb1%3Aabc" in url
    # the site's name until JupyterLite has opened the notebook, then the open notebook's own ("app")
    assert cells == 3 and title in ("Rules Workbench", "app") and "follow_setup_link(app)" in text
    assert any("/pyodide/" in u for u in outside), outside
    assert all("/pyodide/" in u for u in [*refused, *outside]), (refused, outside)
