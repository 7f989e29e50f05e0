# %% [markdown]
# # Your own rules: change a rule option, watch every number move
#
# **What you will learn.** Where the rules texts leave a number open, tables play it differently.
# The workbench makes every such choice a named **rule option** (`s.Options`, defaults from
# `CLARIFICATIONS.md`). Here you flip one option per system and see the damage of one attack, of a
# whole turn, and the rounds to kill change, all exactly:
#
# - Annulus: dice succeed on 5+ instead of 4+ (`success_on=5`); a Critical doubles only the damage
#   after defense (`crit_doubles_bonus=False`).
# - Unbound: critical threats need no confirmation (`confirm_crits=False`); a hit deals at least 1
#   (`minimum_damage=1`).
# - Last Odyssey: round down instead of to the nearest (`rounding="floor"`).
# - Glass Empires: resistance before the band's ×2 / ÷2 (`damage_order`).
#
# At the end, an options panel drives a damage panel: change a rule and the chart follows.

# %%
import workbench as wb  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt
import polars as pl

from workbench import charts
from workbench.widgets import enable_offline
import saved_charts

enable_offline()  # chart JavaScript from the installed packages, bundled once per install
saved_charts.enable()  # live charts, each saved with a PNG so the notebook reads before it runs
pl.Config.set_tbl_hide_dataframe_shape(True)
pl.Config.set_tbl_rows(40)
pl.Config.set_tbl_width_chars(140)
pl.Config.set_fmt_str_lengths(60)


def summary(label, attack, attacker, target, options, situation=None, hp=None):
    """One row of numbers for one rule option: per attack, per turn, rounds to kill."""
    system = wb.system_of(attack)
    d = wb.damage(attack, attacker, target, options, situation)
    turn = wb.turn_damage(attacker, target, options, situation)
    hp = system.hit_points(target) if hp is None else hp
    return {"rules": label, "mean / attack": round(d.mean(), 4), "P(any damage)": round(d.sf(1), 4),
            "mean / turn": round(turn.mean(), 4), "P(kill in 1 turn)": round(turn.sf(hp), 4),
            "mean rounds to kill": round(wb.mean_rounds_to_kill(turn, hp), 4)}


# %% [markdown]
# ## Annulus: what counts as a success
#
# > "roll four dice. You deal damage equal to the number of successes on the dice."
#
# The text never says which faces succeed; the default is 4+ (p = 1/2). With `success_on=5` each die
# succeeds a third of the time. The Wolf against the Town Guard:

# %%
A = wb.system("annulus")
cat = A.catalog()
wolf, guard = cat.creature("Wolf"), cat.creature("Town Guard")
claw = cat.attack("Claw")
rows = [summary(f"success_on={k}", claw, wolf, guard, A.Options(success_on=k)) for k in (3, 4, 5)]
print(pl.DataFrame(rows))

# %%
# NBVAL_IGNORE_OUTPUT
charts.at_least_chart({f"success on {k}+": wb.damage(claw, wolf, guard, A.Options(success_on=k)) for k in (3, 4, 5)},
                      title="Wolf's Claw against the Town Guard", subtitle="one rule option, three tables")

# %% [markdown]
# And a Critical against a Suspicious target: does the doubling include the assassination bonus?
# (The guard is Suspicious; the Claw has Critical.)

# %%
rows = [summary(f"crit_doubles_bonus={flag}", claw, wolf, guard, A.Options(crit_doubles_bonus=flag))
        for flag in (True, False)]
print(pl.DataFrame(rows))

# %% [markdown]
# ## Unbound: confirming critical hits, minimum damage
#
# The default rolls a second time to confirm a threat; many tables skip it. The Veteran duelist
# (rapier 18–20) against the Town guard:

# %%
U = wb.system("unbound")
ucat = U.catalog()
duelist, town_guard = ucat.creature("Veteran duelist"), ucat.creature("Town guard")
rapier = ucat.attack("Rapier")
rows = [summary(label, rapier, duelist, town_guard, options) for label, options in [
    ("confirm_crits=True", U.Options()),
    ("confirm_crits=False", U.Options(confirm_crits=False)),
]]
print(pl.DataFrame(rows))

# %% [markdown]
# The text states no minimum damage, so a weak hit can deal 0 (`minimum_damage=0`); many tables say
# "at least 1". That only matters when a hit can roll 0: a duelist with Strength −2 (rapier 1d6−2).

# %%
weak = duelist.replace(name="Weak duelist", str_mod=-2)
rows = [summary(f"minimum_damage={m}", rapier, weak, town_guard, U.Options(minimum_damage=m)) for m in (0, 1)]
print(pl.DataFrame(rows))

# %% [markdown]
# ## Last Odyssey: rounding
#
# > "the final damage they take is equal to the base damage of the attack multiplied by any relevant
# > modifiers and then rounded to the nearest integer."
#
# The text says nearest (half up); the published element page rounds down. The difference shows
# wherever a multiplier makes halves or quarters: the Blacksmith's Fire strike against the Raider's
# Water Shell (×0.5), every turn spent on Heated Strikes:

# %%
L = wb.system("last_odyssey")
lcat = L.catalog()
raider = lcat.creature("Raider")
heated = lcat.attack("Blacksmith: Heated Strike")
smith = lcat.creature("Blacksmith").replace(abilities=[heated])   # strikes only with fire
rows = [summary(f'rounding="{r}"', heated, smith, raider, L.Options(rounding=r), hp=L.health(raider))
        for r in ("nearest_half_up", "floor")]
print(pl.DataFrame(rows))
print(f"(Raider: HP {raider.hp} + Shell {raider.shell.points}; the chain keeps the Shell up throughout, a simplification)")

# %% [markdown]
# ## Glass Empires: the order of damage steps
#
# A Seven halves the damage and resistance halves it again, both rounding down; which comes first
# matters. A 5-damage sword against a target resistant to physical damage:

# %%
G = wb.system("glass_empires")
gcat = G.catalog()
fighter = gcat.creature("Human (Level 1 starting PC)")
sword = gcat.attack("Medium melee")
tough = fighter.replace(name="Resistant", resist=["physical"], hp=12)
rows = []
for order in ("band,resistance,armor", "resistance,band,armor"):
    d = wb.damage(sword, fighter, tough, G.Options(damage_order=order))
    rows.append({"damage_order": order, "Crit": d.max(), "P(any damage)": round(d.sf(1), 4),
                 "mean": round(d.mean(), 4), **{f"P({k})": round(d.probability(k), 4) for k in (1, 2, 5)}})
print(pl.DataFrame(rows))

# %% [markdown]
# ## Play: an options panel driving a damage panel
#
# Change `success_on`, `crit_doubles_bonus`, `reroll`, … in the panel on the left; the damage panel
# on the right follows through a `traitlets.dlink`.

# %%
# NBVAL_IGNORE_OUTPUT
import ipywidgets as W
import traitlets

from workbench.widgets.damage import DamagePanel
from workbench.widgets.situation import OptionsPanel

rules = OptionsPanel(A)
damage = DamagePanel(A, attacker=wolf, target=guard, attack=claw, controls=False)
traitlets.dlink((rules, "value"), (damage, "options"))
W.HBox([rules, damage])

# %%
rules.value = A.Options(success_on=5)
print(f"after setting success_on=5 in the options panel: damage panel mean {damage.value.mean():.4f}")

# %% [markdown]
# ## Your turn
#
# Write your own table's rules below (any fields of `A.Options()`; try `base_pool=5`,
# `size_free_steps=0`, `reroll="never"`) and run the cell: every number is recomputed.

# %%
my_rules = A.Options(success_on=4, base_pool=5, crit_doubles_bonus=False)
print(pl.DataFrame([summary("defaults", claw, wolf, guard, A.Options()),
                    summary("my rules", claw, wolf, guard, my_rules)]))
