"""The TOML writer (workbench/io.py) against tomllib: output parses back to the same data, escapes,
tables and quoted keys.
"""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import io as wio

plain_scalars = (st.booleans() | st.integers(-2**63, 2**63 - 1)
                 | st.floats(allow_nan=False, allow_infinity=True) | st.text(max_size=12))

keys = st.text(min_size=1, max_size=8)

plain_data = st.recursive(plain_scalars, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, plain_data, max_size=6))
def test_toml_writer_output_parses_back_to_the_same_data(data):
    """tomllib (an independent parser) reads our TOML back to the data written."""
    assert tomllib.loads(wio.to_toml(data)) == data


def test_toml_writer_escapes_and_tables():
    data = {"name": 'a "q" \\ \n\t\x01\x7f é', "x": 1.0, "big": 1e300, "neg": -0.5, "inf": float("-inf"),
            "sets": [{"name": "A", "upgrades": {"Counter": 1, "odd key": 2}}, {"name": "B", "upgrades": {}}],
            "shell": {"points": 3, "element": "fire", "deep": {"x": [1, [2, 3]]}}, "empty": [], "none": None}
    text = wio.to_toml(data)
    back = tomllib.loads(text)
    expected = {k: v for k, v in data.items() if k != "none"}
    assert back == expected
    assert "none" not in text


def test_toml_key_with_a_trailing_newline_is_quoted():
    """Found by hypothesis: a key "0\\n" passed a bare-key regex ending in "$" (which admits a
    trailing newline) and produced TOML that tomllib rejects."""
    text = wio.to_toml({"0": 1, "0\n": 2})
    assert tomllib.loads(text) == {"0": 1, "0\n": 2}


def test_toml_writer_is_tomli_w_and_names_a_none_in_a_list():
    """The text is tomli-w's (no hand-written writer); a None inside a list is a RulesError naming
    where it is (TOML has no null), a None value of a table is left out."""
    import pytest
    import tomli_w

    from workbench.errors import RulesError

    data = {"a": 1, "t": {"x": [1, 2], "gone": None}}
    assert wio.to_toml(data) == tomli_w.dumps({"a": 1, "t": {"x": [1, 2]}})
    with pytest.raises(RulesError) as err:
        wio.to_toml({"t": {"xs": [1, None]}})
    assert "TOML" in str(err.value) and err.value.field == "t.xs[1]"
