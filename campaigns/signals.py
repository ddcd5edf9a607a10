"""Signals for writes that Django sends none for (bulk inserts, update()), and for what
layers above may refuse."""

from django.dispatch import Signal

# A sheet's notes or aspects were written without a save() of each row (a sheet created
# with its aspects, an imported sheet). Arguments: character.
sheet_texts_written = Signal()

# A scene is about to close, in the transaction that closes it, its row locked. A receiver
# raises ValidationError to refuse (mechanics: a fight still going on in it). Arguments:
# scene.
scene_closing = Signal()
