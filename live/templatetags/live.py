"""`{% live_stream %}`: the attributes that connect a campaign's page to its live stream,
on `<main>`; `{% live_scripts %}`: the scripts that listen (only on those pages);
`{% live_refresh %}`: the element that refreshes a page's live parts (campaigns.htmx.unchanged);
`{% live_reload %}`: the element that reloads a panel with a form (the roll panel)."""

import json

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

from campaigns.htmx import SINCE_HEADER
from campaigns.permissions import CampaignAccess

register = template.Library()

# What a live part answers to: a change on the stream, or the poll while it is down.
LIVE_TRIGGER = "sse:change, cronica:poll from:body"


def _access(context) -> CampaignAccess | None:
    """The page's campaign access: a member's page of a campaign, nothing else."""
    access = context.get("access")
    # A sheet's CharacterAccess holds its reader's campaign access.
    access = getattr(access, "access", access)
    return access if isinstance(access, CampaignAccess) else None


@register.simple_tag(takes_context=True)
def live_stream(context) -> str:
    access = _access(context)
    if access is None:
        return ""
    seq = access.live_seq
    # The page's sequence, and what it polls while it has no stream (live.js).
    polled = format_html(
        ' data-live-seq="{}" data-live-check="{}"',
        seq,
        reverse("live:check", args=[access.campaign.pk]),
    )
    if not hasattr(context.get("request"), "scope"):
        # Served by a WSGI server, which cannot hold a stream: the page polls.
        return polled
    url = reverse("live:stream", args=[access.campaign.pk])
    return format_html(' hx-ext="sse" sse-connect="{}?since={}"{}', url, seq, polled)


@register.simple_tag(takes_context=True)
def live_scripts(context) -> str:
    if _access(context) is None:
        return ""
    return format_html(
        '<script src="{}" defer></script><script src="{}" defer></script>',
        static("django_htmx/ext/hx-sse-2.js"),
        static("js/live.js"),
    )


@register.simple_tag(takes_context=True)
def live_refresh(context, *parts: str, version=None, oob=False) -> str:
    """The hidden element that refreshes `parts` (ids, "#group-review") of this page at
    each change its reader may see; the page's view answers 204 while the page shows
    `version` (campaigns.htmx.unchanged), by default the reader's change sequence.
    `oob`: in a part htmx swaps in (a page of a list), it replaces the page's own, so the
    refresh asks for what the page now shows."""
    access = _access(context)
    if access is None:
        return ""
    if version is None:
        version = access.live_seq
    return format_html(
        '<div id="live-refresh" hidden hx-get="{}" hx-headers="{}" hx-trigger="{}" '
        'hx-swap="none" hx-select-oob="{}" hx-disinherit="*"'
        + (' hx-swap-oob="true"' if oob else "")
        + "></div>",
        context["request"].get_full_path(),
        json.dumps({SINCE_HEADER: str(version)}),
        LIVE_TRIGGER,
        ",".join(("#live-refresh", *parts)),
    )


@register.simple_tag(takes_context=True)
def live_reload(context, url: str, version, target: str) -> str:
    """The hidden element, in a form, that reloads the panel holding it (`target`, e.g.
    "closest .roll-panel") from `url` with the form's choices at each change its reader may
    see; the view answers 204 while the panel shows `version`. It yields to the panel's own
    requests ("abort": a roll)."""
    if _access(context) is None:
        return ""
    return format_html(
        '<div hidden hx-get="{}" hx-headers="{}" hx-trigger="{}" hx-include="closest form" '
        'hx-params="not csrfmiddlewaretoken" hx-target="{}" hx-swap="outerHTML" '
        'hx-sync="{}:abort"></div>',
        url,
        json.dumps({SINCE_HEADER: str(version)}),
        LIVE_TRIGGER,
        target,
        target,
    )
