# %% [markdown]
# # Unbound (d20): how an attack works, rule by rule
#
# **What you will learn.** How an Unbound attack roll is resolved: d20 + attack bonus against AC
# or touch AC, the automatic natural 1 and 20, which attribute gives the bonus, critical threats and
# their confirmation, advantage and the situational bonuses, the stacking −4 of multiple attacks,
# two-weapon fighting, Wild Attack and range increments; then whole turns and rounds to kill.
# Every number is exact, computed by the workbench from `unbound-d20-attacking.txt` and the
# defaults pinned in `CLARIFICATIONS.md`.
#
# Run the notebook top to bottom. At the end there is a panel to play with and a cell to change.

# %%
import workbench as wb  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt
import polars as pl

from workbench import charts
from widgets import enable_offline
import saved_charts

enable_offline()  # chart JavaScript from the installed packages, bundled once per install
saved_charts.enable()  # live charts, each saved with a PNG so the notebook reads before it runs
pl.Config.set_tbl_hide_dataframe_shape(True)
pl.Config.set_tbl_rows(40)
pl.Config.set_tbl_width_chars(120)
pl.Config.set_fmt_str_lengths(80)

U = wb.system("unbound")
cat = U.catalog()
guard, duelist = cat.creature("Town guard"), cat.creature("Veteran duelist")
longsword = cat.attack("Longsword")


def mean_of(table: pl.DataFrame, column: str = "damage") -> float:
    """Expected value of one column of an outcome table."""
    return float((table["probability"] * table[column].cast(pl.Float64)).sum())


def p_of(table: pl.DataFrame, column: str) -> float:
    """Probability that a boolean column of an outcome table is true."""
    return float(table.filter(pl.col(column))["probability"].sum())


print(guard.name, "STR", guard.str_mod, "| target:", duelist.name, "AC", duelist.ac, "touch AC", duelist.touch_ac)

# %% [markdown]
# ## 1. d20 + attack bonus against AC
#
# > "When a character attempts to make an attack they typically roll a d20 and add their Attack
# > Bonus to the result. If the result of their attack is equal to or higher than the targets Ac or
# > Touch AC, whichever they are targeting, the attack hits"
#
# And where the bonus comes from:
#
# > "Melee attacks use the characters strength modifier to hit by default. Ranged Attacks: Ranged
# > attacks use the characters dexterity modifier to hit by default."
#
# The Town guard (Strength +2) swings a longsword (1d8, melee damage adds Strength too) at the
# Veteran duelist, AC 17: it needs 15 or more on the die, 6 faces out of 20.

# %%
table = wb.outcomes(longsword, guard, duelist)
print(f"P(hit) = {p_of(table, 'hit'):.4f}, mean damage = {mean_of(table):.5f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.damage_chart(wb.damage(longsword, guard, duelist), title="Town guard's longsword against AC 17")

# %% [markdown]
# ## 2. Natural 1 and natural 20
#
# > "a natural 1 on the d20 roll is an automatic miss and a natural 20 is an automatic hit
# > regardless of the target's AC."
#
# So the chance to hit never leaves 5 % – 95 %, whatever the AC:

# %%
rows = []
for ac in [5, 10, 14, 17, 20, 23, 30]:
    t = wb.outcomes(longsword, guard, duelist.replace(ac=ac))
    rows.append({"AC": ac, "needs on d20": max(2, min(20, ac - 2)), "P(hit)": round(p_of(t, "hit"), 4),
                 "mean damage": round(mean_of(t), 4)})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 3. Critical hits: threat, then confirmation
#
# The longsword is "19-20x2": a natural 19 or 20 that hits *threatens*. By default (rule option
# `confirm_crits=True`) a second roll with the same modifiers must hit the same AC to confirm, and a
# confirmed critical rolls the weapon damage twice (1d8+2 twice = 2d8+4).

# %%
rows = []
for confirm in [True, False]:
    t = wb.outcomes(longsword, guard, duelist, U.Options(confirm_crits=confirm))
    rows.append({"confirm_crits": confirm, "P(hit)": p_of(t, "hit"), "P(threat)": p_of(t, "threat"),
                 "P(crit)": round(p_of(t, "crit"), 4), "mean damage": round(mean_of(t), 5)})
print(pl.DataFrame(rows))

# %% [markdown]
# With confirmation, P(crit) = P(threat) × P(hit) = 0.10 × 0.30 = 0.03.
#
# ## 4. Situational bonuses and advantage
#
# > "Flanking: When two characters flank an enemy they gain a +2 tactical bonus to hit at base."
#
# > "Charge: When a character takes the charge action when making a melee attack they gain
# > advantage on their attack roll."
#
# Advantage rolls two d20 and keeps the higher (disadvantage the lower; the two cancel).

# %%
rows = []
for label, situation in [
    ("plain", U.Situation()),
    ("flanking +2", U.Situation(flanking=True)),
    ("high ground +1", U.Situation(high_ground="above")),
    ("attacking up −1", U.Situation(high_ground="below")),
    ("charge (advantage)", U.Situation(charge=True)),
    ("disadvantage", U.Situation(disadvantage=True)),
    ("charge + flanking", U.Situation(charge=True, flanking=True)),
]:
    t = wb.outcomes(longsword, guard, duelist, situation=situation)
    rows.append({"situation": label, "P(hit)": round(p_of(t, "hit"), 4), "P(crit)": round(p_of(t, "crit"), 4),
                 "mean damage": round(mean_of(t), 4)})
print(pl.DataFrame(rows))

# %%
# NBVAL_IGNORE_OUTPUT
charts.at_least_chart({"plain": wb.damage(longsword, guard, duelist),
                       "charge (advantage)": wb.damage(longsword, guard, duelist, situation=U.Situation(charge=True))},
                      title="Longsword: plain against charging")

# %% [markdown]
# ## 5. Multiple attacks, All Out Attack and two weapons
#
# > "Every attack past the first a character makes in the same turn takes a stacking -4 penalty to
# > hit"
#
# > "The All Out Attack action requires a single Basic Action to perform and may only be performed
# > once per turn at base."
#
# The Veteran duelist is a professional: All Out Attack gives two rapier attacks (the second at −4).
# Adding the dagger in the off hand is two-weapon fighting: "both attacks take the multiple attack
# penalty from the off hand", −4, lowered by 2 because both weapons are light. `U.slots` shows each
# roll's modifier.

# %%
actions = {
    "Push the Attack (Rapier)": U.Action("push", "Rapier"),
    "All Out Attack (Rapier)": U.Action("all_out", "Rapier"),
    "All Out Attack (Rapier + Dagger)": U.Action("all_out", "Rapier", off_hand="Dagger"),
    "Wild All Out Attack (Rapier + Dagger)": U.Action("all_out", "Rapier", off_hand="Dagger", wild=True),
}
rows = []
for label, action in actions.items():
    t = U.action_outcomes(action, duelist, guard)
    rows.append({"action": label,
                 "roll modifiers": ", ".join(f"{s.attack.name} {s.modifier:+d}" for s in U.slots([action], duelist)),
                 "mean hits": round(mean_of(t, "hits"), 4), "mean damage": round(mean_of(t), 4),
                 "own AC penalty": int(t["self_ac_penalty"].max())})
print(pl.DataFrame(rows))

# %% [markdown]
# Note that the rapier is a melee weapon, so its bonus is the duelist's Strength (+1), not its
# Dexterity (+4): the rules text gives melee attacks Strength "by default". A table that lets
# finesse weapons use Dexterity can set the attack's `attack_bonus`.
#
# The last row is a **Wild Attack**:
#
# > "The target of any wild attacks takes a -2 plus half the multiple attack penalty to AC [...]
# > However the attacker also takes a penalty to AC equal to half the highest penalty applied by a
# > wild attack until the start of their next turn."
#
# ## 6. Ranged attacks and range increments
#
# > "every range increment past the first applies a stacking -2 penalty to attack. At base thrown
# > weapons have a maximum number of 5 range increments"
#
# The guard's javelin (thrown, range increment 30 ft, Dexterity +1):

# %%
javelin = cat.attack("Javelin")
rows = []
for feet in [30, 60, 90, 120, 150]:
    t = wb.outcomes(javelin, guard, duelist, situation=U.Situation(distance=feet))
    rows.append({"distance (ft)": feet, "P(hit)": round(p_of(t, "hit"), 4), "mean damage": round(mean_of(t), 4)})
print(pl.DataFrame(rows))
try:
    wb.damage(javelin, guard, duelist, situation=U.Situation(distance=200))
except wb.RulesError as err:
    print(err)

# %% [markdown]
# ## 7. A whole turn, and rounds to kill
#
# Two basic actions per turn; All Out Attack at most once. `wb.turn_plans` lists every legal way
# to spend the turn; here are the duelist's five best against the guard, then the rounds it needs
# to drop the guard's 18 HP with its best plan.

# %%
plans = wb.turn_plans(duelist, guard)
best = sorted(plans.items(), key=lambda kv: -kv[1].mean())[:5]
for label, dist in best:
    print(f"{dist.mean():7.4f}  {label}")
turn = wb.turn_damage(duelist, guard)
print(f"mean rounds to kill {guard.hp} HP: {wb.mean_rounds_to_kill(turn, guard.hp):.4f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.rounds_chart({"Veteran duelist vs Town guard": wb.rounds_to_kill(turn, hp=guard.hp)},
                    title="Rounds for the duelist to drop the guard")

# %% [markdown]
# ## 8. The reference scenario
#
# The reference benchmark (benchmarks/README.md): +7 against AC 16 with advantage, 19–20 threatens and crits without
# confirmation, 2d6+3 (crit 4d6+6). P(hit) = 1 − (8/20)² = 0.84, P(crit) = 1 − (18/20)² = 0.19,
# mean 10.3 per attack; four attacks a turn kill 150 HP in 4.178 rounds on average.

# %%
reference = U.damage(cat.attack("Reference greatsword"), cat.creature("Reference bruiser"),
                     cat.creature("Reference bruiser"), U.Options(confirm_crits=False), U.Situation(advantage=True))
print(f"mean per attack = {reference.mean():.4f}; "
      f"mean rounds to kill 150 HP with 4 per turn = {wb.mean_rounds_to_kill(4 @ reference, 150):.6f}")

# %% [markdown]
# ## 9. Play: a damage panel
#
# Change the weapon's dice or crit range, the attacker's modifiers, the target's AC, the situation
# (flanking, charge, distance…) or the options (`confirm_crits`, `minimum_damage`) in the tabs.

# %%
# NBVAL_IGNORE_OUTPUT
from widgets.damage import DamagePanel

panel = DamagePanel(U, attacker=guard, target=duelist, attack=longsword)
panel

# %%
print(f"panel: mean {panel.value.mean():.5f}, P(any damage) {panel.value.sf(1):.4f}")

# %% [markdown]
# ## Your turn
#
# Change the weapon, the bonus, the AC or the situation below and run the cell.

# %%
weapon = U.Attack("My greataxe", damage="1d12", kind="melee", crit="20x3")
attacker = guard.replace(str_mod=4)
target = duelist.replace(ac=15)
situation = U.Situation(flanking=True)

t = wb.outcomes(weapon, attacker, target, situation=situation)
print(f"P(hit) {p_of(t, 'hit'):.4f}, P(crit) {p_of(t, 'crit'):.4f}, mean {mean_of(t):.4f}")
