"""Reads for the roll log, the live feed and the export.

Every list of rolls starts from `campaign_rolls(access)`, which applies the one
visibility rule (`campaigns.permissions.visible_rolls`): secret rolls exist only for GMs,
in lists, counts, the feed's version and exports alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import F, QuerySet
from django.utils.safestring import SafeString

from campaigns.models import Scene
from campaigns.permissions import CampaignAccess, visible_rolls
from mechanics.cards import attach_cards, cards_of, with_relations
from mechanics.models import Roll

FEED_SIZE = 10
PAGE_SIZE = 25


def campaign_rolls(access: CampaignAccess) -> QuerySet[Roll]:
    """The campaign's rolls this member may see, newest first."""
    return visible_rolls(access, Roll.objects.filter(campaign_id=access.campaign.pk))


def feed_rolls(access: CampaignAccess) -> list[Roll]:
    """The newest rolls shown in the live feed, whole, with their cards (one query)."""
    rolls = list(with_relations(campaign_rolls(access))[:FEED_SIZE])
    attach_cards(rolls, compact=True)
    return rolls


def feed_rows(access: CampaignAccess) -> list[tuple]:
    """The rolls the feed shows, each as its id and the names its card shows (as
    `cards_of` takes them): what a changed feed needs to find its cards (one query on
    the campaign/created_at index, with the names' joins: a third of what the rolls whole
    cost)."""
    names = ("user__username", "character__name", "scene__title")
    return list(campaign_rolls(access).values_list("pk", *names)[:FEED_SIZE])


def feed_cards(rows: Sequence[tuple]) -> tuple[list[SafeString], Roll | None]:
    """The cards of the rolls `rows` name (`feed_rows`) and the newest roll whole, which
    the feed announces: the rolls whose card is not cached are read whole in one query,
    the newest one with them (else alone)."""
    read: dict[int, Roll] = {}
    cards = cards_of(rows, compact=True, loaded=read)
    if not rows:
        return cards, None
    newest = rows[0][0]
    if newest not in read:
        read[newest] = with_relations(Roll.objects.filter(pk=newest)).first()
    return cards, read[newest]


def feed_version(access: CampaignAccess) -> str:
    """What changes whenever the rolls this reader's feed shows change, read with the
    campaign (no query): its new rolls, or for a player its new rolls but secret ones
    (`Campaign.public_roll_seq`), so not even the moment of a secret roll reaches them.
    The database counts them as each roll commits, so a roll committed late with an older
    time moves it too."""
    campaign = access.campaign
    return str(campaign.roll_seq if access.is_gm else campaign.public_roll_seq)


def feed_etag(access: CampaignAccess, version: str, language: str) -> str:
    """Weak ETag of the feed fragment: what it shows depends on the rolls, on whether
    the reader sees secret rolls, and on the language."""
    audience = "gm" if access.is_gm else "members"
    return f'W/"rolls-{access.campaign.pk}-{version}-{audience}-{language}"'


def roll_scenes(campaign, character) -> tuple[list[Scene], Scene | None]:
    """The campaign's open scenes a character's roll may go to, newest first, and the one
    it goes to unless the roller picks another: the newest the character takes part in
    (as `campaigns.selectors.active_scene`), or none. One query of the titles alone (a
    roll links its scene by id; the rest loads if read), a row per scene and participant:
    half the Python of an `Exists` per scene, and a campaign keeps few scenes open."""
    scenes: dict[int, Scene] = {}
    joined = None
    rows = (
        Scene.objects.filter(campaign_id=campaign.pk, status=Scene.Status.OPEN)
        .only("title")
        .annotate(member=F("participants"))
        .order_by("-created_at", "-pk")
    )
    for scene in rows:
        scenes.setdefault(scene.pk, scene)
        if joined is None and scene.member == character.pk:
            joined = scenes[scene.pk]
    return list(scenes.values()), joined
