"""The roll log page, its live feed, its export, and the GM's free dice roller.

Every view asks `campaigns.permissions` first (non-members get 404) and reads rolls only
through `mechanics.selectors.campaign_rolls`, so a secret roll reaches GMs and nobody else.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.fragments import CACHE, cached_html, cached_value, fragment_key, viewer
from campaigns.htmx import unchanged
from campaigns.keyset import keyset_page
from campaigns.models import Role, all_characters
from campaigns.permissions import CampaignAccess, campaign_access, require
from campaigns.scene_menu import SceneMenu, scene_menu
from campaigns.selectors import active_scene
from mechanics import selectors as log
from mechanics.cards import attach_cards, keyed, with_relations
from mechanics.forms.log import FreeRollForm, RollFilterForm
from mechanics.presentation import roll_display
from mechanics.rules.expressions import roll_expression
from mechanics.services.rolls import roll_store

# htmx listens for this event (HX-Trigger) to refresh the feed at once after a roll.
ROLL_EVENT = "cronica:roll"
EXPORT_FORMATS = ("csv", "json")
# Beyond this, the log says "more than" instead of counting every roll.
COUNT_LIMIT = 1000


def _menus(campaign) -> tuple[list, list]:
    """The characters and the players a roll may be filtered by: names, members and
    characters bump the campaign's version, which keys them (`campaigns.versions`)."""
    characters = (
        all_characters().filter(campaign_id=campaign.pk).order_by("name", "pk")
    ).values_list("pk", "name")
    players = (
        get_user_model()
        .objects.filter(
            memberships__campaign_id=campaign.pk, memberships__role__in=(Role.GM, Role.PLAYER)
        )
        .order_by("username")
        .values_list("pk", "username")
    )
    return cached_value(
        fragment_key("roll-log-menus", campaign.pk, campaign.version),
        lambda: (list(characters), list(players)),
    )


def _filter_form(access: CampaignAccess, data) -> tuple[RollFilterForm, SceneMenu]:
    """The filters, and the scene menu they offer (the latest scenes, and the chosen one)."""
    campaign = access.campaign
    menu = scene_menu(campaign, (data or {}).get("scene"))
    characters, players = _menus(campaign)
    form = RollFilterForm(data or None, characters=characters, scenes=menu.scenes, players=players)
    return form, menu


def _total(access: CampaignAccess, rolls, applied: tuple) -> int:
    """The rolls this reader sees with these filters, counted up to COUNT_LIMIT + 1, kept
    with the counter of new rolls it was counted at. Rolls are never removed or changed
    (append-only), so a count past the bound stays past it: only a log below the bound
    counts again after a new roll. A character, scene or member gone leaves its filter
    invalid, and so not applied."""
    campaign = access.campaign
    cache = caches[CACHE]
    key = fragment_key("roll-log-total", viewer(access), campaign.pk, applied)
    counted = cache.get(key)
    if counted is not None and (counted[1] > COUNT_LIMIT or counted[0] == campaign.roll_seq):
        return counted[1]
    total = rolls.order_by().values("pk")[: COUNT_LIMIT + 1].count()
    cache.set(key, (campaign.roll_seq, total), 3600)
    return total


@login_required
@require_GET
def roll_log(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every roll of the campaign this member may see, filtered and 25 to a page."""
    access = campaign_access(request.user, campaign_id)
    if up_to_date := unchanged(request, access.live_seq):
        return up_to_date
    # The rolls move the campaign's counter of new rolls; the filters' menus and the names
    # the cards show, its version: rendered once per reader, those and the query, the
    # rolls read only then; a wound, XP or a diary leave it.
    campaign = access.campaign
    shown = (campaign.pk, campaign.version, campaign.roll_seq)
    key = fragment_key("roll-log", viewer(access), shown, sorted(request.GET.lists()))
    context = {
        "access": access,
        "campaign": access.campaign,
        "body": cached_html(request, key),
        "body_key": key,
    }
    if context["body"]:
        return render(request, "mechanics/log.html", context)
    form, menu = _filter_form(access, request.GET)
    rolls = form.filter(log.campaign_rolls(access))
    # Pages found from the last roll shown (the campaign's index), never by OFFSET; the
    # total is counted up to a bound, so a long campaign costs what a short one does.
    page = keyset_page(
        keyed(rolls),
        size=log.PAGE_SIZE,
        after=request.GET.get("after"),
        before=request.GET.get("before"),
    )
    attach_cards(page.items, compact=False)
    context |= {
        "form": form,
        "scene_menu": menu,
        "page": page,
        "total": _total(access, rolls, form.applied()),
        "count_limit": COUNT_LIMIT,
        "export_formats": EXPORT_FORMATS,
    }
    return render(request, "mechanics/log.html", context)


def _feed_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """Every feed answer (200, 204, 304) carries its validator; caches must revalidate."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@login_required
@require_GET
def roll_feed(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The live feed's list, asked again by every open page at each change (live.js).

    A poll carries `since`, the version it shows: unchanged, the answer is 204 No Content
    (htmx keeps the list and goes on polling) after the access check alone, which reads
    the version with the campaign. Clients using standard conditional requests get the
    same from If-None-Match: 304 Not Modified. A plain request (no JavaScript) is sent to
    the log page.
    """
    access = campaign_access(request.user, campaign_id)
    if not request.htmx:
        return redirect("mechanics:log", campaign_id)
    version = log.feed_version(access)
    etag = log.feed_etag(access, version, get_language() or "")
    if request.GET.get("since") == version:
        return _feed_headers(HttpResponse(status=204), etag)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return _feed_headers(not_modified, etag)
    # The rolls drawn: only those without a cached card read whole.
    cards, newest = log.feed_cards(log.feed_rows(access))
    context = {
        "access": access,
        "campaign": access.campaign,
        "cards": cards,
        "version": version,
        "announce": roll_display(newest).summary if newest else "",
    }
    response = render(request, "mechanics/_feed.html#feed-list", context)
    return _feed_headers(response, etag)


def _csv_safe(value: str) -> str:
    """Keep a spreadsheet from reading a name or label as a formula."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


class _Echo:
    def write(self, value: str) -> str:
        return value


def _export_rows(access: CampaignAccess, rolls) -> Iterator[dict]:
    for roll in rolls.iterator(chunk_size=500):
        shown = roll_display(roll)
        row = {
            "id": roll.pk,
            "created_at": timezone.localtime(roll.created_at).isoformat(),
            "user": shown.who,
            "character": shown.character,
            "scene": shown.scene,
            "system": roll.system,
            "kind": roll.kind,
            "label": shown.label,
            "expression": shown.expression,
            "dice": " ".join(die.text for group in shown.groups for die in group.dice),
            "result": roll.result,
            "outcome": roll.outcome,
            "outcome_text": shown.outcome,
            "summary": shown.result,
            "record": roll.record,
        }
        if access.is_gm:
            row["secret"] = roll.secret
        yield row


def _csv_lines(access: CampaignAccess, rolls) -> Iterator[str]:
    writer = csv.writer(_Echo())
    headers = {
        "id": _("Id"),
        "created_at": _("When"),
        "user": _("Rolled by"),
        "character": _("Character"),
        "scene": _("Scene"),
        "system": _("System"),
        "kind": _("Kind"),
        "label": _("Label"),
        "expression": _("Expression"),
        "dice": _("Dice"),
        "result": _("Result"),
        "outcome": _("Outcome key"),
        "outcome_text": _("Outcome"),
        "summary": _("Summary"),
    }
    if access.is_gm:
        headers["secret"] = _("Secret")
    yield "\ufeff"  # a BOM so spreadsheets read the accents as UTF-8
    yield writer.writerow(headers.values())
    texts = {"user", "character", "scene", "label", "expression"}
    for row in _export_rows(access, rolls):
        yield writer.writerow(
            _csv_safe(str(row[key])) if key in texts else row[key] for key in headers
        )


def _json_chunks(access: CampaignAccess, rolls) -> Iterator[str]:
    header = {
        "campaign": access.campaign.name,
        "exported_at": timezone.localtime().isoformat(),
    }
    yield json.dumps(header, ensure_ascii=False)[:-1] + ', "rolls": ['
    for number, row in enumerate(_export_rows(access, rolls)):
        yield ("," if number else "") + json.dumps(row, cls=DjangoJSONEncoder, ensure_ascii=False)
    yield "]}\n"


@login_required
@require_GET
def log_export(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The log as CSV or JSON for any member, with the log page's filters."""
    access = campaign_access(request.user, campaign_id)
    export_format = request.GET.get("format", "csv")
    if export_format not in EXPORT_FORMATS:
        export_format = "csv"
    form, _menu = _filter_form(access, request.GET)
    rolls = with_relations(form.filter(log.campaign_rolls(access)))
    filename = f"{slugify(_('rolls'))}-{slugify(access.campaign.name) or access.campaign.pk}"
    if export_format == "json":
        response = StreamingHttpResponse(
            _json_chunks(access, rolls), content_type="application/json; charset=utf-8"
        )
    else:
        response = StreamingHttpResponse(
            _csv_lines(access, rolls), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}.{export_format}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _roll_id(text: str) -> int | None:
    """The id in ?roll=, or None for anything that is not a plausible id."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


@login_required
@require_http_methods(["GET", "POST"])
def free_roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A GM rolls any dice expression; the roll is stored (secret if asked) and shown.

    htmx gets the roller back with the result; a plain POST redirects to this page with
    the roll to show (POST/redirect/GET). A bad expression is explained and kept.
    """
    access = campaign_access(request.user, campaign_id)
    require(access.can_free_roll)
    campaign = access.campaign
    pools = campaign.game_system.free_roll_pools
    form = FreeRollForm(request.POST if request.method == "POST" else None, pools=pools)
    rolled = None
    if request.method == "POST" and form.is_valid():
        record = roll_expression(form.cleaned_data["expression"])
        rolled = roll_store(
            campaign=campaign,
            user=request.user,
            record=record,
            scene=active_scene(campaign=campaign),
            label=form.cleaned_data["label"],
            secret=form.cleaned_data["secret"],
        )
        if not request.htmx:
            url = reverse("mechanics:free_roll", args=[campaign.pk])
            return redirect(f"{url}?roll={rolled.pk}")
        # Ready to roll the same again.
        form = FreeRollForm(
            initial={
                "expression": request.POST.get("expression", "").strip(),
                "secret": form.cleaned_data["secret"],
            },
            pools=pools,
        )
    elif request.method == "GET" and _roll_id(request.GET.get("roll", "")):
        rolled = (
            with_relations(log.campaign_rolls(access))
            .filter(pk=_roll_id(request.GET["roll"]), system="free")
            .first()
        )
        if rolled is not None:
            expression = roll_display(rolled).expression
            form = FreeRollForm(initial={"expression": expression}, pools=pools)
    context = {"access": access, "campaign": campaign, "form": form, "rolled": rolled}
    if request.htmx:
        response = render(request, "mechanics/_free_roller.html", context)
        if rolled is not None:
            response["HX-Trigger"] = ROLL_EVENT
    else:
        response = render(request, "mechanics/free_roll.html", context)
    return response
