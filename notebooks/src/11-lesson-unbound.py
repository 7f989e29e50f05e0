# %% [markdown]
# # Lesson: how an Unbound (d20) attack lands
#
# **For:** a class or a game group learning Unbound's attack rules. No programming needed: read the
# rule, look at the chart, move the control, answer the questions at the end.
#
# **You will see:** the d20 roll against Armor Class, the natural 1 and 20, critical hits, iterative
# attacks, two-weapon fighting and the situational bonuses (flanking, high ground, charge).
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Each
# chart below a control is redrawn when the control moves. Every number is exact: the workbench
# counts every face of every die, it does not simulate.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

U = wb.system("unbound")
cat = U.catalog()
guard, duelist = cat.creature("Town guard"), cat.creature("Veteran duelist")
longsword, rapier, dagger = cat.attack("Longsword"), cat.attack("Rapier"), cat.attack("Dagger")
RULES = "unbound-d20-attacking.txt"
PINNED = "CLARIFICATIONS.md (Unbound)"


def p_hit(table) -> float:
    """The chance that an attack's outcome table hits."""
    return float(table.filter(table["hit"])["probability"].sum())


def mean_damage(table) -> float:
    """The average damage of an outcome table."""
    return float((table["probability"] * table["damage"]).sum())


# %% hide
say(f"The cast, from the workbench's Unbound catalog: the **Town guard** (Strength {guard.str_mod:+d}, a longsword, "
    f"AC {guard.ac}) and the **Veteran duelist** (AC {duelist.ac}, a rapier and a dagger).")

# %% [markdown]
# ## 1. Roll a d20, add the bonus, beat the Armor Class

# %% hide
quote("When a character attempts to make an attack they typically roll a d20 and add their Attack Bonus to the "
      "result. If the result of their attack is equal to or higher than the targets Ac or Touch AC, whichever they "
      "are targeting, the attack hits", RULES)

# %% hide
quote("a natural 1 on the d20 roll is an automatic miss and a natural 20 is an automatic hit regardless of the "
      "target's AC.", RULES)

# %% [markdown]
# The guard's longsword is a melee weapon, so its bonus is the guard's Strength. Move the slider to
# change the target's **Armor Class**: the red bar is the chance to hit at that AC.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
acs = list(range(4, 31))
hit_by_ac = {ac: p_hit(wb.outcomes(longsword, guard, duelist.replace(ac=ac))) for ac in acs}


def draw_ac(ac):
    need = min(max(ac - guard.str_mod, 2), 20)
    chart = bars([{"AC": a, "P(hit)": p} for a, p in hit_by_ac.items()], "AC", "P(hit)", highlight=ac,
                 title=f"Town guard's longsword (+{guard.str_mod}) against each AC", width=560)
    words = (f"Against **AC {ac}** the guard needs **{need} or more** on the d20: "
             f"P(hit) = **{percent(hit_by_ac[ac])}**.")
    return [say(words), show(chart, f"P(hit) against AC {acs[0]} to {acs[-1]}, AC {ac} highlighted: "
                                     f"{fx(hit_by_ac[ac], 4)}")]


explore(w.IntSlider(value=17, min=acs[0], max=acs[-1], description="Target AC"), draw_ac)

# %%
say(f"Whatever the AC, the chance to hit stays between **{percent(min(hit_by_ac.values()))}** (only a natural 20) "
    f"and **{percent(max(hit_by_ac.values()))}** (everything but a natural 1): each face of the d20 is 5 %.")

# %% [markdown]
# ## 2. Critical hits: threat range and multiplier

# %% hide
quote('"20x2" is threat range and multiplier ("19-20x2", "20x3"). A threat that hits is confirmed by a\n'
      "second roll with the same modifiers against the same AC (option `confirm_crits`, on); a confirmed\n"
      "critical rolls the weapon's damage (dice and static bonus) multiplier times and adds them.", PINNED)

# %% [markdown]
# The rules text sends criticals to a chapter it does not include; the workbench uses the pinned
# default above. Pick the longsword's critical profile: the chart shows its damage against the
# duelist. A wider threat range makes criticals more frequent; a bigger multiplier makes them bigger.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
profiles = ["20x2", "19-20x2", "18-20x2", "20x3", "19-20x3", "20x4"]


def draw_crit(crit):
    sword = longsword.replace(crit=crit)
    t = wb.outcomes(sword, guard, duelist)
    p_crit = float(t.filter(t["crit"])["probability"].sum())
    d = wb.damage(sword, guard, duelist)
    rows = [{"crit": c, "mean damage": wb.damage(longsword.replace(crit=c), guard, duelist).mean()} for c in profiles]
    words = (f"With **{crit}**, P(critical) = **{percent(p_crit, 2)}** and the mean damage per swing is "
             f"**{fx(d.mean(), 3)}** (P(hit) stays {percent(p_hit(t))}).")
    chart = bars(rows, "crit", "mean damage", highlight=crit, sort=profiles, y_format=".2f",
                 title=f"Mean damage per swing against AC {duelist.ac}, by critical profile", width=440)
    return [say(words), show(chart, f"mean damage by profile, {crit} highlighted: {fx(d.mean(), 4)}"),
            show(charts.damage_chart(d, title=f"Longsword {crit}: damage against AC {duelist.ac}"),
                 f"damage distribution with {crit}, mean {fx(d.mean(), 4)}")]


explore(w.Dropdown(options=profiles, value="19-20x2", description="Crit"), draw_crit)

# %% hide
crit_means = {c: round(wb.damage(longsword.replace(crit=c), guard, duelist).mean(), 9) for c in profiles}
ties = [(a, b) for i, a in enumerate(profiles) for b in profiles[i + 1:] if crit_means[a] == crit_means[b]]
say("Profiles with exactly the same mean damage here: " + "; ".join(f"**{a}** and **{b}** ({fx(crit_means[a], 4)})"
                                                                  for a, b in ties)
    + ". A critical adds (multiplier − 1) extra weapon rolls on each threat face: 19-20x2 is 2 faces × 1 extra "
      "roll, 20x3 is 1 face × 2 extra rolls, the same in all (here every threat face hits).")

# %% [markdown]
# ## 3. Iterative attacks: more attacks, each a little worse

# %% hide
quote("By default they gain an iterative attack at professional rank and grandmaster+ rank with weapons in that "
      "weapon group. Every attack past the first a character makes in the same turn takes a stacking -4 penalty "
      "to hit", RULES)

# %% [markdown]
# The duelist takes the **All Out Attack** action with its rapier against the guard. Choose the
# duelist's rank: each rank adds one attack, each at 4 less than the one before.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
ranks = ["untrained", "professional", "grandmaster"]


def draw_rank(rank):
    fighter = duelist.replace(rank=rank)
    action = U.Action("all_out", "Rapier")
    rows = []
    for i, slot in enumerate(U.slots([action], fighter), start=1):
        t = wb.outcomes(rapier, fighter, guard, situation=U.Situation(bonus=slot.modifier))
        rows.append({"attack": f"{i}. {slot.attack.name}", "modifier": f"{slot.modifier:+d}", "P(hit)": p_hit(t)})
    total = mean_damage(U.action_outcomes(action, fighter, guard))
    words = (f"A **{rank}** duelist makes **{len(rows)}** rapier attack{'s' if len(rows) > 1 else ''}; the whole "
             f"action deals **{fx(total, 3)}** damage on average.")
    return [say(words), table(rows, digits=3)]


explore(w.Dropdown(options=ranks, value="professional", description="Rank"), draw_rank)

# %% [markdown]
# ## 4. Two-weapon fighting

# %% hide
quote("When performing an attack action that allows the character to attack with both their main and off hand "
      "weapons, both attacks take the multiple attack penalty from the off hand in addition to any other multiple "
      "attack penalties they may have.\n\n"
      "If the off hand weapon has the light weapon property this penalty is lowered by 1, and if both the main hand "
      "and off hand weapons have the light property the penalty is lowered by 2.", RULES)

# %% [markdown]
# The off-hand penalty is −4 (pinned in `CLARIFICATIONS.md`). A professional fighter with a longsword,
# a rapier and a dagger makes an All Out Attack against the guard. Choose the weapons: is the extra
# off-hand attack worth the penalty on every attack?

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
fighter = duelist.replace(name="Fighter", weapons=(longsword, rapier, dagger))
setups = {
    "Longsword alone": (longsword, None),
    "Longsword + Longsword (neither light)": (longsword, longsword),
    "Longsword + Dagger (off hand light)": (longsword, dagger),
    "Rapier + Dagger (both light)": (rapier, dagger),
}


def draw_twf(label):
    main, off = setups[label]
    action = U.Action("all_out", main, off_hand=off)
    rows = [{"attack": f"{i}. {s.attack.name}", "modifier": f"{s.modifier:+d}"}
            for i, s in enumerate(U.slots([action], fighter), start=1)]
    t = U.action_outcomes(action, fighter, guard)
    means = {k: mean_damage(U.action_outcomes(U.Action("all_out", m, off_hand=o), fighter, guard))
             for k, (m, o) in setups.items()}
    words = (f"**{label}**: {len(rows)} attacks, mean damage of the action **{fx(mean_damage(t), 3)}**, "
             f"mean hits {fx(float((t['probability'] * t['hits']).sum()), 3)}.")
    chart = bars([{"weapons": k, "mean damage": v} for k, v in means.items()], "weapons", "mean damage",
                 highlight=label, sort=list(setups), y_format=".2f", width=560,
                 title=f"All Out Attack against the Town guard (AC {guard.ac}): mean damage")
    chart = chart.configure_axisX(labelAngle=0, labelLimit=140, labelExpr="split(datum.label, ' (')[0]")
    return [say(words), table(rows), show(chart, f"mean damage by weapon setup, {label}: {fx(mean_damage(t), 4)}")]


explore(w.Dropdown(options=list(setups), value="Rapier + Dagger (both light)", description="Weapons",
                   layout=w.Layout(width="420px")), draw_twf)

# %% [markdown]
# ## 5. Flanking, high ground and charging

# %% hide
quote("Flanking: When two characters flank an enemy they gain a +2 tactical bonus to hit at base.", RULES)

# %% hide
quote("High Ground: When a character attacks down on enemies from 5 feet or more above them they gain a +1 tactical "
      "bonus to hit at base. Likewise a character attacking up at an enemy with a melee attack who is 5 feet or more "
      "above them takes a -1 tactical bonus to hit at base.", RULES)

# %% hide
quote("Charge: When a character takes the charge action when making a melee attack they gain advantage on their "
      "attack roll.", RULES)

# %% [markdown]
# Advantage means rolling two d20 and keeping the higher (pinned in `CLARIFICATIONS.md`). The guard's
# longsword against the duelist: pick the situation.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
situations = {
    "plain": U.Situation(),
    "attacking up (−1)": U.Situation(high_ground="below"),
    "high ground (+1)": U.Situation(high_ground="above"),
    "flanking (+2)": U.Situation(flanking=True),
    "charge (advantage)": U.Situation(charge=True),
    "flanking + charge": U.Situation(flanking=True, charge=True),
}
hit_by_situation = {k: p_hit(wb.outcomes(longsword, guard, duelist, situation=s)) for k, s in situations.items()}


def draw_situation(label):
    gain = hit_by_situation[label] - hit_by_situation["plain"]
    words = (f"**{label}**: P(hit) = **{percent(hit_by_situation[label])}**, "
             f"{'+' if gain >= 0 else '−'}{percent(abs(gain))} compared with a plain swing.")
    chart = bars([{"situation": k, "P(hit)": v} for k, v in hit_by_situation.items()], "situation", "P(hit)",
                 highlight=label, sort=list(situations), width=560,
                 title=f"Town guard's longsword against AC {duelist.ac}")
    chart = chart.configure_axisX(labelAngle=-20, labelLimit=160)
    return [say(words), show(chart, f"P(hit) by situation, {label}: {fx(hit_by_situation[label], 4)}")]


explore(w.Dropdown(options=list(situations), value="flanking (+2)", description="Situation",
                   layout=w.Layout(width="360px")), draw_situation)

# %%
charge, flank, plain = (hit_by_situation[k] for k in ("charge (advantage)", "flanking (+2)", "plain"))
say(f"Here charging is worth **{'more' if charge > flank else 'less'}** than flanking ({percent(charge)} against "
    f"{percent(flank)}). A +2 always adds two faces of the d20 (10 %); advantage adds most when the plain chance "
    f"is near one half, and the guard's is {percent(plain)}.")

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell below it says whether it is right,
# and why. Use the controls above to find the answers.

# %%
ask("11.1")

# %%
answer = None
check("11.1", answer)

# %%
ask("11.2")

# %%
answer = None  # e.g. "20x3"
check("11.2", answer)

# %%
ask("11.3")

# %%
answer = None
check("11.3", answer)
