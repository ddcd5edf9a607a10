"""The roll panel of a sheet: who may roll, odds equal to the engine's, rolls made on the
server only, and their effects applied to the sheet in one go."""

import re
import secrets

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Scene
from characters.models import Aspect, Character, Resource, SheetChange, Specialty, Trait
from characters.services import aspect_add
from mechanics.models import Roll
from mechanics.rules.hitos import odds as hitos_odds
from mechanics.rules.hitos.rolls import HitosSpec
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.rules.objetivo import odds as objetivo_odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec
from mechanics.rules.tinieblas import odds as tinieblas_odds
from mechanics.rules.tinieblas.rolls import PoolSpec
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import dice_values, odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

LUCIA = {
    "inteligencia": 3,
    "astucia": 2,
    "aplomo": 2,
    "fuerza": 2,
    "destreza": 3,
    "compostura": 3,
    "investigacion": 3,
    "pelea": 2,
    "fuerza_de_voluntad": 5,
}
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=LUCIA)


def willpower(character) -> int:
    return Resource.objects.get(character=character, key="willpower").current


def game(system: str, gm, player, **ratings):
    campaign = CampaignFactory(created_by=gm, system=system)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign, make_character(campaign, player, name="Pepa", ratings=ratings)


# Who may roll


def test_owner_sees_the_roll_panel_with_its_odds(client, player, lucia):
    client.force_login(player)
    response = client.get(roll_url(lucia))
    assert response.status_code == 200
    assert "Tirada de Lucía" in response.text
    assert "odds-success" in response.text
    assert response["Vary"].count("HX-Request")


def test_owner_rolls_for_their_character(client, player, lucia):
    client.force_login(player)
    response = client.post(roll_url(lucia), POOL)
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert (roll.character, roll.user, roll.campaign) == (lucia, player, lucia.campaign)
    assert roll.kind == "pool"
    assert roll.record["details"]["pool"] == 6


def test_gm_rolls_for_a_players_character_and_for_an_npc(client, gm, campaign, lucia):
    npc = make_character(campaign, None, name="Bruto", ratings={"fuerza": 4, "pelea": 3})
    client.force_login(gm)
    assert client.get(roll_url(lucia)).status_code == 200
    assert client.post(roll_url(lucia), POOL).status_code == 302
    data = {**POOL, "attribute": "fuerza", "skill": "pelea"}
    assert client.post(roll_url(npc), data).status_code == 302
    assert {(r.character.name, r.user.username) for r in Roll.objects.all()} == {
        ("Lucía", "alice"),
        ("Bruto", "alice"),
    }


def test_player_cannot_roll_for_another_players_character(client, other_player, lucia):
    client.force_login(other_player)
    assert client.get(roll_url(lucia)).status_code == 403
    assert client.post(roll_url(lucia), POOL).status_code == 403
    assert not Roll.objects.exists()


def test_observer_cannot_roll(client, observer, lucia):
    client.force_login(observer)
    assert client.get(roll_url(lucia)).status_code == 403
    assert client.post(roll_url(lucia), POOL).status_code == 403
    assert not Roll.objects.exists()


def test_stranger_gets_404(client, stranger, lucia):
    client.force_login(stranger)
    assert client.get(roll_url(lucia)).status_code == 404
    assert client.post(roll_url(lucia), POOL).status_code == 404


def test_a_character_of_another_campaign_is_not_found(client, gm, player, lucia):
    other, _ = game("tinieblas", gm, player)
    client.force_login(gm)
    url = reverse("mechanics:roll", args=[other.pk, lucia.pk])
    assert client.get(url).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, lucia):
    response = client.post(roll_url(lucia), POOL)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert not Roll.objects.exists()


# The server rolls, never the client


def test_dice_and_results_sent_by_the_client_are_ignored(client, player, lucia, fixed_dice):
    fixed_dice(1)
    client.force_login(player)
    forged = {
        **POOL,
        "dice": ["10", "10", "10", "10", "10", "10"],
        "result": "99",
        "successes": "99",
        "outcome": "exceptional",
        "record": '{"result": 99}',
        "willpower_pool": "10",
        "pool": "30",
    }
    client.post(roll_url(lucia), forged)
    roll = Roll.objects.get()
    assert dice_values(roll) == [1] * 6
    assert (roll.result, roll.outcome) == (0, "failure")
    assert roll.record["details"]["pool"] == 6


def test_the_roll_uses_the_cryptographic_random_source(client, player, lucia, monkeypatch):
    made = []

    class Spy(secrets.SystemRandom):
        def __init__(self):
            super().__init__()
            made.append(self)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    client.force_login(player)
    client.post(roll_url(lucia), POOL)
    assert made
    assert Roll.objects.count() == 1


# Odds


def test_tinieblas_odds_shown_equal_the_engines(client, player, lucia):
    client.force_login(player)
    data = {**POOL, "modifier_1": "-1", "extra_dice": "2", "willpower": "dice", "again": "9"}
    data["rote"] = "on"
    response = client.get(roll_url(lucia), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    spec = PoolSpec(
        attribute=3,
        skill=3,
        skill_category="mental",
        modifiers=(-1,),
        extra_dice=2,
        willpower="dice",
        willpower_pool=5,
        again=9,
        rote=True,
    )
    engine = tinieblas_odds.odds(spec)
    shown = odds_values(response.text)
    assert shown["success"] == engine.p_success
    assert shown["exceptional"] == engine.p_exceptional
    assert "<html" not in response.text
    assert "10 dados" in response.text


def test_a_pool_at_zero_shows_the_chance_die_and_its_dramatic_failure(client, player, lucia):
    client.force_login(player)
    data = {**POOL, "skill": "", "modifier_1": "-3"}  # Inteligencia 3 − 3
    response = client.get(roll_url(lucia), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    chance = tinieblas_odds.odds_for_pool(0)
    assert shown == {
        "success": chance.p_success,
        "exceptional": chance.p_exceptional,
        "dramatic_failure": chance.p_dramatic_failure,
    }


def test_hitos_odds_shown_equal_the_engines(client, gm, player):
    campaign, pepa = game("hitos", gm, player, reflejos=4, combate=3)
    rival = make_character(campaign, None, user=gm, name="Rival")
    grudge = aspect_add(character=rival, user=gm, kind="concepto", text="Rencoroso")
    client.force_login(gm)
    data = {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "modifier": "2",
        "hinderer": rival.pk,
        "hinder_aspect": grudge.pk,
    }
    response = client.get(roll_url(pepa), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    engine = hitos_odds.odds(HitosSpec(4, 3, 15, modifier=2, hinder=True))
    assert odds_values(response.text) == {
        "success": engine.p_success,
        "exceptional": engine.p_exceptional,
        "dramatic_failure": engine.p_dramatic_failure,
    }


def test_ndp_odds_shown_equal_the_engines(client, gm, player):
    _, pepa = game("ndp", gm, player, percibir=4)
    client.force_login(player)
    data = {
        "kind": "check",
        "skill": "percibir",
        "dice": "4",
        "gracias": "1",
        "desgracias": "2",
        "adversity": "12",
    }
    response = client.get(roll_url(pepa), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    spec = NdpSpec(level=4, dice=4, gracias=1, desgracias=2, adversity=12, skill="percibir")
    assert odds_values(response.text) == {
        "success": ndp_odds.odds(spec).p_success,
        "progress": ndp_odds.p_progress(spec),
    }


def test_objetivo_odds_shown_equal_the_engines(client, gm, player):
    _, pepa = game("objetivo", gm, player, fuerza=5, pelea=0, resistencia=8)
    Resource.objects.filter(character=pepa, key="destiny_points").update(current=1)
    client.force_login(player)
    data = {
        "kind": "skill",
        "attribute": "fuerza",
        "skill": "pelea",
        "difficulty": "15",
        "modifier": "1",
        "destiny_point": "on",
    }
    response = client.get(roll_url(pepa), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    spec = ObjetivoSpec(
        bonus=6, difficulty=15, destiny_point=True, destiny_points=1, unskilled=True
    )
    engine = objetivo_odds.odds(spec)
    assert odds_values(response.text) == {
        "success": engine.p_success,
        "exceptional": engine.p_exceptional,
        "dramatic_failure": engine.p_dramatic_failure,
    }


def test_wound_penalty_applies_automatically_and_is_shown(client, player, lucia):
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "LLLB"})
    client.force_login(player)
    response = client.get(roll_url(lucia), {**POOL, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert "Herido" in client.get(roll_url(lucia)).text
    assert "4 dados" in response.text
    spec = PoolSpec(attribute=3, skill=3, skill_category="mental", wound_penalty=-2)
    assert odds_values(response.text)["success"] == tinieblas_odds.odds(spec).p_success


def test_a_campaign_sets_its_own_wound_penalties(client, player, lucia, campaign):
    campaign.house_rules = {"wound_penalty_herido": -1}
    campaign.save(update_fields=["house_rules"])
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "LLLB"})
    client.force_login(player)
    response = client.get(roll_url(lucia), {**POOL, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert parse(response.text).one("p", class_="roll-summary").text() == "5 dados"
    spec = PoolSpec(attribute=3, skill=3, skill_category="mental", wound_penalty=-1)
    assert odds_values(response.text)["success"] == tinieblas_odds.odds(spec).p_success


def test_modifiers_adding_up_beyond_five_count_as_five_and_say_so(client, player, lucia):
    client.force_login(player)
    data = {**POOL, "modifier_1": "4", "modifier_2": "3", "part": "odds"}
    response = client.get(roll_url(lucia), data, HTTP_HX_REQUEST="true")
    page = parse(response.text)
    assert page.one("p", class_="roll-summary").text() == "11 dados"
    assert "Los modificadores nunca pasan de ±5 −2" in page.one("p", class_="roll-steps").text()
    spec = PoolSpec(attribute=3, skill=3, skill_category="mental", modifiers=(4, 3))
    assert odds_values(response.text)["success"] == tinieblas_odds.odds(spec).p_success


# Effects on the sheet


def test_spending_willpower_lowers_the_pool_once_and_records_it(client, player, lucia):
    client.force_login(player)
    response = client.post(roll_url(lucia), {**POOL, "willpower": "dice"}, HTTP_HX_REQUEST="true")
    assert willpower(lucia) == 4
    roll = Roll.objects.get()
    assert roll.record["details"]["pool"] == 9
    assert roll.record["details"]["applied"] == [
        {"what": "willpower", "label": "Fuerza de Voluntad", "old": 5, "new": 4}
    ]
    assert SheetChange.objects.filter(character=lucia, field="resource:willpower").exists()
    # The panel comes back with the pool spent and the spend option cleared.
    assert "4 de 5" in response.text
    assert 'value="dice" checked' not in response.text.replace("\n", " ")
    assert "cronica:roll" in response["HX-Trigger"]


def test_willpower_resistance_only_helps_a_resistance_attribute(client, player, lucia):
    client.force_login(player)
    client.post(roll_url(lucia), {**POOL, "willpower": "resistance"})
    assert not Roll.objects.exists()
    data = {**POOL, "attribute": "compostura", "skill": "", "willpower": "resistance"}
    client.post(roll_url(lucia), data)
    assert Roll.objects.get().record["details"]["pool"] == 5
    assert willpower(lucia) == 4


def test_no_willpower_left_refuses_the_roll_with_a_message(client, player, lucia):
    Resource.objects.filter(character=lucia, key="willpower").update(current=0)
    client.force_login(player)
    response = client.post(roll_url(lucia), {**POOL, "willpower": "dice"})
    assert response.status_code == 200
    errors = re.findall(r'<div class="invalid-feedback d-block">([^<]*)</div>', response.text)
    assert errors == ["No quedan puntos de Fuerza de Voluntad."]
    assert not Roll.objects.exists()


@pytest.mark.parametrize("who", ["gm", "player"])
def test_with_no_willpower_left_the_panel_offers_no_spend(request, client, who, lucia):
    client.force_login(request.getfixturevalue(who))
    Resource.objects.filter(character=lucia, key="willpower").update(current=0)
    page = client.get(roll_url(lucia), HTTP_HX_REQUEST="true").text
    radios = re.findall(r'<input type="radio" name="willpower"[^>]*>', page)
    assert len(radios) == 3
    assert all(" disabled" in radio for radio in radios)
    assert "No quedan puntos de Fuerza de Voluntad." in page
    Resource.objects.filter(character=lucia, key="willpower").update(current=1)
    page = client.get(roll_url(lucia), HTTP_HX_REQUEST="true").text
    radios = re.findall(r'<input type="radio" name="willpower"[^>]*>', page)
    assert len(radios) == 3
    assert not any(" disabled" in radio for radio in radios)


def test_hitos_aspect_with_a_drama_point_or_by_exhausting_it(client, gm, player, fixed_dice):
    _, pepa = game("hitos", gm, player, reflejos=4, combate=3)
    aspect = Aspect.objects.create(character=pepa, kind="hito", text="Rápida como el rayo")
    fixed_dice(3, 6, 7)
    client.force_login(player)
    data = {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "aspect": str(aspect.pk),
        "pay": "drama_point",
    }
    client.post(roll_url(pepa), data)
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "M"
    assert roll.result == 7 + 7  # M + Reflejos + Combate
    assert Resource.objects.get(character=pepa, key="drama_points").current == 2
    client.post(roll_url(pepa), {**data, "pay": "exhaust"})
    aspect.refresh_from_db()
    assert aspect.exhausted
    assert Resource.objects.get(character=pepa, key="drama_points").current == 2
    # An exhausted aspect can no longer be activated.
    response = client.post(roll_url(pepa), data)
    assert "Los aspectos agotados no se pueden activar." in response.text
    assert Roll.objects.count() == 2


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_hitos_panel_shows_the_drama_points_once_and_says_when_none_are_left(
    request, client, gm, player, who
):
    _, pepa = game("hitos", gm, player, reflejos=4, combate=3)
    Aspect.objects.create(character=pepa, kind="hito", text="Rápida como el rayo")
    client.force_login(request.getfixturevalue(who))
    response = client.get(roll_url(pepa), HTTP_HX_REQUEST="true")
    if who == "stranger":
        assert response.status_code == 404
        return
    assert response.text.count("Puntos dramáticos") == 1  # the heading's pools
    assert "No quedan puntos dramáticos" not in response.text
    Resource.objects.filter(character=pepa, key="drama_points").update(current=0)
    response = client.get(roll_url(pepa), HTTP_HX_REQUEST="true")
    assert "No quedan puntos dramáticos: agota el aspecto." in response.text


def test_ndp_pdp_rise_and_the_sixth_becomes_one_ndp(client, gm, player, fixed_dice):
    _, pepa = game("ndp", gm, player, percibir=4)
    Trait.objects.filter(character=pepa, key="percibir").update(progress=5)
    fixed_dice(6)
    client.force_login(player)
    response = client.post(
        roll_url(pepa),
        {"kind": "check", "skill": "percibir", "dice": "3", "adversity": "10"},
        HTTP_HX_REQUEST="true",
    )
    trait = Trait.objects.get(character=pepa, key="percibir")
    assert (trait.rating, trait.progress) == (5, 0)
    roll = Roll.objects.get()
    assert roll.record["effects"]["pdp_gained"] == {"percibir": 1}
    assert "¡Percibir sube a NdP 5!" in response.text


def test_ndp_no_pdp_when_the_dice_stay_under_the_progression_difficulty(
    client, gm, player, fixed_dice
):
    _, pepa = game("ndp", gm, player, percibir=4)
    fixed_dice(1)
    client.force_login(player)
    client.post(roll_url(pepa), {"kind": "check", "skill": "percibir", "dice": "3"})
    trait = Trait.objects.get(character=pepa, key="percibir")
    assert (trait.rating, trait.progress) == (4, 0)
    assert Roll.objects.get().outcome == "rolled"


def test_objetivo_destiny_point_and_specialization_once_per_scene(client, gm, player):
    campaign, pepa = game("objetivo", gm, player, fuerza=5, pelea=3, resistencia=8)
    Character.objects.filter(pk=pepa.pk).update(details={"specialization": "pelea"})
    Resource.objects.filter(character=pepa, key="destiny_points").update(current=2)
    scene = Scene.objects.create(campaign=campaign, title="La taberna")
    scene.participants.add(pepa)
    client.force_login(player)
    data = {
        "kind": "skill",
        "attribute": "fuerza",
        "skill": "pelea",
        "difficulty": "15",
        "specialization": "on",
        "destiny_point": "on",
    }
    client.post(roll_url(pepa), data)
    roll = Roll.objects.get()
    assert roll.scene == scene
    assert roll.record["spec"]["specialization"]
    assert roll.record["spec"]["destiny_point"]
    pepa.refresh_from_db()
    assert pepa.details["specialization_used_scene"] == scene.pk
    assert Resource.objects.get(character=pepa, key="destiny_points").current == 1
    # Once per scene: the option is off now, and a forged one is refused.
    page = client.get(roll_url(pepa)).text
    assert "Ya se ha usado en esta escena." in page
    response = client.post(roll_url(pepa), data)
    assert "Ya se ha usado en esta escena." in response.text
    assert Roll.objects.count() == 1
    client.post(roll_url(pepa), {**data, "specialization": ""})
    assert Roll.objects.count() == 2
    assert not Roll.objects.first().record["spec"]["specialization"]
    # A new scene brings it back.
    scene.status = Scene.Status.CLOSED
    scene.save()
    Scene.objects.create(campaign=campaign, title="El puerto").participants.add(pepa)
    client.post(roll_url(pepa), {**data, "destiny_point": ""})
    assert Roll.objects.first().record["spec"]["specialization"]


def test_objetivo_destiny_point_handed_back_lowers_only_the_next_roll(client, gm, player):
    _, pepa = game("objetivo", gm, player, fuerza=5, pelea=3, resistencia=8)
    Character.objects.filter(pk=pepa.pk).update(details={"destiny_returned": True})
    client.force_login(player)
    data = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "difficulty": "15"}
    client.post(roll_url(pepa), data)
    client.post(roll_url(pepa), data)
    first, second = Roll.objects.order_by("pk")
    assert first.record["details"]["level"] == -1
    assert second.record["details"]["level"] == 0
    pepa.refresh_from_db()
    assert pepa.details["destiny_returned"] is False


# Where rolls go, and what a roll page shows


def test_a_roll_belongs_to_the_open_scene_its_character_is_in(client, player, campaign, lucia):
    scene = Scene.objects.create(campaign=campaign, title="El archivo")
    scene.participants.add(lucia)
    client.force_login(player)
    client.post(roll_url(lucia), {**POOL, "label": "Buscar el expediente"})
    roll = Roll.objects.get()
    assert (roll.scene, roll.label) == (scene, "Buscar el expediente")


def test_without_javascript_the_roll_redirects_to_its_result_keeping_the_choices(
    client, player, lucia
):
    client.force_login(player)
    response = client.post(roll_url(lucia), {**POOL, "willpower": "dice", "modifier_1": "2"})
    roll = Roll.objects.get()
    assert f"result={roll.pk}" in response["Location"]
    assert "willpower" not in response["Location"]
    page = client.get(response["Location"])
    assert 'class="roll-card' in page.text
    assert page.text.count('class="die ') >= 9
    assert '<option value="2" selected>' in page.text


def test_a_player_cannot_make_a_secret_roll(client, player, lucia):
    client.force_login(player)
    client.post(roll_url(lucia), {**POOL, "secret": "on"})
    assert Roll.objects.get().secret is False


def test_a_gm_secret_roll_is_not_shown_to_the_player(client, gm, player, lucia):
    client.force_login(gm)
    response = client.post(roll_url(lucia), {**POOL, "secret": "on"})
    roll = Roll.objects.get()
    assert roll.secret
    assert 'class="roll-card' in client.get(response["Location"]).text
    client.force_login(player)
    page = client.get(f"{roll_url(lucia)}?result={roll.pk}")
    assert 'class="roll-card' not in page.text


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "pool", "attribute": "nonsense"},
        {**POOL, "extra_dice": "abc"},
        {**POOL, "kind": "bogus"},
        {**POOL, "modifier_1": "9"},
        {**POOL, "specialty": "999"},
        {**POOL, "again": "7"},
    ],
)
def test_bad_input_gets_a_message_and_no_roll(client, player, lucia, data):
    client.force_login(player)
    response = client.post(roll_url(lucia), data)
    assert response.status_code == 200
    assert "invalid-feedback" in response.text or "alert-danger" in response.text
    assert not Roll.objects.exists()
    odds = client.get(roll_url(lucia), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert odds.status_code == 200
    assert "Corrige la tirada" in odds.text


def test_an_incapacitated_character_cannot_roll(client, player, lucia):
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "LLLLLLL"})
    client.force_login(player)
    response = client.post(roll_url(lucia), POOL)
    assert "no puede actuar" in response.text
    assert not Roll.objects.exists()


def test_a_specialty_adds_a_die_only_on_its_skill(client, player, lucia):
    specialty = Specialty.objects.create(
        character=lucia, skill_key="investigacion", name="Archivos"
    )
    client.force_login(player)
    client.post(roll_url(lucia), {**POOL, "specialty": str(specialty.pk)})
    assert Roll.objects.get().record["details"]["pool"] == 7
    client.post(roll_url(lucia), {**POOL, "skill": "pelea", "specialty": str(specialty.pk)})
    assert Roll.objects.count() == 1


def test_a_roll_from_the_sheet_page_also_updates_the_sheets_pools(client, player, lucia):
    client.force_login(player)
    sheet = reverse("characters:sheet", args=[lucia.campaign_id, lucia.pk])
    response = client.post(
        roll_url(lucia),
        {**POOL, "willpower": "dice"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{sheet}",
    )
    assert 'id="sheet-resources"' in response.text
    assert 'hx-swap-oob="true"' in response.text


def test_the_roll_endpoint_runs_a_constant_number_of_queries(client, player, campaign, lucia):
    client.force_login(player)

    def count(data) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.post(roll_url(lucia), data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return len(queries)

    data = {**POOL, "willpower": "dice"}
    few = count(data)
    for index in range(25):
        Specialty.objects.create(character=lucia, skill_key="investigacion", name=f"S{index}")
        Roll.objects.create(
            campaign=campaign,
            character=lucia,
            system="tinieblas",
            kind="pool",
            record={"details": {}},
            result=0,
            outcome="failure",
        )
        scene = Scene.objects.create(campaign=campaign, title=f"Escena {index}")
        scene.participants.add(lucia)
    many = count(data)
    assert few == many
    assert many <= 30


def test_the_odds_endpoint_runs_a_constant_number_of_queries(
    client, player, lucia, django_assert_max_num_queries
):
    client.force_login(player)
    for index in range(25):
        Specialty.objects.create(character=lucia, skill_key="investigacion", name=f"S{index}")
    with django_assert_max_num_queries(10):
        client.get(roll_url(lucia), {**POOL, "part": "odds"}, HTTP_HX_REQUEST="true")


def _shown_choices(html: str, character) -> tuple[dict, str]:
    """The choices a panel's form shows, and its odds' text."""
    page = parse(html)
    form = page.one("form", class_="roll-form")
    shown = {}
    for select in form.find_all("select"):
        shown[select.attrs["name"]] = [
            o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs
        ]
    for field in form.find_all("input"):
        if field.attrs.get("type") in ("radio", "checkbox"):
            if "checked" in field.attrs:
                shown.setdefault(field.attrs["name"], []).append(field.attrs.get("value", "on"))
        elif field.attrs.get("type") not in ("hidden", "submit"):
            shown[field.attrs["name"]] = [field.attrs.get("value", "")]
    return shown, page.one(id=f"roll-odds-{character.pk}").text()


@pytest.mark.parametrize(
    ("who", "posted", "kept"),
    [
        ("player", {"modifier_1": "-2"}, {"modifier_1": "-2"}),
        ("gm", {"modifier_1": "1", "secret": "on"}, {"modifier_1": "1"}),
        ("player", {"willpower": "dice"}, {}),
    ],
    ids=["same-choices", "secret-forgotten", "willpower-spent"],
)
def test_the_panel_a_roll_answers_with_shows_what_a_get_of_the_kept_choices_shows(
    client, gm, player, lucia, fixed_dice, who, posted, kept
):
    """After a roll the panel keeps the choices but the one-off ones, with their odds on
    the sheet as the roll left it: the same form and odds as asking for them anew."""
    fixed_dice(8, 3, 10, 1)
    client.force_login(player if who == "player" else gm)
    answer = client.post(roll_url(lucia), {**POOL, **posted}, HTTP_HX_REQUEST="true")
    assert "cronica:roll" in answer["HX-Trigger"]
    asked = client.get(roll_url(lucia), {**POOL, **kept}, HTTP_HX_REQUEST="true")
    assert _shown_choices(answer.text, lucia) == _shown_choices(asked.text, lucia)
