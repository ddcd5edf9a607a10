"""The scene menus of the roll log and the XP log list the latest scenes only, so they
do not grow with the chronicle; an older scene can still be filtered on by URL."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse

from campaigns.scene_menu import MENU_SIZE, menu_rows
from campaigns.services import scene_create
from characters.services import scene_award_xp
from mechanics.rules.tinieblas.advancement import SceneAward
from tests.factories import CampaignFactory, make_character
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def scenes(campaign, lucia):
    """MENU_SIZE + 2 scenes, the first the oldest, each with a roll and an award."""
    made = []
    for number in range(MENU_SIZE + 2):
        made.append(
            scene_create(
                campaign=campaign, title=f"Escena número {number:02d}", participants=[lucia]
            )
        )
    store_roll(campaign, lucia.owner, character=lucia, scene=made[0], label="Tirada antigua")
    scene_award_xp(
        scene=made[0],
        user=campaign.created_by,
        awards={lucia.pk: SceneAward(interpretacion=2, ideas=2, diario=1)},
    )
    return made


def scene_options(text: str) -> list[str]:
    menu = re.search(r'<select[^>]*name="scene"[^>]*>(.*?)</select>', text, re.S).group(1)
    return re.findall(r"<option[^>]*>([^<]*)</option>", menu)


PAGES = {
    "roll log": lambda campaign: reverse("mechanics:log", args=[campaign.pk]),
    "XP log": lambda campaign: reverse("characters:xp_log", args=[campaign.pk]),
}


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_scene_menu_lists_the_latest_scenes_and_says_so(
    client, campaign, scenes, page, who, request
):
    client.force_login(request.getfixturevalue(who))
    options = scene_options(client.get(PAGES[page](campaign)).text)
    titles = [option for option in options if option.startswith("Escena")]
    assert titles == [scene.title for scene in reversed(scenes)][:MENU_SIZE]
    assert options[-1] == f"(solo las últimas {MENU_SIZE} escenas)"


@pytest.mark.parametrize("page", PAGES)
def test_a_campaign_with_few_scenes_lists_them_all_without_the_note(
    client, campaign, player, lucia, page
):
    scene_create(campaign=campaign, title="Escena única", participants=[lucia])
    client.force_login(player)
    options = scene_options(client.get(PAGES[page](campaign)).text)
    assert "Escena única" in options
    assert not any("solo las últimas" in option for option in options)


def test_the_roll_log_filters_on_a_scene_older_than_the_menu(client, campaign, player, scenes):
    client.force_login(player)
    response = client.get(PAGES["roll log"](campaign), {"scene": scenes[0].pk})
    assert "Tirada antigua" in response.text
    assert 'aria-invalid="true"' not in response.text
    assert scenes[0].title in scene_options(response.text)
    # A newer scene of the menu has no roll: the filter applied.
    newer = client.get(PAGES["roll log"](campaign), {"scene": scenes[-1].pk})
    assert "Tirada antigua" not in newer.text


def test_the_xp_log_filters_on_a_scene_older_than_the_menu(client, campaign, gm, scenes):
    client.force_login(gm)
    response = client.get(PAGES["XP log"](campaign), {"scene": scenes[0].pk})
    assert response.text.count('data-entry-kind="award"') == 1
    assert re.search(rf'<option value="{scenes[0].pk}" selected>', response.text)
    newer = client.get(PAGES["XP log"](campaign), {"scene": scenes[-1].pk})
    assert 'data-entry-kind="award"' not in newer.text


def test_a_scene_of_another_campaign_is_not_added_to_the_menu(client, campaign, player, scenes):
    elsewhere = scene_create(campaign=CampaignFactory(), title="Escena ajena")
    client.force_login(player)
    response = client.get(PAGES["roll log"](campaign), {"scene": elsewhere.pk})
    assert "Escena ajena" not in response.text
    assert 'aria-invalid="true"' in response.text


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite's plan; PostgreSQL's depends on its statistics"
)
@pytest.mark.parametrize("selected", [None, "older"])
def test_the_menu_walks_the_campaigns_scenes_newest_first_and_sorts_none(
    campaign, scenes, selected
):
    """The menu takes the latest scenes in the order of their index: without it, SQLite
    sorted every scene of the campaign in a temporary tree, twice, to keep 31."""
    chosen = str(scenes[0].pk) if selected else None
    plan = menu_rows(campaign, chosen).explain()
    assert "scene_campaign_newest" in plan, plan
    assert "TEMP B-TREE" not in plan, plan
