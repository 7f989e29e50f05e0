# %% [markdown]
# # Lesson: encounters, groups against groups
#
# **For:** a class or a game group that knows how a duel goes (lesson 14) and now asks what happens
# when several creatures fight several others. No programming needed: read the rule, look at the
# numbers, move the control, answer the questions at the end.
#
# **The questions:** why is a fight of two against two not two duels? Who acts when, and whom does
# each creature attack? What do flanking (Unbound), the refunded action after a kill (Glass
# Empires) and a kill part-way through a turn (Annulus) change? When does the workbench count every way a fight can go, and when does it play
# thousands of fights instead? And how many wolves does it take to make a fight deadly?
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. The
# numbers are exact unless the text says "simulated".
#
# The cast comes from the catalogs of three systems: Glass Empires' **Wolf**, **Boar** and **Spider
# Lily**; Unbound's **Owlbear**, **Dire wolf** and **Young dragon**; Annulus's **Wolf**, **Rat** and
# **Berserker**; Last Odyssey's **Troll** and **Wolf**.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

G, U, L = (wb.system(name).catalog() for name in ("glass_empires", "unbound", "last_odyssey"))
wolf, boar, lily = G.creature("Wolf"), G.creature("Boar"), G.creature("Spider Lily")
owlbear, dire_wolf, dragon = U.creature("Owlbear"), U.creature("Dire wolf"), U.creature("Young dragon")
troll, lo_wolf = L.creature("Troll"), L.creature("Wolf")
A = wb.system("annulus").catalog()
berserker = A.creature("Berserker")
RULES = "CLARIFICATIONS.md (Encounters)"

# %% [markdown]
# ## 1. A group fight is not a sum of duels
#
# In a duel each side takes one turn per round. In a group fight **every living creature** takes a
# turn each round, so the bigger side makes more attacks, and a creature that falls stops attacking.

# %% hide
quote("Rounds: in each round every living creature takes one turn. **Default** order `sides`: every\n"
      "creature of the side acting first (option `first`: a, b or random, as in duels) takes its turn in\n"
      "listed order, then every creature of the other side.", RULES)

# %% hide
quote("A fight ends when one side has no living creature (that side loses; both at once is a draw), or\n"
      "at the round limit (**default** 100 rounds; unresolved, reported as such).", RULES)

# %% [markdown]
# Glass Empires' Wolf (a bite of 6 damage) and Boar (tusks of 5), both with 8 HP, each fight with one
# Strike per turn. The Wolves act first. Here are one, two, and two against two:

# %%
fights = {"1 Wolf against 1 Boar": ([wolf], [boar]), "2 Wolves against 1 Boar": ([wolf, wolf], [boar]),
          "1 Wolf against 2 Boars": ([wolf], [boar, boar]), "2 Wolves against 2 Boars": ([wolf, wolf], [boar, boar])}
results = {label: wb.encounter(a, b) for label, (a, b) in fights.items()}
table([{"fight": label, "the Wolves win": percent(r.p_a_wins), "the Boars win": percent(r.p_b_wins)}
       for label, r in results.items()])

# %% hide
duel = results["1 Wolf against 1 Boar"].p_a_wins
say(f"One Wolf beats one Boar **{percent(duel)}** of the time. If a fight were a row of duels, one Wolf against "
    f"two Boars would have to win two duels, {percent(duel)} × {percent(duel)} = **{percent(duel ** 2)}**, even with "
    f"its wounds healed in between. It wins only **{percent(results['1 Wolf against 2 Boars'].p_a_wins)}**: both "
    f"Boars bite every round while the Wolf fights the first. The other way round, as a row of duels the Boar would "
    f"have to win two, and the Wolves would win {percent(1 - (1 - duel) ** 2)}; they win "
    f"**{percent(results['2 Wolves against 1 Boar'].p_a_wins)}**. And two against two, the Wolves' edge grows from "
    f"{percent(duel)} to **{percent(results['2 Wolves against 2 Boars'].p_a_wins)}**: the side that drops a foe "
    f"first faces fewer attacks from then on.")

# %% [markdown]
# ### Worked example: the Boar that never acts
#
# Two Wolves against one Boar, the Wolves first. What is the chance that the Boar falls before its
# first turn? A Wolf's bite is a 2d6 Strike Save: a Crit (12, 1 way in 36) deals 12 damage, a Pass (8
# to 11, 14 ways) deals 6, a Seven (6 ways) deals 3, anything lower (15 ways) deals nothing. The Boar
# has 8 HP, so the two bites must add up to 8 or more:
#
# - the first Wolf Crits: 36 ways of 1296 (the second Wolf has nothing left to bite);
# - a Pass then a Seven, Pass or Crit: 14 × 21 = 294 ways;
# - a Seven then a Pass or Crit: 6 × 15 = 90 ways;
# - nothing then a Crit: 15 × 1 = 15 ways.
#
# In all 435 ways in 1296, which is 145/432. One Wolf alone fells the Boar in one bite only with a
# Crit, 1/36. The workbench gets the same, from the chance that the Wolves win in round 1:

# %%
first_round = results["2 Wolves against 1 Boar"].rounds["p_a_wins"][0]
say(f"P(the Boar falls before its first turn) = **{fx(first_round, 6)}**; 145/432 = {fx(145 / 432, 6)}.")

# %% [markdown]
# ## 2. Who acts when, and whom they attack

# %% hide
quote("Option `alternate`: a1, b1, a2, b2, ...,\n"
      "the larger side's extra creatures last.", RULES)

# %% hide
quote("Targets: a creature attacks one living foe chosen by its side's targeting policy at the start of\n"
      "its turn. **Default** `focus`: the living foe with the fewest hit points left [...] ties in listed order. "
      "Options:\n`spread` (the living foe targeted by the fewest attacks so far this round), `random` (uniform)", RULES)

# %% [markdown]
# Three group rules decide a round: which side acts **first** (`first`: side a, side b, or a coin
# toss), the **order** of the turns (`sides`: Wolf, Wolf #2, Boar, Boar #2 when the Wolves go first;
# `alternate`: Wolf, Boar, Wolf #2, Boar #2), and the **targeting** (`focus`: every creature attacks
# the weakest foe, `spread`: the foe attacked least this round, `random`). Both sides use the same
# targeting. Pick a **targeting** rule: the bars show how often two Wolves beat two Boars under each
# first side and order.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
schedules = {"Wolves first, sides": ("a", "sides"), "Wolves first, alternate": ("a", "alternate"),
             "Boars first, sides": ("b", "sides"), "Boars first, alternate": ("b", "alternate")}
targetings = ["focus", "spread", "random"]
by_rule = {(t, s): wb.encounter([wolf, wolf], [boar, boar], first=f, order=o, targeting=t).p_a_wins
           for t in targetings for s, (f, o) in schedules.items()}


def draw_targeting(targeting):
    wins = {s: by_rule[(targeting, s)] for s in schedules}
    coin = (wins["Wolves first, sides"] + wins["Boars first, sides"]) / 2
    words = (f"Targeting **{targeting}**: the Wolves win **{percent(wins['Wolves first, sides'])}** when they go first "
             f"and their turns come together (`sides`), **{percent(wins['Wolves first, alternate'])}** when the turns "
             f"alternate; when the Boars go first, {percent(wins['Boars first, sides'])} and "
             f"{percent(wins['Boars first, alternate'])}. A coin toss for the first side (`first=\"random\"`) gives the "
             f"average of the two: {percent(coin)} with `sides`.")
    chart = bars([{"schedule": s, "P(the Wolves win)": p} for s, p in wins.items()], "schedule",
                 "P(the Wolves win)", sort=list(schedules), width=560, x_title="first side, order",
                 title=f"Two Wolves against two Boars, targeting {targeting}")
    return [say(words), show(chart, f"P(Wolves win) by schedule, targeting {targeting}: "
                                    + ", ".join(f"{s} {fx(p, 4)}" for s, p in wins.items()))]


explore(w.Dropdown(options=targetings, value="focus", description="Targeting"), draw_targeting)

# %% [markdown]
# Going first is worth most when a side's turns come together: under `sides` both Wolves bite before
# any Boar moves, and focused on one Boar they fell it before its turn with the chance of the worked
# example. Under `alternate` the first Boar bites between the two Wolves. The targeting rule moves the
# numbers less than the order does here: both sides follow the same rule, so what focus fire gains for
# one side it also gives the other.

# %% [markdown]
# ## 3. Unbound: flanking

# %% hide
quote("Flanking: When two characters flank an enemy they gain a +2 tactical bonus to hit at base.",
      "unbound-d20-attacking.txt")

# %% hide
quote("Unbound flanking (+2 \"when two characters flank an enemy\"): **default** `auto`: a melee attack\n"
      "gets +2 when another living creature of its side that attacks in melee has the same foe as its\n"
      "target this round (acted already or still to act; under `focus` targeting, whenever such an ally\n"
      "lives); options `never` and `always`.", RULES)

# %% [markdown]
# Unbound's Owlbear fights two Dire wolves; the Owlbear acts first. Pick the **flanking** rule:
# `auto` (the rule above: the two wolves flank the Owlbear, which, alone, flanks nobody), `never` (no
# one gets the +2) or `always` (every melee attack gets it, the Owlbear's too).

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
flank = {f: wb.encounter([owlbear], [dire_wolf, dire_wolf], flanking=f) for f in ("auto", "never", "always")}
one_wolf = wb.encounter([owlbear], [dire_wolf])


def draw_flanking(rule):
    r = flank[rule]
    words = (f"Flanking **{rule}**: the Owlbear wins **{percent(r.p_a_wins)}** of fights, the Dire wolves "
             f"**{percent(r.p_b_wins)}**. Against one Dire wolf (no one to flank with) the Owlbear wins "
             f"{percent(one_wolf.p_a_wins)}.")
    chart = charts.duel_chart(r.p_a_wins, r.p_b_wins, r.p_draw, ("the Owlbear", "the Dire wolf pack"),
                              title=f"The Owlbear against two Dire wolves, flanking {rule}")
    return [say(words), show(chart, f"Owlbear wins {fx(r.p_a_wins, 4)}, Dire wolves {fx(r.p_b_wins, 4)}")]


explore(w.Dropdown(options=list(flank), value="auto", description="Flanking"), draw_flanking)

# %%
swing = flank["never"].p_a_wins - flank["auto"].p_a_wins
say(f"The wolves' +2 takes **{percent(swing)}** off the Owlbear's chance: it turns a fight the Owlbear would win "
    f"({percent(flank['never'].p_a_wins)}) into one it loses more often than not. A +2 is two more faces of the d20 "
    f"on every wolf's bite, and two wolves bite every round.")

# %% [markdown]
# ## 4. Glass Empires: the action refunded by a kill

# %% hide
quote("If your Strike deals enough Damage to outright kill the defender, you receive the Action you spent on your "
      "Attack back.", "glass-empires-attack.txt")

# %% hide
quote("Glass Empires: a Strike that kills ends its Attack (its remaining Strikes are lost) and refunds\n"
      "the Attack's action, which makes a new Attack on the next living foe by the same policy in the same\n"
      "turn; a kill by that Attack refunds again.", RULES)

# %% [markdown]
# A Spider Lily has 4 HP, so a Wolf's bite fells it on a Pass (6 damage) or a Crit (12): 15 ways in
# 36, which is 5/12. Against three Lilies, each kill gives the Wolf its action back and it bites the
# next Lily in the same turn: it fells all three in its first turn with a chance of 5/12 × 5/12 × 5/12
# = 125/1728. Without the refund one Wolf needs three turns for three Lilies.

# %%
refund = {on: wb.encounter([wolf], [lily, lily, lily], refund=on) for on in (True, False)}
table([{"refund": "on (the rule)" if on else "off", "all three fall in the Wolf's first turn":
        fx(r.rounds["p_a_wins"][0], 6), "the Wolf wins": percent(r.p_a_wins)} for on, r in refund.items()])

# %% hide
say(f"125/1728 = {fx(125 / 1728, 6)}. The refund lifts the Wolf's chance against the three Lilies from "
    f"{percent(refund[False].p_a_wins)} to **{percent(refund[True].p_a_wins)}**: every Lily felled early is a Lily "
    f"that never bites back.")

# %% [markdown]
# ## 5. Annulus: a kill part-way through a turn
#
# An Annulus creature has two actions a turn. In a duel a use that fells the foe ends the fight, and
# whatever the turn had left is lost. In a group there is another foe standing:

# %% hide
quote("A target that dies during a creature's turn: the remaining attacks of the action under way go to\n"
      "the next living foe by the same policy (same weapons, same penalties), and the turn's remaining\n"
      "actions are planned again against that foe.", RULES)

# %% [markdown]
# Annulus's Wolf bites twice a turn (each Bite costs one action), and a Bite nearly always fells a
# Rat. Against one Rat the second Bite has nothing left to do; against three it goes on to the next
# Rat. Here is how many rounds the Wolf takes ("mean rounds" until every Rat has fallen; a group is
# simulated, 20,000 fights, seeded):

# %%
a_wolf = A.creature("Wolf")
bites = wb.compare([(a_wolf, "Bite")], ["Rat", "3 x Rat"], system="annulus", fights=20_000, seed=1,
                   best_plan=False)
bite_rounds = dict(zip(bites["target"], bites["mean_rounds"]))
table([{"the Wolf's Bites against": t, "mean rounds": fx(bite_rounds[t], 2)} for t in ("Rat", "3 x Rat")]
      + [{"the Wolf's Bites against": "3 Rats, one after another (3 x one Rat)",
          "mean rounds": fx(3 * bite_rounds["Rat"], 2)}])

# %% hide
say(f"Three Rats take **{fx(bite_rounds['3 x Rat'], 2)}** rounds, not {fx(3 * bite_rounds['Rat'], 2)}: the Bite "
    f"left after a kill fells the next Rat in the same turn.")

# %% hide
quote("Killing Spree (+2 automatic successes on the next use after a kill)", "CLARIFICATIONS.md (Annulus)")

# %% [markdown]
# Some upgrades only count in a crowd. The Berserker's **Frenzy** is a Flurry (it costs both actions:
# one use a turn) and carries **Killing Spree**. Against one Wolf the kill ends the fight, so the
# upgrade never counts; against three, each kill gives the next use, on the next Wolf, +2. Here is
# Frenzy with the upgrade and with it taken off (the same fights, seeded alike):

# %%
plain = berserker.replace(name="Berserker without Killing Spree", attack_sets=tuple(
    s.replace(upgrades={k: v for k, v in s.upgrades.items() if k != "Killing Spree"}) for s in berserker.attack_sets))
pack = wb.compare([(berserker, "Frenzy"), (plain, "Frenzy")], ["Wolf", "3 x Wolf"], system="annulus",
                  fights=20_000, seed=1, best_plan=False)
spree_rows = {(r["attacker"], r["target"]): r["mean_rounds"] for r in pack.iter_rows(named=True)}
table([{"Frenzy": who, "1 Wolf": fx(spree_rows[(name, "Wolf")], 2), "3 Wolves": fx(spree_rows[(name, "3 x Wolf")], 2),
        "3 x one Wolf": fx(3 * spree_rows[(name, "Wolf")], 2)}
       for who, name in (("with Killing Spree", berserker.name), ("without", plain.name))])

# %% hide
one, three, three_plain = (spree_rows[(berserker.name, "Wolf")], spree_rows[(berserker.name, "3 x Wolf")],
                           spree_rows[(plain.name, "3 x Wolf")])
say(f"One Wolf takes the Berserker {fx(one, 2)} rounds with or without the upgrade. Without it, three take "
    f"{fx(three_plain, 2)}, about 3 x {fx(one, 2)}: a Frenzy that fells a Wolf has no use left that turn. With "
    f"it, **{fx(three, 2)}**: every kill makes the next Wolf's Frenzy stronger. A duel prices Killing Spree "
    f"at nothing; a crowd shows what it is worth.")

# %% [markdown]
# ### Worked example: which Mouse does the Line strike?
#
# "The next living foe by the same policy" is read **as the turn stands**. A Blaster's turn is a
# Burst (it strikes three foes) and then a Line (two foes), each 4 dice at 1/2 a foe: each foe struck
# takes 0 to 4 damage with chances 1, 4, 6, 4, 1 sixteenths, rolled separately. Its target, under
# `focus`, is a Shell with 1 HP that neither set can hurt; beside it stand two Mice of 3 HP, A listed
# before B. The Burst strikes all three. The Line strikes the Shell and **the Mouse with fewer HP
# left after the Burst** (on a tie, A). Mouse B falls in the Blaster's first turn:
#
# - to the Burst (3 or 4 damage): 5/16 = 1280/4096;
# - or it took 0, 1 or 2 from the Burst (1, 4, 6 sixteenths), and the Line strikes it because A fell
#   (5/16) or A took less (0, 1, 5 sixteenths), and finishes it (5, 11, 15 sixteenths):
#   (1 × 5 × 5 + 4 × 6 × 11 + 6 × 10 × 15) / 4096 = 1189/4096.
#
# In all **2469/4096**. Taking the Mice in the order the turn began with, the Line would always go to
# Mouse A while it stands, and B would fall with only 1975/4096.

# %%
ann = wb.system("annulus")
burst = ann.Attack(name="Burst", defense="toughness", upgrades={"Burst": 1})
line = ann.Attack(name="Line", defense="toughness", upgrades={"Line": 1})
blaster = A.creature("Giant Centipede").replace(name="Blaster", attack_sets=(burst, line))
mouse = A.creature("Rat").replace(name="Mouse", endurance=2, vitality=1, toughness=0)
shell = mouse.replace(name="Shell", endurance=0, toughness=4)
line_fight = wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1)
b_falls = 1 - line_fight.creatures["p_survives"][3]
table([{"Mouse B falls in the first turn": "the workbench", "chance": fx(b_falls, 6)},
       {"Mouse B falls in the first turn": "by hand, 2469/4096", "chance": fx(2469 / 4096, 6)}])

# %% [markdown]
# ## 6. Exact or simulated
#
# An **exact** encounter follows every way the fight can go: every creature's hit points, all at once,
# round by round. Its size is the product of (HP + 1) over the creatures, so it grows fast: each
# Dire wolf (45 HP) multiplies it by 46. Past a bound the workbench **simulates** instead: it plays
# many fights (`fights`, with a fixed `seed`, so the notebook prints the same numbers every time) from
# the same rules, and reports the result with its **standard error** (`standard_error`: about two in
# three such estimates fall within one standard error of the exact chance, and 19 in 20 within two)
# and **why** it simulated (`forced_by`).

# %%
ways = {"2 Dire wolves, exact": wb.encounter([dragon], [dire_wolf] * 2),
        "2 Dire wolves, simulated (simulate=True)": wb.encounter([dragon], [dire_wolf] * 2, simulate=True,
                                                                 fights=20_000),
        "3 Dire wolves": wb.encounter([dragon], [dire_wolf] * 3, fights=20_000)}
table([{"the Young dragon against": label, "P(the dragon wins)": fx(r.p_a_wins, 4), "exact": r.exact,
        "standard error": r.standard_error if r.standard_error is not None else "-",
        "why simulated": ", ".join(r.forced_by) or "-"} for label, r in ways.items()], digits=4)

# %% hide
exact, sim = ways["2 Dire wolves, exact"], ways["2 Dire wolves, simulated (simulate=True)"]
off = abs(sim.p_a_wins - exact.p_a_wins) / sim.standard_error
say(f"The simulation of the two-wolf fight ({sim.fights:,} fights) is {fx(abs(sim.p_a_wins - exact.p_a_wins), 4)} "
    f"from the exact chance: {fx(off, 1)} standard errors, "
    + ("within two, as 19 simulations in 20 are." if off < 1.96 else "more than two, as 1 simulation in 20 is.")
    + f" With three Dire wolves there are {(dragon.hp + 1) * (dire_wolf.hp + 1) ** 3:,} combinations of hit points "
    f"({dragon.hp + 1} for the dragon's {dragon.hp} HP times {dire_wolf.hp + 1} for each wolf's {dire_wolf.hp}), past "
    f"the bound in the last column, so that fight is simulated.")

# %% [markdown]
# ## 7. How many wolves make this deadly?
#
# `wb.encounter_difficulty(party, foe)` plays the party against one copy of the foe, then two, three
# ..., until the party's chance falls below every level asked about (by default a coin flip and nine
# in ten), and says for each level the most copies the party beats that often. The chart shows the
# curve: a dashed line at each level, and on each simulated point (a hollow diamond) a bar of about
# two standard errors either way. Pick **who faces the pack**.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
packs = {"Last Odyssey: the Troll against Wolves": ([troll], lo_wolf),
         "Unbound: the Young dragon against Dire wolves": ([dragon], dire_wolf)}
curves = {label: wb.encounter_difficulty(party, foe, fights=20_000, max_copies=6)
          for label, (party, foe) in packs.items()}


def plural(name, n):
    """'Wolf' -> 'Wolves', 'Dire wolf' -> 'Dire wolves' (n != 1)."""
    return name if n == 1 else (name[:-1] + "ves" if name.endswith("f") else name + "s")


def draw_pack(label):
    d = curves[label]
    rows = d.curve.rows(named=True)
    party = d.party[0]
    safe, even = d.copies[0.9], d.copies[0.5]
    words = (f"The {party} beats up to **{safe}** {plural(d.foe, safe)} at least nine times in ten, and up to "
             f"**{even}** at least half the time. It wins "
             + "; ".join(f"{percent(r['p_party_wins'])} against {r['copies']} {plural(d.foe, r['copies'])}"
                         + ("" if r["exact"] else " (simulated)") for r in rows) + ".")
    return [say(words), show(charts.difficulty_chart(d), f"P({party} wins) by copies of {d.foe}: "
                             + ", ".join(f"{r['copies']} {fx(r['p_party_wins'], 4)}" for r in rows))]


explore(w.Dropdown(options=list(packs), value="Last Odyssey: the Troll against Wolves", description="Pack",
                   layout=w.Layout(width="440px")), draw_pack)

# %% [markdown]
# The curve is not a gentle slope: one wolf more can take a fight from "safe" to "deadly", because
# each wolf adds its attacks every round, and it adds them for as long as it stands. For an encounter
# you want to be hard but fair, pick the number of foes just left of the cliff.

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("16.1")

# %%
answer = None
check("16.1", answer)

# %%
ask("16.2")

# %%
answer = None
check("16.2", answer)

# %%
ask("16.3")

# %%
answer = None
check("16.3", answer)
