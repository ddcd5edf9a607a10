"""The chronicle: the campaign timeline, stories, scenes ("Group review"), diaries and
GM notes. Every view asks campaigns.permissions; writes go through campaigns.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce, TruncDate
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services
from campaigns.chronicle import scene_timeline
from campaigns.forms_chronicle import DiaryForm, SceneForm, SceneNoteForm, StoryForm
from campaigns.markdown import render_markdown
from campaigns.models import DiaryEntry, Scene, SceneNote, Story
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    may_write_diary,
    require,
    visible_diaries,
    visible_rolls,
    visible_scene_notes,
)
from mechanics.models import Roll

SCENES_PER_PAGE = 20


def _htmx_render(request: HttpRequest, template: str, partial: str, context: dict) -> HttpResponse:
    """The partial for htmx, the full page otherwise; caches keep the two apart."""
    # A history restore (back button after hx-push-url) needs the whole page.
    partial_wanted = request.htmx and not request.htmx.history_restore_request
    name = f"{template}#{partial}" if partial_wanted else template
    response = render(request, name, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated COUNT of `queryset` (already filtered on scene=OuterRef("pk"))."""
    counted = queryset.order_by().values("scene").annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted), 0)


def scenes_for(access: CampaignAccess) -> QuerySet[Scene]:
    """The campaign's scenes, newest first, with the counts this viewer may see.

    The counts run through the same visibility rules as the pages, so a GM-only diary
    or a secret roll never shows up as a number either.
    """
    diaries = visible_diaries(access, DiaryEntry.objects.filter(scene=OuterRef("pk")))
    rolls = visible_rolls(access, Roll.objects.filter(scene=OuterRef("pk")))
    return (
        Scene.objects.filter(campaign=access.campaign)
        .select_related("story")
        .annotate(
            when=Coalesce("date", TruncDate("created_at")),
            diary_count=_count(diaries),
            roll_count=_count(rolls),
        )
        .order_by(
            F("when").desc(),
            F("session_number").desc(nulls_last=True),
            "-created_at",
            "-pk",
        )
    )


def _scene_or_404(access: CampaignAccess, scene_id: int) -> Scene:
    scene = Scene.objects.select_related("story").filter(pk=scene_id, campaign=access.campaign)
    found = scene.first()
    if found is None:
        raise Http404
    found.campaign = access.campaign
    return found


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
    stories = list(access.campaign.stories.all())
    scenes = scenes_for(access)
    story = None
    story_param = request.GET.get("story", "")
    if story_param:
        story = next((s for s in stories if str(s.pk) == story_param), None)
        if story is None:
            raise Http404
        scenes = scenes.filter(story=story)
    page = Paginator(scenes.prefetch_related("participants"), SCENES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    own_entries = {
        (entry.scene_id, entry.character_id): entry
        for entry in DiaryEntry.objects.filter(
            author=request.user, scene__in=[scene.pk for scene in page]
        ).only("pk", "scene_id", "character_id", "status")
    }
    for scene in page:
        # The viewer's own characters in the scene, with their diary entry if any.
        scene.my_diaries = [
            (character, own_entries.get((scene.pk, character.pk)))
            for character in scene.participants.all()
            if may_write_diary(access, character)
        ]
    context = {
        "access": access,
        "campaign": access.campaign,
        "stories": stories,
        "story": story,
        "page": page,
    }
    return _htmx_render(request, "campaigns/timeline.html", "scene-list", context)


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


def _scene_fields(form: SceneForm) -> dict:
    data = form.cleaned_data
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
    if request.method == "POST" and form.is_valid():
        try:
            scene = services.scene_create(campaign=access.campaign, **_scene_fields(form))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Scene created."))
            return redirect(scene)
    return render(
        request,
        "campaigns/scene_form.html",
        {"access": access, "campaign": access.campaign, "form": form},
    )


@login_required
@require_http_methods(["GET", "POST"])
def scene_edit(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = _scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    form = SceneForm(request.POST or None, instance=scene, campaign=access.campaign)
    if request.method == "POST" and form.is_valid():
        try:
            services.scene_update(scene=scene, **_scene_fields(form))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Scene saved."))
            return redirect(scene)
    return render(
        request,
        "campaigns/scene_form.html",
        {"access": access, "campaign": access.campaign, "form": form, "scene": scene},
    )


def _scene_context(request: HttpRequest, access: CampaignAccess, scene: Scene, **extra) -> dict:
    participants = list(scene.participants.select_related("owner").order_by("is_npc", "name"))
    items = scene_timeline(access, scene)
    own_entries = {
        item.obj.character_id: item.obj
        for item in items
        if item.kind == "diary" and item.obj.author_id == request.user.pk
    }
    my_diaries = [
        (character, own_entries.get(character.pk))
        for character in participants
        if may_write_diary(access, character)
    ]
    notes = (
        list(visible_scene_notes(access, scene.gm_notes.select_related("author")))
        if access.is_gm
        else []
    )
    context = {
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "participants": participants,
        "timeline": items,
        "my_diaries": my_diaries,
        "notes": notes,
        "note_form": SceneNoteForm(),
    }
    context.update(extra)
    return context


@login_required
@require_GET
def scene_detail(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = _scene_or_404(access, scene_id)
    context = _scene_context(request, access, scene)
    return _htmx_render(request, "campaigns/scene.html", "scene-timeline", context)


def _scene_status_change(request: HttpRequest, campaign_id: int, scene_id: int, close: bool):
    access = campaign_access(request.user, campaign_id)
    scene = _scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    if close:
        changed = services.scene_close(scene=scene)
        message = _("Scene closed.")
    else:
        changed = services.scene_reopen(scene=scene)
        message = _("Scene reopened.")
    scene.status, scene.closed_at = changed.status, changed.closed_at
    if request.htmx:
        response = render(
            request,
            "campaigns/scene.html#scene-header",
            {
                "access": access,
                "campaign": access.campaign,
                "scene": scene,
                "status_message": message,
            },
        )
        patch_vary_headers(response, ["HX-Request"])
        return response
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


# Diaries


@login_required
@require_http_methods(["GET", "POST"])
def diary_edit(
    request: HttpRequest, campaign_id: int, scene_id: int, character_id: int
) -> HttpResponse:
    """Write, rewrite, preview and publish one character's diary entry for a scene."""
    access = campaign_access(request.user, campaign_id)
    scene = _scene_or_404(access, scene_id)
    # Participants are always characters of the scene's campaign (the service checks).
    character = scene.participants.select_related("owner").filter(pk=character_id).first()
    if character is None:
        raise Http404
    require(may_write_diary(access, character))
    entry = DiaryEntry.objects.filter(scene=scene, character=character).first()
    if entry is not None and entry.author_id != request.user.pk:
        raise PermissionDenied
    initial = {"body": entry.body, "visibility": entry.visibility} if entry else {}
    form = DiaryForm(request.POST or None, initial=initial)
    preview = None
    action = request.POST.get("action", "")
    if request.method == "POST" and form.is_valid():
        if action == "preview":
            preview = render_markdown(form.cleaned_data["body"])
        elif action in DiaryForm.ACTIONS:
            try:
                entry = services.diary_save(
                    scene=scene,
                    character=character,
                    user=request.user,
                    body=form.cleaned_data["body"],
                    visibility=form.cleaned_data["visibility"],
                    status=DiaryForm.ACTIONS[action],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                if entry.is_published:
                    messages.success(request, _("Diary entry published."))
                else:
                    messages.success(request, _("Draft saved. Only you can read it."))
                return redirect(_scene_url(scene, f"diary-{entry.pk}"))
        else:
            form.add_error(None, _("Choose whether to save a draft or publish."))
    context = {
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "character": character,
        "entry": entry,
        "form": form,
        "preview": preview,
    }
    if request.htmx and action == "preview":
        return _htmx_render(request, "campaigns/diary_form.html", "preview", context)
    return _htmx_render(request, "campaigns/diary_form.html", "diary-form", context)


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
    scene = _scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    form = SceneNoteForm(request.POST)
    if form.is_valid():
        services.scene_note_save(scene=scene, author=request.user, body=form.cleaned_data["body"])
        if not request.htmx:
            messages.success(request, _("Note saved."))
            return redirect(_scene_url(scene, "gm-notes"))
        form = SceneNoteForm()
    # An invalid note re-renders the page with the text kept and the error shown.
    context = _scene_context(request, access, scene, note_form=form)
    return _htmx_render(request, "campaigns/scene.html", "gm-notes", context)


@login_required
@require_http_methods(["GET", "POST"])
def scene_note_edit(
    request: HttpRequest, campaign_id: int, scene_id: int, note_id: int
) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    scene = _scene_or_404(access, scene_id)
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
    scene = _scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    note = _note_or_404(access, scene, note_id)
    services.scene_note_delete(note=note)
    messages.success(request, _("Note deleted."))
    return redirect(_scene_url(scene, "gm-notes"))
