"""3d6 + NdP on the health section: wounds by body part against armour, Auxiliar, and the
GM's calls on bleeding and unconsciousness.

`NdpSystem` takes its health attributes from here (its `# --- Health ---` block).
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from campaigns.texts import Message
from characters.models import Character, Item
from characters.services.sheet import ratings_of, resource_regain
from mechanics.forms.health import (
    MAX_RD,
    HealerForm,
    TreatmentForm,
    number,
    rd_field,
    reason_field,
)
from mechanics.models import HealthEvent
from mechanics.rules.errors import RuleError
from mechanics.rules.ndp import catalogue
from mechanics.rules.ndp import health as engine
from mechanics.rules.ndp.rolls import MAX_ADVERSITY, NdpSpec, roll_check
from mechanics.services.health import (
    character_lock,
    healer_penalty,
    health_event_record,
    patient_and_healer_lock,
    rule_refusal,
    treatment_roll_store,
)
from mechanics.setup import OddsView
from mechanics.systems.base import GameSystem, HealthView, Treatment, hours_in_words
from mechanics.systems.ndp import wounds
from mechanics.systems.ndp.rolls import desgracia_dice

MAX_DAMAGE = 1000
DAMAGE_LABEL = gettext_lazy("Weapon roll or net damage")
# A blow that does not exceed the RD leaves no wound: 0 is a damage roll too.
DAMAGE_RANGE = (0, MAX_DAMAGE)
PART_LABEL = gettext_lazy("Body part")


def _parts() -> list[tuple[str, str]]:
    return [(part.key, part.name) for part in catalogue.BODY_PARTS]


def _armour_hint(character: Character) -> str:
    """The armour worn on each part, for the damage form's RD."""
    worn = []
    names = dict(_parts())
    for item in character.items.all():
        if item.kind != Item.Kind.ARMOUR or item.data.get("part") not in names:
            continue
        text = f"{names[item.data['part']]}: {item.name} RD {item.data.get('rd', 0)}"
        if item.data.get("integrity") is not None:
            text += " · " + _("integrity %(value)s") % {"value": item.data["integrity"]}
        worn.append(text)
    return _("Worn: %(armour)s.") % {"armour": "; ".join(worn)} if worn else ""


def damage_fields(system, character) -> dict[str, forms.Field]:
    """The body part, the weapon roll and its type, and the armour on that part."""
    rd_help = _("RD of the armour on that part (0 for net damage).")
    hint = _armour_hint(character)
    return {
        "part": forms.ChoiceField(label=PART_LABEL, choices=_parts(), initial="torso"),
        **GameSystem.damage_fields(system, character),
        "rd": rd_field(f"{rd_help} {hint}" if hint else rd_help),
        "armour_integrity": forms.IntegerField(
            label=_("Armour integrity"),
            min_value=0,
            max_value=MAX_RD,
            required=False,
            help_text=_("Leave it empty if unknown; at 0 the armour keeps at most RD 1."),
            widget=number(),
        ),
    }


def is_wounded(system, shown: HealthView) -> bool:
    """Only wounded parts have a line; a wound may have no named state."""
    return bool(shown.lines)


def _part_names(keys) -> str:
    return ", ".join(catalogue.body_part(key).name for key in keys)


def health_notes(system, stored, ratings, details, rules) -> tuple[str, ...]:
    """The time to heal when rest alone will not heal everything, in words: bleeding
    stops all healing until Auxiliar, and a lost limb never heals
    (docs/rules.md#ndp-heal-estimate). The plain case is the view's `time_to_heal`."""
    try:
        estimate = engine.heal_estimate(system.state(stored))
    except RuleError:
        return ()
    if estimate.heals_fully or estimate.dead:
        return ()
    notes = []
    if estimate.bleeding:
        notes.append(
            _("Does not heal while bleeding (%(parts)s): Auxiliar must stop it first.")
            % {"parts": _part_names(estimate.bleeding)}
        )
    if estimate.lost:
        notes.append(
            ngettext(
                "Lost limb, never heals: %(parts)s.",
                "Lost limbs, never heal: %(parts)s.",
                len(estimate.lost),
            )
            % {"parts": _part_names(estimate.lost)}
        )
    if estimate.hours:
        time = hours_in_words(estimate.hours)
        if estimate.bleeding and estimate.lost:
            text = _("Once the bleeding is stopped, the other wounds heal in %(time)s.")
        elif estimate.bleeding:
            text = _("Once the bleeding is stopped, heals fully in %(time)s.")
        else:
            text = _("The other wounds heal in %(time)s.")
        notes.append(text % {"time": time})
    return tuple(notes)


def _state(character: Character) -> engine.NdpHealth:
    return character.campaign.game_system.state(character.health)


def _bleeding(character: Character) -> bool:
    """The GM's bleed button shows while a part bleeds."""
    try:
        state = _state(character)
    except RuleError:
        return False
    return bool(state.bleeding_parts) and not state.dead


class AuxiliarForm(HealerForm):
    """The healer's Auxiliar against an adversity the GM sets."""

    prefix = "auxiliar"
    adversity = forms.IntegerField(
        label=gettext_lazy("Adversity to exceed"),
        min_value=0,
        max_value=MAX_ADVERSITY,
        initial=9,
        help_text="Fácil 4–8 · Intermedia 9–13 · Difícil 14–18 · Muy difícil 19–23 · Extrema 24+",
        widget=number(),
    )
    part = forms.ChoiceField(
        label=PART_LABEL,
        choices=[("", gettext_lazy("Every bleeding part")), *_parts()],
        required=False,
    )
    reason = reason_field()

    has_odds = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Before the reason, in the page's language.
        reason = self.fields.pop("reason")
        self.fields["limb"] = wounds.limb_field(_("Limb the healer uses"))
        self.fields["reason"] = reason

    def odds(self) -> tuple[OddsView | None, str]:
        """The exact odds of the roll `character_auxiliar` makes with these choices."""
        if not self.is_bound or not self.is_valid():
            return None, _("Choose who treats and the adversity to see the odds.")
        healer = self.cleaned_data["healer"]
        try:
            healer_penalty(healer=healer)
            spec = auxiliar_spec(healer, self.cleaned_data["adversity"], self.cleaned_data["limb"])
        except ValidationError as error:
            return None, error.messages[0]
        except RuleError as error:
            return None, rule_refusal(error).messages[0]
        steps = [(catalogue.skill("auxiliar").name, spec.level)]
        if spec.desgracias:
            steps.append((_("Desgracias for Fracturado"), desgracia_dice(spec.desgracias)))
        return healer.campaign.game_system.roll_setup.odds(spec, steps), ""


def auxiliar_spec(healer: Character, adversity: int, limb: str = "") -> NdpSpec:
    """The healer's Auxiliar against the adversity, with the Desgracias of a fractured limb
    the healer uses: the roll, and so its odds."""
    return NdpSpec(
        level=ratings_of(healer).get("auxiliar", 0),
        adversity=adversity,
        skill="auxiliar",
        desgracias=wounds.wounds_of(healer).desgracias_for(wounds.limbs(limb)),
    )


class UnconsciousForm(TreatmentForm):
    """Which way the GM's button goes: falls unconscious ("1") or comes round ("0")."""

    unconscious = forms.TypedChoiceField(
        choices=(("1", "1"), ("0", "0")),
        coerce=lambda value: value == "1",
        error_messages={
            "required": gettext_lazy("Nothing changes."),
            "invalid_choice": gettext_lazy("Nothing changes."),
        },
    )


@transaction.atomic
def character_auxiliar(
    *,
    character: Character,
    user,
    healer: Character,
    adversity: int,
    part: str = "",
    limb: str = "",
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """Auxiliar, rolled on the server: the healer's Auxiliar against the adversity the GM
    sets; success stops the bleeding (of one part, or all) and wakes the patient. The
    healer may be the patient."""

    patient, healer = patient_and_healer_lock(patient=character, healer=healer)
    try:
        state = _state(patient)
        if part:
            state.part(part)
        spec = auxiliar_spec(healer, adversity, limb)
    except RuleError as error:
        raise rule_refusal(error) from error
    bleeding = [p for p in state.bleeding_parts if not part or p == part]
    if state.dead or not (bleeding or state.unconscious):
        raise ValidationError(
            _("There is nothing for Auxiliar to treat: no Hemorragia and not unconscious."),
            code="nothing_to_treat",
        )
    healer_penalty(healer=healer)
    record = roll_check(spec, rng)
    success = record.outcome == "success"
    new = engine.auxiliar(state, part or None) if success else state
    label = Message(gettext_noop("Auxiliar for %(name)s"), name=patient.name)
    roll = treatment_roll_store(healer=healer, user=user, record=record, scene=scene, label=label)
    values = {"name": healer.name, "total": record.result, "adversity": adversity}
    if success:
        summary = gettext_noop("Auxiliar by %(name)s: %(total)s against %(adversity)s, treated")
    else:
        summary = gettext_noop("Auxiliar by %(name)s: %(total)s against %(adversity)s, no effect")
    return health_event_record(
        character=patient,
        user=user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=Message(summary, **values),
        inputs={
            "treatment": "auxiliar",
            "healer": healer.pk,
            "adversity": adversity,
            "part": part,
            "limb": limb,
        },
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_bleed_round(
    *, character: Character, user, reason: str = "", scene=None
) -> HealthEvent:
    """One round of bleeding, a wound on each bleeding part."""

    locked = character_lock(character=character)
    state = _state(locked)
    if not state.bleeding_parts or state.dead:
        raise ValidationError(_("Nothing is bleeding."), code="not_bleeding")
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.DAMAGE,
        after=engine.bleed_round(state).to_dict(),
        summary=Message(gettext_noop("One round of bleeding")),
        inputs={"bleed_round": 1},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_set_unconscious(
    *, character: Character, user, unconscious: bool, reason: str = "", scene=None
) -> HealthEvent:
    """The seed never says when a character falls unconscious; the GM marks it
    (Auxiliar wakes them)."""

    locked = character_lock(character=character)
    state = _state(locked)
    if state.unconscious == unconscious:
        raise ValidationError(_("Nothing changes."), code="unchanged")
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.DAMAGE if unconscious else HealthEvent.Kind.TREATMENT,
        after=engine.set_unconscious(state, unconscious).to_dict(),
        summary=Message(
            gettext_noop("Falls unconscious") if unconscious else gettext_noop("Comes round")
        ),
        inputs={"unconscious": unconscious},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_wound(
    *,
    character: Character,
    user,
    part: str,
    tier: str,
    damage_type: str | None,
    reason: str,
    scene=None,
) -> HealthEvent:
    """A wound a rule gives outright, with no damage roll (a Pelea blow stopped by armour
    hurts the attacker)."""

    locked = character_lock(character=character)
    try:
        after = engine.apply_wound(_state(locked), part, tier, damage_type)
    except RuleError as error:
        raise rule_refusal(error) from error
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.DAMAGE,
        after=after.to_dict(),
        summary=f"{catalogue.body_part(part).name}: {tier}",
        inputs={"part": part, "tier": tier, "damage_type": damage_type},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_overload_turn(*, character: Character, user, reason: str, scene=None) -> HealthEvent:
    """A turn carrying twice the maximum load: a grave contundente wound on each leg."""

    locked = character_lock(character=character)
    state = _state(locked)
    return health_event_record(
        character=locked,
        user=user,
        kind=HealthEvent.Kind.DAMAGE,
        after=engine.overload_turn(state).to_dict(),
        summary=Message(gettext_noop("Overloaded: a grave wound on each leg")),
        inputs={"overload_turn": 1},
        reason=reason,
        scene=scene,
    )


TREATMENTS = (
    Treatment(
        key="auxiliar",
        form=AuxiliarForm,
        perform=character_auxiliar,
        label="Auxiliar",
        help_text=gettext_lazy(
            "The healer's Auxiliar against the adversity you set; success stops Hemorragia "
            "and wakes the patient. It can be applied to oneself."
        ),
        submit=gettext_lazy("Roll Auxiliar"),
    ),
    Treatment(
        key="bleed",
        form=TreatmentForm,
        perform=character_bleed_round,
        submit=gettext_lazy("Bleed one round"),
        permission="can_manage_health",
        button=True,
        offered=_bleeding,
    ),
    Treatment(
        key="unconscious",
        form=UnconsciousForm,
        perform=character_set_unconscious,
        permission="can_manage_health",
        button=True,
    ),
)


def regain_prana(system, character: Character, user, hours: int, rested: bool) -> str:
    """Prana comes back 1 point per hour of game time, up to its maximum (RULES 6)."""
    gained = resource_regain(character=character, user=user, key="prana", points=hours)
    return Message(gettext_noop("+%(points)d Prana"), points=gained) if gained else ""
