"""A table that has played: the demo's four campaigns with some history, for browser tests
that look at every kind of page."""

import io

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character, DiaryEntry
from characters.services.xp import scene_award_xp, xp_adjust
from mechanics.rules.expressions import parse, roll_expression
from mechanics.services.rolls import roll_store

PASSWORD = "cronica-demo"  # seed_demo's


def played_table(*systems: str) -> dict:
    """The demo's four campaigns (or those of `systems`) with a story, an open and a closed
    scene, a diary, a GM note, rolls (one secret), XP and a fight in progress in each."""
    call_command("seed_demo", system=list(systems) or None, stdout=io.StringIO())
    gm_client = Client()
    campaigns = {}
    for campaign in Campaign.objects.order_by("pk"):
        gm = campaign.created_by
        characters = list(Character.objects.filter(campaign=campaign).order_by("pk"))
        story = campaign_services.story_create(campaign=campaign, title="El primer hilo")
        closed = campaign_services.scene_create(
            campaign=campaign, title="Prólogo", story=story, participants=characters
        )
        campaign_services.scene_close(scene=closed)
        scene = campaign_services.scene_create(
            campaign=campaign,
            title="La noche larga",
            story=story,
            place="El puerto",
            summary="Llueve. **Nadie** habla.",
            participants=characters,
        )
        ana_character = next(c for c in characters if c.owner.username == "ana")
        character_services.diary_save(
            scene=scene,
            character=ana_character,
            user=ana_character.owner,
            body="Olía a sal y a *miedo*.",
            status=DiaryEntry.Status.PUBLISHED,
            visibility=DiaryEntry.Visibility.GROUP,
        )
        campaign_services.scene_note_save(scene=scene, author=gm, body="Bruno miente.")
        # Enough rolls for the feed to scroll.
        for number in range(24):
            character = characters[number % len(characters)]
            roll_store(
                campaign=campaign,
                user=character.owner,
                character=character,
                scene=scene,
                record=roll_expression(parse("2d6+1")),
                label=f"Tirada {number}",
            )
        roll_store(
            campaign=campaign,
            user=gm,
            scene=scene,
            record=roll_expression(parse("1d10")),
            label="Emboscada",
            secret=True,
        )
        xp_adjust(character=ana_character, user=gm, amount=3, reason="Trasfondo")
        scene_award_xp(scene=closed, user=gm, awards={c.pk: 2 for c in characters})
        gm_client.force_login(gm)
        gm_client.post(reverse("mechanics:combat_start", args=[campaign.pk, scene.pk]))
        campaigns[campaign.system] = (campaign, scene, ana_character)
    return campaigns
