# %% [markdown]
# # Lesson: how an Annulus attack works
#
# **For:** a class or a game group learning Annulus's attack rules. No programming needed: read the
# rule, look at the chart, move the control, answer the questions at the end.
#
# **You will see:** four dice and their successes, the target's defense, advantages and
# disadvantages, what an upgrade does to the numbers, and conditions with their recovery checks.
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Each
# chart below a control is redrawn when the control moves. Every number is exact: the workbench
# counts every way the dice can fall, it does not simulate.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

A = wb.system("annulus")
hero = A.Creature("Hero", size=5, level=3, endurance=6, agility=1, toughness=1, insight=1)
strike = A.Attack("Strike", "agility")
RULES = "annulus-attacks.txt"
PINNED = "CLARIFICATIONS.md (Annulus)"

# %% hide
say(f"The cast: the **Hero**, size {hero.size}, level {hero.level}, with {hero.agility} in each defense, and a plain "
    f"attack set, the **Strike** (the Agility Damage seed and nothing else).")

# %% [markdown]
# ## 1. Roll four dice, count the successes, subtract the defense

# %% hide
quote("When you use an Attack on a subject, roll four dice. You deal damage equal to the number of successes on the "
      "dice. The subject of the attack subtracts their relevant defense from the damage dealt. This can reduce the "
      "damage a given target takes to 0 but not below 0.", RULES)

# %% hide
quote("Dice are d6; a die is a success on **4+**", PINNED)

# %% [markdown]
# So each die is a coin flip: a success half the time. Move the slider to change the target's
# **Agility defense** (the Strike is an Agility Damage attack, so Agility is the defense it meets).

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
def draw_defense(defense):
    d = wb.damage(strike, hero, hero.replace(agility=defense))
    rows = [{"damage": k, "chance": percent(d.probability(k)), "out of 16": round(d.probability(k) * 16)}
            for k in range(0, 5 - defense)]
    words = (f"Against defense **{defense}** the Strike deals no damage **{percent(d.probability(0))}** of the time "
             f"and **{fx(d.mean(), 4)}** damage on average ({fx(d.mean() * 16, 0)}/16).")
    return [say(words), table(rows),
            show(charts.damage_chart(d, title=f"The Strike against defense {defense}"),
                 f"damage against defense {defense}: mean {fx(d.mean(), 4)}, P(0) {fx(d.probability(0), 4)}")]


explore(w.IntSlider(value=1, min=0, max=4, description="Defense"), draw_defense)

# %% [markdown]
# ## 2. Advantages add dice, disadvantages take them away

# %% hide
quote("Advantages and disadvantages cancel one for one; each net advantage adds one die to the pool, each\n"
      "net disadvantage removes one (pool never below 0 dice).", PINNED)

# %% [markdown]
# The rules text gives them out in many places, for example: "Attacking a space with full concealment
# imposes two disadvantages on the attack check." Move the slider to set the **net advantages**
# (negative: disadvantages), against defense 1.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
nets = list(range(-4, 5))


def situation(net):
    return A.Situation(extra_advantages=max(net, 0), extra_disadvantages=max(-net, 0))


any_damage = {n: wb.damage(strike, hero, hero, situation=situation(n)).sf(1) for n in nets}


def draw_advantage(net):
    d = wb.damage(strike, hero, hero, situation=situation(net))
    pool = max(4 + net, 0)
    words = (f"**{pool}** dice: the Strike deals damage **{percent(d.sf(1))}** of the time, "
             f"**{fx(d.mean(), 4)}** on average.")
    chart = bars([{"net advantages": n, "P(any damage)": p} for n, p in any_damage.items()],
                 "net advantages", "P(any damage)", highlight=net, title="The Strike against defense 1")
    return [say(words), show(chart, f"P(any damage) by net advantages, {net:+d}: {fx(d.sf(1), 4)}")]


explore(w.IntSlider(value=0, min=nets[0], max=nets[-1], description="Advantages"), draw_advantage)

# %% [markdown]
# ## 3. Upgrades change the distribution
#
# An attack set is the Damage seed plus upgrades, each costing 1 Experience. Pick an upgrade: the
# rule sentence changes with it, and the chart compares the upgraded Strike (orange) with the plain
# one (blue), both against defense 1. (The rules text describes each upgrade without naming it;
# the names are the workbench's, listed in `CLARIFICATIONS.md`.)

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
upgrades = {
    "Reckless": ({"Reckless": 1}, "Every time the attack is used, you have +1 additional automatic success on the "
                 "check but take 1 damage that cannot be avoided or reduced in any way."),
    "Reckless ×2": ({"Reckless": 2}, "This upgrade may be selected multiple times; each time increases both damage "
                    "output and blowback by +1."),
    "Reroll": ({"Reroll": 1}, "After making an attack, you may optionally immediately reroll your check and take "
               "the new result. You must accept the new result even if it is worse than the old. You take a "
               "disadvantage on the reroll."),
    "Flashy": ({"Flashy": 1}, "you always have an advantage on checks to use the attack."),
    "Critical (trigger)": ({"Critical": 1}, "When the Trigger Die has a result of 12, the attack deals double normal "
                           "damage."),
}
plain = wb.damage(strike, hero, hero)


def draw_upgrade(name):
    ups, text = upgrades[name]
    d = wb.damage(A.Attack(name, "agility", ups), hero, hero)
    words = (f"**{name}**: mean damage **{fx(d.mean(), 4)}** (plain {fx(plain.mean(), 4)}), any damage "
             f"**{percent(d.sf(1))}** (plain {percent(plain.sf(1))}), most damage {d.max()} (plain {plain.max()}).")
    if name.startswith("Reckless"):
        words += f" The price: {ups['Reckless']} damage to yourself on every use."
    chart = charts.damage_chart({"plain Strike": plain, name: d}, title=f"{name} against defense 1")
    return [quote(text, RULES), say(words), show(chart, f"damage with {name}: mean {fx(d.mean(), 4)}")]


explore(w.Dropdown(options=list(upgrades), value="Reroll", description="Upgrade"), draw_upgrade)

# %% [markdown]
# ## 4. Conditions and recovery checks

# %% hide
quote("A target under the effects of a condition can throw off the condition by making a recovery check. [...] A "
      "recovery check is made by spending 1 action and rolling 4 dice. Recovery is successful (and the condition "
      "is removed) if the check has 3 or more successes.", RULES)

# %% hide
quote("Targets with the Burn condition take damage that ignores defense equal to the successes on two dice at the "
      "end of each of their turns.", RULES)

# %% [markdown]
# One recovery check succeeds when 3 or 4 of the four dice succeed. Move the slider: how many
# checks (one action each) does a burning creature need before it is probably free?

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
one_check = wb.Dist.binomial(4, 0.5).sf(3)
burn = wb.Dist.binomial(2, 0.5)
checks = list(range(1, 9))
free_by = {n: 1 - (1 - one_check) ** n for n in checks}


def draw_recovery(n):
    words = (f"One check succeeds with **{percent(one_check, 2)}** (5/16). After **{n}** check{'s' if n > 1 else ''} "
             f"the creature is free with **{percent(free_by[n])}**, still burning with "
             f"{percent(1 - free_by[n])}. Each turn it still burns costs it {fx(burn.mean(), 0)} damage on average "
             f"(two dice).")
    chart = bars([{"checks made": k, "P(free)": p} for k, p in free_by.items()], "checks made", "P(free)",
                 highlight=n, title="Chance to have thrown off a condition")
    return [say(words), show(chart, f"P(free) after 1 to 8 checks, {n} highlighted: {fx(free_by[n], 4)}")]


explore(w.IntSlider(value=2, min=1, max=8, description="Checks"), draw_recovery)

# %%
half = min(n for n in checks if free_by[n] >= 0.5)
say(f"It takes **{half}** checks before the chance to be free passes one half; on average a creature needs "
    f"**{fx(1 / one_check, 1)}** checks (16/5).")

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("10.1")

# %%
answer = None
check("10.1", answer)

# %%
ask("10.2")

# %%
answer = None
check("10.2", answer)

# %%
ask("10.3")

# %%
answer = None
check("10.3", answer)
