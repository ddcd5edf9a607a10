"""How long each stored text may be, in characters.

The models take their `max_length` from here, and every form and the sheet import read
it back from the model field, so a text the site accepted once is accepted again (an
exported sheet re-imports). Databases do not enforce a TextField's length: these do.
"""

from __future__ import annotations

NAME = 120  # campaigns, characters
TITLE = 160  # stories and scenes, places
SHORT_TEXT = 200  # concepts, aspects, merit notes, reasons
MARKDOWN = 20_000  # campaign description, story and scene summaries, GM notes
DIARY = 50_000  # one diary entry
SHEET_TEXT = 20_000  # a character's description and notes


def limit(model, field: str) -> int:
    """The stored length limit of `model.field`, for a form or a check to use."""
    return model._meta.get_field(field).max_length
