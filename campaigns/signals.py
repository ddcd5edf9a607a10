"""Signals for writes that Django sends none for (bulk inserts, update())."""

from django.dispatch import Signal

# A sheet's notes or aspects were written without a save() of each row (a sheet created
# with its aspects, an imported sheet). Arguments: character.
sheet_texts_written = Signal()
