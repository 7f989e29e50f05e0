# %% [markdown]
# # Rules Workbench: quickstart
#
# **What this shows.** The workbench answers "what does this attack really do?" with **exact**
# distributions: not a simulation, not an average. Below is the Workbench app (pick a system, an
# attacker, a target and an attack, and watch the numbers move), then the same results by plain
# function calls, then one attack built from dice by hand.
#
# Run it top to bottom (Shift+Enter). Change the numbers in the last cell and run it again.

# %%
import workbench as wb  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt
import polars as pl

from workbench import Dist, charts
from widgets import enable_offline
import saved_charts

enable_offline()  # chart JavaScript from the installed packages, bundled once per install
saved_charts.enable()  # live charts, each saved with a PNG so the notebook reads before it runs
pl.Config.set_tbl_hide_dataframe_shape(True)
pl.Config.set_tbl_width_chars(120)
wb.systems()

# %% [markdown]
# ## The Workbench app
#
# Tabs for damage, duels, comparisons and building attack sets; the system selector switches
# between Annulus, Unbound (d20), Last Odyssey and Glass Empires. An illegal choice is explained
# beside its control and the last valid chart stays.

# %%
# NBVAL_IGNORE_OUTPUT
from widgets import Workbench

app = Workbench(system="glass_empires")
saved_charts.with_picture(app, "../docs/screenshots/app.png",
                          "The Workbench app: run this cell to use it (until then, a picture of it with Annulus selected).")

# %% [markdown]
# ## The same numbers by function calls
#
# Everything a panel shows is one call away. The app opened on Glass Empires (the Wolf against the
# Bear); here is its matchup computed directly.

# %%
v = app.value
attack, attacker, target = v["attack"], v["attacker"], v["target"]
dist = wb.damage(attack, attacker, target)
print(f"{attacker.name} uses {attack.name} on {target.name}")
print(f"mean {dist.mean():.4f}, sd {dist.std():.4f}, P(any damage) {dist.sf(1):.4f}")

# %%
s = wb.system("glass_empires")
bear, wolf = s.catalog().creature("Bear"), s.catalog().creature("Wolf")
print(wb.duel(bear, wolf).summary())
print(f"mean rounds for the Bear to kill the Wolf: {wb.mean_rounds_to_kill(wb.turn_damage(bear, wolf), wolf.hp):.6f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.damage_chart(wb.damage(bear.weapons[0], bear, wolf), title="Bear's Teeth & Claws against a Wolf")

# %% [markdown]
# ## One attack, built from dice
#
# A d20 roll with advantage (roll two, keep the higher), +7 to hit against AC 16. A natural 19 or
# 20 is a critical hit (4d6+6), other hits deal 2d6+3, misses deal 0. `Dist` holds the exact
# probability of every damage value.

# %%
d20 = Dist.highest(Dist.die(20), 2)            # advantage
p_crit = d20.sf(19)                             # P(d20 >= 19)
p_hit = d20.sf(16 - 7) - p_crit                 # needs 9+ on the die
attack = Dist.mixture(
    [Dist.constant(0), Dist.dice(2, 6) + 3, Dist.dice(4, 6) + 6],
    [1 - p_hit - p_crit, p_hit, p_crit],
)
attack

# %%
print(f"P(hit)  = {p_hit + p_crit:.4f}")
print(f"P(crit) = {p_crit:.4f}")
print(f"mean damage per attack = {attack.mean():.4f}, sd = {attack.std():.4f}")
print(f"P(at least 10 damage)  = {attack.sf(10):.4f}")

# %% [markdown]
# ## A turn, and rounds to kill
#
# Four independent attacks per turn: `4 @ attack` is the exact distribution of their sum.
# Rounds-to-kill runs an absorbing chain on the target's HP: no sampling.

# %%
turn = 4 @ attack
rtk = wb.rounds_to_kill(turn, hp=150)
print(f"mean damage per turn = {turn.mean():.4f}")
print(f"mean rounds to kill 150 HP = {wb.mean_rounds_to_kill(turn, 150):.6f}")
# (rounded to 12 decimals: float arithmetic leaves noise near 1e-16, different on different CPUs)
print(rtk.select("round", "p_killed_at", "p_killed_by").head(8).with_columns(pl.col(pl.Float64).round(12)))

# %%
# NBVAL_IGNORE_OUTPUT
charts.rounds_chart({"4 attacks with advantage": rtk}, title="Rounds to kill 150 HP")

# %% [markdown]
# ## Does it agree with what others published?
#
# `wb.references()` runs the engine against 46 figures that others published (d20 odds with
# advantage, dice sums, 4d6 scores, success pools, waiting times, textbook duels), each with its
# source's own rounding as the tolerance (docs/references.md). Two published figures are
# misprints, and the engine says so: they stay outside their rounding.

# %%
refs = wb.references()
print(f"{int(refs['within'].sum())} of {refs.height} within their source's rounding; misprints:")
print(refs.filter(~refs["agrees"]).select("source", "figure", "published", "engine"))

# %%
# NBVAL_IGNORE_OUTPUT
charts.references_chart(refs)

# %% [markdown]
# ## Your turn
#
# Change the bonus, the armour class or the HP below and run the cell: every number moves.
# Then open `01-annulus` … `04-glass-empires` for each system's rules, `05-duels`,
# `06-compare-and-explore` and `07-your-own-rules`.

# %%
bonus, ac, hp = 7, 16, 150
# the die must show at least AC - bonus (a 1 always misses, a 19 or 20 always hits and crits),
# so any AC and bonus give chances between 0 and 1
p_hit = d20.sf(min(max(ac - bonus, 2), 19)) - p_crit
attack = Dist.mixture([Dist.constant(0), Dist.dice(2, 6) + 3, Dist.dice(4, 6) + 6], [1 - p_hit - p_crit, p_hit, p_crit])
print(f"mean rounds to kill {hp} HP: {wb.mean_rounds_to_kill(4 @ attack, hp):.4f}")
