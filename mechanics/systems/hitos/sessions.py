"""What a Hitos scene or session takes with it when it ends (seed: temporary aspects last
"una escena" or "una sesión"; an exhausted aspect comes back "la siguiente sesión de juego
o la siguiente historia", and the GM decides for the story)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.texts import Message
from characters.models import Aspect, Character
from characters.services.sheet import aspect_remove, aspect_set_exhausted
from mechanics.models import HealthEvent
from mechanics.rules.hitos import health as engine
from mechanics.services.health import character_lock, health_event_record
from mechanics.systems.hitos.scene import end_situation_aspects

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


def _end_secuelas(system, characters, user, durations, ending, scene=None) -> list[str]:
    """A critical hit's secuela lasting one of `durations` ends, as a health event."""
    notes = []
    for character in characters.filter(health__critical_secuela__in=durations).order_by("pk"):
        locked = character_lock(character=character)
        state = engine.HitosHealth.from_dict(dict(locked.health))
        if state.critical_secuela not in durations:
            continue
        after = ending(state).to_dict()
        note = Message(gettext_noop("%(name)s's critical-hit secuela ends."), name=locked.name)
        health_event_record(
            character=locked,
            user=user,
            kind=HealthEvent.Kind.TIME,
            after=after,
            summary=note,
            inputs={"secuela_ends": state.critical_secuela},
            scene=scene,
        )
        notes.append(note)
    return notes


def end_scene(system, scene, user) -> list[str]:
    """Scene-long temporary aspects and critical-hit secuelas of the scene's characters
    expire, and so do the scene's situation aspects."""
    scene_long = Aspect.objects.filter(
        character__in=scene.participants.all(), kind=TEMPORARY, duration="scene"
    )
    notes = _expire(scene_long, user) + end_situation_aspects(scene)
    characters = Character.objects.filter(pk__in=scene.participants.values("pk"))
    return notes + _end_secuelas(system, characters, user, ("scene",), engine.end_scene, scene)


def end_session(system, campaign, user) -> list[str]:
    """Scene- and session-long temporary aspects and critical-hit secuelas expire, and
    exhausted aspects come back."""
    aspects = Aspect.objects.filter(character__campaign=campaign)
    notes = _expire(aspects.filter(kind=TEMPORARY, duration__in=("scene", "session")), user)
    notes += _end_secuelas(
        system,
        Character.objects.filter(campaign=campaign),
        user,
        ("scene", "session"),
        engine.end_session,
    )
    for aspect in aspects.filter(exhausted=True).select_related("character").order_by("pk"):
        aspect_set_exhausted(aspect=aspect, user=user, exhausted=False)
        notes.append(
            _("%(name)s can use “%(aspect)s” again.")
            % {"name": aspect.character.name, "aspect": aspect.text}
        )
    return notes
