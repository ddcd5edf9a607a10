"""Template helpers for rolls: the shared roll card, the live feed and the free roller."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

from campaigns.fragments import cached_fragment, fragment_key
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
        version = log.feed_version([roll.pk for roll in rolls])
        shown = {"version": version, "cards": [roll.card for roll in rolls]}
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
