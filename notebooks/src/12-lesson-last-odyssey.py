# %% [markdown]
# # Lesson: how a Last Odyssey attack lands
#
# **For:** a class or a game group learning Last Odyssey's attack rules. No programming needed: read
# the rule, look at the chart, move the control, answer the questions at the end.
#
# **You will see:** the hit die against accuracy and evasion, how the same die sets the damage, the
# Shell that turns strikes and spells around, and the elements.
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Each
# chart below a control is redrawn when the control moves. Every number is exact: the workbench
# counts every face of the die, it does not simulate.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

L = wb.system("last_odyssey")
hero = L.Creature("Hero", hp=40, physical_accuracy=2, physical_attack=3, magical_accuracy=2, magical_attack=3)
foe = L.Creature("Foe", hp=40, evasion=3, physical_defense=1, magical_defense=1)
strike = L.Attack("Strike", kind="strike")
spell = L.Attack("Spell", kind="spell")
RULES = "last-odyssey-attacks.txt"
PINNED = "CLARIFICATIONS.md (Last Odyssey)"


def p_hit(table) -> float:
    """The chance that an attack's outcome table hits."""
    return float(table.filter(table["hit"])["probability"].sum())


# %% hide
say(f"The cast, made up for this lesson: the **Hero** (Physical and Magical Accuracy {hero.physical_accuracy}, "
    f"Physical and Magical Attack {hero.physical_attack}) and a **Foe** (Evasion {foe.evasion}, Physical and "
    f"Magical Defense {foe.physical_defense}).")

# %% [markdown]
# ## 1. The hit die: accuracy against evasion

# %% hide
quote("When a character makes a strike against a target or targets, cast the hit die, subtract their Physical "
      "Accuracy from the result, and then add their opponent's Evasion. If the resulting number is equal to a 7 or "
      "below, the character hits and deals damage that reduces the targets' total HP.", RULES)

# %% hide
quote("For magical and physical, attacks, however, a result of 1 will still lead to a hit.", RULES)

# %% [markdown]
# The hit die is a d10 (pinned in `CLARIFICATIONS.md`), and low is good. Move the slider to change
# the Foe's **Evasion**; the Hero's Physical Accuracy stays as it is.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
evasions = list(range(0, 13))
hit_by_evasion = {e: p_hit(wb.outcomes(strike, hero, foe.replace(evasion=e))) for e in evasions}


def draw_evasion(evasion):
    top = 7 + hero.physical_accuracy - evasion  # the highest face that hits
    faces = "every face" if top >= 10 else ("only a 1" if top <= 1 else f"faces 1 to {top}")
    words = (f"Against Evasion **{evasion}** the Hero hits on **{faces}** of the d10: "
             f"P(hit) = **{percent(hit_by_evasion[evasion])}**.")
    chart = bars([{"Evasion": e, "P(hit)": p} for e, p in hit_by_evasion.items()], "Evasion", "P(hit)",
                 highlight=evasion, title=f"The Hero's strike (Physical Accuracy {hero.physical_accuracy}) against each Evasion")
    return [say(words), show(chart, f"P(hit) by Evasion, {evasion} highlighted: {fx(hit_by_evasion[evasion], 4)}")]


explore(w.IntSlider(value=3, min=evasions[0], max=evasions[-1], description="Evasion"), draw_evasion)

# %% [markdown]
# ## 2. The same die sets the damage

# %% hide
quote("The base damage of a strike is equal to the attacker's Physical Attack minus the target's Physical Defense "
      "plus the result of the hit die.", RULES)

# %% hide
quote("The minimum amount of base damage a character deals with an attack is 1.", RULES)

# %% [markdown]
# A high die adds damage but is more likely to miss, so the biggest hits are the rarest. There is one
# more rule that matters here: "when a character makes a strike against an opponent that does not have
# a Shell active, they also do double damage" (section 3). Move the slider to change the Foe's
# **Physical Defense**.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
def draw_defense(defense):
    target = foe.replace(physical_defense=defense)
    d = wb.damage(strike, hero, target)
    t = wb.outcomes(strike, hero, target)
    hits = t.filter(t["hit"])
    words = (f"Against Physical Defense **{defense}**: a hit deals **{hits['damage'].min()} to {hits['damage'].max()}** "
             f"damage (base damage doubled: the Foe has no Shell), **{fx(d.mean(), 2)}** per strike on average "
             f"(misses count as 0).")
    return [say(words), show(charts.damage_chart(d, title=f"The Hero's strike against Physical Defense {defense}"),
                             f"strike damage against defense {defense}: mean {fx(d.mean(), 4)}")]


explore(w.IntSlider(value=1, min=0, max=12, description="Defense"), draw_defense)

# %% [markdown]
# ## 3. The Shell: spells break it, strikes bounce off

# %% hide
quote("When a character uses a spell against an opponent that has a Shell active, they do double damage. Likewise, "
      "when a character makes a strike against an opponent that does not have a Shell active, they also do double "
      "damage.", RULES)

# %% [markdown]
# So a Shell protects against strikes (they lose their doubling) and invites spells. Choose whether
# the Foe has a Shell (10 points; the workbench treats a Shell as a pool that takes damage before HP,
# as pinned in `CLARIFICATIONS.md`). The chart gives the chance of at least each amount of damage:
# the higher curve is the better attack.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
targets = {"no Shell": foe, "a Shell (10 points)": foe.replace(shell=10)}


def draw_shell(label):
    target = targets[label]
    s, m = wb.damage(strike, hero, target), wb.damage(spell, hero, target)
    better = "the spell" if m.mean() > s.mean() else "the strike"
    words = (f"Against **{label}**: strike **{fx(s.mean(), 2)}**, spell **{fx(m.mean(), 2)}** damage on average, so "
             f"**{better}** is the better choice.")
    return [say(words), show(charts.at_least_chart({"strike": s, "spell": m}, title=f"Chance of at least X damage against {label}"),
                             f"strike mean {fx(s.mean(), 4)}, spell mean {fx(m.mean(), 4)} against {label}")]


explore(w.Dropdown(options=list(targets), value="a Shell (10 points)", description="Target has"), draw_shell)

# %% [markdown]
# ## 4. Elements

# %% hide
quote("the final damage they take is equal to the base damage of the attack multiplied by any relevant modifiers "
      "and then rounded to the nearest integer.", RULES)

# %% hide
quote("Elements (attack row, target column; colorless on either side → 1)", PINNED)

# %% [markdown]
# The element table is one of those modifiers. The Hero casts a **Fire** spell; choose the Foe's
# element. (A target with a Shell counts as the Shell's element.) The averages are not always exactly the
# table's multiplier: each hit's damage is multiplied, then rounded to a whole number (a quarter of 3
# damage rounds up to 1).

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
elements = ["colorless", "fire", "water", "earth", "wind", "thunder", "ice", "wood", "light", "shadow"]
fire = L.Attack("Fire spell", kind="spell", element="fire")


def foe_of(element):
    return foe.replace(element=None if element == "colorless" else element)


fire_means = {e: wb.damage(fire, hero, foe_of(e)).mean() for e in elements}


def draw_element(element):
    ratio = fire_means[element] / fire_means["colorless"]
    words = (f"A Fire spell against a **{element}** Foe: **{fx(fire_means[element], 2)}** damage on average, "
             f"**×{fx(ratio, 2)}** the damage against a colorless Foe ({fx(fire_means['colorless'], 2)}).")
    chart = bars([{"element": e, "mean damage": v} for e, v in fire_means.items()], "element",
                 "mean damage", highlight=element, sort=elements, y_format=".1f",
                 title="The Hero's Fire spell against each element", width=520)
    return [say(words), show(chart, f"Fire spell mean damage by element, {element}: {fx(fire_means[element], 4)}")]


explore(w.Dropdown(options=elements, value="wind", description="Foe is"), draw_element)

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("12.1")

# %%
answer = None
check("12.1", answer)

# %%
ask("12.2")

# %%
answer = None
check("12.2", answer)

# %%
ask("12.3")

# %%
answer = None  # "strike" or "spell"
check("12.3", answer)
