# %% [markdown]
# # Annulus: how an attack works, rule by rule
#
# **What you will learn.** How Annulus resolves one attack: the pool of four dice, the target's
# defense, advantages and disadvantages, assassinations, and then every kind of upgrade an attack
# set can take (general, trigger, alteration, area), each with its effect on the numbers. Every
# number below is exact (no simulation), computed by the workbench from the rules text
# `annulus-attacks.txt` and its pinned defaults in `CLARIFICATIONS.md`.
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

A = wb.system("annulus")
A.title

# %% [markdown]
# ## 1. Roll four dice, count successes
#
# > "When you use an Attack on a subject, roll four dice. You deal damage equal to the number of
# > successes on the dice."
#
# A die is a d6 and succeeds on 4+ (the default option `success_on=4`, so each die is a coin
# flip). Every attack set starts from the **Damage** seed, which names the defense it targets.
# Our hero's plain attack is an Agility Damage seed with no upgrades; the first target has
# defense 0, so damage is simply the number of successes: a binomial(4, 1/2).

# %%
hero = A.Creature("Hero", size=5, level=3, endurance=6, agility=1, toughness=1, insight=1)
dummy = A.Creature("Dummy", size=5, level=3, endurance=6, agility=0, toughness=0, insight=0)
strike = A.Attack("Strike", "agility")
plain = wb.damage(strike, hero, dummy)
for dmg in range(5):
    print(f"P(damage = {dmg}) = {plain.probability(dmg):.4f}  ({plain.probability(dmg) * 16:.0f}/16)")
print(f"mean = {plain.mean():.4f}")

# %% [markdown]
# ## 2. The target subtracts its defense
#
# > "The subject of the attack subtracts their relevant defense from the damage dealt. This can
# > reduce the damage a given target takes to 0 but not below 0."
#
# The same four dice against defense 0 to 4: the mean falls fast, and against defense 4 only four
# successes out of four (1/16) leave a mark.

# %%
rows = []
for defense in range(5):
    target = dummy.replace(agility=defense)
    d = wb.damage(strike, hero, target)
    rows.append({"defense": defense, "mean": round(d.mean(), 4), "P(any damage)": round(d.sf(1), 4)})
print(pl.DataFrame(rows))

# %% [markdown]
# Here is the distribution against the hero's own defense 1 (the worked example in
# `docs/systems/annulus.md`: P(0) = 5/16, P(3) = 1/16, mean 17/16). Hover the bars for
# P(exactly), P(at least) and P(at most).

# %%
# NBVAL_IGNORE_OUTPUT
vs_one = wb.damage(strike, hero, hero)
charts.damage_chart(vs_one, title="Four dice against defense 1")

# %%
print(f"P(0) = {vs_one.probability(0):.4f}, P(3) = {vs_one.probability(3):.4f}, mean = {vs_one.mean():.4f}")

# %% [markdown]
# ## 3. Advantages and disadvantages change the pool
#
# Each net advantage adds a die, each net disadvantage removes one (they cancel one for one; the
# pool never drops below 0 dice). For example, full concealment:
#
# > "Attacking a space with full concealment imposes two disadvantages on the attack check."
#
# The `Situation` carries these circumstances; `extra_advantages` / `extra_disadvantages` are for
# anything else your table rules.

# %%
rows = []
for label, situation in [
    ("2 disadvantages (full concealment)", A.Situation(concealment="full")),
    ("1 disadvantage (partial concealment)", A.Situation(concealment="partial")),
    ("plain: 4 dice", A.Situation()),
    ("1 advantage", A.Situation(extra_advantages=1)),
    ("2 advantages", A.Situation(extra_advantages=2)),
]:
    d = wb.damage(strike, hero, hero, situation=situation)
    rows.append({"situation": label, "mean": round(d.mean(), 4), "P(any damage)": round(d.sf(1), 4)})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 4. Assassination: bonus damage against unaware targets
#
# > "When attacking a creature in the Clueless awareness state and deal at least one point of
# > damage to them, you deal +4 bonus damage. If the subject is in the Suspicious state, only add
# > +2 bonus damage."
#
# The bonus needs at least one point of damage "on your own", so P(any damage) does not change,
# only the size of a hit does.

# %%
rows = []
for awareness in ["alert", "suspicious", "clueless"]:
    d = wb.damage(strike, hero, hero, situation=A.Situation(target_awareness=awareness))
    rows.append({"awareness": awareness, "mean": round(d.mean(), 4), "P(any damage)": round(d.sf(1), 4),
                 "max": d.max()})
print(pl.DataFrame(rows))

# %% [markdown]
# ## 5. General upgrades
#
# > "The following upgrades can be applied to any attack and have mostly simple, straightforward
# > effects."
#
# An attack set is a seed plus upgrades, `{name: rank}`; each rank costs 1 Experience. Below, each
# general upgrade is tried in a situation where it matters (otherwise most do nothing) and compared
# with the plain Strike in the same situation. "not usable" means the rules forbid the attack
# there (the engine raises a `RulesError`, it does not return zero).
#
# Some sentences behind the numbers: Reckless, "+1 additional automatic success on the check but
# take 1 damage"; Bully, "an additional 1 damage per difference in size"; Reroll, "You take a
# disadvantage on the reroll"; Giant, "You take one fewer disadvantage when attacking subjects
# whose size is significantly larger"; Range, "maximum range of 5 meters".

# %%
small = hero.replace(name="Small target", size=3)
huge = hero.replace(name="Huge target", size=8)
general = [
    # upgrade, ranks, what the situation is, target, Situation
    ("Keen", 1, "partial concealment", hero, A.Situation(concealment="partial")),
    ("Blood Price", 1, "paid in Vitality", hero, A.Situation(blood_price=True)),
    ("Reckless", 1, "any", hero, A.Situation()),
    ("Reckless", 2, "any", hero, A.Situation()),
    ("Bully", 1, "target size 3", small, A.Situation()),
    ("Visceral", 1, "inside a devourer", hero, A.Situation(inside_devourer=True)),
    ("Reroll", 1, "any", hero, A.Situation()),
    ("Tireless", 1, "attacker tired", hero, A.Situation(tired=True)),
    ("Flashy", 1, "any", hero, A.Situation()),
    ("Giant", 1, "target size 8", huge, A.Situation()),
    ("Giant", 2, "target size 8", huge, A.Situation()),
    ("Armored", 1, "under an Armor effect", hero, A.Situation(armor=True)),
    ("Killing Spree", 1, "after a kill", hero, A.Situation(after_kill=True)),
    ("First Blood", 1, "target undamaged", hero, A.Situation(target_undamaged=True)),
    ("Precise", 1, "target size 3", small, A.Situation()),
    ("Range", 1, "target 5 m away", hero, A.Situation(distance=5)),
    ("Airtight", 1, "underwater", hero, A.Situation(airless=True)),
    ("Assassin", 1, "target clueless", hero, A.Situation(target_awareness="clueless")),
    ("Assassin", 1, "target suspicious", hero, A.Situation(target_awareness="suspicious")),
]
no_dice = ["Demolitions", "Obliterate", "Inherent", "Knockout", "Stealth"]


def mean_or_none(attack, target, situation):
    """Mean damage of one use, or None when the rules forbid the attack there."""
    try:
        return round(wb.damage(attack, hero, target, situation=situation).mean(), 4)
    except wb.RulesError:
        return None


rows = []
for name, rank, where, target, situation in general:
    upgraded = A.Attack(f"{name} {rank}", "agility", {name: rank})
    table = wb.outcomes(upgraded, hero, target, situation=situation)
    rows.append({
        "upgrade": f"{name} ×{rank}" if rank > 1 else name,
        "situation": where,
        "plain mean": mean_or_none(strike, target, situation),
        "upgraded mean": mean_or_none(upgraded, target, situation),
        "self damage": float((table["probability"] * (table["self_damage"] + table["self_vitality_damage"])).sum()),
    })
general_table = pl.DataFrame(rows).with_columns(
    pl.col("plain mean").fill_null(strategy="zero").alias("_p"),
).with_columns(
    pl.when(pl.col("plain mean").is_null()).then(pl.lit("not usable → usable"))
    .otherwise((pl.col("upgraded mean") - pl.col("plain mean")).round(4).cast(pl.String)).alias("change"),
).drop("_p")
print(general_table.with_columns(pl.col("plain mean").cast(pl.String).fill_null("not usable")))
print("No effect on the dice (they change what the attack can do, not its damage):", ", ".join(no_dice))

# %% [markdown]
# Reading the table: Reckless adds a success but costs 1 self-damage every use; Bully and Assassin
# add damage only on a hit; Keen, Visceral, Tireless, Armored, Giant and Precise each cancel one
# disadvantage; Flashy and First Blood each add one advantage; Reroll gives a strike that dealt 0
# a second (worse) chance; Range and Airtight make a forbidden attack possible.
#
# Reroll in detail, against defense 2 (from the docs: P(0) = 11/16 · 7/8 = 77/128):

# %%
reroll = A.Attack("Reroll", "agility", {"Reroll": 1})
defense_two = dummy.replace(agility=2)
d = wb.damage(reroll, hero, defense_two)
print(f"P(0) = {d.probability(0):.6f} = {d.probability(0) * 128:.0f}/128; plain P(0) = "
      f"{wb.damage(strike, hero, defense_two).probability(0) * 16:.0f}/16")

# %% [markdown]
# ## 6. Trigger upgrades: one d12 for every effect
#
# > "If you have multiple Trigger upgrade effects, you still only need to roll a single trigger
# > die every time you make a damage roll"
#
# > "No matter the result of your Trigger Die, a triggered effect is only applied when you manage
# > to deal at least one point of damage with the attack."
#
# So P(effect) = P(damage ≥ 1) × P(d12 ≥ threshold). Each trigger alone on the hero's Strike
# against the hero (P(damage ≥ 1) = 11/16):

# %%
triggers = A.upgrades().filter(pl.col("category") == "trigger")
rows = []
for name, threshold, effect, kind in triggers.select("name", "threshold", "effect", "kind").iter_rows():
    table = wb.outcomes(A.Attack(name, "agility", {name: 1}), hero, hero)
    p_effect = float(table.filter(pl.col(effect))["probability"].sum())
    rows.append({"trigger": name, "d12": f"{threshold}+" if threshold < 12 else "12", "kind": kind,
                 "P(d12 ≥ threshold)": f"{13 - threshold}/12", "P(effect)": round(p_effect, 5),
                 "check: 11/16 × P(d12)": round(11 / 16 * (13 - threshold) / 12, 5)})
print(pl.DataFrame(rows))

# %% [markdown]
# Two triggers change the damage itself. **Critical** doubles it:
#
# > "Note that damage is doubled, not total successes on the attack roll."
#
# 3 successes against defense 2 deal 1, doubled to 2. **Vital** sends the damage to Vitality
# ("the attack ignores Endurance and strikes directly at Vitality instead"): the total is the same,
# but it lands where it hurts.

# %%
critical = A.Attack("Crit strike", "agility", {"Critical": 1})
vital = A.Attack("Vital strike", "agility", {"Vital": 1})
d_crit = wb.damage(critical, hero, defense_two)
vt = wb.outcomes(vital, hero, defense_two)
print(f"Critical vs defense 2: P(2 damage) = {d_crit.probability(2):.6f}, P(4) = {d_crit.probability(4):.6f}, "
      f"mean {d_crit.mean():.6f} (plain {wb.damage(strike, hero, defense_two).mean():.6f})")
print(f"Vital vs defense 2: mean damage {(vt['probability'] * vt['damage']).sum():.6f}, "
      f"of which to Vitality {(vt['probability'] * vt['vitality_damage']).sum():.6f}")

# %%
# NBVAL_IGNORE_OUTPUT
sly = defense_two.replace(awareness="suspicious")
charts.at_least_chart({"Strike": wb.damage(strike, hero, sly), "Critical": wb.damage(critical, hero, sly)},
                      title="Critical against a Suspicious target, defense 2",
                      subtitle="the assassination bonus is doubled too (option crit_doubles_bonus)")

# %% [markdown]
# ## 7. Alteration upgrades: at most one per set
#
# > "Alteration upgrades are all mutually exclusive with each other."
#
# - **Charged**: "requires two actions to use instead of one, but gains +2 advantages"; the trigger
#   die is rolled twice, keep the higher.
# - **Flurry**: "you roll three times with a disadvantage each time and apply all results".
# - **Telegraphed**: one action to announce, then +2 advantages and the trigger die twice.
# - **Gaze** and **Swansong**: free once per round at the start of your turn (Gaze needs mutual
#   sight; Swansong needs half or less of your Vitality).
# - **Counter**: a free reaction after being damaged; as an ordinary attack it rolls like a plain one.
#
# Each with a Burn trigger, against the hero (defense 1). Damage per action is what a turn cares
# about: two actions per turn.

# %%
swansong_ok = A.Situation(attacker_vitality=1)
alterations = [("none", {}, A.Situation()), ("Charged", {"Charged": 1}, A.Situation()),
               ("Flurry", {"Flurry": 1}, A.Situation()), ("Telegraphed", {"Telegraphed": 1}, A.Situation()),
               ("Gaze", {"Gaze": 1}, A.Situation()), ("Swansong", {"Swansong": 1}, swansong_ok),
               ("Counter", {"Counter Agility": 1}, A.Situation())]
rows = []
for name, ups, situation in alterations:
    attack = A.Attack(name, "agility", {"Burn": 1, **ups})
    table = wb.outcomes(attack, hero, hero, situation=situation)
    mean = float((table["probability"] * table["damage"]).sum())
    cost = A.attack_cost(attack, A.Options())
    rows.append({"alteration": name, "actions": cost, "mean damage": round(mean, 4),
                 "per action": f"{round(mean / cost, 10):.4f}" if cost else "- (0 actions)",
                 "P(any damage)": round(float(table.filter(pl.col("damage") >= 1)["probability"].sum()), 4),
                 "P(burn)": round(float(table.filter(pl.col("burn"))["probability"].sum()), 4)})
print(pl.DataFrame(rows))

# %% [markdown]
# Charged buys two dice and a better trigger roll for a second action; Flurry rolls three 3-dice
# strikes. Telegraphed looks best per action, but it lands a turn late ("used at the beginning of
# your next turn") and "You may only telegraph a single attack per round." The rules forbid two alterations in one set, and the engine says why:

# %%
try:
    A.Attack("Greedy", "agility", {"Charged": 1, "Flurry": 1})
except wb.RulesError as err:
    print(err)
try:
    wb.damage(A.Attack("Last stand", "agility", {"Swansong": 1}), hero, hero)
except wb.RulesError as err:
    print(err)

# %% [markdown]
# ## 8. Area upgrades: one roll per creature, then recharge
#
# > "All attack sets with an Area upgrade must recharge like boons do."
#
# > "At the beginning of each turn, roll a die for every uncharged set you possess. If the result
# > is a 5 or a 6, the set is recharged"
#
# **Burst** hits everything within 1 m, **Arc** a 3 m arc, **Line** a 2 m line; each creature in
# the area gets its own roll of the pool. Against three targets of defense 0, 1 and 2:

# %%
crowd = [dummy.replace(name=f"defense {k}", agility=k) for k in range(3)]
rows = []
for area in ["Burst", "Arc", "Line"]:
    attack = A.Attack(area, "agility", {area: 1})
    table = A.area_outcome_tables(attack, hero, crowd)
    means = table.group_by("matchup").agg((pl.col("probability") * pl.col("damage")).sum().alias("m")).sort("matchup")
    rows.append({"area": area, **{crowd[i].name: round(m, 4) for i, m in means.iter_rows()},
                 "total": round(float(means["m"].sum()), 4),
                 "P(recharge per turn)": round(A.recharge_probability(attack), 4)})
print(pl.DataFrame(rows))
try:
    A.Attack("Sniper burst", "agility", {"Range": 1, "Burst": 1})
except wb.RulesError as err:
    print(err)

# %% [markdown]
# ## 9. A whole turn, and rounds to kill
#
# > "Using an Attack costs 1 action."
#
# With two actions per turn, the Ogre from the catalog can throw two Punches or one Charged
# Crushing Blow at the Town Guard. `wb.turn_plans` lists every legal turn; `wb.turn_damage` is
# the turn with the best mean, and `wb.rounds_to_kill(turn, hp=...)` chains that turn exactly
# until the guard's Endurance + Vitality are gone. The turn is composed use by use: the guard is
# Suspicious, so only the first Punch can assassinate him; "Creatures that are successfully
# targeted by an attack ... will immediately become Alert", so the second Punch meets an Alert guard.

# %%
cat = A.catalog()
ogre, guard = cat.creature("Ogre"), cat.creature("Town Guard")
for plan, dist in wb.turn_plans(ogre, guard).items():
    print(f"{plan:>15}: mean {dist.mean():.4f}, P(any damage) {dist.sf(1):.4f}")
turn, guard_hp = wb.turn_damage(ogre, guard), A.hit_points(guard)
print(f"Guard HP = {guard_hp}; mean rounds to kill = {wb.mean_rounds_to_kill(turn, guard_hp):.4f}")

# %%
# NBVAL_IGNORE_OUTPUT
charts.rounds_chart({"Ogre vs Town Guard": wb.rounds_to_kill(turn, hp=guard_hp)}, title="Ogre against the Town Guard")

# %% [markdown]
# ## 10. Knock it down, then punch: a plan for every state
#
# > "When the Trigger Die has a result of 11+, the target gains the Prone condition until they
# > successfully recover from it. ... Attackers within 5 meters or less of a prone target gain an
# > advantage on attack rolls against them."
#
# A fixed plan plays the same turn every round. `wb.optimal_play` lets the plan depend on the state
# of the fight, the Drake's Endurance and Vitality left and its conditions, and finds the plan of
# every state that makes the expected rounds fewest, exactly (policy iteration over the fight's
# chain). Against the Drake the Ogre's best play is to knock it down with Crushing Blow, then Punch
# twice, with advantage, while it is Prone:

# %%
from workbench.combat import frame_mean

drake = cat.creature("Drake")
best_single = frame_mean(wb.rounds_to_kill(ogre, drake, objective="rounds"))
policy, states = wb.optimal_play(ogre, drake)
print(f"best single plan: {best_single:.2f} rounds; optimal play: {policy.mean:.2f} rounds")
print(states.group_by("conditions", "plan").agg(pl.len().alias("states")).sort("conditions", "plan"))

# %% [markdown]
# ## 11. Play: a damage panel
#
# Pick an attack set, an attacker, a target, a situation or a rule option in the tabs; the chart
# and the numbers follow. (In a static view of this notebook the panel is not live: run it.)

# %%
# NBVAL_IGNORE_OUTPUT
from workbench.widgets.damage import DamagePanel

panel = DamagePanel(A, attacker=cat.creature("Wolf"), target=guard, attack=cat.attack("Claw"))
panel

# %%
print(f"Wolf's Claw on the Town Guard: mean {panel.value.mean():.4f}, P(any damage) {panel.value.sf(1):.4f}")

# %% [markdown]
# ## Your turn
#
# Change the upgrades (any names from `A.upgrades()`), the defense or the situation and run the
# cell. Illegal sets are refused with the rule that forbids them.

# %%
my_set = A.Attack("My set", "toughness", {"Reckless": 1, "Burn": 1, "Critical": 1})
target = dummy.replace(toughness=1, awareness="suspicious")
situation = A.Situation(concealment="partial")

table = wb.outcomes(my_set, hero, target, situation=situation)
mine = wb.damage(my_set, hero, target, situation=situation)
print(f"cost {my_set.cost} Experience; mean {mine.mean():.4f}, P(any damage) {mine.sf(1):.4f}, "
      f"P(burn) {table.filter(pl.col('burn'))['probability'].sum():.4f}")
