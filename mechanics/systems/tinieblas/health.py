"""Mundo de Tinieblas on the health section: levels of damage, and first aid.

`TinieblasSystem` takes its health attributes from here (its `# --- Health ---` block).
"""

from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.texts import Message
from characters.models import Character
from characters.services.sheet import ratings_of, resource_regain
from mechanics.forms.health import HealerForm, reason_field
from mechanics.models import HealthEvent
from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import health as engine
from mechanics.rules.tinieblas.rolls import PoolSpec, roll_pool
from mechanics.services.health import (
    healer_penalty,
    health_event_record,
    health_inputs,
    patient_and_healer_lock,
    rule_refusal,
    treatment_roll_store,
)
from mechanics.systems.base import Treatment

DAMAGE_LABEL = gettext_lazy("Levels of damage")
DAMAGE_RANGE = (1, engine.MAX_LEVELS)


def health_notes(system, stored, ratings, details, rules) -> tuple[str, ...]:
    """A failed first aid locks it until the character is fully healed."""
    try:
        locked = system.track(stored, ratings, details, rules).first_aid_locked
    except RuleError:
        return ()
    return (_("First aid cannot help until the wounds are fully healed."),) if locked else ()


class FirstAidForm(HealerForm):
    """The healer's Inteligencia + Medicina."""

    prefix = "first_aid"
    proper_kit = forms.BooleanField(
        label=gettext_lazy("With proper medical kit (no −2)"),
        required=False,
        help_text=gettext_lazy("Not plasters: a real kit. Without it the roll has −2 dice."),
    )
    reason = reason_field()


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
    """First aid, rolled on the server: the healer's Inteligencia + Medicina, −2 without
    proper kit, with the engine's modifier for the patient's state. The engine's table
    heals one lethal level on enough successes; fewer lock first aid until the patient is
    fully healed, and a dramatic failure also adds 1 L."""

    patient, healer = patient_and_healer_lock(patient=character, healer=healer)
    system, ratings, details, rules = health_inputs(patient)
    track = system.track(patient.health, ratings, details, rules)
    try:
        needed, state_modifier = engine.first_aid_requirement(track)
    except RuleError as error:
        raise rule_refusal(error) from error
    penalty = healer_penalty(healer=healer)
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
    new = engine.first_aid(track, record.result, dramatic)
    label = Message(gettext_noop("First aid for %(name)s"), name=patient.name)
    roll = treatment_roll_store(healer=healer, user=user, record=record, scene=scene, label=label)
    values = {"healer": healer.name, "successes": record.result, "needed": needed}
    if dramatic:
        summary = gettext_noop(
            "First aid by %(healer)s: dramatic failure, one more lethal level; "
            "no more first aid until fully healed"
        )
    elif record.result >= needed:
        summary = gettext_noop(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes, "
            "one lethal level healed"
        )
    else:
        summary = gettext_noop(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes; "
            "no more first aid until fully healed"
        )
    return health_event_record(
        character=patient,
        user=user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=Message(summary, **values),
        inputs={"treatment": "first_aid", "healer": healer.pk, "proper_kit": proper_kit},
        reason=reason,
        scene=scene,
        roll=roll,
    )


TREATMENTS = (
    Treatment(
        key="first_aid",
        form=FirstAidForm,
        perform=character_first_aid,
        label="Primeros auxilios",
        help_text=gettext_lazy(
            "Inteligencia + Medicina of the healer, once per wounded character, for lethal "
            "damage from Lesionado to Malherido: 3 successes at Lesionado, 4 at Herido (−1 "
            "die), 5 at Malherido (−1 die). A failure blocks first aid until fully healed; a "
            "dramatic failure adds one lethal level. Bleeding and physical shock are lethal "
            "levels on this track, treated the same way."
        ),
        submit=gettext_lazy("Roll first aid"),
    ),
)


# Seed: "una reparadora noche de descanso tranquilo (8 horas)" returns a Willpower point.
QUIET_REST_HOURS = 8
REST_QUESTION = gettext_lazy("Quiet rest (1 Willpower back every 8 hours)")


def regain_willpower(system, character: Character, user, hours: int, rested: bool) -> str:
    """Quiet rest returns 1 Willpower per full 8 hours, up to the permanent rating."""
    if not rested:
        return ""
    gained = resource_regain(
        character=character, user=user, key="willpower", points=hours // QUIET_REST_HOURS
    )
    return Message(gettext_noop("+%(points)d Willpower"), points=gained) if gained else ""
