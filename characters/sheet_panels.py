"""What the apps above characters add to a sheet page (the health controls, ...).

The sheet view knows none of them: each registers a panel from its AppConfig.ready(),
a function `(access, ratings, context) -> extra context` that runs a constant number of
queries and asks campaigns.permissions itself.

The sheet's grid is cached by what it shows (`characters.views.sheet_context`), so a panel
that reads rows beyond the sheet's own also registers a state: `(access) -> state`, every
value its HTML depends on (part of the cache key), read without loading the rows the
panel loads when the grid is rendered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from campaigns.permissions import CharacterAccess

SheetPanel = Callable[[CharacterAccess, Mapping[str, int], dict], dict]

SheetPanelState = Callable[[CharacterAccess], object]

_panels: list[SheetPanel] = []
_states: list[SheetPanelState] = []


def register_sheet_panel(panel: SheetPanel) -> SheetPanel:
    if panel not in _panels:
        _panels.append(panel)
    return panel


def sheet_panels_context(
    access: CharacterAccess, ratings: Mapping[str, int], context: dict
) -> dict:
    extra: dict = {}
    for panel in _panels:
        extra.update(panel(access, ratings, context))
    return extra


def register_sheet_panel_state(state: SheetPanelState) -> SheetPanelState:
    if state not in _states:
        _states.append(state)
    return state


def sheet_panels_state(access: CharacterAccess) -> tuple:
    """Every panel's state, for the sheet's cache key."""
    return tuple(state(access) for state in _states)
