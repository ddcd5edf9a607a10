"""What the apps above characters add to a sheet page (the health controls, ...).

The sheet view knows none of them: each registers a panel from its AppConfig.ready(),
a function `(access, ratings, context) -> extra context` that runs a constant number of
queries and asks campaigns.permissions itself.

The sheet's grid is cached under its character's and its campaign's versions
(`characters.views.sheet_context`), which the database bumps for any row that links to the
character, for the campaign's own rows and for other characters' names
(`campaigns.versions`): a panel showing more of other characters than that needs its own
fragment.
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
