"""The GM's free dice roller: any expression, rolled on the server, stored in the log."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import Roll
from tests.mechanics_web.rolls import make_scene, store_roll

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def roller_url(campaign):
    return reverse("mechanics:free_roll", args=[campaign.pk])


def test_the_gm_opens_the_free_roller(client, campaign, gm):
    client.force_login(gm)
    response = client.get(roller_url(campaign))
    assert response.status_code == 200
    assert 'name="expression"' in response.content.decode()


@pytest.mark.parametrize("member", ["player", "observer"])
def test_players_and_observers_cannot_free_roll(client, campaign, member, request):
    client.force_login(request.getfixturevalue(member))
    assert client.get(roller_url(campaign)).status_code == 403
    assert client.post(roller_url(campaign), {"expression": "2d6"}).status_code == 403
    assert not Roll.objects.exists()


def test_a_stranger_gets_a_404_from_the_free_roller(client, campaign, stranger):
    client.force_login(stranger)
    assert client.post(roller_url(campaign), {"expression": "2d6"}).status_code == 404
    assert not Roll.objects.exists()


def test_a_free_roll_is_stored_and_shown_after_a_redirect(client, campaign, gm):
    scene = make_scene(campaign, "La emboscada")
    client.force_login(gm)
    response = client.post(
        roller_url(campaign), {"expression": " 3D10 central ", "label": "Reacción del guardia"}
    )
    roll = Roll.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{roller_url(campaign)}?roll={roll.pk}"
    assert roll.user == gm
    assert roll.scene == scene
    assert roll.character is None
    assert (roll.system, roll.kind, roll.outcome) == ("free", "sum", "rolled")
    assert roll.record["spec"]["expression"] == "3d10 central"
    assert not roll.secret
    kept = [die["value"] for die in roll.record["dice"] if "kept" in die["tags"]]
    assert roll.result == kept[0] == sorted(die["value"] for die in roll.record["dice"])[1]
    html = client.get(response["Location"]).content.decode()
    assert "Reacción del guardia" in html
    assert "3d10 central" in html
    assert f"Total {roll.result}" in html
    result = html.split('class="free-roll-result')[1].split("</article>")[0]
    assert result.count("die die-d10") == 3
    # The latest rolls beside it show it too.
    assert f'data-roll="{roll.pk}"' in html.split('id="roll-feed"')[1]


def test_with_htmx_the_roller_comes_back_with_the_result_and_the_feed_is_told(client, campaign, gm):
    client.force_login(gm)
    response = client.post(roller_url(campaign), {"expression": "2d6+3"}, **HTMX)
    roll = Roll.objects.get()
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Trigger"] == "cronica:roll"
    assert "HX-Request" in response["Vary"]
    assert "<html" not in html
    assert 'id="free-roller"' in html
    assert f'data-roll="{roll.pk}"' in html
    assert html.count("die die-d6") == 2
    # Ready to roll the same again.
    assert 'value="2d6+3"' in html


def test_a_bad_expression_is_explained_and_what_was_typed_is_kept(client, campaign, gm):
    client.force_login(gm)
    response = client.post(roller_url(campaign), {"expression": "3d10 cntral", "label": "Miedo"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "No entiendo «cntral»." in html
    assert 'value="3d10 cntral"' in html
    assert 'value="Miedo"' in html
    assert not Roll.objects.exists()


def test_the_message_for_a_bad_expression_reads_in_english_too(client, campaign, gm):
    client.force_login(gm)
    client.cookies["django_language"] = "en"
    response = client.post(roller_url(campaign), {"expression": "4d10 central"}, **HTMX)
    assert "“central” needs an odd number of dice, like 3d10." in response.content.decode()


def test_an_empty_expression_is_asked_for(client, campaign, gm):
    client.force_login(gm)
    response = client.post(roller_url(campaign), {"expression": ""}, **HTMX)
    assert "Este campo es obligatorio." in response.content.decode()
    assert not Roll.objects.exists()


def test_a_secret_free_roll_is_stored_as_secret(client, campaign, gm):
    client.force_login(gm)
    client.post(roller_url(campaign), {"expression": "1d4", "secret": "on"})
    assert Roll.objects.get().secret


def test_dice_and_results_sent_by_the_client_are_ignored(client, campaign, gm):
    client.force_login(gm)
    client.post(
        roller_url(campaign),
        {"expression": "5d6", "result": "999", "dice": "6,6,6,6,6", "outcome": "critical"},
    )
    roll = Roll.objects.get()
    assert roll.result == sum(die["value"] for die in roll.record["dice"])
    assert roll.result != 999
    assert roll.outcome == "rolled"


def test_in_a_tinieblas_campaign_a_bare_pool_of_d10_counts_successes(client, campaign, gm):
    client.force_login(gm)
    client.post(roller_url(campaign), {"expression": "5d10 9-again"})
    roll = Roll.objects.get()
    assert roll.kind == "pool"
    assert roll.result == sum("success" in die["tags"] for die in roll.record["dice"])
    html = client.get(f"{roller_url(campaign)}?roll={roll.pk}").content.decode()
    assert "éxito" in html


def test_in_other_systems_a_bare_pool_of_d10_is_a_sum(client, campaign, gm):
    Campaign.objects.filter(pk=campaign.pk).update(system="hitos")
    client.force_login(gm)
    client.post(roller_url(campaign), {"expression": "5d10"})
    assert Roll.objects.get().kind == "sum"


def test_only_gms_see_the_free_roller_on_the_campaign_page(client, campaign, gm, player):
    url = reverse("campaigns:detail", args=[campaign.pk])
    client.force_login(gm)
    assert 'id="free-roller"' in client.get(url).content.decode()
    client.force_login(player)
    assert 'id="free-roller"' not in client.get(url).content.decode()


@pytest.mark.parametrize("shown", ["abc", "²", "9" * 30, "-1"])
def test_a_bad_roll_to_show_is_ignored(client, campaign, gm, shown):
    client.force_login(gm)
    response = client.get(f"{roller_url(campaign)}?roll={shown}")
    assert response.status_code == 200
    assert "free-roll-result" not in response.content.decode()


def test_a_gm_is_shown_only_free_rolls_of_this_campaign(client, campaign, gm, player):
    pool_roll = store_roll(campaign, player)
    client.force_login(gm)
    response = client.get(f"{roller_url(campaign)}?roll={pool_roll.pk}")
    assert "free-roll-result" not in response.content.decode()
