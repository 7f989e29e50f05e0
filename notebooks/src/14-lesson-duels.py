# %% [markdown]
# # Lesson: who wins a duel, and why
#
# **For:** a class or a game group that knows how one attack works (lesson 11 for Unbound) and now
# asks what happens when two creatures trade blows until one falls. No programming needed.
#
# **The questions:** how often does each side win? How much is it worth to act first? How many hit
# points does a fighter need to be the favourite?
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Every
# number is exact: the workbench follows every way the fight can go, round by round, it does not
# simulate.
#
# The cast, from the Unbound catalog: the **Ranger** (longbow and short sword) and the **Battle
# mage** (spells). Each plays its best turn every round: the legal turn with the most damage on
# average.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

U = wb.system("unbound")
cat = U.catalog()
ranger, mage = cat.creature("Ranger"), cat.creature("Battle mage")
PINNED = "CLARIFICATIONS.md (Unbound)"

# %% [markdown]
# ## 1. A round: each side takes its turn

# %% hide
quote("Two basic actions per turn; All Out Attack once per turn (all attacks);\n"
      "Push the Attack once per basic action (one attack).", PINNED)

# %%
turns = {me.name: wb.turn_damage(me, foe) for me, foe in [(ranger, mage), (mage, ranger)]}
table([{"creature": name, "HP": c.hp, "damage per turn (mean)": turns[name].mean(),
        "chance a turn does any damage": percent(turns[name].sf(1))}
       for name, c in [(ranger.name, ranger), (mage.name, mage)]])

# %% [markdown]
# ## 2. Who acts first?
#
# Both fight until one falls. Choose who takes the first turn (or a coin toss): the bar shows how
# often each side wins, the chart under it in which round the fight ends.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
firsts = {"the Ranger": "a", "the Battle mage": "b", "a coin toss decides": "random"}
duels = {label: wb.duel(ranger, mage, first=code, progress=False) for label, code in firsts.items()}


def draw_first(label):
    d = duels[label]
    ends = [{"round": int(r), "P(the fight ends)": float(a + b)}
            for r, a, b in zip(d.rounds["round"], d.rounds["p_a_wins"], d.rounds["p_b_wins"]) if r <= 12]
    mean_length = sum(float(r) * float(a + b) for r, a, b in
                      zip(d.rounds["round"], d.rounds["p_a_wins"], d.rounds["p_b_wins"]))
    words = (f"First turn: **{label}**. The Ranger wins **{percent(d.p_a_wins)}** of fights and the Battle mage "
             f"**{percent(d.p_b_wins)}**; a fight lasts **{fx(mean_length, 2)}** rounds on average.")
    return [say(words),
            show(charts.duel_chart(d.p_a_wins, d.p_b_wins, d.p_draw, (ranger.name, mage.name),
                                   title=f"Who wins (first turn: {label})"),
                 f"Ranger wins {fx(d.p_a_wins, 4)}, Battle mage wins {fx(d.p_b_wins, 4)}"),
            show(bars(ends, "round", "P(the fight ends)", title="The round the fight ends in"),
                 f"fight length, mean {fx(mean_length, 4)} rounds"),
            table([{"round": e["round"], "the fight ends in it": percent(e["P(the fight ends)"])} for e in ends[:6]])]


explore(w.Dropdown(options=list(firsts), value="a coin toss decides", description="First turn",
                   layout=w.Layout(width="320px")), draw_first)

# %%
worth = duels["the Ranger"].p_a_wins - duels["the Battle mage"].p_a_wins
say(f"Acting first changes the Ranger's chance by **{percent(worth)}**: the side that shoots first may "
    f"drop its foe before the foe's turn ever comes. A coin toss gives the average of the two, "
    f"{percent(duels['a coin toss decides'].p_a_wins)}.")

# %% [markdown]
# ## 3. How many hit points are enough?
#
# The Battle mage goes first. Move the slider to give the Ranger **more or fewer hit points**; the red
# bar is the Ranger's chance to win with that many.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
hps = list(range(10, 61))
win_by_hp = {hp: wb.duel(ranger.replace(hp=hp), mage, first="b", progress=False).p_a_wins for hp in hps}


def draw_hp(hp):
    words = (f"With **{hp}** HP (the catalog Ranger has {ranger.hp}), the Ranger wins **{percent(win_by_hp[hp])}** "
             f"of fights when the Battle mage goes first.")
    chart = bars([{"Ranger HP": h, "P(Ranger wins)": p} for h, p in win_by_hp.items()], "Ranger HP",
                 "P(Ranger wins)", highlight=hp, title="The Ranger's chance to win, the Battle mage first",
                 width=600)
    return [say(words), show(chart, f"P(Ranger wins) by HP, {hp} highlighted: {fx(win_by_hp[hp], 4)}")]


explore(w.IntSlider(value=ranger.hp, min=hps[0], max=hps[-1], description="Ranger HP"), draw_hp)

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("14.1")

# %%
answer = None
check("14.1", answer)

# %%
ask("14.2")

# %%
answer = None
check("14.2", answer)
