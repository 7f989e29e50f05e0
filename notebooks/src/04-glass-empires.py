# %% [markdown]
# # Glass Empires: the Strike Save, rule by rule
#
# **What you will learn.** How Glass Empires resolves an Attack: each Strike is a 2d6 Strike Save
# sorted into five bands (Crit, Pass, Seven, Failure, Fumble); weapons deal flat damage that the
# band doubles, keeps or halves; modifiers for range and cover shift the bands; several Strikes per
# Attack; resistance; armor points soaking physical damage; and whole turns. Every number is exact,
# computed by the workbench from `glass-empires-attack.txt` and the pinned reading in
# `CLARIFICATIONS.md`.
#
# Run the notebook top to bottom. At the end there is a panel to play with and a cell to change.

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
pl.Config.set_tbl_width_chars(120)
pl.Config.set_fmt_str_lengths(60)

G = wb.system("glass_empires")
cat = G.catalog()
human = cat.creature("Human (Level 1 starting PC)")
sword = cat.attack("Medium melee")
print(f"{human.name}: Power {human.power}, HP {human.hp}; {sword.name}: damage {sword.damage}")

# %% [markdown]
# ## 1. The Strike Save and its five bands
#
# > "To perform a Strike against a chosen valid target, choose an available weapon & roll a Strike
# > Save."
#
# | Result | Effect |
# |---|---|
# | Crit (≥12) | "twice the normal severity (normally, by doubling Damage taken)" |
# | Pass (8–11) | "suffers the weapon's effects, including Damage taken" |
# | Seven (7) | "halved normal severity (normally, by halving Damage taken; round down)" |
# | Failure (3–6) | "deflected, poorly aimed, or otherwise a failure" |
# | Fumble (≤2) | fails, and a windgun or Reload weapon jams |
#
# A Strike Save is 2d6 + modifier; a natural 12 is always a Crit and a natural 2 always a Fumble.
# A medium melee weapon (5 damage) against an unarmored human:

# %%
table = wb.outcomes(sword, human, human)
print(table.select("probability", "damage", "crit", "fumble"))
d = wb.damage(sword, human, human)
print(f"P(10) = {d.probability(10) * 36:.0f}/36, P(5) = {d.probability(5) * 36:.0f}/36, "
      f"P(2) = {d.probability(2) * 36:.0f}/36, P(0) = {d.probability(0) * 36:.0f}/36; mean {d.mean():.4f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.damage_chart(d, title="A sword (5 damage) against an unarmored human")

# %% [markdown]
# ## 2. Modifiers shift the bands
#
# > "You may not add personal Fact bonuses to a Save, but should otherwise add factors such as the
# > environment, Conditions, & the like."
#
# Each relevant factor is ±1 (`Situation(environment=..., conditions=...)`). Out of 36, the bands
# for every modifier from −4 to +4 (a natural 12 stays a Crit and a natural 2 a Fumble, so no band
# ever empties completely at the ends):

# %%
probe = G.Attack("Probe", damage=4)   # crit 8, pass 4, seven 2, failure or fumble 0
rows = []
for modifier in range(-4, 5):
    t = wb.outcomes(probe, human, human, situation=G.Situation(conditions=modifier))

    def n36(expr):
        return round(float(t.filter(expr)["probability"].sum()) * 36)

    rows.append({"modifier": modifier, "crit": n36(pl.col("crit")), "pass": n36(pl.col("damage") == 4),
                 "seven": n36(pl.col("damage") == 2), "failure": n36((pl.col("damage") == 0) & ~pl.col("fumble")),
                 "fumble": n36(pl.col("fumble"))})
bands = pl.DataFrame(rows)
print(bands)

# %% [markdown]
# ## 3. Range and cover
#
# > "Ranged attacks may be performed at up to twice a weapon's listed range, but when doing so,
# > each Strike Save suffers a −1 penalty."
#
# > "If the target has low/weak cover (half a character's Height), ranged attacks' Strike Saves
# > suffer a −2 penalty. If the target has high/strong cover (covering their whole body), it's a −4
# > penalty."
#
# A crossbow (8 damage, Reload, listed range 150 ft):

# %%
crossbow = cat.attack("Crossbow")
rows = []
for label, situation in [("100 ft, no cover", G.Situation(distance=100)),
                         ("250 ft (beyond range)", G.Situation(distance=250)),
                         ("100 ft, low cover", G.Situation(distance=100, cover="low")),
                         ("100 ft, high cover", G.Situation(distance=100, cover="high"))]:
    t = wb.outcomes(crossbow, human, human, situation=situation)
    rows.append({"shot": label, "mean damage": round(float((t["probability"] * t["damage"]).sum()), 4),
                 "P(any damage)": round(float(t.filter(pl.col("damage") > 0)["probability"].sum()), 4),
                 "P(jam)": round(float(t.filter(pl.col("jam"))["probability"].sum()), 4)})
print(pl.DataFrame(rows))
try:
    wb.damage(crossbow, human, human, situation=G.Situation(distance=400))
except wb.RulesError as err:
    print(err)

# %% [markdown]
# ## 4. Several Strikes per Attack, and the kill
#
# > "by default, characters receive 1 Strike per Attack (but may receive more through Features or
# > other abilities)."
#
# The Bear makes 2 Strikes of 10 damage per Attack. Against the 12 HP human, each Strike deals 20,
# 10, 5 or 0 (weights 1, 14, 6 and 15 out of 36), and the human dies unless both Strikes together
# stay under 12: P(kill) = 435/1296.

# %%
bear = cat.creature("Bear")
claws = bear.weapons[0]
t = wb.outcomes(claws, bear, human)
p_kill = float(t.filter(pl.col("kill"))["probability"].sum())
print(f"P(kill) = {p_kill:.6f} = {p_kill * 1296:.0f}/1296; mean damage {float((t['probability'] * t['damage']).sum()):.4f}")

# %% [markdown]
# ## 5. Armor points soak physical damage
#
# Armor points = Armor × Power (plate is Armor 4); they absorb physical damage before HP, 1 AP per
# 2 damage or fraction. The Plate Soldier (Power 4, 16 AP) shrugs off a sword Pass entirely: 5
# damage costs 3 AP. Only when the plate is worn down does damage reach HP:

# %%
soldier = cat.creature("Plate Soldier (Level 2 human, example)")
print(f"Plate Soldier: {G.armor_points(soldier, G.Options())} armor points, {soldier.hp} HP")
rows = []
for ap in [16, 6, 2, 0]:
    t = wb.outcomes(sword, human, soldier, situation=G.Situation(target_ap=ap))
    rows.append({"AP left": ap, "mean HP damage": round(float((t["probability"] * t["damage"]).sum()), 4),
                 "mean AP lost": round(float((t["probability"] * t["ap_damage"]).sum()), 4),
                 "P(HP damage)": round(float(t.filter(pl.col("damage") > 0)["probability"].sum()), 4)})
print(pl.DataFrame(rows))

# %% [markdown]
# The order is a rule option (`damage_order`): by default the band's ×2 or ÷2 comes first, then
# resistance (halves, rounded down), then armor points, then HP.
#
# ## 6. A whole turn
#
# Two instant actions per turn, at most one of them a Save action; the Attack is resolved by Strike
# Saves, so by default (`attack_is_save_action=True`) one Attack per turn. The Bear against the
# Plate Soldier, and how many rounds it takes (the armor carries over from Strike to Strike within
# the Attack):

# %%
for plan, dist in wb.turn_plans(bear, soldier).items():
    print(f"{plan}: mean HP damage {dist.mean():.6f}, P(8 damage) = {dist.probability(8) * 1296:.0f}/1296")
bear_vs_human = wb.turn_damage(bear, human)
print(f"Bear vs human: mean rounds to kill 12 HP = {wb.mean_rounds_to_kill(bear_vs_human, human.hp):.4f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.rounds_chart({"Bear vs human": wb.rounds_to_kill(bear_vs_human, hp=human.hp),
                     "Wolf vs human": wb.rounds_to_kill(wb.turn_damage(cat.creature("Wolf"), human), hp=human.hp)},
                    title="Rounds to bring down a 12 HP human")

# %% [markdown]
# The Bear's turn against the Plate Soldier above is for a fresh soldier. Armor worn down from one
# round to the next is state that the plain chain does not carry (the combat layer's seeded
# simulation does), so the rounds chart uses the unarmored human.
#
# ## 7. Play: a damage panel
#
# Pick a weapon and two creatures; try cover, distance, conditions, armor, or the options.

# %%
# NBVAL_IGNORE_OUTPUT
from workbench.widgets.damage import DamagePanel

panel = DamagePanel(G, attacker=human, target=cat.creature("Wolf"), attack=sword)
panel

# %%
print(f"panel: mean {panel.value.mean():.4f}, P(any damage) {panel.value.sf(1):.4f}")

# %% [markdown]
# ## Your turn
#
# Change the weapon, the modifiers or the target's armor and run the cell.

# %%
weapon = cat.attack("Heavy melee")
target = cat.creature("Wolf").replace(armor=1)
situation = G.Situation(conditions=1)

t = wb.outcomes(weapon, human, target, situation=situation)
print(f"mean HP damage {float((t['probability'] * t['damage']).sum()):.4f}, "
      f"P(kill) {float(t.filter(pl.col('kill'))['probability'].sum()):.4f}")
