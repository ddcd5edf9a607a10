"""The chronicle: the campaign timeline, stories, scenes ("Group review"), diaries and
GM notes. Every view asks campaigns.permissions; writes go through campaigns.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services
from campaigns.chronicle import (
    scene_count_names,
    scene_list_extras,
    timeline_html,
    timeline_key,
)
from campaigns.confirm import ask_first
from campaigns.forms.chronicle import SceneForm, SceneNoteForm, StoryForm
from campaigns.forms.service import call_service
from campaigns.fragments import (
    cached_html,
    cached_htmls,
    cached_pieces,
    cached_value,
    fragment_key,
    viewer,
)
from campaigns.htmx import SINCE_HEADER, htmx_render, unchanged
from campaigns.models import Scene, SceneNote, Story
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    require,
    visible_scene_notes,
)
from campaigns.selectors import (
    attach_casts,
    scene_notes,
    scene_or_404,
    scenes_for,
    with_counts,
)

# A page a phone scrolls through; its cost stays that of ten scenes however long the
# chronicle.
SCENES_PER_PAGE = 10
CARD_TIMEOUT = 3600


def _story_or_404(access: CampaignAccess, story_id: int) -> Story:
    story = Story.objects.filter(pk=story_id, campaign=access.campaign).first()
    if story is None:
        raise Http404
    return story


def _scene_url(scene: Scene, anchor: str = "") -> str:
    return scene.get_absolute_url() + (f"#{anchor}" if anchor else "")


# Timeline


@login_required
@require_GET
def timeline(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    if up_to_date := unchanged(request, access.live_seq):
        return up_to_date
    # Stories are the campaign's own rows: its version follows them.
    stories = cached_value(
        fragment_key("stories", campaign.pk, campaign.version), lambda: list(campaign.stories.all())
    )
    story = None
    story_param = request.GET.get("story", "")
    if story_param:
        story = next((s for s in stories if str(s.pk) == story_param), None)
        if story is None:
            raise Http404
    # The page of scenes, kept until anything in the campaign changes (a player's draft
    # or a secret roll moves the counts of some readers alone: the change sequence and
    # the reader).
    list_key = fragment_key(
        "scene-list",
        viewer(access),
        (campaign.pk, campaign.change_seq),
        story.pk if story else None,
        request.GET.get("page", ""),
    )
    list_html = cached_html(request, list_key)
    page = None
    if list_html is None:
        scenes = scenes_for(access)
        if story is not None:
            scenes = scenes.filter(story=story)
        page = Paginator(scenes, SCENES_PER_PAGE).get_page(request.GET.get("page"))
        # Counted for the page's scenes alone, not for every scene of the campaign.
        page.object_list = with_counts(access, page.object_list)
        # Names for the card and owners for the diary buttons: not whole sheets.
        attach_casts(page.object_list)
        scene_list_extras(access, request.user, page.object_list)
        _attach_scene_cards(access, page.object_list)
    context = {
        "access": access,
        "campaign": campaign,
        "stories": stories,
        "story": story,
        "page": page,
        "list_key": list_key,
        "list_html": list_html,
    }
    if request.headers.get(SINCE_HEADER):
        # A live refresh takes the list from the whole page.
        return render(request, "campaigns/timeline.html", context)
    # A page of the list swapped in brings the live refresh of that page.
    context["list_swapped"] = request.htmx and not request.htmx.history_restore_request
    return htmx_render(request, "campaigns/timeline.html", "scene-list", context)


def _attach_scene_cards(access: CampaignAccess, scenes: list[Scene]) -> None:
    """Set each scene's `card`: its HTML in the list, cached under everything it shows
    (the campaign's version for the scene and its story, the counts and the cast, the
    viewer's diary buttons) and the language, so a card renders again only when one of
    them changed."""
    campaign = access.campaign
    keys = {
        scene: fragment_key(
            "scene-card",
            (campaign.pk, campaign.version, scene.pk),
            scene.cast_names,
            [getattr(scene, name) for name in scene_count_names()],
            [
                (character.pk, character.name, entry.status if entry else None)
                for character, entry in getattr(scene, "my_diaries", [])
            ],
        )
        for scene in scenes
    }

    def render(missing: list[Scene]) -> dict[Scene, str]:
        return {
            scene: render_to_string("campaigns/timeline/scene_card.html", {"scene": scene})
            for scene in missing
        }

    cards = cached_pieces(keys, render, timeout=CARD_TIMEOUT)
    for scene in scenes:
        scene.card = mark_safe(cards[scene])  # rendered by our template, which escaped it


# Stories


@login_required
@require_http_methods(["GET", "POST"])
def story_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.can_run_scenes)
    form = StoryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        story = services.story_create(campaign=access.campaign, **form.cleaned_data)
        messages.success(request, _("Story created."))
        return redirect(reverse("campaigns:timeline", args=[campaign_id]) + f"?story={story.pk}")
    return render(
        request,
        "campaigns/story_form.html",
        {"access": access, "campaign": access.campaign, "form": form},
    )


@login_required
@require_http_methods(["GET", "POST"])
def story_edit(request: HttpRequest, campaign_id: int, story_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    story = _story_or_404(access, story_id)
    require(access.can_run_scenes)
    form = StoryForm(request.POST or None, instance=story)
    if request.method == "POST" and form.is_valid():
        services.story_update(story=story, **form.cleaned_data)
        messages.success(request, _("Story saved."))
        return redirect(reverse("campaigns:timeline", args=[campaign_id]) + f"?story={story.pk}")
    return render(
        request,
        "campaigns/story_form.html",
        {"access": access, "campaign": access.campaign, "form": form, "story": story},
    )


# Scenes


def _scene_fields(data: dict) -> dict:
    return {
        "title": data["title"],
        "story": data["story"],
        "date": data["date"],
        "session_number": data["session_number"],
        "place": data["place"],
        "summary": data["summary"],
        "participants": data["participants"],
    }


@login_required
@require_http_methods(["GET", "POST"])
def scene_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.can_run_scenes)
    initial = {}
    story = request.GET.get("story", "")
    if story.isdigit():
        initial["story"] = story
    form = SceneForm(request.POST or None, campaign=access.campaign, initial=initial)
    created: list[Scene] = []

    def write(data):
        created.append(services.scene_create(campaign=access.campaign, **_scene_fields(data)))

    if request.method == "POST" and call_service(form, write):
        messages.success(request, _("Scene created."))
        return redirect(created[0])
    return render(
        request,
        "campaigns/scene_form.html",
        {"access": access, "campaign": access.campaign, "form": form},
    )


@login_required
@require_http_methods(["GET", "POST"])
def scene_edit(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    form = SceneForm(request.POST or None, instance=scene, campaign=access.campaign)
    if request.method == "POST" and call_service(
        form, lambda data: services.scene_update(scene=scene, **_scene_fields(data))
    ):
        messages.success(request, _("Scene saved."))
        return redirect(scene)
    return render(
        request,
        "campaigns/scene_form.html",
        {"access": access, "campaign": access.campaign, "form": form, "scene": scene},
    )


def _cast_key(access: CampaignAccess, scene: Scene) -> str:
    """The cache key of the scene page's cast card (with the reader's diaries to write):
    the campaign's sequence but rolls, which every write to it bumps (a cast, a diary, a
    name), the reader and the scene."""
    campaign = access.campaign
    return fragment_key("scene-side", viewer(access), (campaign.pk, campaign.nonroll_seq), scene.pk)


def _chrome_key(access: CampaignAccess, scene: Scene) -> str:
    """The cache key of what the scene page shows of the scene itself (its header, its
    combat and system links, the GM's time card and notes): the campaign's version, which
    every write to a scene, a story, a note, an author's name or the campaign bumps (a
    wound or XP does not), and what the reader may do."""
    campaign = access.campaign
    return fragment_key(
        "scene-chrome", (campaign.pk, campaign.version), scene.pk, access.can_run_scenes
    )


def scene_page_context(
    request: HttpRequest, access: CampaignAccess, scene: Scene, *, cached: bool = False, **extra
) -> dict:
    """The scene page's context. When `cached` (a page asked for, not a form answered),
    its cards come from the cache when there, and their rows are loaded otherwise."""
    context = {
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "note_form": SceneNoteForm(),
    }
    cast = _cast_key(access, scene) if cached else ""
    chrome = _chrome_key(access, scene) if cached else ""
    keys = {"cast": cast} | dict.fromkeys(("notes", "head", "links", "time"), chrome)
    keys = {part: f"{key}:{part}" if key else "" for part, key in keys.items()}
    # The page's pieces in one read, its timeline's too (the template's `fragment_at`s
    # and `timeline_html` ask no more).
    timeline = [timeline_key(request, access, scene)] if cached else []
    found = cached_htmls(request, [key for key in keys.values() if key] + timeline)
    for part, key in keys.items():
        context[f"{part}_key"] = key
    for part in ("cast", "notes"):
        context[f"{part}_html"] = found.get(keys[part])
    if not context["cast_html"]:
        attach_casts([scene])
        scene_list_extras(access, request.user, [scene])
        context["participants"] = sorted(scene.cast, key=lambda character: character.is_npc)
        context["my_diaries"] = getattr(scene, "my_diaries", [])
    if not context["notes_html"]:
        context["notes"] = scene_notes(access, scene) if access.is_gm else []
    context["timeline_html"] = timeline_html(request, access, scene)
    context.update(extra)
    return context


@login_required
@require_GET
def scene_detail(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    if up_to_date := unchanged(request, access.live_seq):
        return up_to_date
    context = scene_page_context(request, access, scene, cached=True)
    return htmx_render(request, "campaigns/scene.html", "scene-live", context)


def _scene_status_change(request: HttpRequest, campaign_id: int, scene_id: int, close: bool):
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    refusal = ""
    if close:
        try:
            changed = services.scene_close(scene=scene, user=request.user)
        except ValidationError as error:
            changed, refusal = scene, " ".join(error.messages)
        message = _("Scene closed.")
    else:
        changed = services.scene_reopen(scene=scene)
        message = _("Scene reopened.")
    scene.status, scene.closed_at = changed.status, changed.closed_at
    if request.htmx:
        return render(
            request,
            "campaigns/scene.html#scene-header",
            {
                "access": access,
                "campaign": access.campaign,
                "scene": scene,
                "status_message": "" if refusal else message,
                "status_refusal": refusal,
            },
        )
    if refusal:
        messages.error(request, refusal)
    else:
        messages.success(request, message)
    return redirect(scene)


@login_required
@require_POST
def scene_close(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    return _scene_status_change(request, campaign_id, scene_id, close=True)


@login_required
@require_POST
def scene_reopen(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    return _scene_status_change(request, campaign_id, scene_id, close=False)


# GM notes


def _note_or_404(access: CampaignAccess, scene: Scene, note_id: int) -> SceneNote:
    note = visible_scene_notes(access, SceneNote.objects.filter(pk=note_id, scene=scene)).first()
    if note is None:
        raise Http404
    return note


@login_required
@require_POST
def scene_note_create(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    form = SceneNoteForm(request.POST)
    if form.is_valid():
        services.scene_note_save(scene=scene, author=request.user, body=form.cleaned_data["body"])
        if not request.htmx:
            messages.success(request, _("Note saved."))
            return redirect(_scene_url(scene, "gm-notes"))
        form = SceneNoteForm()
    # An invalid note re-renders the page with the text kept and the error shown.
    context = scene_page_context(request, access, scene, note_form=form)
    return htmx_render(request, "campaigns/scene.html", "gm-notes", context)


@login_required
@require_http_methods(["GET", "POST"])
def scene_note_edit(
    request: HttpRequest, campaign_id: int, scene_id: int, note_id: int
) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    note = _note_or_404(access, scene, note_id)
    form = SceneNoteForm(request.POST or None, initial={"body": note.body})
    if request.method == "POST" and form.is_valid():
        services.scene_note_save(
            scene=scene, author=request.user, body=form.cleaned_data["body"], note=note
        )
        messages.success(request, _("Note saved."))
        return redirect(_scene_url(scene, "gm-notes"))
    return render(
        request,
        "campaigns/note_form.html",
        {"access": access, "campaign": access.campaign, "scene": scene, "note": note, "form": form},
    )


@login_required
@require_POST
def scene_note_delete(
    request: HttpRequest, campaign_id: int, scene_id: int, note_id: int
) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    note = _note_or_404(access, scene, note_id)
    services.scene_note_delete(note=note)
    messages.success(request, _("Note deleted."))
    return redirect(_scene_url(scene, "gm-notes"))


@login_required
@require_POST
def session_end(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The GM ends the play session: what lasts a session runs out (`services.session_end`)."""
    access = campaign_access(request.user, campaign_id)
    require(access.can_run_scenes)
    back = reverse("campaigns:detail", args=[campaign_id]) + "#scenes"
    question = _("End the play session? What lasts a session runs out now.")
    if asking := ask_first(request, question=question, button=_("End session"), cancel_url=back):
        return asking
    session = services.session_end(campaign=access.campaign, user=request.user)
    messages.success(
        request,
        " ".join([_("Session %(number)d ended.") % {"number": session.number}, *session.notes]),
    )
    return redirect(back)
