"""Errors in the words on screen (issue 36, item 4): the field as its control is labelled ("to",
not "high:"), field names in words ("max rounds", not "max_rounds"), and the rule by its words
and the project's docs page, never a rules file the reader does not have."""

from __future__ import annotations

import workbench as wb
from widgets.base import rule_words
from widgets.sweep import SweepPanel

U = wb.system("unbound").catalog()


def test_rule_citations_lose_the_rules_files_and_keep_their_words():
    assert rule_words("annulus-attacks.txt: at most one alteration per set") == "at most one alteration per set"
    assert rule_words("CLARIFICATIONS.md, Annulus: 2 actions per turn") == "2 actions per turn"
    assert rule_words("annulus-attacks.txt") == "" and rule_words(None) == ""
    assert rule_words("docs/limits.md: sizes the rules never need") == "sizes the rules never need"


def test_a_panel_error_is_in_the_words_on_screen():
    p = SweepPanel("unbound", [U.creature("Town guard")], U.creature("Veteran duelist"), parameter="ac")
    err = wb.RulesError(
        "max_rounds must be at least 1 for damage_type fire", field="high", rule="annulus-attacks.txt: a rule"
    )
    text = p.on_screen(err)
    assert (
        text
        == "to: max rounds must be at least 1 for damage type fire \u2014 rule: a rule (see docs/systems/annulus.md)"
    )
    for code in ("high:", "max_rounds", "damage_type", ".txt"):
        assert code not in text


def test_a_rules_error_beside_a_form_control_names_no_rules_file():
    """Every error the Damage tab shows for a bad value: no rules file named, a docs page instead."""
    from widgets.damage import DamagePanel

    for system, field, bad in (("unbound", "ac", -1), ("annulus", "toughness", -1), ("glass_empires", "armor", -1)):
        p = DamagePanel(system)
        form = p.editors["target"]
        form.controls[field].value = bad
        shown = form.errors_shown()[field]
        assert ".txt" not in shown and "CLARIFICATIONS.md" not in shown and "(see docs/systems/" in shown, shown


def test_the_attack_picker_lists_each_attack_once():
    """Issue 36, item 4: the Last Odyssey attack list had 154 entries with duplicates (the Cop's
    Truncheon as "Truncheon" and "Cop: Truncheon", nine identical "Attack"s)."""
    from widgets.attack import attack_builder

    for system in ("last_odyssey", "glass_empires", "unbound", "annulus"):
        sys = wb.system(system)
        attacker = next(iter(sys.catalog().creatures.values()))
        b = attack_builder(system, attacker=attacker)
        entries = b._entries(attacker)
        values = list(entries.values())
        assert len(values) == len(set(values)), system
        assert set(values) >= set(sys.catalog().attacks.values()) | set(sys.attacks_of(attacker)), system
    lo = wb.system("last_odyssey")
    cop = lo.catalog().creature("Cop")
    assert len(attack_builder(lo, attacker=cop)._entries(cop)) < len(lo.catalog().attacks)


def test_form_labels_are_wide_enough_to_show_whole():
    """Issue 36, item 4: labels were cut at 9 em ("minimum dama...", "agility (success...")."""
    from widgets.forms import label_width

    for system in ("annulus", "unbound", "glass_empires", "last_odyssey"):
        from widgets.damage import DamagePanel

        p = DamagePanel(system)
        for name, form in p.editors.items():
            for field, w in getattr(form, "controls", {}).items():
                label = getattr(w, "description", "")
                width = getattr(getattr(w, "style", None), "description_width", "")
                if not label or not width or not width.endswith("em"):
                    continue
                assert float(width[:-2]) >= min(20.0, 0.56 * len(label)), (system, name, field, label, width)
    assert label_width("agility (successes)") > 10 and label_width("hp") == 9
