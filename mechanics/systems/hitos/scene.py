"""What a Hitos scene holds besides rolls: the GM's situation aspects, which end with the
scene, and the narrative facts characters declare by activating an aspect
(docs/rules.md#hitos-situation-aspects, #hitos-narrative-facts)."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Scene
from characters.models import Aspect, Character, Resource
from characters.services.sheet import aspect_add, aspect_set_exhausted, resource_adjust
from mechanics.models import NarrativeFact, SituationAspect
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import rolls as engine
from mechanics.services.health import character_lock, rule_refusal
from mechanics.systems.hitos.rolls import DRAMA_POINTS_POOL, activation_for
from mechanics.systems.hitos.sheet import SECUELA


def _open_scene(scene: Scene) -> Scene:
    locked = Scene.objects.select_for_update().get(pk=scene.pk)
    if locked.status != Scene.Status.OPEN:
        raise ValidationError(_("That scene is closed: choose an open scene."), code="closed")
    return locked


@transaction.atomic
def situation_aspect_add(*, scene: Scene, user, text: str) -> SituationAspect:
    """The GM gives an open scene an aspect of its situation."""
    locked = _open_scene(scene)
    text = text.strip()
    if not text:
        raise ValidationError(_("Write the aspect."), code="empty")
    return SituationAspect.objects.create(scene=locked, text=text, created_by=user)


@transaction.atomic
def situation_aspect_end(*, aspect: SituationAspect, user) -> bool:
    """The GM takes a situation aspect away before its scene ends; False if it had ended."""
    return bool(
        SituationAspect.objects.filter(pk=aspect.pk, ended_at__isnull=True).update(
            ended_at=timezone.now()
        )
    )


def end_situation_aspects(scene: Scene) -> list[str]:
    """A closing scene's situation aspects end with it."""
    ending = list(scene.situation_aspects.filter(ended_at__isnull=True).order_by("pk"))
    SituationAspect.objects.filter(pk__in=[a.pk for a in ending]).update(ended_at=timezone.now())
    return [
        _("The situation aspect “%(aspect)s” ends with the scene.") % {"aspect": a.text}
        for a in ending
    ]


@transaction.atomic
def narrative_fact_declare(
    *, character: Character, user, scene: Scene, choice: Mapping, text: str
) -> NarrativeFact:
    """Activate an aspect to declare a narrative fact (no dice): pay a drama point, or
    exhaust one's own aspect; another character's aspect hands them the point, a
    situation aspect's point is spent. The fact is logged in the open scene."""
    locked_scene = _open_scene(scene)
    if locked_scene.campaign_id != character.campaign_id:
        raise ValidationError(_("That scene is not one of this campaign's."), code="elsewhere")
    text = text.strip()
    if not text:
        raise ValidationError(_("Write the fact you declare."), code="empty")
    locked = character_lock(character=character)
    own = list(Aspect.objects.filter(character=locked))
    pool = Resource.objects.filter(character=locked, key=DRAMA_POINTS_POOL).first()
    try:
        activation, owner, own_aspect = activation_for(
            locked, own, pool.current if pool else 0, choice
        )
        if activation is None:
            raise ValidationError(_("Choose the aspect you activate."), code="aspect")
        effects = engine.declare_fact(activation)
    except RuleError as error:
        raise rule_refusal(error) from error
    if effects.drama_points_spent:
        resource_adjust(character=locked, user=user, key=DRAMA_POINTS_POOL, delta=-1)
    else:
        aspect_set_exhausted(aspect=own_aspect, user=user, exhausted=True)
    if activation.hands_drama_point:
        resource_adjust(
            character=owner, user=user, key=DRAMA_POINTS_POOL, delta=1, may_raise_open=True
        )
    return NarrativeFact.objects.create(
        scene=locked_scene,
        character=locked,
        text=text,
        aspect=activation.aspect,
        aspect_type=activation.aspect_type,
        paid=activation.pay,
        drama_point_to=owner if activation.hands_drama_point else None,
        created_by=user,
    )


def unnamed_secuelas(character: Character) -> int:
    """Permanent secuelas recovering from Moribundo left that the player has not named."""
    owed = int((character.health or {}).get("permanent_secuelas", 0))
    return max(0, owed - Aspect.objects.filter(character=character, kind=SECUELA).count())


@transaction.atomic
def secuela_name(*, character: Character, user, text: str) -> Aspect:
    """The player names a permanent secuela the sheet owes: a new complication, kept as an
    aspect of kind Secuela."""
    locked = character_lock(character=character)
    if not unnamed_secuelas(locked):
        raise ValidationError(
            _("%(name)s has no unnamed permanent secuela.") % {"name": locked.name},
            code="none_owed",
        )
    text = text.strip()
    if not text:
        raise ValidationError(_("Name the secuela."), code="empty")
    return aspect_add(character=locked, user=user, kind=SECUELA, text=text)
