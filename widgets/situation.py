"""``SituationPanel`` and ``OptionsPanel``: forms for a system's Situation and rule Options."""

from __future__ import annotations

from typing import Any

from .forms import ModelForm

__all__ = ["SituationPanel", "OptionsPanel"]


class SituationPanel(ModelForm):
    """Edit the ``system.Situation`` (range, cover, awareness, ...); ``value`` is the valid Situation."""

    def __init__(self, system: Any, value: Any = None, *, title: str | None = None, **kwargs: Any) -> None:
        from workbench.systems import system as lookup

        self.system = lookup(system)
        super().__init__(self.system.Situation, value, system=self.system, title=title, **kwargs)


class OptionsPanel(ModelForm):
    """Edit the ``system.Options`` (the named defaults of CLARIFICATIONS.md); ``value`` is the valid Options."""

    def __init__(self, system: Any, value: Any = None, *, title: str | None = None, **kwargs: Any) -> None:
        from workbench.systems import system as lookup

        self.system = lookup(system)
        super().__init__(self.system.Options, value, system=self.system, title=title, **kwargs)
