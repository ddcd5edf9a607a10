"""Health: damage, time passing and undo, each an append-only event, and what every
system's treatment services share (`mechanics/systems/<key>/health.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.texts import TEXTS, Message, codes, stored_message
from characters.models import Character
from characters.services.sheet import _lock, _lock_characters, ratings_of
from mechanics.models import HealthEvent
from mechanics.rules.dice import RollRecord
from mechanics.rules.errors import RuleError
from mechanics.services.rolls import RollSide, roll_perform, roll_store
from mechanics.systems.base import DamageInput, GameSystem
from mechanics.systems.registry import get_system

# --- Health: damage, time and undo -------------------------------------------------------

# A character's new health state killed it, in the transaction that stored the state, its
# sheet locked (mechanics.services.combat takes it out of the fights going on). Arguments:
# character.
character_died = Signal()


def health_inputs(character: Character) -> tuple[GameSystem, dict[str, int], dict, dict]:
    """The system adapter and what it needs to read this character's health."""
    system = get_system(character.campaign.system)
    return system, ratings_of(character), character.details, character.campaign.rules


def health_event_record(
    *,
    character: Character,
    user,
    kind: str,
    after: dict,
    summary: str,
    inputs: Mapping | None = None,
    reason: str = "",
    scene=None,
    roll=None,
    undoes: HealthEvent | None = None,
) -> HealthEvent:
    """Store a new health state as an event, on a sheet the caller holds locked, and let
    the system bring the rest of the sheet in line (`GameSystem.after_health_change`).
    A summary or reason the site wrote (a `Message`) keeps its code in `inputs`, so each
    reader sees it in their language (`HealthEvent.summary_text`)."""
    inputs = dict(inputs or {})
    texts = codes(summary=summary, reason=reason)
    if texts:
        inputs[TEXTS] = texts
    event = HealthEvent.objects.create(
        character=character,
        scene=scene,
        kind=kind,
        inputs=inputs,
        summary=summary[:200],
        reason=reason[:200],
        health_before=character.health,
        health_after=after,
        roll=roll,
        undoes=undoes,
        created_by=user,
    )
    system, ratings, details, rules = health_inputs(character)
    was_dead = system.health_view(character.health, ratings, details, rules).dead
    Character.objects.filter(pk=character.pk).update(health=after)
    character.health = after
    system.after_health_change(character, user)
    if not was_dead and system.health_view(after, ratings, details, rules).dead:
        character_died.send(sender=Character, character=character)
    return event


def rule_refusal(error: RuleError) -> ValidationError:
    """The engine's refusal, in the user's language, for a form to show."""
    return ValidationError(error.translated(_), code="rules")


@transaction.atomic
def character_apply_damage(
    *, character: Character, user, damage: DamageInput, reason: str = "", scene=None, rng=None
) -> HealthEvent:
    """Hurt a character by its system's rules; the row lock makes simultaneous hits add up."""
    locked = _lock(character)
    system, ratings, details, rules = health_inputs(locked)
    try:
        change = system.apply_damage(locked.health, ratings, details, rules, damage, rng)
    except RuleError as error:
        raise rule_refusal(error) from error
    roll = None
    if isinstance(change.roll, RollRecord):
        roll = roll_store(
            campaign=locked.campaign,
            user=user,
            record=change.roll,
            character=locked,
            scene=scene,
            label=Message(gettext_noop("Massive damage test")),
        )
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.DAMAGE,
        after=change.health,
        summary=change.summary,
        inputs=asdict(damage),
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_advance_time(
    *, character: Character, user, hours: int, reason: str = "", scene=None, rested: bool = True
) -> HealthEvent:
    """Let in-game time pass for one character: it heals by its system's rules, and the
    rest of the sheet follows (`GameSystem.after_time_passes`). `rested` answers the
    system's `rest_question`."""
    if hours <= 0:
        raise ValidationError(_("Time to advance must be at least one hour."), code="hours")
    locked = _lock(character)
    system, ratings, details, rules = health_inputs(locked)
    try:
        change = system.advance_time(locked.health, ratings, details, rules, hours, rested)
    except RuleError as error:
        raise rule_refusal(error) from error
    also = system.after_time_passes(locked, user, hours, rested)
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.TIME,
        after=change.health,
        summary=Message(gettext_noop("%(change)s · %(also)s"), change=change.summary, also=also)
        if also
        else change.summary,
        inputs={"hours": hours, "rested": rested},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def scene_advance_time(
    *, scene, user, hours: int, reason: str = "", rested: bool = True
) -> list[HealthEvent]:
    """Advance time for every participant of a scene, all or none."""
    return [
        character_advance_time(
            character=character, user=user, hours=hours, reason=reason, scene=scene, rested=rested
        )
        for character in scene.participants.select_related("campaign").order_by("pk")
    ]


def _undo_target(character: Character) -> HealthEvent | None:
    """The newest event still in force: undos and what they undid are skipped."""
    for event in character.health_events.select_related("undone_by").order_by("-created_at", "-pk"):
        if event.kind == HealthEvent.Kind.UNDO or hasattr(event, "undone_by"):
            continue
        return event
    return None


@transaction.atomic
def health_event_undo(
    *, character: Character, user, reason: str = "", expected: int | None = None
) -> HealthEvent:
    """Undo the last event in force, recorded as a new compensating event.

    `expected` is the id of the event the user saw as the last one: if another event
    arrived meanwhile, nothing is undone."""
    locked = _lock(character)
    target = _undo_target(locked)
    if target is None:
        raise ValidationError(_("There is nothing to undo."), code="nothing_to_undo")
    if expected is not None and target.pk != expected:
        raise ValidationError(
            _("The health changed meanwhile; look at the events again before undoing."),
            code="changed",
        )
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.UNDO,
        after=target.health_before,
        summary=Message(
            gettext_noop("Undone: %(summary)s"),
            summary=stored_message(target.summary, target.texts.get("summary")),
        ),
        inputs={"event": target.pk},
        reason=reason,
        scene=target.scene,
        undoes=target,
    )


# --- What the treatment services of every system share ------------------------------------


def patient_and_healer_lock(*, patient: Character, healer: Character) -> tuple:
    """Both sheets locked (in primary-key order); the healer must be of the same campaign."""
    rows = _lock_characters({patient.pk, healer.pk})
    patient_row, healer_row = rows[patient.pk], rows.get(healer.pk)
    if healer_row is None or healer_row.campaign_id != patient_row.campaign_id:
        raise ValidationError(
            _("The healer must be a character of this campaign."), code="healer_elsewhere"
        )
    if healer_row.pk == patient_row.pk:
        healer_row = patient_row
    return patient_row, healer_row


def character_lock(*, character: Character) -> Character:
    """The sheet locked for a read-then-write of its health."""
    return _lock(character)


def healer_penalty(*, healer: Character) -> int:
    """The wound penalty on a roll this character makes; refused if it cannot act."""
    system, ratings, details, rules = health_inputs(healer)
    shown = system.health_view(healer.health, ratings, details, rules)
    if shown.cannot_act or shown.dead or shown.unconscious:
        raise ValidationError(
            _("%(name)s cannot act in this state.") % {"name": healer.name},
            code="cannot_act",
        )
    return shown.penalty


def treatment_roll_store(*, healer: Character, user, record, scene, label: str):
    """Store the healer's roll with its effects on the healer's sheet (PdP in 3d6 + NdP)."""
    [roll] = roll_perform(
        campaign=healer.campaign,
        user=user,
        sides=[RollSide(record=record, character=healer, scene=scene, label=label)],
    )
    return roll
