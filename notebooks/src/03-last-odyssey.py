# %% [markdown]
# # Last Odyssey: one hit die, rule by rule
#
# **What you will learn.** How Last Odyssey resolves strikes, spells and sleights with a single d10
# *hit die* that decides both whether the ability hits and how hard: the accuracy check, the
# automatic hit on a 1, base damage and its minimum, the Shell doubling rule, the element table
# and rounding, sleights, multi-target attacks sharing one die, nonlethal attacks, and whole turns
# with action points. Every number is exact, computed by the workbench from
# `last-odyssey-attacks.txt` and the pinned reading in `CLARIFICATIONS.md`.
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

L = wb.system("last_odyssey")
cat = L.catalog()
cop, skirmisher = cat.creature("Cop"), cat.creature("Skirmisher")
truncheon = cat.attack("Cop: Truncheon")


def p_of(table: pl.DataFrame, column: str) -> float:
    """Probability that a boolean column of an outcome table is true."""
    return float(table.filter(pl.col(column))["probability"].sum())


def hit_range(d: wb.Dist) -> str:
    """The smallest and largest damage of a hit, e.g. "4–12"."""
    hits = d.to_polars().filter((pl.col("damage") > 0) & (pl.col("probability") > 0))["damage"]
    return f"{hits.min()}–{hits.max()}"


print(f"Cop: Physical Accuracy {cop.physical_accuracy}, Physical Attack {cop.physical_attack}")
print(f"Skirmisher: Evasion {skirmisher.evasion}, Physical Defense {skirmisher.physical_defense}, "
      f"Shell {skirmisher.shell.points} ({skirmisher.shell.element}), HP {skirmisher.hp}")

# %% [markdown]
# ## 1. The strike: hit die − accuracy + evasion ≤ 7
#
# > "When a character makes a strike against a target or targets, cast the hit die, subtract their
# > Physical Accuracy from the result, and then add their opponent's Evasion. If the resulting
# > number is equal to a 7 or below, the character hits"
#
# > "The base damage of a strike is equal to the attacker's Physical Attack minus the target's
# > Physical Defense plus the result of the hit die."
#
# The Cop's Truncheon against the Skirmisher: die − 4 + 2 ≤ 7, so faces 1–9 hit; damage 4 − 1 +
# die = 3 + die. The same die that makes a hit likely (a low roll) makes it weak. Each row below is
# one face of the d10 (probability 1/10); `shell_damage` and `hp_damage` split the damage between
# the Skirmisher's 5-point Shell and its HP.

# %%
table = wb.outcomes(truncheon, cop, skirmisher)
print(table)
print(f"P(hit) = {p_of(table, 'hit'):.2f}; mean damage = {(table['probability'] * table['damage']).sum():.2f}; "
      f"P(damage reaches HP) = {table.filter(pl.col('hp_damage') > 0)['probability'].sum():.2f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.damage_chart(wb.damage(truncheon, cop, skirmisher), title="Cop's Truncheon against the Skirmisher")

# %% [markdown]
# ## 2. A 1 always hits; base damage is at least 1
#
# > "For magical and physical, attacks, however, a result of 1 will still lead to a hit."
#
# > "The minimum amount of base damage a character deals with an attack is 1."
#
# Raise the Skirmisher's Evasion and Physical Defense and watch the hit chance bottom out at 1/10
# and the smallest hit stay at 1:

# %%
rows = []
for evasion, defense in [(2, 1), (6, 1), (10, 1), (14, 1), (2, 8), (2, 14)]:
    target = skirmisher.replace(evasion=evasion, physical_defense=defense)
    t = wb.outcomes(truncheon, cop, target)
    hits = t.filter(pl.col("hit"))
    rows.append({"evasion": evasion, "physical defense": defense, "hits on faces": f"1–{max(1, min(10, 7 + cop.physical_accuracy - evasion))}",
                 "P(hit)": round(p_of(t, "hit"), 2), "smallest hit": int(hits["damage"].min()),
                 "mean damage": round(float((t["probability"] * t["damage"]).sum()), 3)})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 3. The Shell rule: strikes double against no Shell, spells double against a Shell
#
# > "When a character uses a spell against an opponent that has a Shell active, they do double
# > damage. Likewise, when a character makes a strike against an opponent that does not have a Shell
# > active, they also do double damage."
#
# `Situation(target_shell_points=0)` is the Skirmisher after its Shell broke.

# %%
rows = []
for label, situation in [("Shell up (5 points)", L.Situation()), ("Shellbroken", L.Situation(target_shell_points=0))]:
    d = wb.damage(truncheon, cop, skirmisher, situation=situation)
    rows.append({"Skirmisher": label, "damage of a hit": hit_range(d), "mean": round(d.mean(), 3)})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 4. Elements and rounding
#
# An elemental ability multiplies by the element table (attack row, target column); a target with a
# Shell counts as the Shell's element. Then:
#
# > "the final damage they take is equal to the base damage of the attack multiplied by any relevant
# > modifiers and then rounded to the nearest integer."
#
# The Blacksmith's Heated Strike is Fire. Fire against Ice is ×4; against Water ×0.5, where the
# rounding matters (a base of 5 gives 2.5, rounded half up to 3; the option `rounding="floor"`
# gives 2).

# %%
blacksmith, heated = cat.creature("Blacksmith"), cat.attack("Blacksmith: Heated Strike")
rows = []
for name in ["Ghost", "Raider", "Boar Rider"]:
    target = cat.creature(name)
    for rounding in ["nearest_half_up", "floor"]:
        d = wb.damage(heated, blacksmith, target, L.Options(rounding=rounding))
        rows.append({"target": name, "Shell element": target.shell.element, "rounding": rounding,
                     "P(hit)": round(d.sf(1), 2), "damage of a hit": hit_range(d),
                     "mean": round(d.mean(), 3)})
print(pl.DataFrame(rows))

# %% [markdown]
# The Ghost row is the worked example of `docs/systems/last_odyssey.md`: ×4, damage 24–60, mean 42.
# Spells stack the same way. The Black Mage's Fire Missile (an ability "×2") against the Troll's
# Ice Shell is ×2 (ability) × 2 (spell against a Shell) × 4 (Fire on Ice) = ×16:

# %%
mage, troll = cat.creature("Black Mage"), cat.creature("Troll")
missile = cat.attack("Black Mage: Fire Missile")
for label, situation in [("Shell up", L.Situation()), ("Shellbroken", L.Situation(target_shell_points=0))]:
    d = wb.damage(missile, mage, troll, situation=situation)
    print(f"Fire Missile vs Troll, {label}: hits for {hit_range(d)}, mean {d.mean():.1f}")

# %% [markdown]
# Once the Shell breaks the Troll is its own element again (Ice) but the spell loses the Shell
# doubling: ×8.
#
# ## 5. Sleights: statuses, no automatic hit
#
# > "cast the hit die and subtract their Status Accuracy from the result. To determine whether or
# > not each target is hit, add their Resistance to the result. If the result is equal to or below a
# > 5, they gain the status"
#
# > "For sleights, this means that they cannot be hit."
#
# The Skirmisher's Poison Dart (Status Accuracy 4) against targets of rising Resistance:

# %%
dart = cat.attack("Skirmisher: Poison Dart")
rows = []
for resistance in [0, 2, 4, 6, 8, 9, 10]:
    t = wb.outcomes(dart, skirmisher, cop.replace(resistance=resistance))
    rows.append({"resistance": resistance, "lands on faces ≤": 5 + skirmisher.status_accuracy - resistance,
                 "P(Poisoned)": round(p_of(t, "status"), 2)})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 6. Multi attacks: one die for every target
#
# > "If the ability in question has multiple targets, the hit die is only cast once, and the
# > resulting number determines whether they hit and the base damage they deal against each one
# > separately."
#
# The rules text's own example: accuracy 3, attack 2; one target with Evasion 6 and Physical
# Defense 1, another with Evasion 2 and Physical Defense 3 (both Shelled here, so no doubling). A
# low die hits both; hits are *correlated*, not independent:

# %%
sweeper = L.Creature("Sweeper", hp=20, physical_accuracy=3, physical_attack=2)
nimble = L.Creature("Nimble", hp=20, evasion=6, physical_defense=1, shell=5)
sturdy = L.Creature("Sturdy", hp=20, evasion=2, physical_defense=3, shell=5)
sweep = L.Attack("Sweep", kind="strike", targets=2)
joint = L.multi_target_outcomes(sweep, sweeper, [nimble, sturdy], by_die=True)
print(joint.select("die", "probability", "hit_0", "damage_0", "hit_1", "damage_1", "damage"))
p_both = float(joint.filter(pl.col("hit_0") & pl.col("hit_1"))["probability"].sum())
p0, p1 = float(joint.filter("hit_0")["probability"].sum()), float(joint.filter("hit_1")["probability"].sum())
print(f"P(both hit) = {p_both:.2f}, not P(hit Nimble) × P(hit Sturdy) = {p0:.2f} × {p1:.2f} = {p0 * p1:.2f}")

# %% [markdown]
# Die 5 is the text's example: Nimble is missed (5 − 3 + 6 = 8), Sturdy takes 2 − 3 + 5 = 4.
#
# ## 7. Nonlethal attacks
#
# > "The damage of the attack, if it hits, is calculated as though they had received a 1 on the hit
# > die."

# %%
gentle = truncheon.replace(name="Truncheon (nonlethal)", nonlethal=True)
for attack in [truncheon, gentle]:
    d = wb.damage(attack, cop, skirmisher)
    print(f"{attack.name:>22}: P(hit) {d.sf(1):.2f}, a hit deals {hit_range(d)}, mean {d.mean():.2f}")

# %% [markdown]
# ## 8. A whole turn, and rounds to kill
#
# Action points per turn: 2 at tiers 1–5, 3 at tiers 6–10. The Troll (tier 4) can Stomp (2 AP) or
# Bash twice (1 AP each, ability ×2). Against Lady Isabella, a hero without a Shell (so every
# strike doubles), `wb.turn_plans` lists both and the rounds-to-kill chain uses the better one.

# %%
isabella = cat.creature("Lady Isabella Marvelous, Knight of the 60th")
for plan, dist in wb.turn_plans(troll, isabella).items():
    print(f"{plan:>12}: mean {dist.mean():.2f}, range {dist.min()}–{dist.max()}")
turn = wb.turn_damage(troll, isabella)
print(f"Lady Isabella has {isabella.hp} HP; P(down in one turn) = {turn.sf(isabella.hp):.4f}; "
      f"mean rounds = {wb.mean_rounds_to_kill(turn, isabella.hp):.4f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.at_least_chart(wb.turn_plans(troll, isabella), title="Troll's turn against Lady Isabella")

# %% [markdown]
# ## 9. Play: a damage panel
#
# Pick any of the 40 published creatures and their abilities; change accuracy, evasion, the Shell
# or the element; try `rounding="floor"` in the options tab.

# %%
# NBVAL_IGNORE_OUTPUT
from workbench.widgets.damage import DamagePanel

panel = DamagePanel(L, attacker=blacksmith, target=cat.creature("Ghost"), attack=heated)
panel

# %%
print(f"panel: mean {panel.value.mean():.2f}, P(any damage) {panel.value.sf(1):.2f}")

# %% [markdown]
# ## Your turn
#
# Change the attacker's stats, the element, the multiplier or the target below and run the cell.

# %%
caster = L.Creature("My caster", hp=20, magical_accuracy=5, magical_attack=6)
spell = L.Attack("Frost bolt", kind="spell", element="Ice", multiplier=1.0)
target = cat.creature("Boar Rider")
options = L.Options(rounding="nearest_half_up")

d = wb.damage(spell, caster, target, options)
print(f"P(hit) {d.sf(1):.2f}, mean {d.mean():.3f}, a hit deals {hit_range(d)}")
