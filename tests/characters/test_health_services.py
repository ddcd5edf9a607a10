"""Damage, healing over time and undo through the services, for every system.

The worked health examples (docs/rules.md#tinieblas-examples, docs/rules.md#hitos-examples)
run here end to end: the sheet's stored health, the adapter and the engine together.
"""

import random
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from characters import services
from characters.models import Character
from mechanics.models import HealthEvent
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
from tests.factories import CampaignFactory, MembershipFactory, make_character


def view(character):
    character.refresh_from_db()
    campaign = character.campaign
    system = get_system(campaign.system)
    ratings = services.ratings_of(character)
    return system.health_view(character.health, ratings, character.details, campaign.rules)


def hurt(character, gm, amount, damage_type="", **kwargs):
    return health_services.character_apply_damage(
        character=character, user=gm, damage=DamageInput(amount, damage_type, **kwargs)
    )


@pytest.fixture
def barman(campaign, gm):
    return make_character(campaign, None, name="Camarero", user=gm)


@pytest.mark.django_db
def test_bar_fight_punch_knife_and_bat_leave_the_barman_incapacitated(barman, gm):
    hurt(barman, gm, 2, "B")  # the punch
    hurt(barman, gm, 2, "L")  # the knife
    hurt(barman, gm, 3, "L")  # the bat
    barman.refresh_from_db()
    assert barman.health["marks"] == "LLLLLBB"
    shown = view(barman)
    assert shown.state == "Incapacitado"
    assert shown.unconscious
    assert shown.time_to_heal == "3 meses 1 semana 4 días 18 horas"


@pytest.mark.django_db
def test_example_seven_bashing_then_one_more_leaves_lethal_and_unconscious(barman, gm):
    hurt(barman, gm, 7, "B")
    hurt(barman, gm, 1, "B")
    barman.refresh_from_db()
    assert barman.health["marks"] == "LBBBBBB"
    assert view(barman).unconscious


@pytest.mark.django_db
def test_example_seven_lethal_then_one_bashing_kills(barman, gm):
    hurt(barman, gm, 7, "L")
    hurt(barman, gm, 1, "B")
    assert view(barman).dead


@pytest.mark.django_db
def test_example_three_bashing_then_two_lethal_is_malherido(barman, gm):
    hurt(barman, gm, 3, "B")
    hurt(barman, gm, 2, "L")
    barman.refresh_from_db()
    assert barman.health["marks"] == "LLBBB"
    assert view(barman).state == "Malherido"


@pytest.mark.django_db
def test_example_6_bashing_up_to_malherido_heals_in_4_hours(barman, gm):
    hurt(barman, gm, 5, "B")
    assert view(barman).time_to_heal == "4 horas"
    health_services.character_advance_time(character=barman, user=gm, hours=3)
    assert view(barman).state is not None
    health_services.character_advance_time(character=barman, user=gm, hours=1)
    assert view(barman).state is None


@pytest.mark.django_db
def test_example_aguante_5_health_states_in_hitos(gm):
    campaign = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, user=gm, ratings={"fortaleza": 4, "voluntad": 2})
    shown = view(hero)
    assert shown.lines[0] == ("Resistencia", "15/15")
    # 4 points: below Aguante, no massive-damage test.
    event = hurt(hero, gm, 4)
    assert event.roll is None
    hurt(hero, gm, 1)
    assert (view(hero).state, view(hero).penalty) == ("Herido", -2)
    hurt(hero, gm, 4)
    hurt(hero, gm, 1)
    assert (view(hero).state, view(hero).penalty) == ("Incapacitado", -5)
    hurt(hero, gm, 4)
    hurt(hero, gm, 1)
    assert view(hero).state == "Moribundo"


@pytest.mark.django_db
def test_hitos_massive_damage_rolls_on_the_server_and_logs_the_test(gm):
    campaign = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, user=gm, ratings={"fortaleza": 4, "voluntad": 2})
    event = health_services.character_apply_damage(
        character=hero, user=gm, damage=DamageInput(7, rd=2), rng=random.Random(3)
    )
    assert event.roll is not None
    assert event.roll.kind
    assert event.inputs == {
        "amount": 7,
        "damage_type": "",
        "rd": 2,
        "part": "",
        "armour_integrity": None,
        "critical": "",
    }


@pytest.mark.django_db
def test_ndp_espada_larga_8_against_rd_4_is_a_grave_wound_on_the_part(gm):
    campaign = CampaignFactory(system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, user=gm)
    event = hurt(hero, gm, 8, "cortante", rd=4, part="brazo_izquierdo")
    assert "grave" in event.summary
    hurt(hero, gm, 8, "cortante", rd=4, part="brazo_izquierdo")
    assert any("Hemorragia" in state for state in view(hero).states)


@pytest.mark.django_db
def test_objetivo_pv_lost_and_healed_by_days_of_rest(gm):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, user=gm, ratings={"resistencia": 8})
    hurt(hero, gm, 7)
    assert view(hero).lines == (("PV", "9/16"),)
    assert view(hero).state == "Incapacitado"
    health_services.character_advance_time(character=hero, user=gm, hours=48)
    assert view(hero).lines == (("PV", "11/16"),)


@pytest.mark.django_db
def test_a_wrong_damage_type_is_refused_and_nothing_changes(barman, gm):
    with pytest.raises(ValidationError):
        hurt(barman, gm, 2, "X")
    barman.refresh_from_db()
    assert barman.health["marks"] == ""
    assert not HealthEvent.objects.exists()


@pytest.mark.django_db
def test_a_bad_amount_is_refused_and_nothing_changes(barman, gm):
    with pytest.raises(ValidationError):
        hurt(barman, gm, -3, "L")
    assert not HealthEvent.objects.exists()


@pytest.mark.django_db
def test_undo_restores_the_health_before_and_is_recorded_as_a_new_event(barman, gm):
    hurt(barman, gm, 2, "B")
    knife = hurt(barman, gm, 2, "L")
    undo = health_services.health_event_undo(character=barman, user=gm)
    barman.refresh_from_db()
    assert barman.health["marks"] == "BB"
    assert undo.kind == HealthEvent.Kind.UNDO
    assert undo.undoes == knife
    assert HealthEvent.objects.count() == 3
    # Undoing again takes back the punch, then there is nothing left.
    health_services.health_event_undo(character=barman, user=gm)
    barman.refresh_from_db()
    assert barman.health["marks"] == ""
    with pytest.raises(ValidationError):
        health_services.health_event_undo(character=barman, user=gm)


@pytest.mark.django_db
def test_health_events_are_append_only(barman, gm):
    event = hurt(barman, gm, 1, "B")
    event.summary = "changed"
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        HealthEvent.objects.all().delete()


@pytest.mark.django_db
def test_advancing_a_scene_heals_every_participant(campaign, gm, player):
    from campaigns.models import Scene

    one = make_character(campaign, player, name="Una")
    two = make_character(campaign, None, name="Dos", user=gm)
    scene = Scene.objects.create(campaign=campaign, title="Descanso")
    scene.participants.set([one, two])
    hurt(one, gm, 2, "B")
    hurt(two, gm, 1, "L")
    events = health_services.scene_advance_time(scene=scene, user=gm, hours=24)
    assert len(events) == 2
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.health["marks"] == ""
    assert two.health["marks"] == ""


@pytest.mark.django_db(transaction=True)
def test_two_damage_applications_at_the_same_moment_both_land(gm):
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    target = make_character(campaign, None, user=gm)
    barrier = threading.Barrier(2)
    errors = []

    def strike(damage_type):
        try:
            barrier.wait()
            hurt(Character.objects.get(pk=target.pk), gm, 1, damage_type)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=strike, args=(kind,)) for kind in ("L", "B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    target.refresh_from_db()
    assert target.health["marks"] == "LB"
    assert HealthEvent.objects.filter(character=target).count() == 2
