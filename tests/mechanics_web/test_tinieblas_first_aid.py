"""Mundo de Tinieblas first aid and the seed's «Hemorragias o Shocks Físicos»: this track
has no bleeding or shock state, so first aid treats them as the lethal levels the GM
marks, by the same table (docs/rules.md#tinieblas-first-aid-hemorrhage)."""

import pytest
from django.urls import reverse

from mechanics.models import HealthEvent, Roll
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import campaign_with, make_character
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def clinic(gm, player, dora, observer):
    campaign = campaign_with("tinieblas", gm, players=[player, dora], observers=[observer])
    lucia = make_character(campaign, player, name="Lucía")
    doctor = make_character(
        campaign, dora, name="Doctora Ruiz", ratings={"inteligencia": 3, "medicina": 3}
    )
    return lucia, doctor


def wound(patient, gm, marks):
    for kind in marks:
        health_services.character_apply_damage(
            character=patient, user=gm, damage=DamageInput(1, kind)
        )


def first_aid(client, patient, healer):
    address = reverse("mechanics:health_first_aid", args=[patient.campaign_id, patient.pk])
    data = {"first_aid-healer": healer.pk, "first_aid-proper_kit": "on"}
    return client.post(address, data, **HTMX)


def test_the_first_aid_form_says_bleeding_and_shock_are_lethal_levels(client, gm, clinic):
    lucia, _doctor = clinic
    wound(lucia, gm, "LLL")
    client.force_login(gm)
    # The form the sheet's first-aid tool loads when opened, and its page without htmx.
    address = reverse("mechanics:health_first_aid", args=[lucia.campaign_id, lucia.pk])
    assert "Las hemorragias y los shocks físicos son niveles letales" in (
        client.get(address, HTTP_HX_REQUEST="true").text
    )
    page = client.get(address).text
    assert "Las hemorragias y los shocks físicos son niveles letales" in page


def test_a_hemorrhage_marked_as_lethal_at_lesionado_is_treated_by_the_table(
    client, gm, clinic, fixed_dice
):
    lucia, doctor = clinic
    wound(lucia, gm, "LLL")
    client.force_login(gm)
    # Inteligencia 3 + Medicina 3 = 6 dice: three successes heal one lethal level.
    fixed_dice(8, 9, 8, 1, 2, 3)
    first_aid(client, lucia, doctor)
    lucia.refresh_from_db()
    assert lucia.health["marks"] == "LL"


@pytest.mark.parametrize(
    ("marks", "reason"),
    [("BBB", "solo tratan daño letal"), ("LL", "de Lesionado a Malherido")],
)
def test_a_shock_without_lethal_levels_or_outside_the_table_is_refused(
    client, gm, clinic, marks, reason
):
    lucia, doctor = clinic
    wound(lucia, gm, marks)
    client.force_login(gm)
    events = HealthEvent.objects.count()
    response = first_aid(client, lucia, doctor)
    assert reason in response.text
    assert not Roll.objects.exists()
    assert HealthEvent.objects.count() == events


@pytest.mark.parametrize(
    ("who", "status"), [("player", 403), ("dora", 403), ("observer", 403), ("stranger", 404)]
)
def test_who_may_not_treat_lucia_writes_nothing(client, request, gm, clinic, who, status):
    lucia, doctor = clinic
    wound(lucia, gm, "LLL")
    client.force_login(request.getfixturevalue(who))
    events = HealthEvent.objects.count()
    response = first_aid(client, lucia, doctor)
    assert response.status_code == status
    assert not Roll.objects.exists()
    assert HealthEvent.objects.count() == events
