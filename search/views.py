"""The campaign's search page: a GET form and its results; htmx gets the results alone."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.htmx import htmx_render
from campaigns.keyset import encode
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    visible_rolls,
    visible_search_entries,
)
from characters.models import DiaryEntry
from mechanics.models import Roll
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


# A cursor later than any row: the page before it is the timeline's last.
END_OF_TIMELINE = "9999999999999999.0"


@login_required
@require_GET
def go(request: HttpRequest, campaign_id: int, entry_id: int) -> HttpResponse:
    """To a hit inside a scene: the page of the scene's timeline that shows it (the
    timeline pages by rolls), at its anchor. Asked for when followed, so the results page
    does not look up a page for each hit."""
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
        rolls = visible_rolls(access, Roll.objects.filter(scene_id=entry.scene_id))
        later = Q(created_at__gt=entry.at)
        if entry.kind == SearchEntry.Kind.ROLL:
            later |= Q(created_at=entry.at, pk__gt=entry.object_id)
        following = rolls.filter(later).order_by("created_at", "pk").first()
        cursor = encode(following) if following else END_OF_TIMELINE
        url += "?" + urlencode({"before": cursor})
    return redirect(f"{url}#{anchors[entry.kind]}")
