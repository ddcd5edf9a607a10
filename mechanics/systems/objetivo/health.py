"""Dado objetivo on the health section: PV lost, and a wound penalty that is a die one
level down rather than a number.

`ObjetivoSystem` takes its health attributes from here (its `# --- Health ---` block).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

DAMAGE_LABEL = gettext_lazy("PV lost")


def penalty_words(system, penalty: int) -> str:
    return _("target die one level down")


def state_penalty(system, penalty: int) -> str:
    """A die one level down is no number to add after the state's name."""
    return ""
