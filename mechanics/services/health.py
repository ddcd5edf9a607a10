"""Health: damage, time passing, treatments and undo, each an append-only event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Aspect, Character
from characters.services.sheet import (
    _lock,
    _lock_characters,
    aspect_add,
    aspect_remove,
    ratings_of,
)
from mechanics.models import HealthEvent
from mechanics.rules.dice import RollRecord
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import health as hitos_health
from mechanics.rules.hitos.catalogue import (
    CHARACTERISTICS,
    DRUG_KINDS,
    DRUG_KINDS_BY_KEY,
    MEDICAL_SUPERVISION_ASPECT,
)
from mechanics.rules.ndp import health as ndp_health
from mechanics.rules.ndp.rolls import NdpSpec, roll_check
from mechanics.rules.tinieblas import health as tinieblas_health
from mechanics.rules.tinieblas.rolls import PoolSpec, roll_pool
from mechanics.services.rolls import RollSide, roll_perform, roll_store
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system

# --- Health: damage, time, treatments and undo -----------------------------------------


def _health_context(character: Character):
    """The system adapter and what it needs to read this character's health."""
    system = get_system(character.campaign.system)
    return system, ratings_of(character), character.details, character.campaign.rules


def _health_event(
    character: Character,
    user,
    *,
    kind: str,
    after: dict,
    summary: str,
    inputs: Mapping | None = None,
    reason: str = "",
    scene=None,
    roll=None,
    undoes: HealthEvent | None = None,
) -> HealthEvent:
    event = HealthEvent.objects.create(
        character=character,
        scene=scene,
        kind=kind,
        inputs=dict(inputs or {}),
        summary=summary[:200],
        reason=reason[:200],
        health_before=character.health,
        health_after=after,
        roll=roll,
        undoes=undoes,
        created_by=user,
    )
    Character.objects.filter(pk=character.pk).update(health=after)
    character.health = after
    _sync_health_aspects(character, user)
    return event


def _sync_health_aspects(character: Character, user) -> None:
    """Hitos: the aspects a health state grants (painkillers, medical supervision) are
    kept on the sheet as temporary aspects, so rolls can use them; each is added when the
    state grants it and removed when it no longer does."""
    if character.campaign.system != "hitos":
        return

    managed = {MEDICAL_SUPERVISION_ASPECT} | {kind.aspect for kind in DRUG_KINDS if kind.aspect}
    system, ratings, details, rules = _health_context(character)
    granted = set(system.health_view(character.health, ratings, details, rules).states) & managed
    present = {
        aspect.text: aspect
        for aspect in Aspect.objects.filter(character=character, kind="temporal", text__in=managed)
    }
    for text in sorted(granted - present.keys()):
        aspect_add(character=character, user=user, kind="temporal", text=text)
    for text in sorted(present.keys() - granted):
        present[text].character = character
        aspect_remove(aspect=present[text], user=user)


def _rule_error(error: RuleError) -> ValidationError:
    return ValidationError(error.translated(_), code="rules")


@transaction.atomic
def character_apply_damage(
    *, character: Character, user, damage: DamageInput, reason: str = "", scene=None, rng=None
) -> HealthEvent:
    """Hurt a character by its system's rules; the row lock makes simultaneous hits add up."""
    locked = _lock(character)
    system, ratings, details, rules = _health_context(locked)
    try:
        change = system.apply_damage(locked.health, ratings, details, rules, damage, rng)
    except RuleError as error:
        raise _rule_error(error) from error
    roll = None
    if isinstance(change.roll, RollRecord):
        roll = roll_store(
            campaign=locked.campaign,
            user=user,
            record=change.roll,
            character=locked,
            scene=scene,
            label=_("Massive damage test"),
        )
    return _health_event(
        locked,
        user,
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
    *, character: Character, user, hours: int, reason: str = "", scene=None
) -> HealthEvent:
    """Let in-game time pass for one character: it heals by its system's rules."""
    if hours <= 0:
        raise ValidationError(_("Time to advance must be at least one hour."), code="hours")
    locked = _lock(character)
    system, ratings, details, rules = _health_context(locked)
    try:
        change = system.advance_time(locked.health, ratings, details, rules, hours)
    except RuleError as error:
        raise _rule_error(error) from error
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.TIME,
        after=change.health,
        summary=change.summary,
        inputs={"hours": hours},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def scene_advance_time(*, scene, user, hours: int, reason: str = "") -> list[HealthEvent]:
    """Advance time for every participant of a scene, all or none."""
    return [
        character_advance_time(
            character=character, user=user, hours=hours, reason=reason, scene=scene
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
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.UNDO,
        after=target.health_before,
        summary=_("Undone: %(summary)s") % {"summary": target.summary},
        inputs={"event": target.pk},
        reason=reason,
        scene=target.scene,
        undoes=target,
    )


# --- Health treatments: first aid, medical supervision, painkillers, Auxiliar ------------


def _lock_patient_and_healer(character: Character, healer: Character) -> tuple:
    """Both sheets locked (in primary-key order); the healer must be of the same campaign."""
    rows = _lock_characters({character.pk, healer.pk})
    patient, healer_row = rows[character.pk], rows.get(healer.pk)
    if healer_row is None or healer_row.campaign_id != patient.campaign_id:
        raise ValidationError(
            _("The healer must be a character of this campaign."), code="healer_elsewhere"
        )
    if healer_row.pk == patient.pk:
        healer_row = patient
    return patient, healer_row


def _require_system(character: Character, system: str, message: str) -> None:
    if character.campaign.system != system:
        raise ValidationError(message, code="wrong_system")


def _able_penalty(character: Character) -> int:
    """The wound penalty on a roll this character makes; refused if it cannot act."""
    system, ratings, details, rules = _health_context(character)
    shown = system.health_view(character.health, ratings, details, rules)
    if shown.cannot_act or shown.dead or shown.unconscious:
        raise ValidationError(
            _("%(name)s cannot act in this state.") % {"name": character.name},
            code="cannot_act",
        )
    return shown.penalty


def _treatment_roll(healer: Character, user, record, scene, label: str):
    """Store the healer's roll with its effects on the healer's sheet (PdP in 3d6 + NdP)."""
    [roll] = roll_perform(
        campaign=healer.campaign,
        user=user,
        sides=[RollSide(record=record, character=healer, scene=scene, label=label)],
    )
    return roll


@transaction.atomic
def character_first_aid(
    *,
    character: Character,
    user,
    healer: Character,
    proper_kit: bool = False,
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """Mundo de Tinieblas first aid, rolled on the server: the healer's Inteligencia +
    Medicina, −2 without proper kit, with the engine's modifier for the patient's state.
    The engine's table heals one lethal level on enough successes; fewer lock first aid
    until the patient is fully healed, and a dramatic failure also adds 1 L."""

    patient, healer = _lock_patient_and_healer(character, healer)
    _require_system(patient, "tinieblas", _("First aid is a Mundo de Tinieblas treatment."))
    system, ratings, details, rules = _health_context(patient)
    track = system.track(patient.health, ratings, details, rules)
    try:
        needed, state_modifier = tinieblas_health.first_aid_requirement(track)
    except RuleError as error:
        raise _rule_error(error) from error
    penalty = _able_penalty(healer)
    healer_ratings = ratings_of(healer) if healer.pk != patient.pk else ratings
    kit_modifier = 0 if proper_kit else -2
    spec = PoolSpec(
        attribute=healer_ratings.get("inteligencia", 1),
        skill=healer_ratings.get("medicina", 0),
        skill_category="mental",
        attribute_key="inteligencia",
        modifiers=tuple(m for m in (state_modifier, kit_modifier) if m),
        wound_penalty=penalty,
        unskilled_penalty=bool(rules.get("unskilled_penalty", True)),
    )
    record = roll_pool(spec, rng)
    dramatic = record.outcome == "dramatic_failure"
    new = tinieblas_health.first_aid(track, record.result, dramatic)
    label = _("First aid for %(name)s") % {"name": patient.name}
    roll = _treatment_roll(healer, user, record, scene, label)
    values = {"healer": healer.name, "successes": record.result, "needed": needed}
    if dramatic:
        summary = _(
            "First aid by %(healer)s: dramatic failure, one more lethal level; "
            "no more first aid until fully healed"
        )
    elif record.result >= needed:
        summary = _(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes, "
            "one lethal level healed"
        )
    else:
        summary = _(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes; "
            "no more first aid until fully healed"
        )
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={"treatment": "first_aid", "healer": healer.pk, "proper_kit": proper_kit},
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_medical_supervision(
    *,
    character: Character,
    user,
    supervisor: Character,
    characteristic: str,
    skill: str,
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """Hitos medical supervision for one healing period, rolled on the server: the
    supervisor's characteristic + skill against the engine's difficulty for the patient's
    state. Success grants «Bajo supervisión médica» (kept on the sheet as an aspect),
    failure removes it."""

    patient, supervisor = _lock_patient_and_healer(character, supervisor)
    _require_system(patient, "hitos", _("Medical supervision is a Hitos treatment."))
    system, ratings, _details, rules = _health_context(patient)
    supervisor_ratings = ratings_of(supervisor) if supervisor.pk != patient.pk else ratings
    if characteristic not in {c.key for c in CHARACTERISTICS}:
        raise ValidationError(_("Choose one of the four characteristics."), code="characteristic")
    if skill not in supervisor_ratings or skill in {c.key for c in CHARACTERISTICS}:
        raise ValidationError(
            _("%(name)s has no such skill.") % {"name": supervisor.name}, code="skill"
        )
    penalty = _able_penalty(supervisor)
    state = system.state(patient.health, ratings)
    try:
        spec = hitos_health.supervision_spec(
            state,
            supervisor_ratings[characteristic],
            supervisor_ratings[skill],
            wound_penalty=penalty,
            equal_succeeds=bool(rules.get("equal_succeeds")),
        )
        new, record = hitos_health.medical_supervision(state, spec, rng)
    except RuleError as error:
        raise _rule_error(error) from error
    label = _("Medical supervision of %(name)s") % {"name": patient.name}
    roll = _treatment_roll(supervisor, user, record, scene, label)
    values = {"name": supervisor.name, "total": record.result, "difficulty": spec.difficulty}
    if record.succeeded:
        summary = _("Medical supervision by %(name)s: %(total)s against %(difficulty)s, success")
    else:
        summary = _("Medical supervision by %(name)s: %(total)s against %(difficulty)s, failure")
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={
            "treatment": "medical_supervision",
            "supervisor": supervisor.pk,
            "characteristic": characteristic,
            "skill": skill,
        },
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_take_drug(
    *, character: Character, user, kind: str, reason: str = "", scene=None
) -> HealthEvent:
    """Hitos painkillers ("suave" or "fuerte"): they act after an hour of game time and
    cancel penalty points for some hours; the strong one brings «Bajo el efecto de las
    drogas» while it acts (kept on the sheet as an aspect)."""

    locked = _lock(character)
    _require_system(locked, "hitos", _("These painkillers are a Hitos treatment."))
    system = get_system(locked.campaign.system)
    try:
        new = hitos_health.take_drug(system.state(locked.health, ratings_of(locked)), kind)
    except RuleError as error:
        raise _rule_error(error) from error
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=_("%(drug)s taken; it acts in an hour") % {"drug": DRUG_KINDS_BY_KEY[kind].name},
        inputs={"treatment": "drug", "drug": kind},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_auxiliar(
    *,
    character: Character,
    user,
    healer: Character,
    adversity: int,
    part: str = "",
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """3d6 + NdP Auxiliar, rolled on the server: the healer's Auxiliar against the
    adversity the GM sets; success stops the bleeding (of one part, or all) and wakes
    the patient. The healer may be the patient."""

    patient, healer = _lock_patient_and_healer(character, healer)
    _require_system(patient, "ndp", _("Auxiliar is a 3d6 + NdP skill."))
    system = get_system(patient.campaign.system)
    try:
        state = system.state(patient.health)
        if part:
            state.part(part)
        spec = NdpSpec(
            level=ratings_of(healer).get("auxiliar", 0), adversity=adversity, skill="auxiliar"
        )
    except RuleError as error:
        raise _rule_error(error) from error
    bleeding = [p for p in state.bleeding_parts if not part or p == part]
    if state.dead or not (bleeding or state.unconscious):
        raise ValidationError(
            _("There is nothing for Auxiliar to treat: no Hemorragia and not unconscious."),
            code="nothing_to_treat",
        )
    _able_penalty(healer)
    record = roll_check(spec, rng)
    success = record.outcome == "success"
    new = ndp_health.auxiliar(state, part or None) if success else state
    roll = _treatment_roll(
        healer, user, record, scene, _("Auxiliar for %(name)s") % {"name": patient.name}
    )
    values = {"name": healer.name, "total": record.result, "adversity": adversity}
    if success:
        summary = _("Auxiliar by %(name)s: %(total)s against %(adversity)s, treated")
    else:
        summary = _("Auxiliar by %(name)s: %(total)s against %(adversity)s, no effect")
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={"treatment": "auxiliar", "healer": healer.pk, "adversity": adversity, "part": part},
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_bleed_round(
    *, character: Character, user, reason: str = "", scene=None
) -> HealthEvent:
    """3d6 + NdP: one round of bleeding, a wound on each bleeding part."""

    locked = _lock(character)
    _require_system(locked, "ndp", _("Bleeding by rounds is a 3d6 + NdP rule."))
    state = get_system(locked.campaign.system).state(locked.health)
    if not state.bleeding_parts or state.dead:
        raise ValidationError(_("Nothing is bleeding."), code="not_bleeding")
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.DAMAGE,
        after=ndp_health.bleed_round(state).to_dict(),
        summary=_("One round of bleeding"),
        inputs={"bleed_round": 1},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_set_unconscious(
    *, character: Character, user, unconscious: bool, reason: str = "", scene=None
) -> HealthEvent:
    """3d6 + NdP: the seed never says when a character falls unconscious; the GM marks
    it (Auxiliar wakes them)."""

    locked = _lock(character)
    _require_system(locked, "ndp", _("Marking unconsciousness by hand is a 3d6 + NdP rule."))
    state = get_system(locked.campaign.system).state(locked.health)
    if state.unconscious == unconscious:
        raise ValidationError(_("Nothing changes."), code="unchanged")
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.DAMAGE if unconscious else HealthEvent.Kind.TREATMENT,
        after=ndp_health.set_unconscious(state, unconscious).to_dict(),
        summary=_("Falls unconscious") if unconscious else _("Comes round"),
        inputs={"unconscious": unconscious},
        reason=reason,
        scene=scene,
    )
