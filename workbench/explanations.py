"""The working behind a number (issue 18, item 5: "for any row of compare ... a 'how computed'
view: hit, threat and crit chances, the damage mixture, the plan, the chain (exact, rounds,
unresolved mass) or simulation (fights, standard error, rules that forced it), and a 'copy as
Python' snippet that reproduces the number with wb.* calls").

:func:`explain` computes one compare row (the one fight) and lays out how it was reached;
:func:`python_snippet` is plain ``wb.*`` calls that give the row's rounds to kill again, to the
digit: the exact chain's frame, or the simulation with the row's own fights and seed
(:func:`workbench.fight_rows.row_seed`). (Not ``explain.py``: importing it would rebind
``workbench.explain``.)
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from .errors import RulesError

__all__ = ["explain", "explanation_markdown", "python_snippet"]


def _ref(model: Any, sys: Any, kind: str) -> str:
    """Return Python that gives ``model`` back: its catalog entry when it is one, else its share code."""
    import workbench as wb

    name = getattr(model, "name", None)
    table = sys.catalog().creatures if kind == "creature" else sys.catalog().attacks
    if name is not None and table.get(name) == model:
        return f"s.catalog().{kind}({name!r})"
    return f"wb.from_share_code({wb.share_code(model)!r})"


def python_snippet(
    attacker: Any, target: Any, attack: Any = None, options: Any = None, situation: Any = None, *, seed: int = 0
) -> str:
    """Return Python (``wb.*`` calls) that reproduces compare's rounds to kill of ``attacker``
    using ``attack`` (None: its best plan) on ``target``: ``frame`` is that fight's
    ``wb.rounds_to_kill`` frame and ``mean_rounds`` its mean, equal to the compare row's."""
    import workbench as wb

    from .fight_rows import COMPARE_FIGHTS
    from .systems import system_of

    sys = system_of(attacker)
    lines = [
        "import workbench as wb",
        "from workbench.fight_rows import row_seed",
        "",
        f"s = wb.system({sys.name!r})",
        f"attacker = {_ref(attacker, sys, 'creature')}",
        f"target = {_ref(target, sys, 'creature')}",
    ]
    given = []
    for name, m, default in (("options", options, sys.Options()), ("situation", situation, sys.Situation())):
        if m is not None and m != default:
            lines.append(f"{name} = wb.from_share_code({wb.share_code(m)!r})")
            given.append(f"{name}={name}")
    if attack is None:
        plan, label = "None", "best plan"
    else:
        uses = sys.uses_per_turn(attacker, attack, options)
        plan, label = f"[{attack.name!r}] * {uses}", attack.name
    lines += [
        f"# compare's row {attacker.name} / {label} / {target.name}: the one fight, exact by the chain",
        f"# or simulated with the row's {COMPARE_FIGHTS:,} fights and its own seed",
        "frame = wb.rounds_to_kill(",
        f"    attacker, target, {', '.join(given) + ', ' if given else ''}plan={plan}, max_rounds=100,",
        f"    fights={COMPARE_FIGHTS}, seed=row_seed({seed}, {sys.name!r}, {attacker.name!r}, {label!r}, {target.name!r}),",
        "    progress=False,",
        ")",
        'at, by = frame["p_killed_at"], frame["p_killed_by"]',
        "if frame['exact'][0] and by[-1] < 1 - 1e-9:  # exact: compare's mean is the whole fight's, past 100 rounds",
        f"    frame = wb.rounds_to_kill(attacker, target, {', '.join(given) + ', ' if given else ''}plan={plan}, "
        "max_rounds=10_000, progress=False)",
        '    at, by = frame["p_killed_at"], frame["p_killed_by"]',
        'mean_rounds = float((frame["round"] * at).sum() / by[-1]) if by[-1] >= 1 - 1e-9 else float("inf")',
        "print(mean_rounds)",
    ]
    return "\n".join(lines)


class Explanation(dict):
    """What :func:`explain` returns: a plain dict of the steps, which a notebook shows as its
    Markdown, the key numbers and a chart of the rounds to down (:mod:`workbench.display`)."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        from .display import explanation_bundle

        return explanation_bundle(self, explanation_markdown(self), include, exclude)


def explain(
    attacker: Any, target: Any, attack: Any = None, options: Any = None, situation: Any = None, *, seed: int = 0
) -> Explanation:
    """Return how compare's row of ``attacker`` (using ``attack``, or None: its best plan) against
    ``target`` was computed: ``row`` (the compare row as a dict), ``events`` (P of each true/false
    outcome of one use: hit, threat, crit, a condition; empty for the best plan), ``damage``
    (mean, sd, P(any) of one use), ``plan`` and ``uses_per_turn``, ``method`` ("exact" or
    "simulated"), ``fights`` and ``se`` of a simulated row, ``forced_by`` (the state that forced
    it), ``state`` (the state effects the row's fight carries, sorted, whether chained exactly or
    simulated: ``workbench.simulate.state_effects``), ``unresolved`` and ``python``
    (:func:`python_snippet`)."""
    from .comparison import compare
    from .systems import fight_system

    sys = fight_system({"attacker": attacker, "target": target}, ..., options, situation)
    entry = attacker if attack is None else (attacker, attack)
    frame = compare(
        [entry], [target], options=options, situation=situation, seed=seed, best_plan=attack is None, progress=False
    )
    label = "best plan" if attack is None else attack.name
    rows = frame.filter(pl.col("attack") == label)
    if rows.height != 1:
        raise RulesError(f"{attacker.name} has no usable row for {label!r} against {target.name}", field="attack")
    row = rows.row(0, named=True)
    events: dict[str, float] = {}
    if attack is not None:
        out = sys.outcomes(attack, attacker, target, options, situation)
        for c, t in out.schema.items():
            if t == pl.Boolean:
                p = float((out["probability"] * out[c].cast(pl.Float64)).sum())
                if p > 0:
                    events[c] = p
    from .fight_rows import COMPARE_FIGHTS
    from .simulate import state_effects

    simulated = row["method"] == "simulated"
    state = sorted(state_effects(attacker, target, options, situation, None if attack is None else [attack]))
    return Explanation(
        {
            "row": row,
            "events": events,
            "damage": {k: row[k] for k in ("mean_damage", "sd_damage", "p_any_damage")},
            "plan": row["plan"],
            "uses_per_turn": row["uses_per_turn"],
            "turn": {k: row[k] for k in ("mean_turn_damage", "sd_turn_damage", "p_kill_one_turn")},
            "method": row["method"],
            "fights": COMPARE_FIGHTS if simulated else None,
            "se": row["se"],
            "forced_by": row["forced_by"],
            "state": state,
            "unresolved": row["p_unresolved"],
            "python": python_snippet(attacker, target, attack, options, situation, seed=seed),
        }
    )


def explanation_markdown(info: dict[str, Any]) -> str:
    """Return an :func:`explain` result as Markdown: the steps from one use to the fight, then
    the Python that reproduces it."""
    r = info["row"]
    f = lambda x, p=4: "–" if x is None else ("∞" if isinstance(x, float) and math.isinf(x) else f"{x:.{p}f}")  # noqa: E731
    lines = [f"**{r['attacker']}**, {r['attack']}, against **{r['target']}** ({r['system']})", ""]
    if info["events"]:
        lines.append(
            "1. One use: "
            + ", ".join(f"P({k}) {v:.2%}" for k, v in info["events"].items())
            + f"; damage mean {f(r['mean_damage'])}, sd {f(r['sd_damage'])}, P(any) {f(r['p_any_damage'])}."
        )
    else:
        lines.append("1. One use: the best plan mixes the attacker's attacks (see the plan).")
    turn = r["plan"] if r["plan"] else f"{r['attack']} × {r['uses_per_turn']}"
    state = "; ".join(info.get("state") or []) or r["forced_by"]
    if r["plan"] and state:
        # the row's turn columns are the first turn's; compare's fight with state chooses every turn
        # anew (docs/compare.md: the highest mean damage in the state that turn meets)
        turn += " on the first turn (each later turn plays the highest mean damage in the state it meets)"
    lines.append(
        f"2. One turn: {turn}; mean {f(r['mean_turn_damage'])}, P(down in one turn) {f(r['p_kill_one_turn'])}."
    )
    if info["method"] == "exact":
        how = "exact: the absorbing chain over the target's pools" + (
            f" and the fight's state ({state})" if state else ""
        )
    else:
        how = (
            f"simulated: {info['fights']:,} seeded fights, standard error {f(info['se'])}, because of {r['forced_by']}"
        )
    lines.append(
        f"3. The fight until {r['target']} ({r['target_hp']} HP) is down, {how}: mean "
        f"{f(r['mean_rounds'], 3)} rounds (10/50/90 %: {r['rounds_q10']}/{r['rounds_q50']}/{r['rounds_q90']}), "
        f"still standing after the last round {f(r['p_unresolved'])}."
    )
    lines += ["", "Reproduce it:", "", "```python", info["python"], "```"]
    return "\n".join(lines)
