"""DuelPanel and duel_figure, headless: the toy system registered for the test, then a real system."""

from __future__ import annotations

import pytest

import workbench as wb
from importlib import import_module
from tests.widget_toy import TOY, Attack, Creature, Situation
from widgets.duel import DuelPanel, duel_figure

registry = import_module("workbench.systems")  # the module (wb.systems is the listing function)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(registry._MODULES, "toy", "tests.widget_toy")
    monkeypatch.setitem(registry._LOADED, "toy", TOY)
    return TOY


def rows(panel) -> list[dict]:
    spec = panel.chart.chart.to_dict()
    return [r for values in spec["datasets"].values() for r in values]


def split(panel) -> dict[str, float]:
    return {r["outcome"]: r["probability"] for r in rows(panel) if "outcome" in r}


def test_first_strike_decides_a_duel_of_one_hit_kills(toy):
    """Both have 1 HP, no armor and a d6 Club (never 0 damage): whoever acts first wins in round 1."""
    knight = Creature("Knight", hp=1, attacks=[Attack("Club")])
    squire = Creature("Squire", hp=1, attacks=[Attack("Club")])
    p = DuelPanel(toy, knight, squire)
    assert (p.value.p_a_wins, p.value.p_b_wins) == (pytest.approx(1.0), pytest.approx(0.0))
    assert split(p) == pytest.approx({"Knight wins": 1.0, "draw": 0.0, "Squire wins": 0.0})
    assert 'class="wb-a">100.00%<' in p.stats.value and 'class="wb-rounds">1.00<' in p.stats.value
    p.controls["first"].value = "b"
    assert p.value.p_b_wins == pytest.approx(1.0) and split(p)["Squire wins"] == pytest.approx(1.0)
    p.controls["first"].value = "random"
    assert split(p)["Knight wins"] == pytest.approx(0.5)


def test_duel_hand_worked_and_follows_the_editors(toy):
    """Goblin (7 HP, armor 1; Club d6+2, Bow d8+1) vs Ogre (30 HP, armor 3, Fist d6+4), two attacks a turn.

    Against armor 3 the Bow deals max(d8-2, 0) (mean 21/8) and the Club d6-1 (mean 5/2), so the
    Goblin's best plan is Bow + Bow: at most 12 < 30. The Ogre deals (d6+3) twice: at least 8 >= 7,
    so the Ogre wins in round 1 for certain. With the Ogre at 3 HP the Goblin, acting first, fails
    only when both arrows total <= 2: P = (2/8)^2 + 2(2/8)(1/8) + 2(2/8)(1/8) + (1/8)^2 = 13/64,
    so P(Goblin wins) = 51/64.
    """
    p = DuelPanel(toy)
    assert (p.a.name, p.b.name) == ("Goblin", "Ogre")
    assert p.value.p_a_wins == 0.0 and p.value.p_b_wins == pytest.approx(1.0, abs=1e-12)
    p.editors["b"].controls["hp"].value = 3
    assert p.value.p_a_wins == pytest.approx(51 / 64, abs=1e-12)
    assert p.value.p_a_wins == pytest.approx(wb.duel(p.a, p.b).p_a_wins, abs=1e-12)
    assert split(p)["Goblin wins"] == pytest.approx(51 / 64, abs=1e-12)
    curves = {(r["build"], r["round"]): r["p_killed_by"] for r in rows(p) if "build" in r}
    assert curves[("Goblin wins", 1)] == pytest.approx(51 / 64) and curves[("Ogre wins", 1)] == pytest.approx(13 / 64)
    assert curves[("Goblin wins", 0)] == 0.0


def test_bad_max_rounds_is_shown_and_the_last_duel_kept(toy):
    goblin = toy.catalog().creature("Goblin")
    p = DuelPanel(toy, goblin.replace(hp=30), goblin.replace(name="Tough goblin", hp=30))
    result, spec = p.value, p.chart.chart.to_dict()
    p.controls["max_rounds"].value = 0
    assert p.value is result and p.chart.chart.to_dict() == spec
    assert "max_rounds" in p.errors_shown()
    p.controls["max_rounds"].value = 100  # back to the same valid value
    assert p.errors_shown() == {}
    p.controls["max_rounds"].value = 1  # at most 2 x 7 = 14 a turn < 30 HP: nobody falls
    assert p.value.p_draw == pytest.approx(1.0) and split(p)["draw"] == pytest.approx(1.0)


def test_engine_error_lands_beside_the_situation_control(toy):
    p = DuelPanel(toy)
    p.editors["situation"].controls["distance"].value = 12.0  # toy rules: melee reaches 5
    assert "distance" in p.errors_shown() and p.situation == Situation(distance=12.0)
    p.editors["situation"].controls["distance"].value = 2.0
    assert p.errors_shown() == {}


def test_mirror_match_labels_both_sides():
    s = wb.system("glass_empires")
    doll = s.catalog().creature("Porcelain Doll")
    r = wb.duel(doll, doll)
    spec = duel_figure(r).to_dict()
    outcomes = {row["outcome"] for v in spec["datasets"].values() for row in v if "outcome" in row}
    assert outcomes == {"Porcelain Doll (A) wins", "draw", "Porcelain Doll (B) wins"}


@pytest.mark.parametrize("name", ["glass_empires", "last_odyssey", "unbound", "annulus"])
def test_duel_panel_on_a_real_system(name):
    s = wb.system(name)
    p = DuelPanel(s)
    expected = wb.duel(p.a, p.b)
    assert p.value.p_a_wins == pytest.approx(expected.p_a_wins, abs=1e-12)
    total = sum(split(p).values())
    assert total == pytest.approx(1.0, abs=1e-9)


def test_badge_says_exact_for_the_absorbing_chain(toy):
    p = DuelPanel(toy)
    assert p.value.exact and "wb-duel-badge" in p.badge.value and ">exact<" in p.badge.value
    assert "fights" not in p.stats.value


def test_badge_shows_fights_and_standard_error_when_simulated(state_too_large):
    """Ogre vs Berserker (Annulus: Daze, Knockdown, Burn, ... are stateful), its state past the
    chains' bounds (``state_too_large``), is simulated by the engine."""
    s = wb.system("annulus")
    cat = s.catalog()
    p = DuelPanel(s, cat.creature("Ogre"), cat.creature("Berserker"), fights=2000)
    r = p.value
    expected = wb.duel(cat.creature("Ogre"), cat.creature("Berserker"), fights=2000)
    assert not r.exact and r.fights == 2000
    assert r.p_a_wins == pytest.approx(expected.p_a_wins, abs=1e-12)  # seeded: reproducible
    assert f"simulated: 2,000 fights, s.e. {r.standard_error:.4f}" in p.badge.value
    assert r.forced_by and f"forced by {', '.join(r.forced_by)}" in p.badge.value  # the rules that needed it
    assert f"{r.standard_error:.4f}" in p.stats.value


def test_manual_mode_marks_stale_and_run_recomputes(toy):
    p = DuelPanel(toy, auto=False)
    before = p.value
    p.editors["b"].controls["hp"].value = 3
    assert p.value is before and "press Run duel" in p.stale.value
    p.run_button.click()
    assert p.value.p_a_wins == pytest.approx(51 / 64, abs=1e-12) and p.stale.value == ""
    assert "wb-duel-run" in p.run_button._dom_classes


def test_a_duel_nobody_can_win_reads_as_words(toy):
    """Two creatures with no attack: every fight is a draw; the table says "none decided" (it said
    "nan") and the curves' subtitle says no fight is decided."""
    a = Creature("Statue", hp=5, attacks=[])
    b = Creature("Pillar", hp=5, attacks=[])
    p = DuelPanel(toy, a, b, max_rounds=20)
    assert p.value.p_draw == pytest.approx(1.0)
    assert 'class="wb-rounds">none decided<' in p.stats.value and "nan" not in p.stats.value
    spec = p.chart.chart.to_dict()
    subtitles = [c.get("title", {}).get("subtitle", "") for c in spec["vconcat"]]
    assert any("no fight is decided within 20 rounds" in s for s in subtitles)


def test_a_simulated_duel_shows_a_preview_first_then_the_full_run(monkeypatch, state_too_large):
    """Issue 17 item 4, "a fast preview before a full run": a simulated duel of 20,000 fights is
    drawn first from PREVIEW_FIGHTS fights (badge "preview"), then replaced by the full run; the
    preview is the engine's own duel of that many fights (seeded: the same numbers)."""
    import threading

    import workbench.combat as combat
    from widgets.duel import PREVIEW_FIGHTS

    cat = wb.system("annulus").catalog()
    ogre, berserker = cat.creature("Ogre"), cat.creature("Berserker")
    p = DuelPanel("annulus", ogre, berserker, fights=PREVIEW_FIGHTS)
    gate, seen = threading.Event(), []
    real = combat.duel

    def gated(*args, **kwargs):
        if kwargs.get("fights") != PREVIEW_FIGHTS:  # the full run waits until the preview is checked
            seen.append(p.badge.value)
            gate.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(combat, "duel", gated)
    p.fights = 20_000
    p.first = "b"  # an edit: preview, then the full run
    try:
        deadline = __import__("time").monotonic() + 20
        while not seen and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.05)
        assert seen and "preview: simulated: 2,000 fights" in seen[0]
        preview = real(ogre, berserker, first="b", fights=PREVIEW_FIGHTS)
        assert f"{preview.p_a_wins:.2%}" in p.stats.value
    finally:
        gate.set()
    assert p.background.wait(30)
    assert p.value.fights == 20_000 and "preview" not in p.badge.value
    assert "simulated: 20,000 fights" in p.badge.value


def test_an_exact_duel_needs_no_preview(toy, monkeypatch):
    """An exact duel is the answer at once: the preview run is the only run (fights do not matter)."""
    import workbench.combat as combat

    calls = []
    real = combat.duel
    monkeypatch.setattr(combat, "duel", lambda *a, **k: calls.append(k["fights"]) or real(*a, **k))
    p = DuelPanel(toy, fights=50_000)
    assert p.value.exact and calls == [2_000] and "preview" not in p.badge.value


def test_a_long_duel_shows_its_progress_and_cancel_stops_it(state_too_large, monkeypatch):
    """Issue 17 item 4, "progress for simulations ... a cancel": while the full run of a simulated
    duel plays, the busy line counts the fights decided (from the engine's own progress checks);
    Cancel keeps the last result and stops the worker at its next check instead of letting it
    finish 100,000 fights nobody will see."""
    import threading
    import time

    import workbench.simulate.engine as engine

    # The worker is held at its first progress check until the test has read the busy line and
    # pressed Cancel: on a fast machine the whole run could otherwise end between two looks.
    seen, release = threading.Event(), threading.Event()
    real_check = engine.check_time

    def held_check(detail="", done=None, total=None, unit=""):
        real_check(detail, done, total, unit)  # the listener runs here: the busy line is set
        if total == 400_000 and not seen.is_set():  # the full run's first check, not the preview's
            seen.set()
            release.wait(30)

    # every check shows (not at most every PROGRESS_EVERY s), so the full run's first check is seen
    monkeypatch.setattr("widgets.base.PROGRESS_EVERY", 0.0)
    cat = wb.system("annulus").catalog()
    p = DuelPanel("annulus", cat.creature("Storm Priest"), cat.creature("Basilisk"), fights=2_000)
    before = p.value
    engine.check_time = held_check
    try:
        p.fights = 400_000
        p.first = "b"
        assert seen.wait(30), "the simulation never reached a progress check"
        busy = p.background.busy.value
        assert "of 400,000 fights decided" in busy and "%" in busy, busy
        future = p.background.future
        p.background.cancel()
    finally:
        release.set()
        engine.check_time = real_check
    stopped = time.monotonic()
    while not future.done() and time.monotonic() < stopped + 30:
        time.sleep(0.01)
    assert future.done() and type(future.exception()).__name__ == "Cancelled", future
    assert p.value is before and "cancelled" in p.background.busy.value


def test_the_plans_by_control_sets_the_duels_objective(toy):
    """Issue 15 item 4 in the panel: "plans by" is wb.duel's objective. By hand (toy rules, two uses a turn): Club
    d8+1 (mean 11 a turn) leaves a 6-HP Mark standing after round 1 only on d8 + d8 <= 3, P 3/64; Dagger d4+2 (mean 9)
    always kills it in round 1. The highest-mean plan wins round 1 with 61/64, "fewest expected rounds" with 1."""
    from widgets.duel import OBJECTIVE_CHOICES

    duelist = Creature("Duelist", hp=10, attacks=(Attack("Club", bonus=1, sides=8), Attack("Dagger", bonus=2, sides=4)))
    mark = Creature("Mark", hp=6, attacks=(Attack("Fist", bonus=0, sides=4),))
    p = DuelPanel(toy, duelist, mark)
    assert p.objective == "damage" and abs(p.value.rounds["p_a_wins"][0] - 61 / 64) < 1e-12
    assert [v for _, v in p.controls["objective"].options] == list(OBJECTIVE_CHOICES.values())
    p.controls["objective"].value = "rounds"
    assert p.background.wait(30) and p.objective == "rounds"
    assert abs(p.value.rounds["p_a_wins"][0] - 1.0) < 1e-12 and p.value.exact
    p.objective = "kill_within_5"  # set from code: the control lists it
    assert p.controls["objective"].value == "kill_within_5" and p.background.wait(30)
    assert abs(p.value.p_a_wins - 1.0) < 1e-12
    with pytest.raises(wb.RulesError) as err:
        p.objective = "fastest"
    assert err.value.field == "objective" and p.objective == "kill_within_5"


def test_a_result_finishing_after_an_edit_is_marked_stale_with_what_changed(toy, monkeypatch):
    """Issue 36, item 3: a run finishing after an edit showed the old pair as the duel on screen and
    cleared "inputs changed". Drive a run (held on a gate), edit side B mid-run, let it finish: the
    result is drawn marked stale, naming the change; the busy line is gone once nothing runs; Run
    duel then gives the duel of the inputs on screen."""
    import threading

    import workbench.combat as combat

    p = DuelPanel(toy, auto=False)
    ogre = p.b
    gate, started = threading.Event(), threading.Event()
    real = combat.duel

    def gated(*args, **kwargs):
        started.set()
        gate.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(combat, "duel", gated)
    p.editors["b"].controls["hp"].value = 3  # an edit, then Run: the run on Ogre at 3 HP starts
    p.run_button.click()
    assert started.wait(20) and p.background.working and "fighting" in p.background.busy.value
    giant = ogre.replace(name="Giant", hp=50)
    p.b = giant  # an edit while it runs (as the Damage tab's target changing does)
    gate.set()
    assert p.background.wait(30)
    assert p.value.b == "Ogre" and p.value.p_a_wins == pytest.approx(51 / 64, abs=1e-12)
    assert "Ogre \u2192 Giant" in p.stale.value and "press Run duel" in p.stale.value
    assert p.background.busy.value == "" and not p.background.working  # busy only while work runs
    monkeypatch.setattr(combat, "duel", real)
    p.run_button.click()
    assert p.background.wait(30) and p.value.b == "Giant" and p.stale.value == ""


def test_a_cancelled_full_run_leaves_no_badge_saying_it_goes_on(monkeypatch, state_too_large):
    """Issue 36, item 3: "the badge said 'the full run is going on' for 400 s with the kernel idle".
    A simulated duel's preview is shown, its full run cancelled: the badge says it did not finish."""
    import threading

    import workbench.combat as combat
    from widgets.duel import PREVIEW_FIGHTS

    cat = wb.system("annulus").catalog()
    p = DuelPanel("annulus", cat.creature("Ogre"), cat.creature("Berserker"), fights=PREVIEW_FIGHTS)
    gate, waiting = threading.Event(), threading.Event()
    real = combat.duel

    def gated(*args, **kwargs):
        if kwargs.get("fights") != PREVIEW_FIGHTS:
            waiting.set()
            gate.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(combat, "duel", gated)
    p.fights = 20_000
    p.first = "b"
    try:
        assert waiting.wait(20) and "the full run is going on" in p.badge.value
        p.background.cancel()
    finally:
        gate.set()
    assert "going on" not in p.badge.value and "the full run did not finish" in p.badge.value
