"""The lessons' exercises (notebooks 10-16): each question, and its answer and reason computed by the
workbench when the check runs (so an answer cannot go stale when a rule's default changes).

The student's notebooks call ``classroom.check(key, answer)``; the teacher's notebook
(``19-lesson-answers.ipynb``) shows every answer with its reason and runs the same checks.
"""

from __future__ import annotations

import workbench as wb  # first: altair (which classroom imports) then imports faster
from classroom import exercise, fx, percent  # noqa: I001

# --- 10: Annulus -------------------------------------------------------------------------------------


def _annulus():
    A = wb.system("annulus")
    hero = A.Creature("Hero", size=5, level=3, endurance=6, agility=1, toughness=1, insight=1)
    return A, hero


@exercise("10.1", "The Hero rolls the plain four-dice Strike against a target whose Agility defense is 2. "
          "What is the chance that the Strike deals **any** damage? (a probability, e.g. 0.25)")
def _():
    A, hero = _annulus()
    d = wb.damage(A.Attack("Strike", "agility"), hero, hero.replace(agility=2))
    p = d.sf(1)
    return round(p, 4), (f"Against defense 2 the Strike needs 3 or 4 successes on four dice: 4/16 + 1/16 = "
                         f"5/16 = {fx(p, 4)} ({percent(p)}).")


@exercise("10.2", "A creature has the Burn condition and spends 1 action on each recovery check. What is the "
          "chance that it has thrown off the condition after **three** checks? (a probability)")
def _():
    one = wb.Dist.binomial(4, 0.5).sf(3)  # 3 or more successes on 4 dice
    p = 1 - (1 - one) ** 3
    return round(p, 4), (f"One check succeeds with 3+ successes on four dice: 5/16 = {fx(one, 4)}. All three fail with "
                         f"(11/16)³ = {fx((1 - one) ** 3, 4)}, so at least one of three succeeds with {fx(p, 4)}.")


@exercise("10.3", "How many advantages (extra dice) does the Hero need before the plain Strike deals at least 1 "
          "damage **more than half** the time against defense 3? (a whole number)", tolerance=0)
def _():
    A, hero = _annulus()
    target, strike = hero.replace(agility=3), A.Attack("Strike", "agility")
    for n in range(0, 12):
        p = wb.damage(strike, hero, target, situation=A.Situation(extra_advantages=n)).sf(1)
        if p > 0.5:
            return n, (f"With {n} advantages the pool is {4 + n} dice and P(at least 4 successes) = {fx(p, 4)}; "
                       f"with {n - 1} it is {fx(wb.damage(strike, hero, target, situation=A.Situation(extra_advantages=n - 1)).sf(1), 4)}.")
    raise AssertionError("no answer below 12 advantages")


# --- 11: Unbound -------------------------------------------------------------------------------------


def _unbound():
    U = wb.system("unbound")
    cat = U.catalog()
    return U, cat, cat.creature("Town guard"), cat.creature("Veteran duelist"), cat.attack("Longsword")


def _p_hit(table) -> float:
    return float(table.filter(table["hit"])["probability"].sum())


@exercise("11.1", "The Town guard (+2 to hit with the longsword) attacks a target with AC 30. What is the chance "
          "to hit? (a probability)")
def _():
    U, cat, guard, duelist, longsword = _unbound()
    p = _p_hit(wb.outcomes(longsword, guard, duelist.replace(ac=30)))
    return round(p, 4), (f"d20 + 2 can never reach 30, but a natural 20 always hits: 1 face in 20 = {fx(p, 4)}.")


@exercise("11.2", "Against the Veteran duelist (AC 17), which longsword deals more damage per attack on average: "
          "one that crits on `18-20x2` or one that crits on `20x3`? (answer with the crit text, e.g. '20x3')",
          tolerance=0)
def _():
    U, cat, guard, duelist, longsword = _unbound()
    means = {c: wb.damage(longsword.replace(crit=c), guard, duelist).mean() for c in ("18-20x2", "20x3")}
    best = max(means, key=means.get)
    other = min(means, key=means.get)
    return best, (f"Mean damage: 18-20x2 {fx(means['18-20x2'], 4)}, 20x3 {fx(means['20x3'], 4)}, so {best} is better here "
                  f"(by {fx(means[best] - means[other], 4)} a swing). Use the Crit control in section 2 to compare them.")


@exercise("11.3", "The Veteran duelist makes an All Out Attack with its rapier and a dagger in the off hand (both "
          "light weapons). What modifier does the **second rapier attack** take? (a whole number, e.g. -4)",
          tolerance=0)
def _():
    U, cat, guard, duelist, longsword = _unbound()
    slots = U.slots([U.Action("all_out", "Rapier", off_hand="Dagger")], duelist)
    mod = [s.modifier for s in slots if s.attack.name == "Rapier"][1]
    return mod, (f"{mod:+d}: −4 for the iterative (every attack past the first) and −2 for two-weapon fighting "
                 f"with two light weapons, which every attack of the action takes.")


# --- 12: Last Odyssey ---------------------------------------------------------------------------------


def _last_odyssey():
    L = wb.system("last_odyssey")
    hero = L.Creature("Hero", hp=40, physical_accuracy=2, physical_attack=3, magical_accuracy=2, magical_attack=3)
    foe = L.Creature("Foe", hp=40, evasion=3, physical_defense=1, magical_defense=1)
    return L, hero, foe


@exercise("12.1", "The Hero (Physical Accuracy 2) strikes a Foe with Evasion 5. What is the chance to hit? "
          "(a probability)")
def _():
    L, hero, foe = _last_odyssey()
    t = wb.outcomes(L.Attack("Strike", kind="strike"), hero, foe.replace(evasion=5))
    p = float(t.filter(t["hit"])["probability"].sum())
    return round(p, 4), (f"Hit when die − 2 + 5 ≤ 7, so die ≤ 4: faces 1 to 4 of the d10, {fx(p, 4)}.")


@exercise("12.2", "A Fire spell against a target whose element is Ice: by how much is the damage multiplied? "
          "(a number)", tolerance=0)
def _():
    L, hero, foe = _last_odyssey()
    fire = L.Attack("Fire spell", kind="spell", element="fire")
    plain = L.Attack("Spell", kind="spell")
    ice = foe.replace(element="ice")
    ratio = wb.damage(fire, hero, ice).mean() / wb.damage(plain, hero, ice).mean()
    value = round(ratio, 2)
    return value, (f"The element table's Fire row, Ice column: ×{value:g}. The mean damage grows by the same "
                   f"factor (up to rounding to whole points).")


@exercise("12.3", "The Foe raises a Shell. Which does more damage against it on average, the Hero's plain "
          "strike or its plain spell? (answer 'strike' or 'spell')", tolerance=0)
def _():
    L, hero, foe = _last_odyssey()
    shelled = foe.replace(shell=10)
    s = wb.damage(L.Attack("Strike", kind="strike"), hero, shelled).mean()
    m = wb.damage(L.Attack("Spell", kind="spell"), hero, shelled).mean()
    best = "spell" if m > s else "strike"
    return best, (f"A spell against an active Shell does double damage and a strike loses its doubling: spell {fx(m, 2)}, "
                  f"strike {fx(s, 2)} on average.")


# --- 13: Glass Empires --------------------------------------------------------------------------------


def _glass():
    G = wb.system("glass_empires")
    fighter = G.Creature("Fighter", power=3, weapons=(G.Attack("Sword", category="light melee"),))
    knight = G.catalog().creature("Longswordsman in Chain (Level 0 human, example)")
    return G, fighter, knight


@exercise("13.1", "The Fighter strikes at a target in high cover (a −4 modifier to the Strike Save). What is the "
          "chance the Strike lands at all (a Crit, a Pass or a Seven)? (a probability)")
def _():
    G, fighter, knight = _glass()
    dummy = G.Creature("Dummy", power=10)
    t = wb.outcomes(fighter.weapons[0], fighter, dummy, situation=G.Situation(environment=-4))
    p = float(t.filter(t["strikes_passed"] > 0)["probability"].sum())
    return round(p, 4), (f"2d6 − 4 must reach 7, so the dice must show 11 or 12: 3 ways in 36 = {fx(p, 4)} (the 12 is a "
                         f"Crit, the 11s are Sevens).")


@exercise("13.2", "The Longswordsman in Chain has 1 armor point left. The Fighter's sword (4 damage) lands a Pass. "
          "How much damage reaches the knight's HP? (a whole number)", tolerance=0)
def _():
    G, fighter, knight = _glass()
    sword = fighter.weapons[0]
    t = wb.outcomes(sword, fighter, knight, situation=G.Situation(target_ap=1))
    hp = int(t.filter(~t["crit"] & (t["strikes_passed"] == 1))["damage"].max())  # a Pass (a Seven deals less)
    return hp, (f"A Pass deals the sword's {sword.damage}. One armor point absorbs 2 of it, so {hp} reaches HP "
                f"(and the knight has no armor points left).")


# --- 14: duels ----------------------------------------------------------------------------------------


def _duelists():
    cat = wb.system("unbound").catalog()
    return cat.creature("Ranger"), cat.creature("Battle mage")


@exercise("14.1", "A coin toss decides who goes first. What is the chance that the fight is over by the end of "
          "round 3? (a probability)")
def _():
    ranger, mage = _duelists()
    d = wb.duel(ranger, mage, first="random", progress=False)
    early = d.rounds.filter(d.rounds["round"] <= 3)
    parts = [float(a + b) for a, b in zip(early["p_a_wins"], early["p_b_wins"])]
    p = sum(parts)
    return round(p, 4), ("Add the chances that it ends in round 1, 2 and 3: "
                         + " + ".join(f"{fx(x, 4)}" for x in parts) + f" = {fx(p, 4)}.")


@exercise("14.2", "The Battle mage goes first. What is the **fewest** hit points the Ranger needs to win at least "
          "half of the fights? (a whole number)", tolerance=0)
def _():
    ranger, mage = _duelists()
    for hp in range(1, 200):
        p = wb.duel(ranger.replace(hp=hp), mage, first="b", progress=False).p_a_wins
        if p >= 0.5:
            below = wb.duel(ranger.replace(hp=hp - 1), mage, first="b", progress=False).p_a_wins
            return hp, (f"With {hp} HP the Ranger wins {fx(p, 4)}; with {hp - 1} HP only {fx(below, 4)}.")
    raise AssertionError("no answer below 200 HP")


# --- 15: design ---------------------------------------------------------------------------------------


@exercise("15.1", "With a budget of 4 Experience, how much damage per turn does the best Annulus attack set deal "
          "to the Town Guard? (a number)", tolerance=0.01)
def _():
    A = wb.system("annulus")
    found = wb.explore("annulus", targets=[A.catalog().creature("Town Guard")], budget=4, top_k=1, progress=False)
    top = found.sort("rank").row(0, named=True)
    return round(top["mean_turn_damage"], 4), (f"The best set with 4 Experience is {top['name']} (cost {top['cost']}): "
                                               f"{fx(top['mean_turn_damage'], 4)} damage per turn.")


@exercise("15.2", "Without the confirmation roll for criticals, how much more damage per turn does the Ranger deal "
          "to the Veteran duelist? (a number of damage points)", tolerance=0.01)
def _():
    U = wb.system("unbound")
    cat = U.catalog()
    ranger, duelist = cat.creature("Ranger"), cat.creature("Veteran duelist")
    before = wb.turn_damage(ranger, duelist).mean()
    after = wb.turn_damage(ranger, duelist, options=U.Options(confirm_crits=False)).mean()
    return round(after - before, 4), (f"{fx(after, 4)} − {fx(before, 4)} = {fx(after - before, 4)} damage per turn: every "
                                      f"threat that hits becomes a critical.")


# --- 16: encounters -----------------------------------------------------------------------------------


def _glass_pack():
    G = wb.system("glass_empires").catalog()
    return G.creature("Wolf"), G.creature("Boar"), G.creature("Spider Lily")


@exercise("16.1", "A Glass Empires Wolf acts first against **two** Spider Lilies (4 HP each). What is the chance "
          "that it fells both in its first turn? (a probability)")
def _():
    wolf, boar, lily = _glass_pack()
    p = float(wb.encounter([wolf], [lily, lily]).rounds["p_a_wins"][0])
    return round(p, 4), (f"A bite fells a fresh Lily on a Pass or a Crit, 15 ways in 36 = 5/12; the kill refunds the "
                         f"action, so the Wolf bites the second Lily in the same turn: 5/12 × 5/12 = 25/144 = "
                         f"{fx(p, 4)}.")


@exercise("16.2", "Two Glass Empires Wolves fight two Boars, and the **Boars** act first (targeting focus). Which "
          "turn order is better for the Wolves, 'sides' or 'alternate'? (answer with the order's name)",
          tolerance=0)
def _():
    wolf, boar, lily = _glass_pack()
    wins = {o: wb.encounter([wolf, wolf], [boar, boar], first="b", order=o).p_a_wins for o in ("sides", "alternate")}
    best = max(wins, key=wins.get)
    return best, (f"The Wolves win {percent(wins['sides'])} with 'sides' (both Boars bite before any Wolf) and "
                  f"{percent(wins['alternate'])} with 'alternate' (a Wolf bites between the two Boars), so "
                  f"'{best}' is better for them.")


@exercise("16.3", "How many Unbound Dire wolves can the Young dragon face and still win at least **nine times in "
          "ten**? (a whole number)", tolerance=0)
def _():
    U = wb.system("unbound").catalog()
    d = wb.encounter_difficulty([U.creature("Young dragon")], U.creature("Dire wolf"), levels=(0.9,), fights=20_000)
    n = d.copies[0.9]
    p = dict(zip(d.curve["copies"], d.curve["p_party_wins"]))
    return n, (f"The dragon wins {percent(p[n])} against {n} Dire wolves and {percent(p[n + 1])} against {n + 1} "
               f"(simulated): {n} is the most it beats at least nine times in ten.")
