"""What the apps above characters add to a sheet page (the health controls, ...).

The sheet view knows none of them: each registers a panel from its AppConfig.ready(),
a function `(access, ratings, context) -> extra context` that runs a constant number of
queries and asks campaigns.permissions itself.

The sheet's grid is cached under its character's and its campaign's versions
(`characters.views.sheet_context`; its pools and the rest under the character's grid
version, which its health and XP leave), which the database bumps for any row that links
to the character, for the campaign's own rows and for other characters' names
(`campaigns.versions`): a panel showing more of other characters than that needs its own
fragment, and one showing the character's health or XP outside the grid's middle piece a
section that `reads_health` (or a key of its own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from campaigns.permissions import CharacterAccess

SheetPanel = Callable[[CharacterAccess, Mapping[str, int], dict], dict]

_panels: list[SheetPanel] = []


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
