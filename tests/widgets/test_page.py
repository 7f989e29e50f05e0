"""Share links in JupyterLite (issue 41, item 4): the kernel cannot see the page's address there, so
the browser sends it (widgets.page.PageQuery) and the app opens the link's setup from it; the Files
panel's link points at the site's app page (``link_page``)."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import workbench as wb
from widgets import Workbench
from widgets.app import SETUP_SLOT, setup_from_query
from widgets.page import PageQuery, follow_setup_link


def test_the_link_points_at_the_app_page_and_the_page_query_opens_it():
    app = Workbench("glass_empires", link_page="../app.html")
    wolf = wb.system("glass_empires").catalog().creature("Wolf")
    app.damage.target = wolf
    app.files.what.value = SETUP_SLOT
    app.files.get_code_button.click()
    href = html.unescape(re.search(r'href="([^"]+)"', app.files.link.value).group(1))
    assert href.startswith("../app.html?setup=wb2")  # the app's short setup code (workbench/links.py)
    code = setup_from_query(href.split("?", 1)[1])
    assert code == app.link_code()

    opened = Workbench("annulus")
    page = follow_setup_link(opened)
    assert isinstance(page, PageQuery) and opened.value["system"] == "annulus"  # nothing sent yet
    page.query = f"?path=app.ipynb&setup={quote(code)}"  # what the browser sends: the notebook page's address
    assert opened.value["system"] == "glass_empires" and opened.value["target"] == wolf
    assert opened.damage.value.isclose(app.damage.value)


def test_a_page_without_a_setup_changes_nothing_and_a_bad_one_is_explained():
    app = Workbench("annulus")
    before = app.value
    page = follow_setup_link(app, PageQuery(query="?path=app.ipynb"))
    assert app.value == before and app.error == ""
    page.query = "?path=app.ipynb&setup=wb1:garbage"
    assert "link's setup could not be used" in app.error and app.value["system"] == "annulus"
