"""The GM's health tools (damage, time, treatments) load their forms the first time they
are opened: the sheet renders each as a closed panel with its address, the tool's GET
gives the form to htmx and a page of its own without it, and only those who may use a
tool get it."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import HealthEvent
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# (tool, its URL name, a field of its form)
TOOLS = [
    ("damage", "health_damage", "damage-amount"),
    ("time", "health_time", "time-amount"),
    ("first-aid", "health_first_aid", "first_aid-healer"),
]


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def tool_url(character, name):
    return reverse(f"mechanics:{name}", args=[character.campaign_id, character.pk])


def sheet(client, character):
    response = client.get(reverse("characters:sheet", args=[character.campaign_id, character.pk]))
    return parse(response.text).one(id="sheet-health")


@pytest.mark.parametrize(("slug", "name", "field"), TOOLS)
def test_the_gms_sheet_has_each_tool_closed_with_its_address_and_no_form(
    client, gm, lucia, slug, name, field
):
    client.force_login(gm)
    health = sheet(client, lucia)
    tool = health.one("details", id=f"health-{slug}")
    assert "open" not in tool.attrs
    assert tool.attrs["hx-get"] == tool_url(lucia, name)
    assert tool.attrs["hx-trigger"] == "toggle once"
    # Without JavaScript, the link opens the form as a page.
    assert tool.one("a").attrs["href"] == tool_url(lucia, name)
    assert not health.find_all("input", name=field)
    assert not health.find_all("select", name=field)


@pytest.mark.parametrize(("slug", "name", "field"), TOOLS)
def test_the_tool_gives_htmx_its_form_and_a_page_without_it(client, gm, lucia, slug, name, field):
    client.force_login(gm)
    fragment = client.get(tool_url(lucia, name), **HTMX)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text
    form = parse(fragment.text).one("form")
    assert form.attrs["hx-post"] == tool_url(lucia, name)
    assert form.find_all(name=field)
    page = client.get(tool_url(lucia, name))
    assert page.status_code == 200
    assert parse(page.text).one("h1").text()
    assert parse(page.text).one("form", action=tool_url(lucia, name)).find_all(name=field)


def test_the_page_without_javascript_applies_damage_and_goes_back_to_the_sheet(client, gm, lucia):
    client.force_login(gm)
    response = client.post(
        tool_url(lucia, "health_damage"), {"damage-amount": 2, "damage-damage_type": "L"}
    )
    assert response.status_code == 302
    assert response.url.endswith("#sheet-health")
    assert HealthEvent.objects.filter(character=lucia).count() == 1


@pytest.mark.parametrize(("slug", "name", "field"), TOOLS)
def test_a_player_gets_no_tool_they_may_not_use_and_a_stranger_nothing(
    client, player, stranger, observer, lucia, slug, name, field
):
    # Without the campaign's setting the owner neither hurts nor heals, nor moves time.
    for who, status in ((player, 403), (observer, 403), (stranger, 404)):
        client.force_login(who)
        assert client.get(tool_url(lucia, name), **HTMX).status_code == status
    assert not sheet_tools(client, lucia, player)


def test_with_the_campaigns_setting_the_owner_gets_damage_and_first_aid_not_time(
    client, campaign, player, lucia
):
    Campaign.objects.filter(pk=campaign.pk).update(owner_applies_damage=True)
    client.force_login(player)
    for name, status in (("health_damage", 200), ("health_first_aid", 200), ("health_time", 403)):
        assert client.get(tool_url(lucia, name), **HTMX).status_code == status
    assert sheet_tools(client, lucia, player) == ["health-damage", "health-first-aid"]


def sheet_tools(client, character, user) -> list[str]:
    client.force_login(user)
    return [tool.attrs["id"] for tool in sheet(client, character).find_all("details")]


def test_a_refused_damage_keeps_its_tool_open_with_the_form_and_what_was_typed(client, gm, lucia):
    client.force_login(gm)
    response = client.post(
        tool_url(lucia, "health_damage"),
        {"damage-amount": "mucho", "damage-damage_type": "L", "damage-reason": "Cuchillo"},
        **HTMX,
    )
    tool = parse(response.text).one("details", id="health-damage")
    assert "open" in tool.attrs
    assert tool.one("input", name="damage-reason").attrs["value"] == "Cuchillo"


def test_a_refused_first_aid_without_javascript_shows_the_sheet_with_it_open_and_kept(
    client, gm, lucia
):
    client.force_login(gm)
    response = client.post(
        tool_url(lucia, "health_first_aid"),
        {"first_aid-healer": "no-such-healer", "first_aid-reason": "Vendaje"},
    )
    assert response.status_code == 200
    tool = parse(response.text).one("details", id="health-first-aid")
    assert "open" in tool.attrs
    assert tool.one("input", name="first_aid-reason").attrs["value"] == "Vendaje"
