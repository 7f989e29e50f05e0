"""The nine elements and their damage multipliers (CLARIFICATIONS.md, Last Odyssey: element table).

Attack element by row, target element by column; a colorless attack or target gives 1
(CLARIFICATIONS.md: "colorless on either side → 1"). Colorless is written ``None``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import RulesError

__all__ = [
    "ELEMENTS",
    "ELEMENT_TABLE",
    "element_code",
    "element_multiplier",
    "check_element",
    "SLEIGHT_THRESHOLD_BY_MULTIPLIER",
]

RULES = "CLARIFICATIONS.md, Last Odyssey: element table"

ELEMENTS: tuple[str, ...] = ("Fire", "Water", "Earth", "Wind", "Thunder", "Ice", "Wood", "Light", "Shadow")

# Row: attack element, column: target element, in ELEMENTS order.
ELEMENT_TABLE = np.array(
    [
        [1, 0.5, 1, 0.25, 1, 4, 2, 1, 1],  # Fire
        [2, 1, 0.5, 4, 0.25, 1, 1, 1, 1],  # Water
        [1, 2, 1, 0.5, 4, 0.25, 1, 1, 1],  # Earth
        [4, 0.25, 2, 2, 1, 2, 0.5, 4, 0.25],  # Wind
        [1, 4, 0.25, 1, 1, 2, 2, 0.5, 0.5],  # Thunder
        [0.25, 1, 4, 2, 0.5, 1, 2, 0.5, 1],  # Ice
        [0.5, 1, 1, 2, 0.5, 0.5, 1, 2, 2],  # Wood
        [1, 1, 1, 0.25, 2, 2, 0.5, 0.5, 4],  # Light
        [1, 1, 1, 4, 2, 1, 0.5, 0.25, 1],  # Shadow
    ],
    dtype=np.float64,
)

# Padded table: index 9 is colorless (multiplier 1 on either side), so codes vectorise.
_PADDED = np.ones((10, 10))
_PADDED[:9, :9] = ELEMENT_TABLE
COLORLESS = 9

# Sleight variants of the "sleight_elements" option (documented in docs/systems/last_odyssey.md):
# the element multiplier an elemental sleight would have as damage picks its landing threshold.
# 0.25 → immune (never lands), 0.5 → ≤ 3, 1 → ≤ 5, 2 → ≤ 7, 4 → cannot evade (always lands).
SLEIGHT_THRESHOLD_BY_MULTIPLIER = {0.25: -(10**6), 0.5: 3, 1.0: 5, 2.0: 7, 4.0: 10**6}


def check_element(field: str, value: Any, rule: str = RULES) -> str | None:
    """Return the canonical element name (``None`` for colorless), or raise RulesError naming ``field``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise RulesError(
            f"must be an element name or None (colorless), not {type(value).__name__}", field=field, rule=rule
        )
    if len(value) > 40:
        raise RulesError(
            f"unknown element of {len(value)} characters; choose one of {', '.join(ELEMENTS)}", field=field, rule=rule
        )
    v = value.strip().lower()
    if v in ("", "colorless", "colourless", "none"):
        return None
    for e in ELEMENTS:
        if e.lower() == v:
            return e
    raise RulesError(
        f"unknown element {value!r}; choose one of {', '.join(ELEMENTS)} or colorless", field=field, rule=rule
    )


def element_code(element: str | None) -> int:
    """Return the row/column index of ``element`` (9 for colorless)."""
    return COLORLESS if element is None else ELEMENTS.index(element)


def element_multiplier(attack_element: str | None, target_element: str | None) -> float:
    """Return the damage multiplier of an attack element against a target element (1 if either is colorless)."""
    return float(_PADDED[element_code(attack_element), element_code(target_element)])


def multipliers_of_codes(attack_codes: np.ndarray, target_codes: np.ndarray) -> np.ndarray:
    """Return the element multipliers of aligned arrays of element codes (vectorised lookup)."""
    return _PADDED[attack_codes, target_codes]
