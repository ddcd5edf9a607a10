"""The campaign's search page: a GET form and its results; htmx gets the results alone."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.chronicle import page_showing
from campaigns.htmx import htmx_render
from campaigns.models import Scene
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    visible_search_entries,
)
from characters.models import DiaryEntry
from search.engine import PAGE, PER_KIND, Filters, Results, search
from search.forms import SearchForm
from search.models import SearchEntry
from search.text import highlight, parse, snippet


def _kinds(access: CampaignAccess) -> list[str]:
    """The kinds this member may find (GM notes are for GMs only)."""
    return [k for k in SearchEntry.Kind.values if access.is_gm or k != SearchEntry.Kind.NOTE]


def hit_url(entry: SearchEntry) -> str:
    """The exact place of a hit: in a scene, its anchor (through `go`); else the sheet,
    the character's XP or the roll log."""
    kind, campaign = entry.kind, entry.campaign_id
    if kind in (SearchEntry.Kind.CHARACTER, SearchEntry.Kind.SHEET):
        return reverse("characters:sheet", args=[campaign, entry.object_id])
    if kind == SearchEntry.Kind.XP and entry.scene_id is None:
        return reverse("characters:xp", args=[campaign, entry.character_id])
    if kind == SearchEntry.Kind.STORY:
        return reverse("campaigns:timeline", args=[campaign]) + f"?story={entry.object_id}"
    if entry.scene_id is None:
        return reverse("mechanics:log", args=[campaign])
    return reverse("search:go", args=[campaign, entry.pk])


def _decorate(results: Results, query) -> None:
    prefixes = query.prefixes()
    for hits in results.groups.values():
        for hit in hits:
            hit.url = hit_url(hit)
            hit.title_html = highlight(hit.title, prefixes) if hit.title else ""
            hit.snippet = snippet(hit.body, prefixes) if hit.body else ""


@login_required
@require_GET
def search_view(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    kinds = _kinds(access)
    form = SearchForm(request.GET, campaign=access.campaign, kinds=kinds)
    context = {"access": access, "campaign": access.campaign, "form": form, "kinds": kinds}
    typed = request.GET.get("q", "")
    if typed and form.is_valid():
        data = form.cleaned_data
        query = parse(data["q"])
        context["query"] = query
        if not query.problem:
            filters = Filters(data["story"], data["scene"], data["character"], data["kind"])
            page = data["page"] or 1
            results = search(access, query, filters, page=page)
            _decorate(results, query)
            names = dict(SearchEntry.Kind.choices)
            groups = [
                (kind, names[kind], results.counts[kind], hits)
                for kind, hits in results.groups.items()
            ]
            context.update(
                results=results, groups=groups, filters=filters, page=page, per_kind=PER_KIND
            )
            if filters.kind:
                shown = results.counts.get(filters.kind, 0)
                context["has_next"] = page * PAGE < shown
    elif typed:
        context["invalid"] = True
    return htmx_render(request, "search/results.html", "results", context)


@login_required
@require_GET
def go(request: HttpRequest, campaign_id: int, entry_id: int) -> HttpResponse:
    """To a hit inside a scene: the page of the scene's timeline that shows it (the
    timeline pages by rolls and health events), at its anchor. Asked for when followed,
    so the results page does not look up a page for each hit."""
    access = campaign_access(request.user, campaign_id)
    entry = (
        visible_search_entries(
            access,
            SearchEntry.objects.filter(campaign=access.campaign, scene__isnull=False),
            diaries=DiaryEntry.objects.filter(scene__campaign=access.campaign),
        )
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        raise Http404
    url = reverse("campaigns:scene", args=[campaign_id, entry.scene_id])
    anchors = {
        SearchEntry.Kind.DIARY: f"diary-{entry.object_id}",
        SearchEntry.Kind.NOTE: f"note-{entry.object_id}",
        SearchEntry.Kind.ROLL: f"scene-roll-{entry.object_id}",
        SearchEntry.Kind.XP: f"xp-entry-{entry.object_id}",
    }
    if entry.kind not in anchors:
        return redirect(url)
    if entry.kind != SearchEntry.Kind.NOTE:  # GM notes sit above the timeline
        scene = Scene(pk=entry.scene_id, campaign_id=campaign_id)
        if entry.kind == SearchEntry.Kind.ROLL:
            cursor = page_showing(access, scene, entry.at, kind="roll", pk=entry.object_id)
        else:
            cursor = page_showing(access, scene, entry.at)
        url += "?" + urlencode({"before": cursor})
    return redirect(f"{url}#{anchors[entry.kind]}")
