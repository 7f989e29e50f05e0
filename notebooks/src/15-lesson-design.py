# %% [markdown]
# # Lesson: designing with the numbers
#
# **For:** designers, game masters and students who want to ask "what if?" of a rule system. No
# programming needed: each section asks a question, shows the answer as a picture, and gives you one
# control to vary. (Notebook 06 shows the same tools in full, for programmers.)
#
# **The questions:**
#
# 1. With a budget of Experience, which Annulus attack set hits hardest, and what does it cost you?
# 2. If the table changes one Unbound rule, how much does every fighter's damage change?
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Every
# number is exact.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
import lesson_exercises  # noqa: F401  (registers the exercises)

A, U = wb.system("annulus"), wb.system("unbound")
guard_a = A.catalog().creature("Town Guard")
ucat = U.catalog()
duelist = ucat.creature("Veteran duelist")
fighters = [ucat.creature(name) for name in ("Town guard", "Ranger", "Berserker", "Blademaster")]

# %% [markdown]
# ## 1. The best attack set for a budget

# %% hide
quote("Each upgrade, and the Damage seed itself, costs 1 Experience; a stackable upgrade costs 1 per rank.",
      "CLARIFICATIONS.md (Annulus)")

# %% hide
quote('All attack sets must start by taking the "Damage" ability.', "annulus-attacks.txt")

# %% [markdown]
# The workbench tries **every legal attack set** within the budget (seed, upgrades and ranks, and the
# rules that forbid some combinations) against the Annulus catalog's Town Guard, and ranks them by
# damage per turn. Move the slider to set the **budget**.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
budgets = [1, 2, 3, 4]
searches = {b: wb.explore("annulus", targets=[guard_a], budget=b, top_k=5, progress=False) for b in budgets}
best_by_budget = {b: float(f.filter(f["rank"] == 1)["mean_turn_damage"].max()) for b, f in searches.items()}


def draw_budget(budget):
    found = searches[budget].filter(searches[budget]["rank"] <= 5).sort("rank")
    top = found.row(0, named=True)
    words = (f"With **{budget}** Experience, {found['legal_sets'][0]:,} legal sets; the best against the Town Guard is "
             f"**{top['name']}** (cost {top['cost']}): **{fx(top['mean_turn_damage'], 2)}** damage per turn, "
             f"a kill in one turn **{percent(top['p_kill_one_turn'])}** of the time.")
    rows = [{"rank": r["rank"], "attack set": r["name"], "cost": r["cost"], "damage per turn": r["mean_turn_damage"],
             "kill in one turn": percent(r["p_kill_one_turn"])} for r in found.iter_rows(named=True)]
    chart = bars([{"budget": b, "best damage per turn": v} for b, v in best_by_budget.items()], "budget",
                 "best damage per turn", highlight=budget, y_format=".1f", width=320,
                 title="The best set's damage per turn, by budget")
    return [say(words), table(rows, digits=2), show(chart, f"best damage per turn by budget, {budget}: "
                                                           f"{fx(best_by_budget[budget], 4)}")]


explore(w.IntSlider(value=2, min=budgets[0], max=budgets[-1], description="Budget"), draw_budget)

# %% [markdown]
# A designer's question to ask next: the ranking counts only the damage dealt. A set with
# Reckless pays for its extra success with 1 damage to its own user on every use, which the
# "damage per turn" column does not subtract. Is the trade worth it in your game?

# %% [markdown]
# ## 2. One rule changed, every fighter compared

# %% hide
quote("A threat that hits is confirmed by a\nsecond roll with the same modifiers against the same AC (option "
      "`confirm_crits`, on)", "CLARIFICATIONS.md (Unbound)")

# %% hide
quote("Every attack past the first a character makes in the same turn takes a stacking -4 penalty to hit, some "
      "abilities may change this penalty.", "unbound-d20-attacking.txt")

# %% [markdown]
# Tables play some rules differently. Pick a **variant**: the table compares four catalog fighters'
# damage per turn (each playing its best turn) against the Veteran duelist, under the default rules
# and under the variant.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
variants = {
    "no confirmation roll for criticals": U.Options(confirm_crits=False),
    "stacking penalty −2 instead of −4": U.Options(multiple_attack_penalty=2),
    "both": U.Options(confirm_crits=False, multiple_attack_penalty=2),
}
default = {f.name: wb.turn_damage(f, duelist).mean() for f in fighters}


def draw_variant(label):
    changed = {f.name: wb.turn_damage(f, duelist, options=variants[label]).mean() for f in fighters}
    rows = [{"fighter": n, "default rules": default[n], label: changed[n], "change": changed[n] - default[n],
             "change %": percent(changed[n] / default[n] - 1)} for n in default]
    most = max(default, key=lambda n: changed[n] / default[n])
    more = sum(changed[n] > default[n] for n in default)
    words = (f"With **{label}**, {more} of the {len(default)} fighters deal more; **{most}** gains the most "
             f"({percent(changed[most] / default[most] - 1)}).")
    chart = bars([{"fighter": n, "change": changed[n] / default[n] - 1} for n in default], "fighter", "change",
                 sort=list(default), width=360, title=f"Change in damage per turn: {label}")
    return [say(words), table(rows, digits=2), show(chart, f"change by fighter with {label}")]


explore(w.Dropdown(options=list(variants), value="stacking penalty −2 instead of −4", description="Variant",
                   layout=w.Layout(width="420px")), draw_variant)

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("15.1")

# %%
answer = None
check("15.1", answer)

# %%
ask("15.2")

# %%
answer = None
check("15.2", answer)
