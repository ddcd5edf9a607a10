"""A 3d6 + NdP sheet's magic section: the deities worshipped (at most Religión NdP) and the
creatures bound by summoning (at most 2 × Voluntad NdP), with the owner's and the GM's
forms to add a deity, to say how far a creature is from its anchor and to release it
(docs/rules.md#ndp-magic)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.permissions import character_access, require
from characters.models import Character, Resource
from characters.services.sheet import character_set_details, ratings_of
from characters.views.sheet_context import first_error, section_answer
from mechanics.rules.ndp import equipment
from mechanics.systems.base import SheetSection
from mechanics.systems.ndp.magic import CREATURES, bound_creatures, faith_pool, max_creatures

TEMPLATE = "systems/ndp/sheet_magic.html"
MAX_DEITY_NAME = 80


class DeityForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Deity"), max_length=MAX_DEITY_NAME)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not slugify(name):
            raise forms.ValidationError(_("Write the deity's name."))
        return name


class MagicSection(SheetSection):
    key = "magic"
    template = TEMPLATE
    follows_traits = True

    def context(self, character, ratings, names) -> dict:
        deities = sorted(character.details.get("deities", {}).items(), key=lambda kv: kv[1])
        return {
            "magic": {
                "deities": [{"key": key, "name": name} for key, name in deities],
                "max_deities": equipment.max_deities(ratings.get("religion", 0)),
                "creatures": bound_creatures(character),
                "max_creatures": max_creatures(ratings.get("voluntad", 0)),
            },
            "deity_form": DeityForm(auto_id="deity_%s"),
        }


# --- Services -------------------------------------------------------------------------------


@transaction.atomic
def deity_add(*, character: Character, user, name: str) -> Character:
    """Worship one more deity (a faith pool comes with it), refused past Religión NdP."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    deities = dict(locked.details.get("deities", {}))
    religion = ratings_of(locked).get("religion", 0)
    limit = equipment.max_deities(religion)
    key = slugify(name).replace("-", "_")[:40]
    if key in deities:
        raise ValidationError(
            _("%(name)s already worships %(deity)s.") % {"name": locked.name, "deity": name},
            code="deity_twice",
        )
    if len(deities) >= limit:
        raise ValidationError(
            _(
                "With Religión %(religion)s a character worships at most %(limit)s deities; "
                "%(name)s already has %(count)s."
            )
            % {"religion": religion, "limit": limit, "name": locked.name, "count": len(deities)},
            code="deity_limit",
        )
    return character_set_details(
        character=locked, user=user, values={"deities": {**deities, key: name}}
    )


@transaction.atomic
def deity_remove(*, character: Character, user, key: str) -> str:
    """Stop worshipping a deity (a typo, a lost faith): its faith pool goes with it and its
    slot under Religión NdP is free again; returns its name."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    deities = dict(locked.details.get("deities", {}))
    name = deities.pop(key, None)
    if name is None:
        raise ValidationError(
            _("%(name)s worships no such deity.") % {"name": locked.name}, code="no_deity"
        )
    character_set_details(character=locked, user=user, values={"deities": deities})
    Resource.objects.filter(character=locked, key=faith_pool(key)).delete()
    return name


@transaction.atomic
def creature_release(*, character: Character, user, creature_id: str) -> dict:
    """Release one bound creature; returns it. Refused if it is not bound to them."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    creatures = bound_creatures(locked)
    released = next((c for c in creatures if c.get("id") == creature_id), None)
    if released is None:
        raise ValidationError(
            _("That creature is not bound to %(name)s.") % {"name": locked.name},
            code="not_bound",
        )
    character_set_details(
        character=locked,
        user=user,
        values={CREATURES: [c for c in creatures if c is not released]},
    )
    return released


@transaction.atomic
def creature_set_distance(*, character: Character, user, creature_id: str, distance: int) -> dict:
    """How far a bound creature is from its anchor now (beyond 50 m it takes a leve wound
    each turn of a fight, docs/rules.md#ndp-summon-leash); returns the creature."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    creatures = bound_creatures(locked)
    creature = next((c for c in creatures if c.get("id") == creature_id), None)
    if creature is None:
        raise ValidationError(
            _("That creature is not bound to %(name)s.") % {"name": locked.name},
            code="not_bound",
        )
    equipment.leash_wounds(distance)  # refuses a distance out of range
    moved = {**creature, "distance": distance}
    character_set_details(
        character=locked,
        user=user,
        values={CREATURES: [moved if c is creature else c for c in creatures]},
    )
    return moved


def creatures_strain_leash(*, character: Character, user) -> list[str]:
    """A turn passes: each creature bound to the character beyond its anchor's 50 m takes
    a leve wound (counted on the sheet); the names of those hurt."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    creatures = bound_creatures(locked)
    hurt = []
    updated = []
    for creature in creatures:
        wounds = equipment.leash_wounds(int(creature.get("distance") or 0))
        if wounds:
            creature = {**creature, "leve_wounds": int(creature.get("leve_wounds") or 0) + wounds}
            hurt.append(creature["name"])
        updated.append(creature)
    if hurt:
        character_set_details(character=locked, user=user, values={CREATURES: updated})
    return hurt


class CreatureDistanceForm(forms.Form):
    distance = forms.IntegerField(
        label=gettext_lazy("Metres from its anchor"),
        min_value=0,
        max_value=equipment.MAX_ANCHOR_DISTANCE_M,
    )


# --- Views ----------------------------------------------------------------------------------


def _answer(request: HttpRequest, access, *, error: str = "", done: str = "", form=None):
    forms = {"deity_form": form} if form is not None else None
    return section_answer(request, access, "magic", TEMPLATE, error=error, done=done, forms=forms)


@login_required
@require_POST
def deity_add_view(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_keep_bonds)
    form = DeityForm(request.POST, auto_id="deity_%s")
    if not form.is_valid():
        return _answer(request, access, error=first_error(form), form=form)
    try:
        deity_add(character=access.character, user=request.user, name=form.cleaned_data["name"])
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages), form=form)
    return _answer(
        request, access, done=_("%(deity)s added.") % {"deity": form.cleaned_data["name"]}
    )


@login_required
@require_POST
def deity_remove_view(
    request: HttpRequest, campaign_id: int, character_id: int, key: str
) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_keep_bonds)
    try:
        name = deity_remove(character=access.character, user=request.user, key=key)
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages))
    return _answer(request, access, done=_("%(deity)s removed.") % {"deity": name})


@login_required
@require_POST
def creature_release_view(
    request: HttpRequest, campaign_id: int, character_id: int, creature_id: str
) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_keep_bonds)
    try:
        released = creature_release(
            character=access.character, user=request.user, creature_id=creature_id
        )
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages))
    return _answer(request, access, done=_("%(name)s is released.") % {"name": released["name"]})


@login_required
@require_POST
def creature_distance_view(
    request: HttpRequest, campaign_id: int, character_id: int, creature_id: str
) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_keep_bonds)
    form = CreatureDistanceForm(request.POST)
    if not form.is_valid():
        return _answer(request, access, error=first_error(form))
    try:
        creature = creature_set_distance(
            character=access.character,
            user=request.user,
            creature_id=creature_id,
            distance=form.cleaned_data["distance"],
        )
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages))
    return _answer(
        request,
        access,
        done=_("%(name)s is %(distance)s m from its anchor.")
        % {"name": creature["name"], "distance": creature["distance"]},
    )


URLS = (
    path(
        "characters/<id:character_id>/deities/",
        deity_add_view,
        name="deity_add",
    ),
    path(
        "characters/<id:character_id>/deities/<slug:key>/remove/",
        deity_remove_view,
        name="deity_remove",
    ),
    path(
        "characters/<id:character_id>/creatures/<slug:creature_id>/release/",
        creature_release_view,
        name="creature_release",
    ),
    path(
        "characters/<id:character_id>/creatures/<slug:creature_id>/distance/",
        creature_distance_view,
        name="creature_distance",
    ),
)
