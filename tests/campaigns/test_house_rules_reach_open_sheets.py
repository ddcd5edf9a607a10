"""A change to the campaign's rules or options reaches the sheets already open: their live
refresh asks their character's version, which the campaign's save moves (a derived trait
follows a house rule without a reload). A save that changes nothing the sheets read leaves
them be."""

import pytest
from django.urls import reverse

from campaigns.htmx import SINCE_HEADER
from characters.models import Character
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

RATINGS = {"destreza": 4, "armas_cc": 3, "pelea": 2, "resistencia": 6, "percepcion": 3}


@pytest.fixture
def carmen(gm, player, observer):
    campaign = campaign_with("objetivo", gm, players=[player], observers=[observer])
    return make_character(campaign, player, name="Carmen", ratings=RATINGS)


def _form(campaign, **overrides):
    data = {
        "name": campaign.name,
        "description": campaign.description,
        "system": "objetivo",
        "max_characters_per_player": campaign.max_characters_per_player,
        "xp_rubric": "unknown",
        "rule_objetivo_defense_base": 5,
        "rule_objetivo_incapacitated_threshold": 10,
    }
    data.update(overrides)
    return data


def _refresh(client, character, since):
    """The open sheet's live refresh, as {% live_refresh %} asks it."""
    return client.get(
        character.get_absolute_url(),
        HTTP_HX_REQUEST="true",
        **{f"HTTP_{SINCE_HEADER.upper().replace('-', '_')}": str(since)},
    )


def _defensa(response) -> str:
    derived = parse(response.text).one(id="sheet-derived")
    row = next(r for r in derived.find_all("div") if r.one("dt").text() == "Defensa (Armas CC)")
    return row.one("dd").text()


@pytest.mark.parametrize("reader", ["player", "gm"])
def test_a_house_rule_saved_by_the_gm_reaches_an_open_sheet(client, gm, carmen, request, reader):
    campaign = carmen.campaign
    client.force_login(request.getfixturevalue(reader))
    since = Character.objects.get(pk=carmen.pk).version
    assert _refresh(client, carmen, since).status_code == 204
    before = _defensa(client.get(carmen.get_absolute_url()))
    client.force_login(gm)
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.post(url, _form(campaign, rule_objetivo_defense_base=8)).status_code == 302
    client.force_login(request.getfixturevalue(reader))
    response = _refresh(client, carmen, since)
    assert response.status_code == 200
    assert (before, _defensa(response)) == ("12", "15")


def test_a_save_that_changes_nothing_the_sheets_read_leaves_them_be(client, gm, carmen):
    campaign = carmen.campaign
    since = Character.objects.get(pk=carmen.pk).version
    client.force_login(gm)
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.post(url, _form(campaign, description="Otra cosa")).status_code == 302
    assert Character.objects.get(pk=carmen.pk).version == since


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_changes_the_rules_and_no_sheet_moves(client, carmen, request, who, status):
    campaign = carmen.campaign
    since = Character.objects.get(pk=carmen.pk).version
    client.force_login(request.getfixturevalue(who))
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.post(url, _form(campaign, rule_objetivo_defense_base=8)).status_code == status
    assert Character.objects.get(pk=carmen.pk).version == since
