"""What a Hitos scene or session takes with it when it ends (seed: temporary aspects last
"una escena" or "una sesión"; an exhausted aspect comes back "la siguiente sesión de juego
o la siguiente historia", and the GM decides for the story)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from characters.models import Aspect
from characters.services.sheet import aspect_remove, aspect_set_exhausted

TEMPORARY = "temporal"


def _expire(aspects, user) -> list[str]:
    notes = []
    for aspect in aspects.select_related("character").order_by("character_id", "pk"):
        aspect_remove(aspect=aspect, user=user)
        notes.append(
            _("%(name)s loses the temporary aspect “%(aspect)s”.")
            % {"name": aspect.character.name, "aspect": aspect.text}
        )
    return notes


def end_scene(system, scene, user) -> list[str]:
    """Scene-long temporary aspects of the scene's characters expire."""
    scene_long = Aspect.objects.filter(
        character__in=scene.participants.all(), kind=TEMPORARY, duration="scene"
    )
    return _expire(scene_long, user)


def end_session(system, campaign, user) -> list[str]:
    """Scene- and session-long temporary aspects expire, and exhausted aspects come back."""
    aspects = Aspect.objects.filter(character__campaign=campaign)
    notes = _expire(aspects.filter(kind=TEMPORARY, duration__in=("scene", "session")), user)
    for aspect in aspects.filter(exhausted=True).select_related("character").order_by("pk"):
        aspect_set_exhausted(aspect=aspect, user=user, exhausted=False)
        notes.append(
            _("%(name)s can use “%(aspect)s” again.")
            % {"name": aspect.character.name, "aspect": aspect.text}
        )
    return notes
