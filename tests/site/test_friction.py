"""Friction found on a first evening: Markdown descriptions, bounded settings, a free roller
that refuses negative dice."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import Roll
from mechanics.rules.errors import RuleError
from mechanics.rules.expressions import parse

pytestmark = pytest.mark.django_db


def campaign_data(**overrides):
    data = {
        "name": "La Casa Usher",
        "description": "Terror gótico.",
        "system": "tinieblas",
        "max_characters_per_player": 1,
        "rule_tinieblas_unskilled_penalty": "on",
        "rule_tinieblas_aggravated_heals_as_lethal": "on",
    }
    return {**data, **overrides}


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_a_campaign_description_renders_its_markdown(client, campaign, who, request):
    campaign.description = "**Terror** en *Madrid*.\n\n- Niebla\n- Ecos<script>alert(1)</script>"
    campaign.save()
    client.force_login(request.getfixturevalue(who))
    page = client.get(campaign.get_absolute_url()).text
    assert "<strong>Terror</strong> en <em>Madrid</em>." in page
    assert "<li>Niebla</li>" in page
    assert "<script>alert(1)" not in page


def test_a_stranger_does_not_see_the_description(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(campaign.get_absolute_url()).status_code == 404


@pytest.mark.parametrize(("value", "accepted"), [(0, False), (1, True), (20, True), (21, False)])
def test_characters_per_player_go_from_1_to_20(client, campaign, gm, value, accepted):
    client.force_login(gm)
    url = reverse("campaigns:edit", args=[campaign.pk])
    response = client.post(url, campaign_data(max_characters_per_player=value))
    campaign.refresh_from_db()
    if accepted:
        assert response.status_code == 302
        assert campaign.max_characters_per_player == value
    else:
        assert response.status_code == 200
        assert "Asegúrate de que este valor es" in response.text
        assert campaign.max_characters_per_player == 1


def test_a_new_campaign_refuses_zero_characters_per_player(client, player):
    client.force_login(player)
    response = client.post(reverse("campaigns:create"), campaign_data(max_characters_per_player=0))
    assert response.status_code == 200
    assert not Campaign.objects.filter(name="La Casa Usher").exists()


def test_the_admin_bounds_characters_per_player_too(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("admin:campaigns_campaign_change", args=[campaign.pk]))
    assert 'name="max_characters_per_player"' in response.text
    assert 'max="20"' in response.text


@pytest.mark.parametrize("text", ["-3d6", "-d6", " - 2d10-1", "−4d6", "-2d6-1d4"])
def test_the_engine_refuses_a_negative_number_of_dice(text):
    with pytest.raises(RuleError) as error:
        parse(text)
    assert "cannot be negative" in str(error.value)


@pytest.mark.parametrize("text", ["2d6-1d4", "10-2d6", "-1+2d6", "-1d4+3"])
def test_subtracting_dice_from_something_is_still_fine(text):
    assert parse(text).groups


def test_the_free_roller_refuses_negative_dice_with_a_clear_message(client, campaign, gm):
    client.force_login(gm)
    url = reverse("mechanics:free_roll", args=[campaign.pk])
    response = client.post(url, {"expression": "-3d6"})
    assert response.status_code == 200
    assert "El número de dados no puede ser negativo" in response.text
    assert not Roll.objects.exists()
    client.cookies["django_language"] = "en"
    response = client.post(url, {"expression": "-3d6"})
    assert "The number of dice cannot be negative" in response.text
