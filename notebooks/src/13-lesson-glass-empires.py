# %% [markdown]
# # Lesson: how a Glass Empires Strike lands
#
# **For:** a class or a game group learning Glass Empires's attack rules. No programming needed: read
# the rule, look at the chart, move the control, answer the questions at the end.
#
# **You will see:** the Strike Save and its five bands, armor points wearing down under blows, and
# creatures with more than one Strike per Attack.
#
# **How to use it:** run every cell once (menu *Run → Run All Cells*), then move the controls. Each
# chart below a control is redrawn when the control moves. Every number is exact: the workbench
# counts every way the dice can fall, it does not simulate.

# %% hide
import workbench as wb  # first: altair then imports faster
import ipywidgets as w

from classroom import ask, bars, check, explore, fx, percent, quote, say, show, table
from workbench import charts
import lesson_exercises  # noqa: F401  (registers the exercises)

G = wb.system("glass_empires")
cat = G.catalog()
fighter = G.Creature("Fighter", power=3, weapons=(G.Attack("Sword", category="light melee"),
                                                  G.Attack("Maul", category="heavy melee")))
sword, maul = fighter.weapons
dummy = G.Creature("Dummy", power=10)  # 40 HP, no armor: a target that shows the bands
bear = cat.creature("Bear")
knight = cat.creature("Longswordsman in Chain (Level 0 human, example)")
RULES = "glass-empires-attack.txt"
PINNED = "CLARIFICATIONS.md (Glass Empires)"
BANDS = ["Fumble", "Failure", "Seven", "Pass", "Crit"]


def strike_bands(modifier: int) -> dict[str, float]:
    """The chance of each band of one Strike Save with a modifier, read off the sword's outcomes
    against the Dummy: 8 damage is a Crit, 4 a Pass, 2 a Seven, 0 a Failure or a Fumble."""
    t = wb.outcomes(sword, fighter, dummy, situation=G.Situation(environment=modifier))
    bands = dict.fromkeys(BANDS, 0.0)
    for p, damage, fumble in zip(t["probability"], t["damage"], t["fumble"]):
        band = {8: "Crit", 4: "Pass", 2: "Seven"}.get(damage, "Fumble" if fumble else "Failure")
        bands[band] += p
    return bands


# %% hide
say(f"The cast: a **Fighter**, made up for this lesson, with a sword (light melee, {sword.damage} damage) and a maul "
    f"(heavy melee, {maul.damage} damage); and from the catalog of published creatures the **Bear** ({bear.strikes} "
    f"Strikes of {bear.weapons[0].damage}) and the **Longswordsman in Chain** ({knight.hp} HP, Armor {knight.armor}).")

# %% [markdown]
# ## 1. The Strike Save and its five bands

# %% hide
quote("To perform a Strike against a chosen valid target, choose an available weapon & roll a Strike Save. You may "
      "not add personal Fact bonuses to a Save, but should otherwise add factors such as the environment, "
      "Conditions, & the like.", RULES)

# %% hide
quote("**Crit (≥12)**: The defender suffers the weapon's effects at twice the normal severity (normally, by "
      "doubling Damage taken).\n\n"
      "**Pass (8–11)**: The defender suffers the weapon's effects, including Damage taken.\n\n"
      "**Seven (7)**: The defender suffers the weapon's effects with halved normal severity (normally, by halving "
      "Damage taken; round down).\n\n"
      "**Failure (3–6)**: Your Strike is deflected, poorly aimed, or otherwise a failure.\n\n"
      "**Fumble (≤2)**: Your Strike fails & if you're using a windgun or weapon with Reload, it's jammed or requires "
      "reloading.", RULES + ", its table of results")

# %% [markdown]
# A Strike Save is 2d6 plus the modifiers; a natural 12 is always a Crit and a natural 2 always a
# Fumble (pinned in `CLARIFICATIONS.md`). Move the slider to set the **modifier** (cover, range,
# environment and Conditions add up: high cover alone is −4).

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
def draw_bands(modifier):
    bands = strike_bands(modifier)
    lands = bands["Crit"] + bands["Pass"] + bands["Seven"]
    d = wb.damage(sword, fighter, dummy, situation=G.Situation(environment=modifier))
    words = (f"With a modifier of **{modifier:+d}** the Strike lands (Crit, Pass or Seven) **{percent(lands)}** of the "
             f"time; the sword deals **{fx(d.mean(), 2)}** damage on average.")
    chart = bars([{"band": b, "chance": bands[b]} for b in BANDS], "band", "chance", sort=BANDS,
                 title=f"One Strike Save with modifier {modifier:+d}", width=400)
    rows = [{"band": b, "chance": percent(bands[b]), "out of 36": round(bands[b] * 36)} for b in BANDS]
    return [say(words), table(rows), show(chart, f"band chances with modifier {modifier:+d}: lands {fx(lands, 4)}")]


explore(w.IntSlider(value=0, min=-6, max=6, description="Modifier"), draw_bands)

# %% [markdown]
# ## 2. Armor points wear down

# %% hide
quote("Armor points absorb physical damage before HP, 1 AP per 2 damage\n(or fraction).", PINNED)

# %% hide
quote("Armor points = Armor × Power (Armor: none 0, leather 1, chain 2, plate 4).", PINNED)

# %%
full_ap = G.armor_points(knight, G.Options())
say(f"The Longswordsman in Chain has Armor 2 and Power {knight.power}: **{full_ap}** armor points, and "
    f"{knight.hp} HP behind them.")

# %% [markdown]
# Each blow that gets through uses up armor points, and the next blow meets fewer. Move the slider to
# set the **armor points the knight has left** when the Fighter's maul strikes.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
def draw_ap(ap):
    situation = G.Situation(target_ap=ap)
    d = wb.damage(maul, fighter, knight, situation=situation)
    t = wb.outcomes(maul, fighter, knight, situation=situation)
    ap_used = float((t["probability"] * t["ap_damage"]).sum())
    words = (f"With **{ap}** armor point{'s' if ap != 1 else ''} left, the maul deals **{fx(d.mean(), 2)}** HP damage on "
             f"average and hurts at all **{percent(d.sf(1))}** of the time; it wears away {fx(ap_used, 2)} AP on "
             f"average.")
    return [say(words), show(charts.damage_chart(d, title=f"Maul against the knight with {ap} AP left",
                                                 x_title="Damage to HP"),
                             f"HP damage with {ap} AP left: mean {fx(d.mean(), 4)}")]


explore(w.IntSlider(value=full_ap, min=0, max=full_ap, description="AP left"), draw_ap)

# %% [markdown]
# ## 3. More Strikes per Attack

# %% hide
quote("If not, perform 1 or more Strikes; by default, characters receive 1 Strike per Attack (but may receive more "
      "through Features or other abilities).", RULES)

# %% hide
quote("If your Strike deals enough Damage to outright kill the defender, you receive the Action you spent on your "
      "Attack back.", RULES)

# %% [markdown]
# Each Strike is its own Strike Save, and armor points lost to one Strike stay lost for the next. Move
# the slider to give the Bear **more or fewer Strikes** (it starts at the catalog Bear's own) against
# the Longswordsman in Chain and watch the chance of a kill in one Attack.

# %% hide
# How the control below is computed: the workbench calls behind its chart (expand to read).
def draw_strikes(n):
    beast = bear.replace(strikes=n)
    t = wb.outcomes(beast.weapons[0], beast, knight)
    kill = float(t.filter(t["kill"])["probability"].sum())
    d = wb.damage(beast.weapons[0], beast, knight)
    words = (f"With **{n}** Strike{'s' if n > 1 else ''} the Bear kills the knight ({knight.hp} HP, {full_ap} AP) in one "
             f"Attack **{percent(kill)}** of the time, and gets that Attack's action back; it deals **{fx(d.mean(), 2)}** "
             f"HP damage on average.")
    return [say(words), show(charts.damage_chart(d, title=f"The Bear with {n} Strike{'s' if n > 1 else ''} "
                                                          f"against the knight", x_title="Damage to HP"),
                             f"Bear with {n} strikes: kill {fx(kill, 4)}, mean {fx(d.mean(), 4)}")]


explore(w.IntSlider(value=bear.strikes, min=1, max=4, description="Strikes"), draw_strikes)

# %% [markdown]
# ## Exercises
#
# Replace `None` with your answer and run the cell: the check cell says whether it is right, and
# why. The controls above help.

# %%
ask("13.1")

# %%
answer = None
check("13.1", answer)

# %%
ask("13.2")

# %%
answer = None
check("13.2", answer)
