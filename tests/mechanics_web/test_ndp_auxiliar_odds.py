"""3d6 + NdP Auxiliar: the treatment form shows the exact odds of the healer's roll before
it is rolled (RULES §5), and they follow the healer, the adversity and the limb the healer
uses (a fractured one adds 2 Desgracias) chosen."""

import pytest
from django.urls import reverse

from mechanics.models import Roll
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
fixed_dice = rolling.fixed_dice


@pytest.fixture
def campaign(gm, player):
    return campaign_with("ndp", gm, players=[player])


@pytest.fixture
def patient(campaign, player):
    return make_character(campaign, player, name="Aldo")


@pytest.fixture
def medic(campaign, gm):
    return make_character(campaign, None, name="Sanadora", user=gm, ratings={"auxiliar": 2})


def auxiliar_url(patient):
    return reverse("mechanics:health_auxiliar", args=[patient.campaign_id, patient.pk])


def choices(medic, adversity):
    return {"auxiliar-healer": medic.pk, "auxiliar-adversity": adversity}


def success(response) -> float:
    box = parse(response.content).one(id="health-auxiliar-odds")
    return float(box.one("div", class_="odds-success").one("data").attrs["value"])


def test_auxiliar_odds_follow_the_healer_and_the_adversity(client, gm, patient, medic):
    client.force_login(gm)
    url = f"{auxiliar_url(patient)}?part=odds"
    at_9 = client.get(url, choices(medic, 9), headers=HTMX)
    assert at_9.status_code == 200
    assert success(at_9) == pytest.approx(181 / 216)
    assert "3d6 + 2 contra 9" in parse(at_9.content).text()
    assert success(client.get(url, choices(medic, 15), headers=HTMX)) == pytest.approx(35 / 216)
    assert not Roll.objects.exists()


def test_auxiliar_form_shows_an_odds_box_before_a_healer_is_chosen(client, gm, patient):
    client.force_login(gm)
    response = client.get(auxiliar_url(patient), headers=HTMX)
    box = parse(response.content).one(id="health-auxiliar-odds")
    assert "Elige quién cura y la adversidad" in box.text()


def test_auxiliar_page_without_javascript_shows_the_odds_of_the_choices(client, gm, patient, medic):
    client.force_login(gm)
    response = client.get(auxiliar_url(patient), choices(medic, 9))
    assert response.status_code == 200
    assert success(response) == pytest.approx(181 / 216)


def test_player_may_not_see_auxiliar_odds_when_players_do_not_heal(client, player, patient, medic):
    client.force_login(player)
    url = f"{auxiliar_url(patient)}?part=odds"
    assert client.get(url, choices(medic, 9), headers=HTMX).status_code == 403


def test_stranger_does_not_find_the_auxiliar_odds(client, stranger, patient, medic):
    client.force_login(stranger)
    url = f"{auxiliar_url(patient)}?part=odds"
    assert client.get(url, choices(medic, 9), headers=HTMX).status_code == 404


def hurt(character, part, times=1):
    for _blow in range(times):
        character_apply_damage(
            character=character,
            user=character.campaign.created_by,
            damage=DamageInput(5, "contundente", part=part),
        )


@pytest.fixture
def bleeding(patient):
    character_apply_damage(
        character=patient,
        user=patient.campaign.created_by,
        damage=DamageInput(8, "cortante", rd=4, part="brazo_izquierdo"),
    )
    character_apply_damage(
        character=patient,
        user=patient.campaign.created_by,
        damage=DamageInput(8, "cortante", rd=4, part="brazo_izquierdo"),
    )
    return patient


def test_a_healer_using_a_fractured_arm_rolls_and_sees_two_desgracias(
    client, gm, bleeding, medic, fixed_dice
):
    """Fracturado: 2 Desgracias on an action with that limb (docs/rules.md#ndp-wound-effects),
    Auxiliar included: the GM names the limb the healer uses, as on the GM's roll panel."""
    hurt(medic, "brazo_derecho", times=2)
    client.force_login(gm)
    url = f"{auxiliar_url(bleeding)}?part=odds"
    plain = client.get(url, choices(medic, 9), headers=HTMX)
    assert success(plain) == pytest.approx(181 / 216)
    other_arm = client.get(
        url, {**choices(medic, 9), "auxiliar-limb": "brazo_izquierdo"}, headers=HTMX
    )
    assert success(other_arm) == pytest.approx(181 / 216)
    broken = client.get(url, {**choices(medic, 9), "auxiliar-limb": "brazo_derecho"}, headers=HTMX)
    words = parse(broken.content).one(id="health-auxiliar-odds").text()
    assert "3d6 + 2 − 2d4 contra 9" in words
    assert "Desgracias por Fracturado −2d4" in words
    assert success(broken) < 181 / 216
    fixed_dice(6, 6, 6, 4, 4)  # 18 + 2 − 8 = 12 > 9
    client.post(
        auxiliar_url(bleeding),
        {**choices(medic, 9), "auxiliar-limb": "brazo_derecho"},
        headers=HTMX,
    )
    roll = Roll.objects.get(character=medic)
    assert roll.record["spec"]["desgracias"] == 2
    assert roll.record["result"] == 12


def test_the_auxiliar_form_asks_which_limb_the_healer_uses(client, gm, patient):
    client.force_login(gm)
    page = parse(client.get(auxiliar_url(patient), headers=HTMX).content)
    limbs = [
        option.attrs["value"]
        for option in page.one("select", name="auxiliar-limb").find_all("option")
    ]
    assert limbs[:2] == ["", "brazo_derecho"]
    assert page.one("label", for_="id_auxiliar-limb").text() == "Extremidad con la que cura"


def test_a_stranger_cannot_roll_auxiliar_with_a_limb(client, stranger, bleeding, medic):
    client.force_login(stranger)
    data = {**choices(medic, 9), "auxiliar-limb": "brazo_derecho"}
    assert client.post(auxiliar_url(bleeding), data, headers=HTMX).status_code == 404
    assert not Roll.objects.exists()
