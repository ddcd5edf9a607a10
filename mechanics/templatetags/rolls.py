"""Template helpers for rolls: the shared roll card, the live feed and the free roller."""

from __future__ import annotations

from django import template

from campaigns.permissions import CampaignAccess, CharacterAccess
from mechanics import selectors as log
from mechanics.forms.log import FreeRollForm
from mechanics.models import Roll
from mechanics.presentation import RollDisplay
from mechanics.presentation import roll_display as _roll_display

register = template.Library()


def _campaign_access(access: CampaignAccess | CharacterAccess) -> CampaignAccess:
    return access.access if isinstance(access, CharacterAccess) else access


@register.filter
def roll_display(roll: Roll) -> RollDisplay:
    """`{% with shown=roll|roll_display %}`: what `_roll.html` shows about a roll."""
    return _roll_display(roll)


@register.inclusion_tag("mechanics/_feed.html")
def roll_feed(access: CampaignAccess | CharacterAccess) -> dict:
    """The live roll feed for any page of a campaign (one query), polled by htmx.

    `{% load rolls %}{% roll_feed access %}` with the page's campaign or character access.
    """
    access = _campaign_access(access)
    rolls = log.feed_rolls(access)
    return {
        "access": access,
        "campaign": access.campaign,
        "rolls": rolls,
        "version": log.feed_version([roll.pk for roll in rolls]),
    }


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
