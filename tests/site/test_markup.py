"""Markup details that assistive technology depends on, and a scene naming its story."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaigns import services
from tests.factories import CampaignFactory, MembershipFactory, make_character

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def scene(campaign):
    story = services.story_create(campaign=campaign, title="El último tren")
    return services.scene_create(campaign=campaign, title="Andén 9", story=story)


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_a_scene_page_names_its_story(client, scene, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk]))
    header = re.search(r'<header id="scene-header".*?</header>', response.text, re.S).group(0)
    assert "Historia: <a" in header
    assert "El último tren" in header


def test_a_stranger_does_not_see_the_scene_or_its_story(client, scene, stranger):
    client.force_login(stranger)
    url = reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    assert client.get(url).status_code == 404


def test_every_aside_of_the_scene_page_has_a_name(client, scene, gm):
    client.force_login(gm)
    page = client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])).text
    asides = re.findall(r"<aside[^>]*>", page)
    assert len(asides) == 2
    assert all("aria-label=" in aside for aside in asides)


def test_the_roll_feed_can_be_reached_by_keyboard(client, campaign, player):
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).text
    feed = re.search(r'<div id="roll-feed"[^>]*>', page).group(0)
    assert 'tabindex="0"' in feed
    assert 'aria-label="Tiradas recientes"' in feed


def test_no_template_puts_a_role_on_a_form():
    offenders = [
        path.name
        for path in TEMPLATES.rglob("*.html")
        if re.search(r"<form\b[^>]*\brole=", path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_no_template_comment_spans_lines():
    """Django's {# #} ends at the line's end: one that goes on shows itself on the page."""
    offenders = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\{#(?!.*#\})", line)
    ]
    assert offenders == []


@pytest.mark.parametrize("who", ["gm", "player"])
def test_ndp_values_name_themselves_without_aria_label_on_a_span(client, gm, player, who, request):
    campaign = CampaignFactory(system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Sigrid")
    client.force_login(request.getfixturevalue(who))
    page = client.get(character.get_absolute_url()).text
    assert '<span class="trait-value"><span class="visually-hidden">' in page
    assert not re.search(r'<span class="trait-value"[^>]*aria-label', page)
