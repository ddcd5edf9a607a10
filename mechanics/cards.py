"""Roll cards, cached: the long lists (the roll log, a scene's timeline) read theirs in
one go; every other place shows one through `{% roll_card %}`.

A roll never changes once stored (`campaigns.append_only`): its card is cached under its
id, how it is shown, the names it reads and the language (`fragment_key`). A list of 25
or 50 cards reads them all in one `get_many` and renders only those not there, rather
than asking the cache card by card from the template. A list may load only what the
keys read (`keyed`): the few rolls whose card is not cached are then read whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import caches
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from campaigns.compiled import compiled_models
from campaigns.fragments import CACHE, fragment_key
from mechanics.models import Roll

CARD = "mechanics/_roll_card.html"
TIMEOUT = 86400
RELATIONS = ("user", "character", "scene")
# What a card's key reads, and where a list places the roll (created_at).
KEY_FIELDS = (
    "id",
    "created_at",
    "user_id",
    "character_id",
    "scene_id",
    "user__username",
    "character__name",
    "scene__title",
)
# What the card itself reads; the rest of a sheet stays in the database.
CARD_FIELDS = (
    *KEY_FIELDS,
    "campaign_id",
    "group",
    "system",
    "kind",
    "label",
    "record",
    "result",
    "outcome",
    "secret",
    "user__id",
    "character__id",
    "scene__id",
)


def with_relations(rolls: QuerySet[Roll]) -> QuerySet[Roll]:
    """Load what a roll's card shows: who rolled, the character and the scene, in the
    same query."""
    return rolls.select_related(*RELATIONS).only(*CARD_FIELDS)


def keyed(rolls: QuerySet[Roll]) -> QuerySet[Roll]:
    """Load only what the rolls' card keys read: for a list whose cards are mostly
    cached (`attach_cards` reads the others whole)."""
    return rolls.select_related(*RELATIONS).only(*KEY_FIELDS)


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
    whole = _whole([roll for roll in rolls if keys[roll.pk] not in cached])
    rendered = {}
    for roll in rolls:
        html = cached.get(keys[roll.pk])
        if html is None:
            html = rendered[keys[roll.pk]] = render_to_string(
                CARD, {"roll": whole.get(roll.pk, roll), "compact": compact}
            )
        roll.card = mark_safe(html)  # rendered by our template, which escaped it
    if rendered:
        cache.set_many(rendered, TIMEOUT)


def _whole(rolls: list[Roll]) -> dict[int, Roll]:
    """The rolls among these that were loaded by `keyed`, read with all their card
    shows (one query, only when a card is to be rendered)."""
    partial = tuple(roll.pk for roll in rolls if "record" in roll.get_deferred_fields())
    if not partial:
        return {}
    return {roll.pk: roll for roll in compiled_models(_whole_query, ids=partial)}


def _whole_query(ids: tuple[int, ...]) -> QuerySet[Roll]:
    return with_relations(Roll.objects.filter(pk__in=ids)).order_by()


def card(roll: Roll, *, compact: bool) -> str:
    """One roll's card, through the same cache as the lists'."""
    attach_cards([roll], compact=compact)
    return roll.card
