"""The Damage panel's editors are built when their tab is first opened (widgets/damage.py,
``Editors``; issue 38, item 6: the app's first chart waited on the widgets of four hidden tabs).

Nothing a user sees may change: an editor opened late shows the panel's inputs as they are then,
an engine error still lands beside the control it names (its editor built for it), and an error
naming a field two editors hold goes to the first of them in tab order, whichever was opened first.
Toy rules (tests/widget_toy.py): one die + bonus - armor - cover, at least ``minimum``.
"""

from __future__ import annotations

import ipywidgets as W
import pytest

from tests.widget_toy import TOY
from workbench.widgets.damage import DamagePanel, Editors


def widget_count(w: W.Widget) -> int:
    """Return the widgets under ``w`` (itself included), as the browser gets a model for each."""
    seen: set[int] = set()

    def walk(x: object) -> None:
        if isinstance(x, W.Widget) and id(x) not in seen:
            seen.add(id(x))
            for name in x.keys:
                value = getattr(x, name, None)
                for v in value if isinstance(value, (list, tuple)) else [value]:
                    walk(v)

    walk(w)
    return len(seen)


def test_only_the_shown_editor_is_built_at_start():
    p = DamagePanel(TOY)
    assert isinstance(p.editors, Editors) and list(p.editors) == ["attack", "attacker", "target", "situation", "options"]
    assert [n for n in p.editors if p.editors.built(n) is not None] == ["attack"]
    assert "situation" in p.editors and p.editors.built("situation") is None   # (looking does not build)
    assert p.tabs.titles == ("attack", "attacker", "target", "situation", "options")
    small = widget_count(p)
    p.editors.build_all()
    assert widget_count(p) > small                                   # the hidden tabs' widgets came later


def test_opening_a_tab_builds_its_editor_with_the_inputs_as_they_are_then():
    """The target changed (Ogre -> Goblin) before its tab was opened: the editor shows the Goblin,
    and editing it redraws (Goblin's armor 1 -> 4 with the editor's own control: d6+2-4 = 0..4)."""
    p = DamagePanel(TOY)
    goblin = TOY.catalog().creature("Goblin")
    p.update(target=goblin)
    assert p.editors.built("target") is None
    p.tabs.selected_index = 2                                        # the user opens "target"
    editor = p.editors.built("target")
    assert editor is not None and editor.value == goblin and p.tabs.children[2].children == (editor,)
    before = p.value
    editor.controls["armor"].value = 4
    assert p.target.armor == 4 and p.value is not before
    assert p.value.mean() == pytest.approx(sum(max(0, d + 2 - 4) for d in range(1, 7)) / 6)


def test_an_engine_error_lands_beside_its_control_on_an_editor_not_opened():
    """Toy rules: melee reaches 5. The situation set to distance 10 from outside the editor (a
    link): the error is shown beside the distance control, whose editor is built for it, and the
    situation tab is marked."""
    p = DamagePanel(TOY)
    p.update(situation=p.situation.model_copy(update={"distance": 10.0}))
    shown = p.errors_shown()
    assert list(shown) == ["distance"] and "cannot reach 10" in shown["distance"]
    assert p.editors.built("situation") is not None and p.tabs.titles[3] == "\u26a0 situation"


def test_an_error_on_a_field_two_editors_hold_goes_to_the_first_whatever_was_opened_first():
    """attacker and target both have ``armor``: eager building adopted attacker first; opening the
    target tab before the attacker tab keeps that order."""
    from workbench.errors import RulesError

    eager = DamagePanel(TOY)
    eager.editors.build_all()
    lazy = DamagePanel(TOY)
    lazy.tabs.selected_index = 2                                     # target first
    lazy.tabs.selected_index = 1                                     # then attacker
    for p in (eager, lazy):
        p.show_error(RulesError("must be at most 10", field="armor"))
    assert eager.editors["attacker"].errors_shown() and not eager.editors["target"].errors_shown()
    assert lazy.editors["attacker"].errors_shown() and not lazy.editors["target"].errors_shown()
