"""Hitos on the health section: points of damage against RD, medical supervision and
painkillers, and the temporary aspects those leave on the sheet.

`HitosSystem` takes its health attributes from here (its `# --- Health ---` block).
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.texts import Message
from characters.models import Aspect, Character
from characters.services.sheet import aspect_add, aspect_remove, ratings_of
from mechanics.forms.health import HealerForm, TreatmentForm, radio, rd_field, reason_field
from mechanics.models import HealthEvent
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import catalogue
from mechanics.rules.hitos import health as engine
from mechanics.services.health import (
    character_lock,
    healer_penalty,
    health_event_record,
    health_inputs,
    patient_and_healer_lock,
    rule_refusal,
    treatment_roll_store,
)
from mechanics.systems.base import GameSystem, Treatment

DAMAGE_LABEL = gettext_lazy("Points of damage")
# The aspects a health state grants, kept on the sheet as temporary aspects.
HEALTH_ASPECTS = frozenset(
    {catalogue.MEDICAL_SUPERVISION_ASPECT}
    | {kind.aspect for kind in catalogue.DRUG_KINDS if kind.aspect}
)
ASPECT_KIND = "temporal"


def damage_fields(system, character) -> dict[str, forms.Field]:
    return {
        **GameSystem.damage_fields(system, character),
        "rd": rd_field(_("The highest RD the target wears; it is subtracted from the damage.")),
        # A crítico that hits leaves a secuela for a scene (double 10) or a session (triple).
        "critical": forms.ChoiceField(
            label=_("Critical hit"),
            choices=[
                ("", _("No")),
                ("scene", _("Double 10: a secuela for the scene")),
                ("session", _("Triple 10: a secuela for the session")),
            ],
            required=False,
            initial="",
        ),
    }


def sync_health_aspects(system, character: Character, user) -> None:
    """The aspects a health state grants (painkillers, medical supervision) are kept on
    the sheet as temporary aspects, so rolls can use them; each is added when the state
    grants it and removed when it no longer does."""
    ratings, rules = ratings_of(character), character.campaign.rules
    shown = system.health_view(character.health, ratings, character.details, rules)
    granted = set(shown.states) & HEALTH_ASPECTS
    present = {
        aspect.text: aspect
        for aspect in Aspect.objects.filter(
            character=character, kind=ASPECT_KIND, text__in=HEALTH_ASPECTS
        )
    }
    for text in sorted(granted - present.keys()):
        aspect_add(character=character, user=user, kind=ASPECT_KIND, text=text)
    for text in sorted(present.keys() - granted):
        present[text].character = character
        aspect_remove(aspect=present[text], user=user)


REST_QUESTION = gettext_lazy("Rested at least 75 % of the time")


def secuela_lines(state: engine.HitosHealth) -> tuple[tuple[str, str], ...]:
    """The secuelas the health card lists (docs/rules.md#hitos-secuelas)."""
    lines = []
    if state.temporary_secuela:
        lines.append(("Secuela temporal", Message(gettext_noop("until Sano"))))
    if state.critical_secuela == "scene":
        lines.append(("Secuela de crítico", Message(gettext_noop("for the scene"))))
    elif state.critical_secuela == "session":
        lines.append(("Secuela de crítico", Message(gettext_noop("for the session"))))
    if state.permanent_secuelas:
        lines.append(("Secuelas permanentes", str(state.permanent_secuelas)))
    return tuple(lines)


class SupervisionForm(HealerForm):
    """The supervisor's characteristic + skill for one healing period."""

    prefix = "supervision"
    healer_label = gettext_lazy("Supervisor")
    characteristic = forms.ChoiceField(
        label=gettext_lazy("Characteristic"),
        choices=[(c.key, c.name) for c in catalogue.CHARACTERISTICS],
        initial="intelecto",
    )
    skill = forms.ChoiceField(
        label=gettext_lazy("Skill"),
        choices=[(s.key, s.name) for s in catalogue.SKILLS],
        initial="profesion",
    )
    reason = reason_field()

    def arguments(self) -> dict:
        data = dict(self.cleaned_data)
        data["supervisor"] = data.pop("healer")
        return data


class DrugForm(TreatmentForm):
    """Painkillers: soft or strong."""

    prefix = "drug"
    drug = forms.ChoiceField(
        label=gettext_lazy("Painkiller"),
        choices=[(kind.key, f"{kind.name}: {kind.description}") for kind in catalogue.DRUG_KINDS],
        widget=radio(),
        initial=catalogue.DRUG_KINDS[0].key,
    )
    reason = reason_field()

    def arguments(self) -> dict:
        return {"kind": self.cleaned_data["drug"], "reason": self.cleaned_data["reason"]}


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
    """Medical supervision for one healing period, rolled on the server: the supervisor's
    characteristic + skill against the engine's difficulty for the patient's state.
    Success grants «Bajo supervisión médica» (kept on the sheet as an aspect), failure
    removes it."""

    patient, supervisor = patient_and_healer_lock(patient=character, healer=supervisor)
    system, ratings, _details, rules = health_inputs(patient)
    supervisor_ratings = ratings_of(supervisor) if supervisor.pk != patient.pk else ratings
    characteristics = {c.key for c in catalogue.CHARACTERISTICS}
    if characteristic not in characteristics:
        raise ValidationError(_("Choose one of the four characteristics."), code="characteristic")
    if skill not in supervisor_ratings or skill in characteristics:
        raise ValidationError(
            _("%(name)s has no such skill.") % {"name": supervisor.name}, code="skill"
        )
    penalty = healer_penalty(healer=supervisor)
    state = system.state(patient.health, ratings)
    try:
        spec = engine.supervision_spec(
            state,
            supervisor_ratings[characteristic],
            supervisor_ratings[skill],
            wound_penalty=penalty,
            equal_succeeds=bool(rules.get("equal_succeeds")),
        )
        new, record = engine.medical_supervision(state, spec, rng)
    except RuleError as error:
        raise rule_refusal(error) from error
    label = Message(gettext_noop("Medical supervision of %(name)s"), name=patient.name)
    roll = treatment_roll_store(
        healer=supervisor, user=user, record=record, scene=scene, label=label
    )
    values = {"name": supervisor.name, "total": record.result, "difficulty": spec.difficulty}
    if record.succeeded:
        summary = gettext_noop(
            "Medical supervision by %(name)s: %(total)s against %(difficulty)s, success"
        )
    else:
        summary = gettext_noop(
            "Medical supervision by %(name)s: %(total)s against %(difficulty)s, failure"
        )
    return health_event_record(
        character=patient,
        user=user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=Message(summary, **values),
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
    """Painkillers ("suave" or "fuerte"): they act after an hour of game time and cancel
    penalty points for some hours; the strong one brings «Bajo el efecto de las drogas»
    while it acts (kept on the sheet as an aspect)."""

    locked = character_lock(character=character)
    system, ratings, _details, _rules = health_inputs(locked)
    try:
        new = engine.take_drug(system.state(locked.health, ratings), kind)
    except RuleError as error:
        raise rule_refusal(error) from error
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=Message(
            gettext_noop("%(drug)s taken; it acts in an hour"),
            drug=catalogue.DRUG_KINDS_BY_KEY[kind].name,
        ),
        inputs={"treatment": "drug", "drug": kind},
        reason=reason,
        scene=scene,
    )


class ActivityForm(TreatmentForm):
    """The week's test of an Incapacitado character who keeps up normal activity."""

    prefix = "activity"
    aspect = forms.ChoiceField(
        label=gettext_lazy("An aspect acts on the loss"),
        choices=[
            ("", gettext_lazy("None: a failure loses C")),
            ("positive", gettext_lazy("A positive one: a failure loses m")),
            ("negative", gettext_lazy("A negative one: a failure loses M")),
        ],
        widget=radio(),
        initial="",
        required=False,
    )
    reason = reason_field()

    def arguments(self) -> dict:
        return {
            "aspect": self.cleaned_data["aspect"] or None,
            "reason": self.cleaned_data["reason"],
        }


def _incapacitado(character: Character) -> bool:
    system, ratings, _details, _rules = health_inputs(character)
    return system.state(character.health, ratings).state.key == "incapacitado"


@transaction.atomic
def character_activity_test(
    *, character: Character, user, aspect: str | None = None, reason: str = "", scene=None, rng=None
) -> HealthEvent:
    """One week of normal activity while Incapacitado, rolled on the server: Aguante + C
    against 15; a failure loses C (m with a positive aspect, M with a negative one)."""

    locked = character_lock(character=character)
    system, ratings, _details, rules = health_inputs(locked)
    try:
        new, record = engine.activity_test(
            system.state(locked.health, ratings),
            rng,
            aspect=aspect,
            equal_succeeds=bool(rules.get("equal_succeeds")),
        )
    except RuleError as error:
        raise rule_refusal(error) from error
    roll = treatment_roll_store(
        healer=locked,
        user=user,
        record=record,
        scene=scene,
        label=Message(gettext_noop("Weekly activity test of %(name)s"), name=locked.name),
    )
    values = {"total": record.result, "loss": record.details["loss"]}
    if record.succeeded:
        summary = Message(
            gettext_noop("Weekly activity test: %(total)s against 15, success"), **values
        )
    else:
        summary = Message(
            gettext_noop("Weekly activity test: %(total)s against 15, loses %(loss)s"), **values
        )
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary,
        inputs={"treatment": "activity", "aspect": aspect or ""},
        reason=reason,
        scene=scene,
        roll=roll,
    )


TREATMENTS = (
    Treatment(
        key="supervision",
        form=SupervisionForm,
        perform=character_medical_supervision,
        label=gettext_lazy("Medical supervision"),
        help_text=gettext_lazy(
            "One roll per healing period against fácil, media or difícil for Sano, Herido or "
            "Incapacitado (muy difícil for Moribundo). Success grants the aspect «Bajo "
            "supervisión médica»."
        ),
        submit=gettext_lazy("Roll supervision"),
    ),
    Treatment(
        key="drug",
        form=DrugForm,
        perform=character_take_drug,
        label=gettext_lazy("Painkillers"),
        help_text=gettext_lazy(
            "They act after an hour of game time (advance time) and last about seven hours."
        ),
        submit=gettext_lazy("Take it"),
    ),
    Treatment(
        key="activity",
        form=ActivityForm,
        perform=character_activity_test,
        label=gettext_lazy("A week of activity while Incapacitado"),
        help_text=gettext_lazy(
            "An Incapacitado character who keeps up normal activity rolls Aguante + C against "
            "15 each week; a failure loses C points of Resistencia."
        ),
        submit=gettext_lazy("Roll the week's test"),
        offered=_incapacitado,
    ),
)
