"""Start-up (issue 17, item 9: "not importing what the first view does not need (jsonschema's
rfc3987 path ...)"): workbench.iri_stand_in keeps the IRI grammar out of ``import widgets`` and
``import altair`` without changing what jsonschema's "iri" format checks answer. Each test runs in
a fresh interpreter, since the point is what an import does to a new process."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLED = importlib.util.find_spec("rfc3987_syntax") is not None


def fresh(code: str, env: dict[str, str] | None = None) -> dict:
    """Run ``code`` (which sets ``out``) in a new interpreter from the project root, with ``env``
    added to the environment (``WB_NO_IRI_STAND_IN`` removed unless given); return ``out``."""
    script = f"import json, sys\n{code}\nprint(json.dumps(out))"
    environ = {k: v for k, v in os.environ.items() if k != "WB_NO_IRI_STAND_IN"} | (env or {})
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=environ)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_panels_compiles_no_iri_grammar():
    out = fresh(
        "import widgets, altair\n"
        "out = {'grammar': 'rfc3987_syntax.syntax_helpers' in sys.modules, 'lark': 'lark' in sys.modules}"
    )
    assert out == {"grammar": False, "lark": False}


@pytest.mark.skipif(not INSTALLED, reason="rfc3987-syntax is not installed: there is nothing to defer")
def test_jsonschema_iri_checks_still_check_through_the_stand_in():
    """RFC 3987: a space is not allowed in an IRI, a non-ASCII letter is; the first check loads the
    real grammar, and a later ``import rfc3987_syntax`` gets the real package."""
    out = fresh(
        "import workbench, jsonschema\n"
        "fc = jsonschema.Draft7Validator.FORMAT_CHECKER\n"
        "v = jsonschema.Draft7Validator({'format': 'iri'}, format_checker=fc)\n"
        "before = 'rfc3987_syntax.syntax_helpers' in sys.modules\n"
        "checks = [v.is_valid('http://example.org/a b'), v.is_valid('http://example.org/\\u00e4')]\n"
        "import rfc3987_syntax\n"
        "out = {'iri_checked': 'iri' in fc.checkers, 'before': before, 'checks': checks,\n"
        "       'real': hasattr(rfc3987_syntax, 'syntax_helpers') and rfc3987_syntax.__file__ is not None}"
    )
    assert out == {"iri_checked": True, "before": False, "checks": [False, True], "real": True}


@pytest.mark.skipif(not INSTALLED, reason="rfc3987-syntax is not installed: there is nothing to defer")
def test_other_names_of_the_package_load_the_real_one():
    out = fresh(
        "import workbench\n"
        "from rfc3987_syntax import RFC3987_SYNTAX_TERMS\n"
        "import rfc3987_syntax\n"
        "out = {'terms': 'iri' in RFC3987_SYNTAX_TERMS, 'file': rfc3987_syntax.__file__ is not None}"
    )
    assert out == {"terms": True, "file": True}


def test_nothing_is_replaced_once_jsonschema_formats_are_loaded():
    out = fresh(
        "import jsonschema\nfrom workbench import iri_stand_in\n"
        "out = {'installed': iri_stand_in.install(), 'stand_in': sys.modules.get('rfc3987_syntax') is iri_stand_in._STAND_IN}"
    )
    assert out == {"installed": False, "stand_in": False}


@pytest.mark.skipif(not INSTALLED, reason="rfc3987-syntax is not installed: there is nothing to replace")
@pytest.mark.parametrize("value,replaced", [("1", False), ("yes", False), ("0", True), ("", True)])
def test_the_opt_out_leaves_the_real_module(value, replaced):
    """WB_NO_IRI_STAND_IN=1 (anything but "" or "0"): ``import workbench`` puts nothing in
    sys.modules; the default (unset, "" or "0") puts the stand-in there."""
    out = fresh(
        "import workbench\nfrom workbench import iri_stand_in\n"
        "out = {'stand_in': sys.modules.get('rfc3987_syntax') is iri_stand_in._STAND_IN}",
        env={"WB_NO_IRI_STAND_IN": value},
    )
    assert out == {"stand_in": replaced}
