# %% [markdown]
# # Duels: two creatures fight until one falls
#
# **What you will learn.** How `wb.duel(a, b)` pits two creatures against each other, round after
# round, and what it returns: the chance each side wins, the round the fight ends in, and the
# winner's HP left. You will see:
#
# - an **exact** duel (Unbound, where nothing carries over from one turn to the next), and how much
#   acting first is worth;
# - fights that carry **state** from round to round (Annulus conditions such as Daze, Knockdown and
#   Choke, Glass Empires armor points that wear down), which the workbench follows exactly, and the
#   simulation it falls back on where no exact chain fits;
# - the same duel computed exactly while ignoring that state, and simulated, with standard errors;
# - a cross-check: on a fight without state, the simulation agrees with the exact chain;
# - rounds to kill, exact and simulated, as a chart, and a duel panel to play with.
#
# The rules for each effect are in `docs/combat.md`. Every simulation here is seeded, so the numbers
# are the same each run. Run the notebook top to bottom; the last cell is yours to change.

# %%
import math

import workbench as wb  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt
import polars as pl

from workbench import charts
from workbench.simulate import state_effects
from workbench.systems.annulus import Tactics
from workbench.widgets import enable_offline
import saved_charts

enable_offline()  # chart JavaScript from the installed packages, bundled once per install
saved_charts.enable()  # live charts, each saved with a PNG so the notebook reads before it runs
pl.Config.set_tbl_hide_dataframe_shape(True)
pl.Config.set_tbl_rows(40)
pl.Config.set_tbl_width_chars(140)
pl.Config.set_fmt_str_lengths(60)

FIGHTS = 20_000   # simulated fights per run: enough for a standard error under 0.004

# %% [markdown]
# ## 1. An exact duel
#
# In Unbound, each turn's damage depends only on the two stat lines, never on what happened
# before. So the duel is exact: the workbench chains each side's turn damage (an absorbing Markov
# chain over HP lost) and combines the two chains round by round. With A acting first,
#
# P(A wins in round t) = P(A's t-th turn kills) × P(B has not killed A in its first t − 1 turns).
#
# Each side plays its best turn (`wb.turn_damage`: the legal plan with the highest mean damage).
# The Ranger shoots a Longbow or cuts with a Short sword; the Battle mage casts spells. (Not the
# Town guard: his best turn bashes with his Heater shield, and a bash gives up the shield's AC
# until his next turn, state the fight carries; his duels take a chain over both sides' state,
# section 2.)

# %%
U = wb.system("unbound")
ucat = U.catalog()
ranger, mage = ucat.creature("Ranger"), ucat.creature("Battle mage")
for me, foe in [(ranger, mage), (mage, ranger)]:
    plans = wb.turn_plans(me, foe)
    best = max(plans, key=lambda k: plans[k].mean())
    print(f"{me.name} (HP {U.hit_points(me)}): best turn {best}, mean {plans[best].mean():.4f}, "
          f"P(any damage) {plans[best].sf(1):.4f}")

# %%
exact = wb.duel(ranger, mage)
print(exact.summary())
print(f"exact: {exact.exact}; P(A wins) + P(B wins) + P(draw) = {exact.p_a_wins + exact.p_b_wins + exact.p_draw:.12f}")

# %% [markdown]
# ### Who acts first
#
# `first` is "a", "b" or "random" (a fair coin for each fight, so its numbers are the average of
# the other two). Both creatures die in a handful of rounds, so the free first turn is worth a lot:

# %%
rows = []
for first in ["a", "b", "random"]:
    r = wb.duel(ranger, mage, first=first)
    rows.append({"first": first, "P(ranger wins)": round(r.p_a_wins, 4), "P(mage wins)": round(r.p_b_wins, 4),
                 "P(draw)": round(r.p_draw, 4)})
initiative = pl.DataFrame(rows)
print(initiative)
swing = initiative["P(ranger wins)"][0] - initiative["P(ranger wins)"][1]
print(f"Acting first is worth {swing:.4f} to the ranger.")

# %%
# NBVAL_IGNORE_OUTPUT
coin = wb.duel(ranger, mage, first="random")
charts.duel_chart(coin.p_a_wins, coin.p_b_wins, coin.p_draw, (coin.a, coin.b),
                  title="Ranger vs Battle mage, initiative by coin toss")

# %% [markdown]
# ### When it ends and what is left
#
# `rounds` holds the chance that each side wins in each round, and `hp_left` the distribution of the
# winner's remaining HP. A draw would be a fight still going after `max_rounds` (default 100), or
# both sides falling in the same turn.

# %%
print(exact.rounds.filter(pl.col("round") <= 6))
mean_length = float((exact.rounds["round"] * (exact.rounds["p_a_wins"] + exact.rounds["p_b_wins"])).sum())
print(f"mean length of the fight: {mean_length:.4f} rounds")
left = exact.hp_left.group_by("side", maintain_order=True).agg(
    (pl.col("probability").sum()).alias("P(wins)"),
    ((pl.col("hp_left") * pl.col("probability")).sum() / pl.col("probability").sum()).alias("mean HP left if it wins"),
)
print(left)

# %% [markdown]
# ## 2. Fights that carry state
#
# The exact chain works on HP only. Many effects carry **state** from one turn to the next:
#
# - Annulus self-damage and conditions. The Berserker's Frenzy is a Reckless Flurry with Burn:
#   "+1 additional automatic success on the check but take 1 damage" per use, and a Burn that
#   deals 2 dice of damage at the end of each of the victim's turns until a recovery check removes
#   it. The Ogre's Crushing Blow carries **Daze** ("on its next turn the creature has 1 action")
#   and **Knockdown** (attacks on a prone creature gain an advantage). Damage then depends on what
#   happened before.
# - Glass Empires **armor points**: Armor × Power points soak physical damage, and the points lost
#   stay lost, so a plated soldier gets easier to hurt every round.
# - An Unbound **shield bash**: the Town guard's Heater gives up its AC bonus "until your next
#   turn", so the Mage's turn after a bash meets a lower AC.
#
# `workbench.simulate.state_effects(attacker, target)` names the stateful effects of one
# direction. When a duel has any, `wb.duel` looks for an exact chain over the state: each
# direction's own when neither side's turns change the other's fight (Glass Empires armor points,
# an Unbound Brace), or one chain over both sides' state (an Unbound shield bash:
# `workbench.fight.duel.duel_of`, derived from the round; Annulus conditions, stings and self-damage, where a recovery check spends
# the creature's own actions, are chained the same way). Only where no chain fits (for example a
# tactic other than the default, below) does it play `fights` seeded fights with numpy, and it says
# so. `wb.rounds_to_kill` and `wb.compare` run exact chains over the Annulus and Glass Empires state
# too, section 5.

# %%
A, G = wb.system("annulus"), wb.system("glass_empires")
acat, gcat = A.catalog(), G.catalog()
berserker, ogre = acat.creature("Berserker"), acat.creature("Ogre")
bear, soldier = gcat.creature("Bear"), gcat.creature("Plate Soldier (Level 2 human, example)")
pairs = [(berserker, ogre), (ogre, berserker), (bear, soldier), (soldier, bear), (ranger, mage),
         (ucat.creature("Town guard"), mage)]
for me, foe in pairs:
    print(f"{me.name} → {foe.name}: {sorted(state_effects(me, foe)) or 'none (exact)'}")
print(f"Plate Soldier: Armor {soldier.armor} × Power {soldier.power} = {soldier.armor * soldier.power} armor points")

# %% [markdown]
# ## 3. The same duel, exact (ignoring state) and simulated
#
# `simulate=False` forces the exact chain, which then ignores the state: no self-damage, no Burn,
# Daze or Knockdown; armor that never wears down. `simulate=True` (or the default `None`, which
# chooses) plays the fights. A simulated result says `exact=False` and carries `fights` and
# `standard_error`, the standard error of P(A wins), √(p(1 − p) / fights). `progress=False` keeps
# the progress bar (shown for runs over a second) out of this notebook.

# %%
rows = []
for a, b in [(berserker, ogre), (bear, soldier)]:
    for how, sim in [("exact, state ignored", False), ("simulated", True)]:
        r = wb.duel(a, b, simulate=sim, fights=FIGHTS, seed=1, progress=False)
        rows.append({"duel": f"{a.name} vs {b.name.split(' (')[0]}", "method": how,
                     "P(A wins)": round(r.p_a_wins, 4), "P(B wins)": round(r.p_b_wins, 4),
                     "P(draw)": round(r.p_draw, 4),
                     "s.e.": "- (exact)" if r.exact else f"{r.standard_error:.4f}"})
print(pl.DataFrame(rows))

# %% [markdown]
# Two lessons:
#
# - **Berserker vs Ogre**: ignoring state, the Berserker almost always wins. Played out, its
#   Reckless self-damage and the Ogre's Daze and Knockdown cost it more than one fight in ten, and some
#   fights are draws: both fall in the same turn, for example when the Berserker's killing blow
#   also costs it its last Vitality.
# - **Bear vs Plate Soldier**: ignoring state turns the result upside down. Against 16 fresh armor
#   points the Bear's claws almost never get through, so the exact chain has the soldier winning
#   every fight. In the simulation each blow strips armor points for good, and the Bear soon wins.
#
# A chain that ignores state can be badly wrong. The default (`simulate=None`) never ignores it:
# whenever `state_effects` names something it runs the exact chain over that state if one fits
# (the Bear against the soldier: exact with the armor wearing down; the Berserker against the Ogre:
# exact over both sides' conditions, stings and self-damage), else the simulation, so you get the
# right answer without asking. The exact figures lie within the simulation's standard errors above.

# %%
for a, b in [(bear, soldier), (berserker, ogre)]:
    print(wb.duel(a, b, fights=FIGHTS, seed=1, progress=False).summary())

# %% [markdown]
# ### Tactics: recovery checks
#
# An Annulus creature spends one action per turn on a recovery check while Burn, Choke or
# Sap is on it ("A recovery check is made by spending 1 action and rolling 4 dice"). That is the
# default `Tactics()`, which the exact chain plays. But the Ogre's Crushing Blow is Charged and needs
# both actions, so each check leaves it only a Punch. `Tactics(recover_from=())` makes the Ogre
# ignore the Burn and keep swinging; other tactics than the default are simulated (`forced_by`
# names "tactics"):

# %%
for label, tactics in [("recovers from Burn (default)", Tactics()), ("never recovers", Tactics(recover_from=()))]:
    r = wb.duel(berserker, ogre, fights=FIGHTS, seed=1, tactics_b=tactics, progress=False)
    how = "exact" if r.exact else f"simulated ± {r.standard_error:.4f}, forced by {', '.join(r.forced_by)}"
    print(f"Ogre {label:>28}: P(Ogre wins) {r.p_b_wins:.4f} ({how}), P(draw) {r.p_draw:.4f}")

# %% [markdown]
# ## 4. Cross-check: simulation against the exact chain
#
# On a fight without state both methods answer the same question, so they must agree up to the
# simulation's noise. Simulate the ranger and the mage (forced with `simulate=True`) and compare
# with the exact duel: P(ranger wins) and the mean length of the fight should each lie within 4
# standard errors of the exact value (a 4σ miss happens about once in 16,000 honest runs).

# %%
sim = wb.duel(ranger, mage, simulate=True, fights=FIGHTS, seed=7, progress=False)
z_win = (sim.p_a_wins - exact.p_a_wins) / sim.standard_error


def length_stats(result):
    """Mean and sd of the number of rounds of a decided fight, from the rounds frame."""
    p = result.rounds["p_a_wins"] + result.rounds["p_b_wins"]
    t = result.rounds["round"]
    mean = float((t * p).sum() / p.sum())
    return mean, math.sqrt(float((t * t * p).sum() / p.sum()) - mean * mean)


(exact_len, _), (sim_len, sim_sd) = length_stats(exact), length_stats(sim)
se_len = sim_sd / math.sqrt(FIGHTS)
z_len = (sim_len - exact_len) / se_len

# %%
print(f"P(ranger wins): exact {exact.p_a_wins:.4f}, simulated {sim.p_a_wins:.4f} ± {sim.standard_error:.4f} "
      f"({z_win:+.2f} s.e.)")
print(f"mean length:   exact {exact_len:.4f}, simulated {sim_len:.4f} ± {se_len:.4f} ({z_len:+.2f} s.e.)")
print(f"both within 4 standard errors: {abs(z_win) < 4 and abs(z_len) < 4}")

# %% [markdown]
# ## 5. Rounds to kill, exact and simulated
#
# `wb.rounds_to_kill(attacker, target)` asks the one-sided question: how many of the attacker's
# turns until the target is down? (The target does not hit back, though its conditions still hurt
# it and it still makes recovery checks.) It chooses the same way: an exact chain over the state
# where one fits, else a simulation. Glass Empires armor points fit: the chain runs over (armor
# points left, HP left), so the Bear against the soldier is exact *with* the armor wearing down.
# Its frame always has the columns `exact`, `fights` (empty when exact, shown as "-" below) and
# `standard_error` (of `p_killed_by`, 0 when exact).

# %%
bear_state = wb.rounds_to_kill(bear, soldier, max_rounds=100)
bear_flat = wb.rounds_to_kill(bear, soldier, simulate=False, max_rounds=100)
bear_sim = wb.rounds_to_kill(bear, soldier, simulate=True, fights=FIGHTS, seed=3, max_rounds=100, progress=False)
print(bear_state.filter(pl.col("round") <= 6)  # fights: "-" for an exact chain (none were played)
      .with_columns(pl.col("fights").cast(pl.String).fill_null("-")))
print(f"chain with armor wear: P(soldier down by round 10) = "
      f"{bear_state.filter(pl.col('round') == 10)['p_killed_by'][0]:.4f}; "
      f"chain with armor restored every turn: {bear_flat.filter(pl.col('round') == 10)['p_killed_by'][0]:.4f}")

# %% [markdown]
# The Berserker against the Ogre three ways, and the Bear against the soldier three ways. The Burn
# the state-free chain leaves out speeds the Berserker up (2 dice of damage at the end of each of
# the Ogre's turns, until a recovery check removes it). The default holds it exactly: the Annulus
# chain over the fight's state (conditions, recovery checks, timers; docs/combat.md) plays every
# outcome the simulation would draw, and the simulation agrees within its standard error. The
# Bear's exact chain over armor points and the simulation agree too; the chain that restores the
# armor every turn barely leaves zero.

# %%
berserker_exact = wb.rounds_to_kill(berserker, ogre, simulate=False)
berserker_state = wb.rounds_to_kill(berserker, ogre)
berserker_sim = wb.rounds_to_kill(berserker, ogre, simulate=True, fights=FIGHTS, seed=3, progress=False)
curves = {"Berserker → Ogre, exact, state ignored": berserker_exact,
          "Berserker → Ogre, exact over its state": berserker_state, "Berserker → Ogre, simulated": berserker_sim,
          "Bear → Soldier, exact, armor restored": bear_flat, "Bear → Soldier, exact with armor wear": bear_state,
          "Bear → Soldier, simulated": bear_sim}
rows = [{"curve": k, "exact": bool(f["exact"][0]),
         "P(down by round 3)": round(float(f.filter(pl.col("round") <= 3)["p_killed_by"].max() or 0.0), 4),
         "s.e.": round(float(f.filter(pl.col("round") <= 3)["standard_error"].max() or 0.0), 4)}
        for k, f in curves.items()]
print(pl.DataFrame(rows))

# %%
# NBVAL_IGNORE_OUTPUT
rounds = charts.rounds_chart(curves, title="Rounds to kill: exact chain vs simulation",
                             subtitle="the state-free chains ignore Burn and armor wear; the chains over the state hold them", legend_title="Curve", max_round=12)
charts.save_png(rounds, "/tmp/nbcharts/05-rounds.png")
rounds

# %% [markdown]
# ## 6. Play: a duel panel
#
# Pick the two sides, initiative and the maximum number of rounds; edit either creature in its tab.
# The panel calls `wb.duel`, so a fight with state is exact over it when it fits a chain (every
# catalog fight of the four systems), else simulated (100,000 fights by default, a few seconds). (In a static view the panel is not live: run it.)

# %%
# NBVAL_IGNORE_OUTPUT
from workbench.widgets.duel import DuelPanel

panel = DuelPanel(U, a=ranger, b=mage, first="random")
panel

# %%
print(panel.value.summary())

# %% [markdown]
# ## Your turn
#
# Pick two creatures of one system (any names from `s.catalog().creatures`), who acts first, and
# whether to simulate (`None` lets the workbench choose). Try `ucat.creature("Minotaur")`, or a Glass
# Empires creature with `armor=0` to see the armor effect vanish.

# %%
a, b = gcat.creature("Bear"), gcat.creature("Plate Soldier (Level 2 human, example)").replace(armor=2)
result = wb.duel(a, b, first="random", simulate=None, fights=FIGHTS, seed=0)
print(result.summary())
print(f"stateful effects: {sorted(state_effects(a, b) | state_effects(b, a)) or 'none'}")
