"""A change to the campaign's rules or options reaches the sheets already open: their live
refresh sends their character's and their campaign's versions, which the database moves at
any write to the campaign's row, by the GM's form or any other path (a derived trait
follows a house rule without a reload)."""

import json

import pytest
from django.urls import reverse

from campaigns.htmx import SINCE_HEADER
from campaigns.models import Campaign
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


def _since(client, character) -> str:
    """The version the open sheet holds, as its {% live_refresh %} sends it."""
    live = parse(client.get(character.get_absolute_url()).text).one(id="live-refresh")
    return json.loads(live.attrs["hx-headers"])[SINCE_HEADER]


def _refresh(client, character, since):
    """The open sheet's live refresh, as {% live_refresh %} asks it."""
    return client.get(
        character.get_absolute_url(),
        HTTP_HX_REQUEST="true",
        **{f"HTTP_{SINCE_HEADER.upper().replace('-', '_')}": since},
    )


def _defensa(response) -> str:
    derived = parse(response.text).one(id="sheet-derived")
    row = next(r for r in derived.find_all("div") if r.one("dt").text() == "Defensa (Armas CC)")
    return row.one("dd").text()


@pytest.mark.parametrize("reader", ["player", "gm"])
def test_a_house_rule_saved_by_the_gm_reaches_an_open_sheet(client, gm, carmen, request, reader):
    campaign = carmen.campaign
    client.force_login(request.getfixturevalue(reader))
    since = _since(client, carmen)
    assert _refresh(client, carmen, since).status_code == 204
    before = _defensa(client.get(carmen.get_absolute_url()))
    client.force_login(gm)
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.post(url, _form(campaign, rule_objetivo_defense_base=8)).status_code == 302
    client.force_login(request.getfixturevalue(reader))
    response = _refresh(client, carmen, since)
    assert response.status_code == 200
    assert (before, _defensa(response)) == ("12", "15")


def test_a_house_rule_written_by_another_path_reaches_an_open_sheet(client, player, carmen):
    """The admin, a script, a service to come: no write path has to remember the sheets."""
    client.force_login(player)
    since = _since(client, carmen)
    rules = {**carmen.campaign.house_rules, "defense_base": 8}
    Campaign.objects.filter(pk=carmen.campaign_id).update(house_rules=rules)
    response = _refresh(client, carmen, since)
    assert response.status_code == 200
    assert _defensa(response) == "15"


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_changes_the_rules_and_no_sheet_moves(
    client, carmen, player, request, who, status
):
    campaign = carmen.campaign
    client.force_login(player)
    since = _since(client, carmen)
    client.force_login(request.getfixturevalue(who))
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.post(url, _form(campaign, rule_objetivo_defense_base=8)).status_code == status
    client.force_login(player)
    assert _refresh(client, carmen, since).status_code == 204
