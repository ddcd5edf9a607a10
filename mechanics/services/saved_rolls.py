"""Writes for saved rolls: a roll panel's set-up kept under a name, renamed, deleted."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from mechanics.models import SavedRoll

# Never kept: the page's own fields and the choices that belong to one roll only.
NOT_KEPT = frozenset({"csrfmiddlewaretoken", "part", "result", "scene", "saved", "saved_name"})


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValidationError(_("Give the saved roll a name."))
    if len(name) > SavedRoll._meta.get_field("name").max_length:
        raise ValidationError(_("The name is too long (80 characters at most)."))
    return name


def _taken(character, name: str, exclude: int | None = None) -> bool:
    others = SavedRoll.objects.filter(character=character, name__iexact=name)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    return others.exists()


def setup_from_choices(choices: Mapping[str, list[str]], one_off: tuple[str, ...]) -> dict:
    """What a saved roll keeps of a panel's posted choices ({field: [values]})."""
    skipped = NOT_KEPT | set(one_off)
    return {name: list(values) for name, values in choices.items() if name not in skipped}


@transaction.atomic
def saved_roll_create(*, character, user, name: str, setup: dict) -> SavedRoll:
    name = _clean_name(name)
    if _taken(character, name):
        raise ValidationError(_("There is already a saved roll with that name."))
    try:
        with transaction.atomic():
            return SavedRoll.objects.create(
                character=character, name=name, setup=setup, created_by=user
            )
    except IntegrityError as error:  # the same name saved twice at once
        raise ValidationError(_("There is already a saved roll with that name.")) from error


@transaction.atomic
def saved_roll_rename(*, saved: SavedRoll, name: str) -> SavedRoll:
    name = _clean_name(name)
    if _taken(saved.character_id, name, exclude=saved.pk):
        raise ValidationError(_("There is already a saved roll with that name."))
    SavedRoll.objects.filter(pk=saved.pk).update(name=name)
    saved.name = name
    return saved


def saved_roll_delete(*, saved: SavedRoll) -> None:
    SavedRoll.objects.filter(pk=saved.pk).delete()
