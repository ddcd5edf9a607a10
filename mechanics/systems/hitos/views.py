"""Hitos pages of its own: a scene's situation aspects and narrative facts, and naming a
permanent secuela. Served under /campaigns/<campaign_id>/hitos/ (HitosSystem.urlpatterns)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from campaigns.forms.service import call_service
from campaigns.models import Scene
from campaigns.permissions import (
    CampaignAccess,
    CharacterAccess,
    campaign_access,
    character_access,
    require,
)
from campaigns.selectors import scene_or_404
from campaigns.texts import LongTextarea
from characters.models import Aspect, Resource
from mechanics.models import NarrativeFact, SituationAspect
from mechanics.systems.hitos import scene as services
from mechanics.systems.hitos.forms import aspect_choices
from mechanics.systems.hitos.rolls import (
    DRAMA_POINTS_POOL,
    OTHER_PREFIX,
    SITUATION_PREFIX,
    situation_aspects,
)
from mechanics.systems.hitos.sheet import SecuelaForm
from mechanics.systems.hitos.timeline import narrative_facts

KEY = "hitos"
TEXT = LongTextarea(attrs={"rows": 2})


class SituationAspectForm(forms.Form):
    prefix = "situation"
    text = forms.CharField(
        label=gettext_lazy("Aspect of the situation"),
        max_length=SituationAspect._meta.get_field("text").max_length,
    )


class DeclarerForm(forms.Form):
    """Who declares the fact: one of the campaign's characters (whether this user may
    declare for them is a permission, asked after)."""

    character = forms.ModelChoiceField(
        queryset=None,
        error_messages={
            "required": gettext_lazy("Choose the character who declares the fact."),
            "invalid_choice": gettext_lazy("That character is not in this campaign."),
        },
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = campaign.characters.all()


class FactForm(forms.Form):
    """A fact one character declares, and the aspect activated to declare it."""

    prefix = "fact"
    aspect = forms.ChoiceField(label=gettext_lazy("Aspect you activate"))
    pay = forms.ChoiceField(
        label=gettext_lazy("Pay with"),
        choices=[
            ("drama_point", gettext_lazy("A drama point")),
            ("exhaust", gettext_lazy("Exhausting the aspect")),
        ],
        initial="drama_point",
        widget=forms.RadioSelect,
    )
    text = forms.CharField(
        label=gettext_lazy("The fact"),
        max_length=NarrativeFact._meta.get_field("text").max_length,
        widget=TEXT,
        help_text=gettext_lazy("What becomes true in the story, in one or two sentences."),
    )

    def __init__(self, *args, character, **kwargs):
        super().__init__(*args, **kwargs)
        own = [a for a in Aspect.objects.filter(character=character) if not a.exhausted]
        others = [
            (f"{OTHER_PREFIX}{a.pk}", f"{a.character.name}: {a.text}")
            for a in Aspect.objects.filter(character__campaign_id=character.campaign_id)
            .exclude(character=character)
            .select_related("character")
            .order_by("character__name", "position", "pk")
        ]
        situation = [
            (f"{SITUATION_PREFIX}{a.pk}", f"{a.scene.title}: {a.text}")
            for a in situation_aspects(character.campaign_id)
        ]
        self.fields["aspect"].choices = aspect_choices(own, others, situation)


def _hitos_access(user, campaign_id: int) -> CampaignAccess:
    access = campaign_access(user, campaign_id)
    if access.campaign.system != KEY:
        raise Http404
    return access


def _hitos_scene(
    user, campaign_id: int, scene_id: int, *, to_run: bool = False
) -> tuple[CampaignAccess, Scene]:
    """The user's access and the scene every page here opens with; `to_run` asks that they
    may run scenes (the GM's writes)."""
    access = _hitos_access(user, campaign_id)
    scene = scene_or_404(access, scene_id)
    if to_run:
        require(access.can_run_scenes)
    return access, scene


def _declarers(access: CampaignAccess) -> list[CharacterAccess]:
    """The characters this user may declare facts for (as they may roll for them)."""
    characters = access.campaign.characters.order_by("name", "pk")
    allowed = [CharacterAccess(access=access, character=c) for c in characters]
    return [a for a in allowed if a.can_roll]


def _scene_page(
    request, access, scene, *, fact_form=None, situation_form=None, refused=(), status=200
):
    declarers = _declarers(access) if scene.status == Scene.Status.OPEN else []
    chosen = None
    wanted = request.POST.get("character") or request.GET.get("character")
    for declarer in declarers:
        if chosen is None or str(declarer.character.pk) == wanted:
            chosen = declarer.character
    if chosen is not None and fact_form is None:
        fact_form = FactForm(character=chosen)
    pool = Resource.objects.filter(character=chosen, key=DRAMA_POINTS_POOL).first()
    # A refusal shows at the top of the page, even when its form is no longer offered.
    refusals = [
        *refused,
        *(
            message
            for form in (fact_form, situation_form)
            if form is not None and form.is_bound
            for message in form.non_field_errors()
        ),
    ]
    context = {
        "refusals": refusals,
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "situation_aspects": scene.situation_aspects.all(),
        "facts": narrative_facts(access, scene),
        "declarers": [d.character for d in declarers],
        "chosen": chosen,
        "drama_points": pool.current if pool else 0,
        "fact_form": fact_form if chosen is not None else None,
        "situation_form": situation_form or SituationAspectForm(),
        "can_add_situation": access.can_run_scenes and scene.status == Scene.Status.OPEN,
    }
    return render(request, "systems/hitos/scene.html", context, status=status)


def _page_url(scene: Scene, anchor: str = "") -> str:
    url = reverse("hitos:scene", args=[scene.campaign_id, scene.pk])
    return f"{url}#{anchor}" if anchor else url


@login_required
@require_GET
def scene_page(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    return _scene_page(request, *_hitos_scene(request.user, campaign_id, scene_id))


@login_required
@require_POST
def situation_add(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access, scene = _hitos_scene(request.user, campaign_id, scene_id, to_run=True)
    form = SituationAspectForm(request.POST)

    def write(data):
        services.situation_aspect_add(scene=scene, user=request.user, text=data["text"])

    if not call_service(form, write):
        return _scene_page(request, access, scene, situation_form=form, status=422)
    messages.success(request, _("Situation aspect added."))
    return redirect(_page_url(scene, "situation-aspects"))


@login_required
@require_POST
def situation_end(
    request: HttpRequest, campaign_id: int, scene_id: int, aspect_id: int
) -> HttpResponse:
    _access, scene = _hitos_scene(request.user, campaign_id, scene_id, to_run=True)
    aspect = scene.situation_aspects.filter(pk=aspect_id).first()
    if aspect is None:
        raise Http404
    services.situation_aspect_end(aspect=aspect, user=request.user)
    messages.success(request, _("The situation aspect “%(aspect)s” ends.") % {"aspect": aspect})
    return redirect(_page_url(scene, "situation-aspects"))


@login_required
@require_POST
def fact_declare(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access, scene = _hitos_scene(request.user, campaign_id, scene_id)
    who = DeclarerForm(request.POST, campaign=access.campaign)
    if not who.is_valid():
        # The character travels in a hidden field: its error shows at the top of the page.
        return _scene_page(request, access, scene, refused=who.errors["character"], status=422)
    declarer = CharacterAccess(access=access, character=who.cleaned_data["character"])
    require(declarer.can_roll)
    form = FactForm(request.POST, character=declarer.character)

    def write(data):
        services.narrative_fact_declare(
            character=declarer.character,
            user=request.user,
            scene=scene,
            choice=data,
            text=data["text"],
        )

    if not call_service(form, write):
        return _scene_page(request, access, scene, fact_form=form, status=422)
    messages.success(request, _("Fact declared; it is in the scene's record."))
    return redirect(_page_url(scene, "narrative-facts"))


@login_required
@require_POST
def secuela_name(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    _hitos_access(request.user, campaign_id)
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    form = SecuelaForm(request.POST)
    if form.is_valid():
        try:
            services.secuela_name(
                character=access.character, user=request.user, text=form.cleaned_data["text"]
            )
            messages.success(request, _("Secuela named."))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
    else:
        messages.error(request, " ".join(m for ms in form.errors.values() for m in ms))
    return redirect(access.character.get_absolute_url() + "#sheet-aspects")


urlpatterns = (
    path("scenes/<id:scene_id>/", scene_page, name="scene"),
    path("scenes/<id:scene_id>/situation/", situation_add, name="situation_add"),
    path("scenes/<id:scene_id>/situation/<id:aspect_id>/end/", situation_end, name="situation_end"),
    path("scenes/<id:scene_id>/facts/", fact_declare, name="fact_declare"),
    path("characters/<id:character_id>/secuela/", secuela_name, name="secuela_name"),
)
