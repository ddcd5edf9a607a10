"""Template helpers for rolls: the shared roll card, the live feed and the free roller."""

from __future__ import annotations

from urllib.parse import quote

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.fragments import cached_fragment, fragment_key
from campaigns.markup import esc
from campaigns.permissions import CampaignAccess, CharacterAccess
from mechanics import cards
from mechanics import selectors as log
from mechanics.forms.log import FreeRollForm
from mechanics.models import Roll
from mechanics.presentation import RollDisplay
from mechanics.presentation import roll_display as _roll_display

register = template.Library()
FEED_LIST = "mechanics/_feed.html#feed-list"


def _campaign_access(access: CampaignAccess | CharacterAccess) -> CampaignAccess:
    return access.access if isinstance(access, CharacterAccess) else access


@register.simple_tag
def roll_card(roll: Roll, compact=False) -> str:
    """`{% roll_card roll compact %}`: the roll's card, cached (`mechanics.cards`)."""
    return cards.card(roll, compact=bool(compact))


@register.filter
def roll_display(roll: Roll) -> RollDisplay:
    """`{% with shown=roll|roll_display %}`: what `_roll.html` shows about a roll."""
    return _roll_display(roll)


@register.simple_tag
def roll_feed_list(campaign, version: str, cards: list, announce: str = "") -> SafeString:
    """`{% roll_feed_list campaign version cards announce %}`: the feed's list (`#feed-list`),
    its cards, where it polls from, and the new roll to announce, built as a string: every
    page of a campaign draws it."""
    version = str(version)
    poll = esc(reverse("mechanics:feed", args=[campaign.pk]))
    if cards:
        shown = "".join(f"<li>{card}</li>" for card in cards)
        listed = f'\n      <ol class="list-unstyled mb-0">\n        {shown}\n      </ol>\n    '
    else:
        empty = esc(_("No rolls yet. They appear here as soon as anyone rolls."))
        listed = f'\n      <p class="text-body-secondary mb-0">{empty}</p>\n    '
    said = (
        '<p id="roll-feed-status" hx-swap-oob="innerHTML">'
        f"{_('New roll: %(announce)s') % {'announce': esc(announce)}}</p>"
        if announce
        else ""
    )
    return mark_safe(  # every outside text went through esc(); the cards are safe
        f'<div id="roll-feed" class="roll-feed-list" data-version="{esc(version)}" tabindex="0" '
        f'role="region" aria-label="{esc(_("Roll feed"))}"\n'
        f'       hx-get="{poll}?since={esc(quote(version))}"\n'
        '       hx-trigger="sse:change, cronica:poll from:body, cronica:roll from:body" '
        'hx-target="this" hx-swap="outerHTML"\n       hx-select="#roll-feed">\n'
        f"    {listed}\n  </div>\n  {said}"
    )


@register.inclusion_tag("mechanics/_feed.html", takes_context=True)
def roll_feed(context: template.Context, access: CampaignAccess | CharacterAccess) -> dict:
    """The live roll feed for any page of a campaign, polled by htmx.

    `{% load rolls %}{% roll_feed access %}` with the page's campaign or character access.
    Its list is cached, as the roll log is, under the campaign's counter of new rolls and
    its version (the names the cards read: users, characters, scenes), who may see secret
    rolls and the language: no query when cached, and one for the rolls otherwise, whose
    cards come from their own cache but for new ones.
    """
    access = _campaign_access(access)
    campaign = access.campaign
    feed = {"access": access, "campaign": campaign}

    def render(extra: dict) -> str:
        rolls = log.feed_rolls(access)
        shown = {"version": log.feed_version(access), "cards": [roll.card for roll in rolls]}
        return render_to_string(FEED_LIST, {**feed, **shown, **extra})

    key = fragment_key("roll-feed", campaign.pk, campaign.roll_seq, campaign.version, access.is_gm)
    return {**feed, "feed_list": cached_fragment(context["request"], key, render)}


@register.inclusion_tag("mechanics/_free_roller.html", takes_context=True)
def free_roller(context: template.Context, access: CampaignAccess | CharacterAccess) -> dict:
    """The GM's free dice roller (renders nothing for anyone else; no query)."""
    access = _campaign_access(access)
    form = None
    if access.can_free_roll:
        form = FreeRollForm(pools=access.campaign.game_system.free_roll_pools)
    return {
        "access": access,
        "campaign": access.campaign,
        "form": form,
        "rolled": None,
        "csrf_token": context.get("csrf_token"),
    }
