"""A Hitos double or triple offers a temporary aspect from the roll panel
(docs/rules.md#hitos-temporary-aspects)."""

import pytest
from django.urls import reverse

from characters.models import Aspect, Character
from mechanics.models import Roll
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

CHECK = {"kind": "check", "characteristic": "reflejos", "skill": "combate", "difficulty": "15"}


@pytest.fixture
def pepa(gm, player):
    campaign = CampaignFactory(created_by=gm, system="hitos")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})


def aspect_url(character, roll):
    return reverse("mechanics:roll_aspect", args=[character.campaign_id, character.pk, roll.pk])


def rolled(client, character, dice, fixed_dice):
    fixed_dice(*dice)
    response = client.post(roll_url(character), CHECK, headers={"HX-Request": "true"})
    return response, Roll.objects.latest("pk")


def test_a_double_ten_offers_a_temporary_aspect_for_the_scene(client, player, pepa, fixed_dice):
    client.force_login(player)
    response, roll = rolled(client, pepa, (10, 10, 4), fixed_dice)
    assert "Un doble: nombra un aspecto temporal para la escena" in response.text
    answer = client.post(
        aspect_url(pepa, roll), {"text": "En racha"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200
    aspect = Aspect.objects.get(character=pepa, kind="temporal")
    assert (aspect.text, aspect.duration) == ("En racha", "scene")
    assert "En racha" in answer.text


def test_a_triple_one_offers_one_for_the_session(client, player, pepa, fixed_dice):
    client.force_login(player)
    _, roll = rolled(client, pepa, (1, 1, 1), fixed_dice)
    client.post(aspect_url(pepa, roll), {"text": "Tobillo torcido"})
    assert Aspect.objects.get(character=pepa, kind="temporal").duration == "session"


def test_an_ordinary_roll_offers_nothing_and_refuses_a_forged_aspect(
    client, player, pepa, fixed_dice
):
    client.force_login(player)
    response, roll = rolled(client, pepa, (3, 6, 7), fixed_dice)
    assert "roll-aspect" not in response.text
    answer = client.post(aspect_url(pepa, roll), {"text": "Gratis"}, follow=True)
    assert "no ofrece ningún aspecto temporal" in answer.text
    assert not Aspect.objects.filter(character=pepa, kind="temporal").exists()


def test_one_aspect_per_roll_and_an_empty_name_is_refused(client, player, pepa, fixed_dice):
    client.force_login(player)
    _, roll = rolled(client, pepa, (10, 10, 4), fixed_dice)
    empty = client.post(aspect_url(pepa, roll), {"text": "  "}, headers={"HX-Request": "true"})
    assert "Escribe el aspecto." in empty.text
    client.post(aspect_url(pepa, roll), {"text": "En racha"})
    again = client.post(aspect_url(pepa, roll), {"text": "Otra vez"}, follow=True)
    assert "ya está en la ficha" in again.text
    assert Aspect.objects.filter(character=pepa, kind="temporal").count() == 1
    pepa.refresh_from_db()
    assert pepa.details["aspect_rolls"] == [roll.pk]


def test_who_may_take_the_aspect(client, gm, player, observer, pepa, fixed_dice):
    client.force_login(player)
    _, roll = rolled(client, pepa, (10, 10, 4), fixed_dice)
    other = UserFactory(username="dora")
    MembershipFactory(campaign=pepa.campaign, user=other, role="player")
    MembershipFactory(campaign=pepa.campaign, user=observer, role="observer")
    client.force_login(other)
    assert client.post(aspect_url(pepa, roll), {"text": "x"}).status_code == 403
    client.force_login(observer)
    assert client.post(aspect_url(pepa, roll), {"text": "x"}).status_code == 403
    stranger = UserFactory(username="eve")
    client.force_login(stranger)
    assert client.post(aspect_url(pepa, roll), {"text": "x"}).status_code == 404
    client.force_login(gm)
    assert client.post(aspect_url(pepa, roll), {"text": "Bendición"}).status_code == 302
    assert Aspect.objects.filter(character=pepa, kind="temporal").count() == 1


def test_a_roll_of_another_character_is_404(client, gm, player, pepa, fixed_dice):
    client.force_login(player)
    _, roll = rolled(client, pepa, (10, 10, 4), fixed_dice)
    twin = make_character(pepa.campaign, None, name="Gemela", user=gm)
    assert Character.objects.count() == 2
    client.force_login(gm)
    assert client.post(aspect_url(twin, roll), {"text": "x"}).status_code == 404
    assert not Aspect.objects.filter(kind="temporal").exists()


def test_on_the_sheet_page_the_aspect_list_updates_at_once(client, player, pepa, fixed_dice):
    client.force_login(player)
    _, roll = rolled(client, pepa, (10, 10, 4), fixed_dice)
    sheet = "http://testserver" + pepa.get_absolute_url()
    answer = client.post(
        aspect_url(pepa, roll),
        {"text": "En racha"},
        headers={"HX-Request": "true", "HX-Current-URL": sheet},
    )
    assert 'id="sheet-aspects" aria-labelledby="sheet-aspects-title" hx-swap-oob="true"' in (
        answer.text
    )
    assert answer.text.count("En racha") >= 2
