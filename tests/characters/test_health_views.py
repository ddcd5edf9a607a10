"""The health section of the sheet: damage by system, undo, time, treatments, the live
poll and the health history, with who may do what and what a forged request gets."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, Scene
from characters.models import Aspect, Character, Trait
from mechanics.models import HealthEvent, Roll
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse
from tests.mechanics import rolling

pytestmark = pytest.mark.django_db

fixed_dice = rolling.fixed_dice
HTMX = {"HTTP_HX_REQUEST": "true"}


# Set-up


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    """Bob's Mundo de Tinieblas character."""
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def doctor(campaign, other_player):
    """Dora's character, a doctor: Inteligencia 3, Medicina 3."""
    return make_character(
        campaign, other_player, name="Doctora Ruiz", ratings={"inteligencia": 3, "medicina": 3}
    )


def url(character, name, **query):
    address = reverse(f"mechanics:{name}", args=[character.campaign_id, character.pk])
    if query:
        address += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return address


def table(system, gm, player, **fields):
    campaign = CampaignFactory(system=system, created_by=gm, **fields)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def fresh(character):
    return Character.objects.get(pk=character.pk)


def damage(client, character, htmx=True, **fields):
    data = {f"damage-{key}": value for key, value in fields.items()}
    return client.post(url(character, "health_damage"), data, **(HTMX if htmx else {}))


def text_of(response) -> str:
    """The response's words without tags or repeated blanks, for reading phrases."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def allow_owners(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(owner_applies_damage=True)


# Who may do what


def test_gm_applies_damage_and_gets_the_health_section_back_with_an_event_for_the_roll_panel(
    client, gm, lucia
):
    client.force_login(gm)
    response = damage(client, lucia, amount=2, damage_type="L", reason="Cuchillo")
    assert response.status_code == 200
    assert '"cronica:health"' in response.headers["HX-Trigger"]
    assert 'id="sheet-health"' in response.text
    assert "<html" not in response.text
    page = text_of(response)
    assert "Lastimado" in page
    assert "Cuchillo" in page
    event = HealthEvent.objects.get(character=lucia)
    assert (event.kind, event.created_by, event.reason) == ("damage", gm, "Cuchillo")
    assert fresh(lucia).health["marks"] == "LL"
    assert response.headers["Vary"].count("HX-Request") == 1


def test_owner_cannot_apply_damage_without_the_campaign_setting(client, player, lucia):
    client.force_login(player)
    assert damage(client, lucia, amount=2, damage_type="L").status_code == 403
    assert not HealthEvent.objects.exists()


def test_owner_applies_damage_and_heals_with_the_setting_but_never_undoes_or_moves_time(
    client, campaign, player, lucia, doctor, fixed_dice
):
    allow_owners(campaign)
    client.force_login(player)
    assert damage(client, lucia, amount=3, damage_type="L").status_code == 200
    fixed_dice(8, 8, 8, 1)
    response = client.post(
        url(lucia, "health_first_aid"),
        {"first_aid-healer": doctor.pk, "first_aid-proper_kit": "on"},
        **HTMX,
    )
    assert response.status_code == 200
    assert fresh(lucia).health["marks"] == "LL"
    event = HealthEvent.objects.filter(character=lucia).first()
    assert client.post(url(lucia, "health_undo"), {"event": event.pk}).status_code == 403
    assert client.post(url(lucia, "health_time"), {"time-preset": 8}).status_code == 403
    assert HealthEvent.objects.count() == 2


def test_another_player_cannot_hurt_someone_elses_character_even_with_the_setting(
    client, campaign, other_player, lucia
):
    allow_owners(campaign)
    client.force_login(other_player)
    assert damage(client, lucia, amount=2, damage_type="B").status_code == 403
    assert not HealthEvent.objects.exists()


def test_observer_reads_nothing_of_the_health_and_changes_nothing(client, observer, lucia):
    client.force_login(observer)
    assert damage(client, lucia, amount=2, damage_type="B").status_code == 403
    assert client.get(url(lucia, "health"), **HTMX).status_code == 403
    assert client.get(url(lucia, "health_history")).status_code == 403


HEALTH_URLS = [
    ("health", "get"),
    ("health_history", "get"),
    ("health_damage", "post"),
    ("health_time", "post"),
    ("health_undo", "post"),
    ("health_first_aid", "post"),
    ("health_supervision", "post"),
    ("health_drug", "post"),
    ("health_auxiliar", "post"),
    ("health_bleed", "post"),
    ("health_unconscious", "post"),
]


@pytest.mark.parametrize(("name", "method"), HEALTH_URLS)
def test_a_stranger_gets_404_from_every_health_url(client, stranger, lucia, name, method):
    client.force_login(stranger)
    response = getattr(client, method)(url(lucia, name), **HTMX)
    assert response.status_code == 404


@pytest.mark.parametrize(("name", "method"), HEALTH_URLS)
def test_logged_out_visitors_are_sent_to_log_in(client, lucia, name, method):
    response = getattr(client, method)(url(lucia, name))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("name", [name for name, method in HEALTH_URLS if method == "post"])
def test_players_without_the_setting_and_observers_change_nothing_anywhere(
    client, player, other_player, observer, lucia, name
):
    for user in (player, other_player, observer):
        client.force_login(user)
        assert client.post(url(lucia, name), {"event": 1}, **HTMX).status_code in (403, 404)
    assert not HealthEvent.objects.exists()
    assert not Roll.objects.exists()


def test_a_character_of_another_campaign_is_not_found_under_this_one(client, gm, campaign):
    elsewhere = make_character(CampaignFactory(created_by=gm), None, name="Ajeno", user=gm)
    client.force_login(gm)
    address = reverse("mechanics:health_damage", args=[campaign.pk, elsewhere.pk])
    response = client.post(address, {"damage-amount": 1, "damage-damage_type": "B"})
    assert response.status_code == 404
    assert not HealthEvent.objects.exists()


def test_the_sheet_shows_each_user_only_the_health_controls_they_may_use(
    client, campaign, gm, player, other_player, lucia
):
    client.force_login(gm)
    page = client.get(lucia.get_absolute_url()).text
    for part in ('id="health-damage"', 'id="health-first-aid"', 'id="health-time"'):
        assert part in page
    client.force_login(player)
    page = client.get(lucia.get_absolute_url()).text
    assert 'id="health-live-' in page
    assert 'id="health-damage"' not in page
    assert 'id="health-time"' not in page
    allow_owners(campaign)
    page = client.get(lucia.get_absolute_url()).text
    assert 'id="health-damage"' in page
    assert 'id="health-first-aid"' in page
    assert 'id="health-time"' not in page
    client.force_login(other_player)
    page = client.get(lucia.get_absolute_url()).text
    assert 'id="sheet-health"' not in page  # only the public part of someone else's sheet


# Forged and bad input


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("-3", "mayor o igual a 1"),
        ("0", "mayor o igual a 1"),
        ("101", "menor o igual a 100"),
        ("dos", "Introduce un número entero"),
        ("", "Este campo es obligatorio"),
    ],
)
def test_a_bad_amount_is_explained_and_nothing_changes(client, gm, lucia, amount, message):
    client.force_login(gm)
    response = damage(client, lucia, amount=amount, damage_type="L")
    assert response.status_code == 200
    assert message in response.text
    assert 'id="health-damage" open' in response.text
    assert not HealthEvent.objects.exists()
    assert fresh(lucia).health["marks"] == ""


def test_a_damage_type_of_another_system_is_refused(client, gm, lucia):
    client.force_login(gm)
    response = damage(client, lucia, amount=2, damage_type="cortante")
    assert "Elige una opción válida" in response.text
    assert not HealthEvent.objects.exists()


def test_without_javascript_a_bad_form_shows_the_sheet_again_with_what_was_typed(client, gm, lucia):
    client.force_login(gm)
    response = damage(client, lucia, htmx=False, amount="101", damage_type="A", reason="Garras")
    assert response.status_code == 200
    assert "<html" in response.text
    assert 'value="101"' in response.text
    assert 'value="Garras"' in response.text
    assert 'value="A" checked' in response.text
    assert not HealthEvent.objects.exists()


def test_without_javascript_damage_redirects_to_the_sheet_with_a_message(client, gm, lucia):
    client.force_login(gm)
    response = damage(client, lucia, htmx=False, amount=1, damage_type="B")
    assert response.status_code == 302
    assert response["Location"].endswith("#sheet-health")
    page = client.get(response["Location"]).text
    assert "Daño aplicado: 1 B" in page
    assert fresh(lucia).health["marks"] == "B"


def test_fields_the_form_does_not_have_are_ignored(client, gm, lucia):
    client.force_login(gm)
    damage(client, lucia, amount=1, damage_type="B", rd=9, part="cabeza", health='{"marks":""}',
           critical="session")  # fmt: skip
    event = HealthEvent.objects.get()
    assert event.inputs == {
        "amount": 1,
        "damage_type": "B",
        "rd": 0,
        "part": "",
        "armour_integrity": None,
        "critical": "",
    }


def test_a_healer_from_another_campaign_is_refused(client, gm, lucia):
    outsider = make_character(CampaignFactory(created_by=gm), None, name="Ajeno", user=gm)
    client.force_login(gm)
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(3, "L"))
    response = client.post(
        url(lucia, "health_first_aid"), {"first_aid-healer": outsider.pk}, **HTMX
    )
    assert "Elige una opción válida" in response.text
    assert HealthEvent.objects.count() == 1
    assert not Roll.objects.exists()


def test_treatments_of_another_system_are_not_found(client, gm, lucia):
    client.force_login(gm)
    for name in ("health_supervision", "health_drug", "health_auxiliar", "health_bleed"):
        assert client.post(url(lucia, name), **HTMX).status_code == 404


# Damage in every system


def test_hitos_damage_with_rd_rolls_the_massive_damage_test_on_the_server_and_shows_its_dice(
    client, gm, player, fixed_dice
):
    campaign = table("hitos", gm, player)
    hero = make_character(campaign, player, name="Marcos", ratings={"fortaleza": 4, "voluntad": 2})
    client.force_login(gm)
    fixed_dice(2, 3, 9)  # C 3: Aguante 5 + 3 = 8, not above 12
    response = damage(client, hero, amount=7, rd=2, roll="12")
    event = HealthEvent.objects.get()
    assert event.roll is not None
    assert event.roll.kind == "massive_damage"
    assert event.roll.character == hero
    assert [die["value"] for die in event.roll.record["dice"]] == [2, 3, 9]
    # The test failed: all remaining Resistencia is lost.
    assert "Resistencia" in text_of(response)
    assert "0/15" in text_of(response)
    assert "Moribundo" in text_of(response)
    assert response.text.count('class="die ') == 3


def test_hitos_damage_below_aguante_needs_no_test(client, gm, player):
    campaign = table("hitos", gm, player)
    hero = make_character(campaign, player, name="Marcos", ratings={"fortaleza": 4, "voluntad": 2})
    client.force_login(gm)
    response = damage(client, hero, amount=6, rd=2)
    assert HealthEvent.objects.get().roll is None
    assert "4/15" not in text_of(response)
    assert "11/15" in text_of(response)


def test_ndp_damage_on_a_body_part_gives_the_tier_and_states(client, gm, player):
    campaign = table("ndp", gm, player)
    hero = make_character(campaign, player, name="Aldo")
    client.force_login(gm)
    for _ in range(2):
        response = damage(
            client, hero, part="brazo_izquierdo", amount=8, rd=4, damage_type="cortante"
        )
    page = text_of(response)
    assert "Brazo izquierdo: 4 → grave" in page
    assert "Hemorragia leve" in page
    # RD halved against contundente: 5 → 2, so a 4 is a leve wound (net 2).
    damage(client, hero, part="torso", amount=4, rd=5, damage_type="contundente")
    assert HealthEvent.objects.first().summary == "Torso: 2 → leve"


def test_ndp_a_blow_that_does_not_exceed_the_rd_leaves_no_wound(client, gm, player):
    campaign = table("ndp", gm, player)
    hero = make_character(campaign, player, name="Aldo")
    client.force_login(gm)
    damage(client, hero, part="cabeza", amount=4, rd=4, damage_type="cortante")
    assert HealthEvent.objects.get().summary == "Cabeza: 0 → sin herida"


def test_ndp_an_unknown_body_part_is_refused(client, gm, player):
    campaign = table("ndp", gm, player)
    hero = make_character(campaign, player, name="Aldo")
    client.force_login(gm)
    response = damage(client, hero, part="cola", amount=8, damage_type="cortante")
    assert "Elige una opción válida" in response.text
    assert not HealthEvent.objects.exists()


def test_objetivo_damage_is_pv_lost(client, gm, player):
    campaign = table("objetivo", gm, player)
    hero = make_character(campaign, player, name="Fred", ratings={"resistencia": 8})
    client.force_login(gm)
    response = damage(client, hero, amount=7)
    page = text_of(response)
    assert "9/16" in page
    assert "Incapacitado" in page
    assert "dado objetivo un nivel por debajo" in page


# Undo


def test_gm_undoes_the_last_event_and_the_undo_is_a_new_event(client, gm, lucia):
    client.force_login(gm)
    damage(client, lucia, amount=2, damage_type="B")
    damage(client, lucia, amount=2, damage_type="L")
    knife = HealthEvent.objects.first()
    response = client.post(url(lucia, "health_undo"), {"event": knife.pk}, **HTMX)
    assert response.status_code == 200
    assert '"cronica:health"' in response.headers["HX-Trigger"]
    assert fresh(lucia).health["marks"] == "BB"
    undo = HealthEvent.objects.first()
    assert (undo.kind, undo.undoes) == ("undo", knife)
    assert HealthEvent.objects.count() == 3
    page = text_of(response)
    assert "deshecho" in page
    # The button now takes back the punch.
    punch = HealthEvent.objects.get(kind="damage", inputs__damage_type="B")
    assert f'name="event" value="{punch.pk}"' in response.text


def test_undo_refuses_when_another_event_arrived_since_the_gm_looked(client, gm, lucia):
    client.force_login(gm)
    damage(client, lucia, amount=2, damage_type="B")
    seen = HealthEvent.objects.get()
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    response = client.post(url(lucia, "health_undo"), {"event": seen.pk}, **HTMX)
    assert "La salud ha cambiado entretanto" in response.text
    assert fresh(lucia).health["marks"] == "LBB"
    assert HealthEvent.objects.count() == 2


def test_undo_with_nothing_to_undo_says_so(client, gm, lucia):
    client.force_login(gm)
    response = client.post(url(lucia, "health_undo"), {"event": 1}, **HTMX)
    assert "No hay nada que deshacer" in response.text
    response = client.post(url(lucia, "health_undo"), {"event": "x"})
    assert response.status_code == 302
    assert not HealthEvent.objects.exists()


# Time


def test_time_presets_and_custom_time_heal_and_the_sheet_shows_the_time_left(client, gm, lucia):
    client.force_login(gm)
    damage(client, lucia, amount=5, damage_type="B")
    response = client.get(lucia.get_absolute_url())
    assert "Se cura del todo en 4 horas" in text_of(response)
    response = client.post(url(lucia, "health_time"), {"time-preset": 8}, **HTMX)
    assert fresh(lucia).health["marks"] == ""
    assert "8 horas" in text_of(response)
    damage(client, lucia, amount=2, damage_type="L")
    response = client.post(
        url(lucia, "health_time"),
        {"time-amount": 3, "time-unit": "days", "time-reason": "Reposo en casa"},
        **HTMX,
    )
    assert fresh(lucia).health["marks"] == "L"
    event = HealthEvent.objects.first()
    assert (event.kind, event.inputs, event.reason) == (
        "time",
        {"hours": 72, "rested": False},
        "Reposo en casa",
    )
    assert "Se cura del todo en 1 día" in text_of(response)
    client.post(url(lucia, "health_time"), {"time-preset": 168})
    assert fresh(lucia).health["marks"] == ""


def test_time_without_an_amount_or_a_forged_preset_is_refused(client, gm, lucia):
    client.force_login(gm)
    response = client.post(url(lucia, "health_time"), {"time-unit": "days"}, **HTMX)
    assert "Di cuánto tiempo pasa" in response.text
    response = client.post(url(lucia, "health_time"), {"time-preset": 5}, **HTMX)
    assert "Elige una opción válida" in response.text
    response = client.post(url(lucia, "health_time"), {"time-amount": 5000, "time-unit": "weeks"})
    assert "diez años" in response.text
    assert not HealthEvent.objects.exists()


def test_time_and_damage_from_the_sheet_belong_to_the_characters_open_scene(
    client, gm, campaign, lucia
):
    scene = Scene.objects.create(campaign=campaign, title="La pelea del bar")
    scene.participants.add(lucia)
    client.force_login(gm)
    damage(client, lucia, amount=1, damage_type="B")
    assert HealthEvent.objects.get().scene == scene


# First aid (Mundo de Tinieblas)


def wounded(lucia, gm, marks="LLL"):
    for kind in marks:
        health_services.character_apply_damage(
            character=lucia, user=gm, damage=DamageInput(1, kind)
        )


def first_aid(client, patient, healer, kit=True):
    data = {"first_aid-healer": healer.pk}
    if kit:
        data["first_aid-proper_kit"] = "on"
    return client.post(url(patient, "health_first_aid"), data, **HTMX)


def test_first_aid_with_enough_successes_heals_one_lethal_level(
    client, gm, lucia, doctor, fixed_dice
):
    wounded(lucia, gm, "LLL")  # Lesionado: 3 successes, normal pool
    client.force_login(gm)
    fixed_dice(8, 9, 10, 1, 1, 1, 2)
    response = first_aid(client, lucia, doctor)
    assert fresh(lucia).health["marks"] == "LL"
    event = HealthEvent.objects.first()
    assert event.kind == "treatment"
    # Besides what was entered, the codes of the texts the site wrote (campaigns/texts.py).
    assert {k: v for k, v in event.inputs.items() if k != "texts"} == {
        "treatment": "first_aid",
        "healer": doctor.pk,
        "proper_kit": True,
    }
    roll = event.roll
    assert roll.character == doctor
    assert roll.record["details"]["pool"] == 6  # Inteligencia 3 + Medicina 3, with kit
    assert "3 de 3 éxitos" in text_of(response)
    assert response.text.count('class="die ') == 7
    # Given once for these wounds.
    response = first_aid(client, lucia, doctor)
    assert "ya se aplicaron primeros auxilios" in response.text.lower()


def test_first_aid_without_kit_has_two_dice_less_and_the_states_modifier(
    client, gm, lucia, doctor, fixed_dice
):
    wounded(lucia, gm, "LLLL")  # Herido: 4 successes, pool −1
    client.force_login(gm)
    fixed_dice(1)
    first_aid(client, lucia, doctor, kit=False)
    details = Roll.objects.get().record["details"]
    assert details["pool"] == 3 + 3 - 1 - 2
    assert [step["delta"] for step in details["breakdown"]] == [3, 3, -1, -2]


def test_a_failed_first_aid_locks_it_until_fully_healed(client, gm, lucia, doctor, fixed_dice):
    wounded(lucia, gm, "LLL")
    client.force_login(gm)
    fixed_dice(8, 8, 1)  # 2 successes of 3
    response = first_aid(client, lucia, doctor)
    assert fresh(lucia).health["marks"] == "LLL"
    assert fresh(lucia).health["first_aid_locked"] is True
    assert "2 de 3 éxitos" in text_of(response)
    assert "Los primeros auxilios no pueden ayudar hasta que las heridas se curen" in text_of(
        response
    )
    fixed_dice(10, 10, 10, 10, 8)
    response = first_aid(client, lucia, doctor)
    assert "no pueden ayudar hasta que las heridas se curen del todo" in response.text
    assert Roll.objects.count() == 1
    # Fully healed, first aid may help again with new wounds.
    health_services.character_advance_time(character=lucia, user=gm, hours=24 * 11)
    assert fresh(lucia).health["first_aid_locked"] is False


def test_a_dramatic_failure_at_first_aid_adds_a_lethal_level_and_locks_it(
    client, gm, campaign, lucia, fixed_dice
):
    clumsy = make_character(campaign, None, name="Torpe", user=gm)  # Inteligencia 1, Medicina 0
    wounded(lucia, gm, "LLL")
    client.force_login(gm)
    fixed_dice(1)  # 1 + 0 − 3 unskilled − 2 no kit: a chance die showing 1
    response = first_aid(client, lucia, clumsy, kit=False)
    track = fresh(lucia).health
    assert (track["marks"], track["first_aid_locked"]) == ("LLLL", True)
    assert "fallo dramático" in text_of(response)
    assert Roll.objects.get().outcome == "dramatic_failure"


def test_first_aid_needs_lethal_damage_from_lesionado(client, gm, lucia, doctor, fixed_dice):
    wounded(lucia, gm, "BBB")
    client.force_login(gm)
    fixed_dice(8)
    response = first_aid(client, lucia, doctor)
    assert "solo tratan daño letal" in response.text
    assert not Roll.objects.exists()


def test_an_incapacitated_healer_cannot_give_first_aid(client, gm, campaign, lucia, fixed_dice):
    wounded(lucia, gm, "LLL")
    nurse = make_character(campaign, None, name="Enfermera", user=gm)
    wounded(nurse, gm, "BBBBBBB")
    client.force_login(gm)
    response = first_aid(client, lucia, nurse)
    assert "Enfermera no puede actuar en este estado" in response.text
    assert not Roll.objects.exists()


# Hitos: drugs and medical supervision


@pytest.fixture
def hitos_table(gm, player):
    campaign = table("hitos", gm, player)
    patient = make_character(
        campaign, player, name="Marcos", ratings={"fortaleza": 4, "voluntad": 2}
    )  # Aguante 5
    medic = make_character(
        campaign, None, name="Doctor Vidal", user=gm, ratings={"intelecto": 5, "profesion": 5}
    )
    return campaign, patient, medic


def herido(patient, gm):
    """Two blows under Aguante 5 (no massive-damage test): 6 lost, Herido (−2)."""
    for _ in range(2):
        health_services.character_apply_damage(character=patient, user=gm, damage=DamageInput(3))


def test_a_strong_drug_acts_after_an_hour_cancels_the_penalty_and_brings_its_aspect(
    client, gm, hitos_table
):
    _campaign, patient, _medic = hitos_table
    herido(patient, gm)
    client.force_login(gm)
    response = client.post(url(patient, "health_drug"), {"drug-drug": "fuerte"}, **HTMX)
    assert "Droga fuerte tomada" in text_of(response)
    assert not Aspect.objects.filter(character=patient).exists()
    client.post(url(patient, "health_time"), {"time-amount": 1, "time-unit": "hours"})
    aspect = Aspect.objects.get(character=patient)
    assert (aspect.kind, aspect.text) == ("temporal", "Bajo el efecto de las drogas")
    page = text_of(client.get(patient.get_absolute_url()))
    assert "penalización -2" not in page
    assert "Bajo el efecto de las drogas" in page
    client.post(url(patient, "health_time"), {"time-preset": 8})
    assert not Aspect.objects.filter(character=patient).exists()
    assert "penalización -2" in text_of(client.get(patient.get_absolute_url()))


def test_a_soft_drug_brings_no_aspect(client, gm, hitos_table):
    _campaign, patient, _medic = hitos_table
    herido(patient, gm)
    client.force_login(gm)
    client.post(url(patient, "health_drug"), {"drug-drug": "suave"})
    client.post(url(patient, "health_time"), {"time-amount": 2, "time-unit": "hours"})
    assert not Aspect.objects.filter(character=patient).exists()
    assert "penalización -2" not in text_of(client.get(patient.get_absolute_url()))


def test_an_unknown_drug_is_refused(client, gm, hitos_table):
    _campaign, patient, _medic = hitos_table
    client.force_login(gm)
    response = client.post(url(patient, "health_drug"), {"drug-drug": "morfina"}, **HTMX)
    assert "Elige una opción válida" in response.text
    assert not HealthEvent.objects.exists()


def test_medical_supervision_success_grants_the_aspect_and_failure_removes_it(
    client, gm, hitos_table, fixed_dice
):
    _campaign, patient, medic = hitos_table
    herido(patient, gm)
    client.force_login(gm)
    data = {
        "supervision-healer": medic.pk,
        "supervision-characteristic": "intelecto",
        "supervision-skill": "profesion",
    }
    fixed_dice(3, 6, 7)  # C 6 + 5 + 5 = 16 against media 15 (Herido)
    response = client.post(url(patient, "health_supervision"), data, **HTMX)
    assert "16 contra 15, éxito" in text_of(response)
    assert Aspect.objects.get(character=patient).text == "Bajo supervisión médica"
    roll = Roll.objects.get()
    assert (roll.character, roll.result) == (medic, 16)
    fixed_dice(1, 2, 3)
    response = client.post(url(patient, "health_supervision"), data, **HTMX)
    assert "12 contra 15, fracaso" in text_of(response)
    assert not Aspect.objects.filter(character=patient).exists()


def test_medical_supervision_refuses_a_skill_the_supervisor_lacks(client, gm, hitos_table):
    _campaign, patient, medic = hitos_table
    client.force_login(gm)
    data = {
        "supervision-healer": medic.pk,
        "supervision-characteristic": "intelecto",
        "supervision-skill": "fortaleza",
    }
    response = client.post(url(patient, "health_supervision"), data, **HTMX)
    assert "Elige una opción válida" in response.text
    assert not Roll.objects.exists()


# 3d6 + NdP: Auxiliar, bleeding, unconsciousness


@pytest.fixture
def ndp_table(gm, player):
    campaign = table("ndp", gm, player)
    patient = make_character(campaign, player, name="Aldo")
    medic = make_character(campaign, None, name="Sanadora", user=gm, ratings={"auxiliar": 5})
    for _ in range(2):
        health_services.character_apply_damage(
            character=patient,
            user=gm,
            damage=DamageInput(8, "cortante", rd=4, part="brazo_izquierdo"),
        )
    return campaign, patient, medic


def bleeding(patient) -> list[str]:
    return [part["part"] for part in fresh(patient).health["parts"] if part["bleeding"]]


def test_auxiliar_success_stops_the_bleeding_and_wakes_the_patient(
    client, gm, ndp_table, fixed_dice
):
    _campaign, patient, medic = ndp_table
    client.force_login(gm)
    client.post(url(patient, "health_unconscious"), {"unconscious": "1"}, **HTMX)
    assert fresh(patient).health["unconscious"] is True
    assert bleeding(patient) == ["brazo_izquierdo"]
    fixed_dice(6, 6, 6)  # 18 + NdP 5 = 23 > 9; the d6 reach DP 13: +1 PdP
    response = client.post(
        url(patient, "health_auxiliar"),
        {"auxiliar-healer": medic.pk, "auxiliar-adversity": 9},
        **HTMX,
    )
    assert "23 contra 9, tratado" in text_of(response)
    assert bleeding(patient) == []
    assert fresh(patient).health["unconscious"] is False
    assert Trait.objects.get(character=medic, key="auxiliar").progress == 1
    assert Roll.objects.get().character == medic


def test_auxiliar_failure_changes_nothing_but_is_recorded(client, gm, ndp_table, fixed_dice):
    _campaign, patient, medic = ndp_table
    client.force_login(gm)
    fixed_dice(1, 1, 1)
    response = client.post(
        url(patient, "health_auxiliar"),
        {"auxiliar-healer": medic.pk, "auxiliar-adversity": 9},
        **HTMX,
    )
    assert "8 contra 9, sin efecto" in text_of(response)
    assert bleeding(patient) == ["brazo_izquierdo"]
    assert HealthEvent.objects.first().kind == "treatment"


def test_auxiliar_with_nothing_to_treat_rolls_nothing(client, gm, player, fixed_dice):
    campaign = table("ndp", gm, player)
    patient = make_character(campaign, player, name="Aldo")
    client.force_login(gm)
    response = client.post(
        url(patient, "health_auxiliar"),
        {"auxiliar-healer": patient.pk, "auxiliar-adversity": 9},
        **HTMX,
    )
    assert "No hay nada que tratar con Auxiliar" in response.text
    assert not Roll.objects.exists()


def test_the_gm_bleeds_a_round_and_the_owner_may_not(client, gm, player, ndp_table):
    campaign, patient, _medic = ndp_table
    allow_owners(campaign)
    client.force_login(player)
    assert client.post(url(patient, "health_bleed"), **HTMX).status_code == 403
    client.force_login(gm)
    page = client.get(patient.get_absolute_url()).text
    assert "Sangrar una ronda" in page
    response = client.post(url(patient, "health_bleed"), **HTMX)
    assert "Una ronda de hemorragia" in text_of(response)
    arm = next(p for p in fresh(patient).health["parts"] if p["part"] == "brazo_izquierdo")
    assert [w["tier"] for w in arm["wounds"]] == ["grave", "grave", "leve"]


def test_bleeding_without_a_wound_that_bleeds_is_refused(client, gm, player):
    campaign = table("ndp", gm, player)
    patient = make_character(campaign, player, name="Aldo")
    client.force_login(gm)
    response = client.post(url(patient, "health_bleed"), **HTMX)
    assert "No sangra nada" in response.text
    assert not HealthEvent.objects.exists()


def test_ndp_time_while_bleeding_asks_for_auxiliar_first(client, gm, ndp_table):
    _campaign, patient, _medic = ndp_table
    client.force_login(gm)
    response = client.post(url(patient, "health_time"), {"time-preset": 24}, **HTMX)
    assert "Auxiliar" in response.text
    assert HealthEvent.objects.filter(kind="time").count() == 0


def health_box(client, character) -> str:
    """The sheet's health box, in words (the live part the poll redraws)."""
    html = client.get(character.get_absolute_url()).content.decode()
    found = re.search(r'<div class="health-live".*?<div class="health-recent">', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


def test_ndp_the_heal_estimate_says_a_bleeding_wound_heals_only_once_stopped(
    client, gm, player, stranger, ndp_table
):
    _campaign, patient, _medic = ndp_table  # two grave cortante: Hemorragia leve on the arm
    for user in (gm, player):
        client.force_login(user)
        box = health_box(client, patient)
        assert "Se cura del todo" not in box
        assert (
            "No se cura mientras sangra (Brazo izquierdo): antes hay que detener la "
            "hemorragia con Auxiliar." in box
        )
        assert "Detenida la hemorragia, se cura del todo en 1 semana." in box
    client.force_login(stranger)
    assert client.get(patient.get_absolute_url()).status_code == 404
    assert client.get(url(patient, "health"), **HTMX).status_code == 404


def test_ndp_the_heal_estimate_says_a_lost_limb_never_heals_and_when_the_rest_does(
    client, gm, player, stranger, fixed_dice
):
    campaign = table("ndp", gm, player)
    sigrid = make_character(campaign, player, name="Sigrid")
    medic = make_character(campaign, None, name="Sanadora", user=gm, ratings={"auxiliar": 5})
    client.force_login(gm)
    damage(client, sigrid, part="torso", amount=4, rd=0, damage_type="cortante")
    client.post(url(sigrid, "health_time"), {"time-amount": 3, "time-unit": "days"}, **HTMX)
    damage(client, sigrid, part="pierna_izquierda", amount=8, rd=0, damage_type="cortante")
    for user in (gm, player):
        client.force_login(user)
        box = health_box(client, sigrid)
        assert "Desmembrado (Pierna izquierda)" in box
        assert "Se cura del todo" not in box
        assert "No se cura mientras sangra (Pierna izquierda)" in box
        assert "Miembro perdido, no se cura nunca: Pierna izquierda." in box
        assert "Detenida la hemorragia, las demás heridas se curan en 4 días." in box
    client.force_login(stranger)
    assert client.get(sigrid.get_absolute_url()).status_code == 404
    # Auxiliar stops the bleeding: now time heals the torso, never the leg.
    client.force_login(gm)
    fixed_dice(6, 6, 6)
    client.post(
        url(sigrid, "health_auxiliar"),
        {"auxiliar-healer": medic.pk, "auxiliar-adversity": 9},
        **HTMX,
    )
    box = health_box(client, sigrid)
    assert "sangra" not in box
    assert "Miembro perdido, no se cura nunca: Pierna izquierda. " in box
    assert "Las demás heridas se curan en 4 días." in box
    client.post(url(sigrid, "health_time"), {"time-amount": 4, "time-unit": "days"}, **HTMX)
    box = health_box(client, sigrid)
    assert "Miembro perdido, no se cura nunca: Pierna izquierda." in box
    assert "se cura" not in box.replace("no se cura nunca", "")
    assert "Torso" not in box


# The bar fight of seed 000, through the views


def test_bar_fight_punch_knife_and_bat_leave_the_barman_unconscious_and_months_from_healed(
    client, gm, campaign
):
    barman = make_character(campaign, None, name="Camarero", user=gm)
    client.force_login(gm)
    damage(client, barman, amount=2, damage_type="B", reason="Puñetazo")
    damage(client, barman, amount=2, damage_type="L", reason="Cuchillo")
    response = damage(client, barman, amount=3, damage_type="L", reason="Bate")
    assert fresh(barman).health["marks"] == "LLLLLBB"
    page = text_of(client.get(barman.get_absolute_url()))
    assert "Incapacitado" in page
    assert "inconsciente" in page
    assert "Se cura del todo en 3 meses 1 semana 4 días 18 horas" in page
    events = text_of(response)
    assert events.index("Bate") < events.index("Cuchillo") < events.index("Puñetazo")
    assert [e.summary for e in HealthEvent.objects.all()] == ["3 L", "2 L", "2 B"]


# The track's words


def track_words(html: str) -> tuple[list[str], str]:
    """The hidden label of each box of the track, and its legend."""
    found = re.search(r'<ol class="health-boxes".*?</ol>\s*<p[^>]*>(.*?)</p>', html, re.S)
    labels = re.findall(r'<span class="visually-hidden">([^<]*)</span>', found.group(0))
    return labels, found.group(1)


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_track_names_each_kind_of_damage_with_the_catalogues_game_terms(
    client, gm, lucia, language
):
    """Game terms stay Spanish in the English UI (as the damage form's choices); only
    "empty" is the UI's own word."""
    for kind in ("B", "L", "A"):
        health_services.character_apply_damage(
            character=fresh(lucia), user=gm, damage=DamageInput(1, kind)
        )
    client.force_login(gm)
    client.cookies["django_language"] = language
    for response in (
        client.get(lucia.get_absolute_url()),
        client.get(url(lucia, "health", since="stale"), **HTMX),
    ):
        labels, legend = track_words(response.text)
        empty = "empty" if language == "en" else "vacía"
        assert labels[:4] == [
            "Magullado: agravado",
            "Lastimado: letal",
            "Lesionado: contundente",
            f"Herido: {empty}",
        ]
        assert legend == "/ contundente · X letal · ✱ agravado"


def test_the_track_takes_its_words_from_the_system_not_from_the_template(
    client, gm, lucia, monkeypatch
):
    """What the track says of each kind of damage is declared once, by the system
    (`damage_types`): other words there are the words shown."""
    system = type(lucia.campaign.game_system)
    words = (("B", "Golpe"), ("L", "Corte"), ("A", "Quemadura"))
    monkeypatch.setattr(system, "damage_types", lambda self: words)
    for kind in ("B", "L", "A"):
        health_services.character_apply_damage(
            character=fresh(lucia), user=gm, damage=DamageInput(1, kind)
        )
    client.force_login(gm)
    labels, legend = track_words(client.get(lucia.get_absolute_url()).text)
    assert labels[:3] == ["Magullado: quemadura", "Lastimado: corte", "Lesionado: golpe"]
    assert legend == "/ golpe · X corte · ✱ quemadura"


# The live poll


@pytest.mark.parametrize("who", ["player", "gm"])
def test_a_poll_with_the_shown_version_is_204_after_the_access_check_alone(
    client, player, lucia, gm, who, django_assert_max_num_queries
):
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    client.force_login(player if who == "player" else gm)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    with django_assert_max_num_queries(3):  # the session, the user, the character
        response = client.get(url(lucia, "health", since=version), **HTMX)
    assert response.status_code == 204
    assert response["ETag"]
    with django_assert_max_num_queries(5):
        response = client.get(url(lucia, "health"), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX)
    assert response.status_code == 304


def test_a_poll_after_damage_brings_the_new_state_and_refreshes_the_roll_panel(
    client, player, lucia, gm, django_assert_max_num_queries
):
    client.force_login(player)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    for _ in range(4):
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    with django_assert_max_num_queries(10):
        response = client.get(url(lucia, "health", since=version), **HTMX)
    assert response.status_code == 200
    assert '"cronica:health"' in response.headers["HX-Trigger"]
    page = text_of(response)
    assert "Herido" in page
    assert "penalización -2" in page
    assert 'hx-swap-oob="innerHTML"' in response.text
    assert re.search(r'data-health-version="([^"]+)"', response.text).group(1) != version


@pytest.mark.parametrize("who", ["player", "gm"])
def test_a_poll_after_another_change_of_the_character_is_204_and_after_a_wound_is_not(
    client, player, lucia, gm, who, django_assert_max_num_queries
):
    """The version a poll sends back holds the character's version (every write to the
    character moves it) and its health's own: a change of a trait is no change of health,
    a wound is."""
    client.force_login(player if who == "player" else gm)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    Trait.objects.filter(character=lucia, key="fuerza").update(rating=4)
    with django_assert_max_num_queries(4):
        assert client.get(url(lucia, "health", since=version), **HTMX).status_code == 204
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    response = client.get(url(lucia, "health", since=version), **HTMX)
    assert response.status_code == 200
    assert '"cronica:health"' in response.headers["HX-Trigger"]
    shown = re.search(r'data-health-version="([^"]+)"', response.text).group(1)
    assert client.get(url(lucia, "health", since=shown), **HTMX).status_code == 204


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_section_a_wound_answers_with_sends_its_new_version_back(
    client, player, lucia, gm, who
):
    if who == "player":
        allow_owners(lucia.campaign)  # owners may mark their own wounds
    client.force_login(player if who == "player" else gm)
    page = client.get(lucia.get_absolute_url()).text
    before = re.search(r'data-health-version="([^"]+)"', page).group(1)
    response = damage(client, lucia, amount=1, damage_type="L", reason="Golpe")
    version = re.search(r'data-health-version="([^"]+)"', response.text).group(1)
    assert version != before
    assert version.split(".")[0] == str(fresh(lucia).version)


def test_a_poll_after_a_wound_draws_the_section_without_asking_for_the_newest_event(
    client, player, lucia, gm
):
    """The stored health changed: the section is drawn at once, and the events it lists
    give its version, which its ETag holds (the browser's copy is then current)."""
    client.force_login(player)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(lucia, "health", since=version), **HTMX)
    assert response.status_code == 200
    assert not [query for query in queries if "MAX(" in query["sql"]]
    shown = re.search(r'data-health-version="([^"]+)"', response.text).group(1)
    assert response["ETag"] == f'"health-{lucia.pk}-{shown.partition(".")[2]}-es"'
    again = client.get(url(lucia, "health"), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX)
    assert again.status_code == 304


def test_a_poll_notices_an_event_that_left_the_health_as_it_was(client, player, lucia, gm):
    """Time passing for an unhurt character heals nothing: the stored health is the same,
    but the section lists the event."""
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
    health_services.character_advance_time(character=fresh(lucia), user=gm, hours=24)
    client.force_login(player)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    healed = fresh(lucia).health
    event = health_services.character_advance_time(character=fresh(lucia), user=gm, hours=48)
    assert fresh(lucia).health == healed
    response = client.get(url(lucia, "health", since=version), **HTMX)
    assert response.status_code == 200
    assert f'id="health-event-{event.pk}"' in response.text


def test_a_poll_without_htmx_goes_to_the_sheet(client, player, lucia):
    client.force_login(player)
    response = client.get(url(lucia, "health"))
    assert response.status_code == 302
    assert response["Location"].endswith("#sheet-health")


def test_a_health_change_without_an_event_is_noticed_too(client, player, lucia):
    client.force_login(player)
    page = client.get(lucia.get_absolute_url()).text
    version = re.search(r'data-health-version="([^"]+)"', page).group(1)
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "B"})
    assert client.get(url(lucia, "health", since=version), **HTMX).status_code == 200


def test_the_roll_panel_reloads_itself_on_a_health_change(client, player, lucia):
    client.force_login(player)
    panel = client.get(reverse("mechanics:roll", args=[lucia.campaign_id, lucia.pk]), **HTMX)
    assert 'hx-trigger="cronica:health from:body"' in panel.text


# The health history page and the sheet's cost


def test_the_health_history_lists_every_event_25_to_a_page(
    client, gm, player, other_player, stranger, lucia, django_assert_max_num_queries
):
    for _ in range(30):
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
        health_services.character_advance_time(character=lucia, user=gm, hours=24)
    for user in (gm, player):
        client.force_login(user)
        with django_assert_max_num_queries(10):
            response = client.get(url(lucia, "health_history"))
        assert response.status_code == 200
        assert "60 sucesos de salud" in text_of(response)
        assert response.text.count('class="health-event ') == 25
        assert (
            client.get(url(lucia, "health_history") + "?page=3").text.count('class="health-event ')
            == 10
        )
    client.force_login(other_player)
    assert client.get(url(lucia, "health_history")).status_code == 403
    client.force_login(stranger)
    assert client.get(url(lucia, "health_history")).status_code == 404


@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
def test_the_sheet_with_many_health_events_still_runs_at_most_17_queries_and_9_cached(
    client, gm, player, system, django_assert_max_num_queries
):
    campaign = table(system, gm, player)
    hero = make_character(campaign, player, name="Héroe")
    amounts = {"tinieblas": (1, "B"), "hitos": (1, ""), "ndp": (2, "contundente")}
    amount, kind = amounts.get(system, (1, ""))
    for _ in range(20):
        health_services.character_apply_damage(
            character=hero, user=gm, damage=DamageInput(amount, kind, part="torso")
        )
        health_services.health_event_undo(character=hero, user=gm)
    connection.features.supports_json_field  # noqa: B018 (asked once per connection)
    for user in (gm, player):
        client.force_login(user)
        with django_assert_max_num_queries(17):
            response = client.get(hero.get_absolute_url())
        assert response.status_code == 200
        assert response.text.count('class="health-event ') == 10
        with django_assert_max_num_queries(9):
            cached = client.get(hero.get_absolute_url())
        assert cached.text.count('class="health-event ') == 10


# The campaign setting


def test_the_gm_turns_on_owner_applied_damage_in_the_campaign_form(client, gm, campaign):
    client.force_login(gm)
    address = reverse("campaigns:edit", args=[campaign.pk])
    assert 'name="owner_applies_damage"' in client.get(address).text
    response = client.post(
        address,
        {
            "name": campaign.name,
            "description": campaign.description,
            "system": campaign.system,
            "max_characters_per_player": 1,
            "xp_rubric": "unknown",
            "owner_applies_damage": "on",
        },
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.owner_applies_damage is True


def test_an_older_event_still_in_force_is_undone_from_the_history_page(client, gm, lucia):
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    first = HealthEvent.objects.get()
    for _ in range(6):
        health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "B"))
        health_services.health_event_undo(character=lucia, user=gm)
    client.force_login(gm)
    page = client.get(lucia.get_absolute_url()).text
    assert 'name="event"' not in page
    assert "deshazlo desde allí" in page
    history = client.get(url(lucia, "health_history")).text
    assert history.count('name="event"') == 1
    assert f'name="event" value="{first.pk}"' in history
    response = client.post(url(lucia, "health_undo"), {"event": first.pk, "next": "history"})
    assert response["Location"] == url(lucia, "health_history")
    assert fresh(lucia).health["marks"] == ""


def test_time_passing_reads_in_days_and_weeks_in_the_event_list(client, gm, lucia):
    client.force_login(gm)
    response = client.post(url(lucia, "health_time"), {"time-preset": 168}, **HTMX)
    assert '<span class="health-event-summary">1 semana</span>' in response.text


# Friction (issue 14): the first-aid result names its own outcome, not the roll's grade.


@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ((8, 8, 1), "2 de 3 éxitos; no más primeros auxilios hasta curarse del todo"),
        ((8, 9, 10, 1, 1, 1, 2), "3 de 3 éxitos, se cura un nivel letal"),
    ],
    ids=["short", "enough"],
)
def test_first_aid_says_whether_it_healed_not_the_rolls_grade(
    client, gm, lucia, doctor, fixed_dice, dice, outcome
):
    wounded(lucia, gm, "LLL")  # Lesionado: 3 successes needed
    client.force_login(gm)
    fixed_dice(*dice)
    notice = parse(first_aid(client, lucia, doctor).text).one(class_="health-notice").text()
    assert notice == f"Primeros auxilios de Doctora Ruiz: {outcome}"
