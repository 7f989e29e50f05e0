# %% [markdown]
# # Compare and explore: many builds against a whole bestiary
#
# **What you will learn.** How to answer "which build is best against what?" for many builds and
# many creatures at once, with every number saying how it was computed:
#
# - `wb.compare(builds, bestiary)`: one call, builds and creatures from two rule systems, one row per
#   (attacker, attack, target) with damage per use and per turn, the chance to kill in one turn and
#   the rounds to kill from the same fight `wb.rounds_to_kill` runs;
# - `wb.rank` and `wb.pivot` to read the grid, and `hp_share_per_turn` to compare across systems;
# - a heatmap, exporting to CSV and Parquet, and a bestiary typed into a pandas frame;
# - `wb.explore`: every legal Annulus attack set within an Experience budget, the top few against
#   each creature and the Pareto front of damage against cost; and `vary=` for the other systems;
# - a compare panel to click through.
#
# A row is exact unless its pair carries state that no chain holds yet (Annulus conditions, area
# recharge, awareness, First Blood, Reckless self-damage, a Last Odyssey Shell): then its kill
# columns come from 2,000 seeded fights, and `method`, `se` and `forced_by` say so. The seeds are
# fixed, so the numbers are the same on every run. The formulas and columns are in
# `docs/compare.md`. The last cell is yours to change.

# %%
import pathlib
import tempfile
import time
import warnings

import workbench as wb  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt
import pandas as pd
import polars as pl

from workbench import charts
from workbench.widgets import enable_offline
import saved_charts
from tables import readable  # inf as "never", null as "-", floats to 4 significant digits

enable_offline()  # chart JavaScript from the installed packages, bundled once per install
saved_charts.enable()  # live charts, each saved with a PNG so the notebook reads before it runs
pl.Config.set_tbl_hide_dataframe_shape(True)
pl.Config.set_tbl_rows(40)
pl.Config.set_tbl_cols(20)
pl.Config.set_tbl_width_chars(120)
pl.Config.set_tbl_hide_column_data_types(True)
pl.Config.set_fmt_str_lengths(48)
print("rule systems:", ", ".join(wb.systems()))

# %% [markdown]
# ## 1. One call, two rule systems
#
# Builds and creatures can be catalog names with a system prefix (`"annulus:Wolf"`), creatures,
# bare attacks, `(creature, attack)` pairs or bestiary frames. Here: three Annulus and three Unbound
# creatures as builds, three of each system as the bestiary. Matchups stay within a system, so
# the Wolf never meets the Owlbear.
#
# The engine leaves out any attack the rules forbid in this situation, with a warning. The
# Berserker's Death Rattle is a Swansong set, usable only at half Vitality or less, so it is left
# out here; we catch the warning to print it.

# %%
builds = ["annulus:Wolf", "annulus:Ogre", "annulus:Berserker",
          "unbound:Town guard", "unbound:Ranger", "unbound:Minotaur"]
bestiary = ["annulus:Rat", "annulus:Town Guard", "annulus:Drake",
            "unbound:Dire wolf", "unbound:Owlbear", "unbound:Young dragon"]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    grid = wb.compare(builds, bestiary, progress=False)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
print(f"{grid.height} rows × {grid.width} columns")
print(", ".join(grid.columns))

# %% [markdown]
# How each row was computed: `method` is "exact" or "simulated"; a simulated row has the standard
# error `se` of its mean rounds and `forced_by`, the state that needed the simulation.

# %%
print(grid.group_by("system", "method", "forced_by").len().sort("system", "method", "forced_by"))

# %% [markdown]
# Each attack is a row, used as often as the action economy allows in one turn
# (`uses_per_turn`: two Claws for the Wolf, one Charged Crushing Blow for the Ogre). The Wolf's
# attacks against the three Annulus creatures:

# %%
wolf = grid.filter(pl.col("attacker") == "Wolf")
print(readable(wolf.select("attack", "target", "target_hp", "uses_per_turn", "mean_damage", "p_any_damage",
                           "mean_turn_damage", "p_kill_one_turn")))
print(readable(wolf.select("attack", "target", "mean_rounds", "rounds_q10", "rounds_q50", "rounds_q90")))

# %% [markdown]
# Against the Drake (Agility 2, Toughness 3) both Wolf attacks deal nothing, so `mean_rounds` is
# infinite and the quantiles are empty: both print as "never". `rounds_q50` is the first round by which the kill
# chance reaches one half.
#
# ## 2. The best plan, ranked
#
# A creature given as a build also gets one row per target with `attack = "best plan"`: its best
# full turn (the legal plan with the highest mean damage, named in `plan`), which may mix attacks.
# `wb.rank` numbers the builds within each target (1 = best); for rounds, fewer is better.

# %%
best = grid.filter(pl.col("attack") == "best plan")
ranked = wb.rank(best, by="mean_rounds", per="target")
print(readable(ranked.select("target", "rank", "attacker", "plan", "mean_turn_damage", "p_kill_one_turn",
                             "mean_rounds", "rounds_q90")))

# %% [markdown]
# `wb.pivot` turns the long grid into the familiar matrix: one row per build, one column per
# creature. Cross-system cells are empty (printed "-"), and "never" is a build that cannot hurt
# that creature.

# %%
print(readable(wb.pivot(best, value="mean_rounds", index=("system", "attacker"))))

# %% [markdown]
# ## 3. Across systems: share of HP per turn
#
# Raw damage does not compare across systems: an Unbound Owlbear has 55 HP, an Annulus Town Guard 9
# (Endurance + Vitality). `hp_share_per_turn` = mean turn damage / target HP does: 0.5 means a
# typical turn takes half the creature. Ranking the whole frame (`per=None`) by it puts both systems
# on one ladder. (It is a mean: rounds to kill also feel the spread and the overkill of the last
# blow, so the two orders can differ a little.)

# %%
ladder = wb.rank(best, by="hp_share_per_turn", per=None)
print(readable(ladder.select("rank", "system", "attacker", "target", "target_hp", "mean_turn_damage",
                             "hp_share_per_turn", "mean_rounds")))

# %%
# NBVAL_IGNORE_OUTPUT
heat = charts.heatmap(best, x="target", y="attacker", value="mean_rounds", reverse=True,
                      title="Mean rounds to kill, best plan", subtitle="∞: the turn never damages; blank: other system",
                      extra=["plan", "hp_share_per_turn"])
charts.save_png(heat, "/tmp/nbcharts/06-heatmap.png")
heat

# %% [markdown]
# ## 4. Exporting
#
# `wb.export(frame, path)` writes `.csv` or `.parquet` by the suffix; `frame.to_pandas()` hands it
# to pandas. With `chain=True` the grid also holds `p_killed_by`, the kill chance by each round, as
# a list; in CSV it becomes text with the values separated by `;`. The files go to a temporary
# directory that is removed afterwards.

# %%
chained = wb.compare(["annulus:Wolf", "unbound:Minotaur"], ["annulus:Town Guard", "unbound:Owlbear"],
                     chain=True, max_rounds=20, progress=False)
with tempfile.TemporaryDirectory() as tmp:
    csv_path = wb.export(chained, pathlib.Path(tmp) / "grid.csv")
    parquet_path = wb.export(chained, pathlib.Path(tmp) / "grid.parquet")
    print("written:", sorted(p.name for p in pathlib.Path(tmp).iterdir()))
    from_parquet = pl.read_parquet(parquet_path)
    from_csv = pl.read_csv(csv_path)
print(f"Parquet reads back identical: {from_parquet.equals(chained)}")
print(f"CSV reads back identical (apart from the list column): "
      f"{from_csv.drop('p_killed_by').equals(chained.drop('p_killed_by'))}")
print(f"p_killed_by in CSV, first 3 rounds: {'; '.join(f'{float(x):.6f}' for x in from_csv['p_killed_by'][0].split(';')[:3])}")
frame = chained.to_pandas()
print(type(frame).__name__, frame.shape)

# %% [markdown]
# ## 5. A bestiary in a pandas frame
#
# Your own creatures can come from a spreadsheet or CSV: one row per creature, the columns named
# like the system's `Creature` fields (`U.Creature` for Unbound: `name, hp, ac, touch_ac, str_mod,
# dex_mod, ...`), an optional `system` column, empty cells taking defaults, and the attack field
# (`weapons` here) listing catalog attack names separated by `;`. Polars frames work the same way.

# %%
U = wb.system("unbound")
bandits = pd.DataFrame({
    "system": ["unbound"] * 3,
    "name": ["Bandit", "Bandit captain", "Ogre brute"],
    "hp": [11, 27, 60],
    "ac": [12, 15, 11],
    "touch_ac": [11, 12, 8],
    "str_mod": [1, 2, 5],
    "dex_mod": [1, 2, -1],
    "weapons": ["Short sword", "Longsword;Dagger", "Greataxe"],
})
road = wb.compare(["unbound:Town guard", "unbound:Ranger"], bandits, progress=False)
print(readable(wb.pivot(road.filter(pl.col("attack") == "best plan"), value="mean_rounds", index=("attacker",))))

# %% [markdown]
# The frame can be the attacker side too (each creature's weapons become rows). A bad cell is
# refused with the row and the column:

# %%
print(readable(wb.rank(wb.compare(bandits, ["unbound:Town guard"], best_plan=False, progress=False),
                       by="mean_turn_damage").select("attacker", "attack", "mean_turn_damage", "mean_rounds", "rank")))
try:
    wb.compare(bandits.assign(armour=[1, 2, 3]), ["unbound:Town guard"], progress=False)
except wb.RulesError as err:
    print(err)

# %% [markdown]
# ## 5b. Sweep: one target parameter over a range
#
# `wb.sweep(builds, target, parameter, values)` is compare against the target made once per value:
# the same fight, exact where it can be. Here two Unbound builds against the Veteran duelist as
# his AC rises from 10 to 30. A hit needs d20 + bonus >= AC, and a natural 20 always hits, so the
# lines flatten once only the 20 is left; the band is the 10-90 % range of the rounds.

# %%
guard, ranger = wb.system("unbound").catalog().creature("Town guard"), wb.system("unbound").catalog().creature("Ranger")
by_ac = wb.sweep([guard, ranger], "unbound:Veteran duelist", "ac", range(10, 31, 2), progress=False)
best = by_ac.filter(pl.col("attack") == "best plan")
print(readable(best.select("value", "attacker", "mean_rounds", "rounds_q10", "rounds_q90", "method").head(8)))

# %%
# NBVAL_IGNORE_OUTPUT
charts.sweep_chart(best, "mean_rounds", "Rounds to down the Veteran duelist, by his AC")

# %% [markdown]
# ## 5c. Who wins how often
#
# A mean hides a lot. `wb.head_to_head(a, b, target)` races two builds, each against its own copy
# of the target: how often each downs it first, who out-damages whom in one turn, and whether one
# build's rounds-to-kill curve is above the other's at every round (first-order stochastic
# dominance). The Town guard downs the Veteran duelist first two times in three, yet the curves
# cross in the tail: neither build is faster at every round.

# %%
race = wb.head_to_head(guard, ranger, wb.system("unbound").catalog().creature("Veteran duelist"), curves=True)
print(readable(race.select("a", "b", "p_a_first", "p_tie", "p_b_first", "p_a_outdamages", "rounds_dominance",
                           "method")))

# %%
# NBVAL_IGNORE_OUTPUT
charts.race_chart(race)

# %% [markdown]
# Where builds have a price (Annulus Experience) the race also says which build is cheaper and
# how often the cheaper one does better. The Rat's Bite costs 3 Experience, the Giant Centipede's
# two sets 9: against a Wolf the cheaper Rat downs it first about one time in ten. Choke carries
# state from turn to turn, and the fight is still exact: the Annulus chain over the fight's state
# holds it (a row that had to be simulated would say so and give its standard error).

# %%
A = wb.system("annulus").catalog()
cheap = wb.head_to_head(A.creature("Rat"), A.creature("Giant Centipede"), A.creature("Wolf"), fights=20_000, progress=False)
print(readable(cheap.select("cost_a", "cost_b", "cheaper", "p_cheaper_first", "p_cheaper_outdamages", "method", "se")))

# %% [markdown]
# ## 5d. The same grid under other rules
#
# `wb.variants` runs the grid once per rule variant and gives each row its change from the
# baseline. Unbound's crit confirmation (CLARIFICATIONS.md: on by default) against dropping it:
# every threat becomes a crit, so damage rises and rounds fall, most for weapons with a wide
# threat range.

# %%
U = wb.system("unbound")
v = wb.variants([guard, ranger], ["unbound:Veteran duelist", "unbound:Berserker"],
                {"confirm crits": U.Options(), "no confirmation": U.Options(confirm_crits=False)}, progress=False)
print(readable(v.filter(pl.col("variant") == "no confirmation").select(
    "attacker", "attack", "target", "mean_damage", "delta_mean_damage", "delta_mean_rounds")))

# %%
# NBVAL_IGNORE_OUTPUT
charts.variant_heatmap(v, "no confirmation")

# %% [markdown]
# ## 6. Explore: every attack set within a budget
#
# In Annulus an attack set costs 1 Experience for its seed plus 1 per upgrade rank.
# `wb.explore("annulus", targets=..., budget=3)` builds every legal set of at most 3 Experience
# (4,701 of them), collapses sets whose damage maths is the same against these targets (`sets`
# counts how many each row stands for), and keeps the `top_k` per target by mean turn damage, plus
# the **Pareto front** of mean turn damage against cost: the sets that no set of equal or lower
# cost beats. Rows past rank 5 are there because they are on the front. The sets are used by the
# neutral attacker (size 5, level 1).
#
# Only damage dealt counts here: Burn or Daze are not told apart, and Reckless self-damage is not
# a cost. Sets seeded on Agility and Insight tie when the targets' two defenses are equal.

# %%
A = wb.system("annulus")
t0 = time.perf_counter()
found = wb.explore("annulus", targets=["annulus:Town Guard", "annulus:Ogre"], budget=3, top_k=5, progress=False)
elapsed = time.perf_counter() - t0
print(f"{found['legal_sets'][0]:,} legal sets searched")
print(readable(found.select("target", "rank", "name", "cost", "sets", "mean_turn_damage", "p_kill_one_turn",
                            "pareto")))  # (mean_damage and p_any_damage are in the frame too)

# %%
print(f"explore took {elapsed * 1000:.0f} ms elapsed")

# %% [markdown]
# The Pareto front alone: what each extra Experience buys against each target.

# %%
print(readable(found.filter(pl.col("pareto")).sort("target", "cost").select(
    "target", "cost", "name", "mean_turn_damage", "p_kill_one_turn")))

# %% [markdown]
# `workbench.exploration.cost_front(found, by)` gives that front for any figure, cheapest first,
# and `charts.cost_front_chart` draws it: every build as a faint point, the front joined
# (`same_as`: how many builds of identical dice maths each row stands for; the cheapest is kept).

# %%
from workbench.exploration import cost_front

print(readable(cost_front(found, "p_kill_one_turn").select("target", "cost", "name", "p_kill_one_turn", "same_as")))

# %%
# NBVAL_IGNORE_OUTPUT
charts.cost_front_chart(found, "mean_turn_damage", "What each Experience buys")

# %% [markdown]
# `explore` ranks on one turn; for rounds to kill, hand the winners to `compare` as bare attacks
# (used by the same neutral attacker):

# %%
winners = [A.Attack("Damage", "agility"), A.Attack("Reckless", "agility", {"Reckless": 1}),
           A.Attack("Reckless 2", "agility", {"Reckless": 2})]
print(readable(wb.pivot(wb.compare(winners, ["annulus:Town Guard", "annulus:Ogre"], progress=False),
                        value="mean_rounds", index=("attack",))))

# %% [markdown]
# ### `vary=`: any system
#
# For the other systems, `vary` lists values of a base creature's fields (`str_mod`), of the attack
# (`attack`, or `attack.<field>`), of the situation (`situation.flanking`) or of the rule options
# (`options.<field>`), and explores every combination: here 3 × 3 × 2 = 18 Town guards. The
# Pareto front is for budgets only, so `pareto` is null.

# %%
guard = U.catalog().creature("Town guard")
varied = wb.explore("unbound", targets=["unbound:Dire wolf", "unbound:Owlbear"], base=guard, attack="Longsword",
                    vary={"attack": ["Longsword", "Heater", "Javelin"], "str_mod": [2, 3, 4],
                          "situation.flanking": [False, True]}, top_k=3, progress=False)
print(readable(varied.select("target", "rank", "attack", "str_mod", "situation.flanking", "mean_damage",
                             "mean_turn_damage", "p_kill_one_turn")))

# %% [markdown]
# ## 7. Play: a compare panel
#
# Every attack of the attackers against every target as a heatmap, coloured by the metric you pick.
# Click a cell to see that matchup's damage distribution below it. Illegal matchups (the Berserker's
# Death Rattle again) are grey, with the rule in the tooltip. (In a static view the panel is not
# live: run it.)

# %%
# NBVAL_IGNORE_OUTPUT
from workbench.widgets.compare import ComparePanel

acat = A.catalog()
panel = ComparePanel(A, attackers=[acat.creature(n) for n in ["Wolf", "Ogre", "Berserker"]],
                     targets=[acat.creature(n) for n in ["Rat", "Town Guard", "Drake", "Hill Giant"]])
panel

# %%
print(f"{panel.value.height} cells; selected: {panel.selected}")

# %% [markdown]
# ## Your turn
#
# Put your own builds and bestiary here: catalog names (`"glass_empires:Bear"`, `"last_odyssey:Troll"`,
# ...), creatures, or a frame. Rank by another column (`p_kill_one_turn`, `rounds_q90`,
# `hp_share_per_turn`) or pivot another value.

# %%
my_builds = ["glass_empires:Bear", "glass_empires:Wolf", "unbound:Berserker", "unbound:Blademaster"]
my_bestiary = ["glass_empires:Human (Level 1 starting PC)", "glass_empires:Horse, Warhorse",
               "unbound:Minotaur", "unbound:Owlbear"]
mine = wb.compare(my_builds, my_bestiary, progress=False)
print(readable(wb.rank(mine.filter(pl.col("attack") == "best plan"), by="hp_share_per_turn", per=None).select(
    "rank", "system", "attacker", "target", "hp_share_per_turn", "mean_rounds", "rounds_q90")))
