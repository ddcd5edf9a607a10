"""A player's diary for a scene: write, preview, save a draft or publish; a GM hides one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import ask_first
from campaigns.htmx import htmx_render
from campaigns.markdown import render_markdown
from campaigns.permissions import (
    campaign_access,
    may_write_diary,
    require,
    visible_diaries,
)
from campaigns.selectors import scene_or_404
from characters import services
from characters.forms.diary import DiaryForm
from characters.models import DiaryEntry


@login_required
@require_http_methods(["GET", "POST"])
def diary_edit(
    request: HttpRequest, campaign_id: int, scene_id: int, character_id: int
) -> HttpResponse:
    """Write, rewrite, preview and publish one character's diary entry for a scene."""
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
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
                return redirect(scene.get_absolute_url() + f"#diary-{entry.pk}")
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
        return htmx_render(request, "characters/diary_form.html", "preview", context)
    return htmx_render(request, "characters/diary_form.html", "diary-form", context)


@login_required
@require_POST
def diary_hide(request: HttpRequest, campaign_id: int, entry_id: int) -> HttpResponse:
    """A GM hides a diary entry from the group (`hidden=1`) or shows it again (`hidden=0`).

    Its author still reads it, marked hidden, and keeps the text."""
    access = campaign_access(request.user, campaign_id)
    # Only an entry this member can read: a draft's existence is not given away.
    entries = DiaryEntry.objects.filter(pk=entry_id, scene__campaign=access.campaign)
    entry = visible_diaries(access, entries).select_related("scene", "character").first()
    if entry is None:
        raise Http404
    require(access.can_hide_diaries)
    hide = request.POST.get("hidden") != "0"
    back = entry.scene.get_absolute_url() + f"#diary-{entry.pk}"
    if hide:
        question = _(
            "Hide %(name)s's diary from the group? Its author keeps it and you can show it again."
        ) % {"name": entry.character.name}
        if asking := ask_first(request, question=question, button=_("Hide"), cancel_url=back):
            return asking
    services.diary_set_hidden(entry=entry, user=request.user, hidden=hide)
    if hide:
        messages.success(request, _("Diary entry hidden: only its author and the GMs see it."))
    else:
        messages.success(request, _("Diary entry shown to the group again."))
    return redirect(back)


urlpatterns = [
    path("<id:character_id>/diary/<id:scene_id>/", diary_edit, name="diary"),
    path("diaries/<id:entry_id>/hide/", diary_hide, name="diary_hide"),
]
