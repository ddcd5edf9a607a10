"""Roll cards, cached: the long lists (the roll log, a scene's timeline) read theirs in
one go; every other place shows one through `{% roll_card %}`.

A roll never changes once stored (`campaigns.append_only`): its card is cached under its
id, how it is shown, the names it reads and the language (`fragment_key`). A list of 25
or 50 cards reads them all in one `get_many` and renders only those not there, rather
than asking the cache card by card from the template.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from campaigns.fragments import CACHE, fragment_key
from mechanics.models import Roll

CARD = "mechanics/_roll_card.html"
TIMEOUT = 86400


def _key(roll: Roll, compact: bool) -> str:
    # The names the card shows, read from the relations the list loaded.
    names = (
        roll.user.username if roll.user_id else None,
        roll.character.name if roll.character_id else None,
        roll.scene.title if roll.scene_id else None,
    )
    return fragment_key("roll-card", roll.pk, bool(compact), names)


def attach_cards(rolls: Sequence[Roll], *, compact: bool) -> None:
    """Set each roll's `card`: its HTML, from the cache or rendered (and stored) now."""
    cache = caches[CACHE]
    keys = {roll.pk: _key(roll, compact) for roll in rolls}
    cached = cache.get_many(keys.values())
    rendered = {}
    for roll in rolls:
        html = cached.get(keys[roll.pk])
        if html is None:
            html = rendered[keys[roll.pk]] = render_to_string(
                CARD, {"roll": roll, "compact": compact}
            )
        roll.card = mark_safe(html)  # rendered by our template, which escaped it
    if rendered:
        cache.set_many(rendered, TIMEOUT)


def card(roll: Roll, *, compact: bool) -> str:
    """One roll's card, through the same cache as the lists'."""
    attach_cards([roll], compact=compact)
    return roll.card
