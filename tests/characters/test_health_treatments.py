"""The treatments each system declares, through the one generic treatment view: who may
give each one, on the system where it exists, and the 404 everywhere else; and that a
system declaring none (a toy with hit points) still takes damage through the generic
health views."""

from collections.abc import Mapping

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import HealthEvent, Roll
from mechanics.systems.base import GameSystem, HealthChange, HealthView, TraitSpec
from mechanics.systems.registry import all_systems, register, unregister
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

# Every treatment the systems declare, with the question of campaigns.permissions it asks.
TREATMENTS = {
    ("tinieblas", "first_aid"): "can_heal",
    ("hitos", "supervision"): "can_heal",
    ("hitos", "drug"): "can_heal",
    ("hitos", "activity"): "can_heal",
    ("ndp", "auxiliar"): "can_heal",
    ("ndp", "bleed"): "can_manage_health",
    ("ndp", "unconscious"): "can_manage_health",
}
HEALING = [pair for pair, permission in TREATMENTS.items() if permission == "can_heal"]
GM_ONLY = [pair for pair, permission in TREATMENTS.items() if permission == "can_manage_health"]
PATHS = {
    "first_aid": "first-aid",
    "supervision": "supervision",
    "drug": "drug",
    "activity": "activity",
    "auxiliar": "auxiliar",
    "bleed": "bleed",
    "unconscious": "unconscious",
}


@pytest.fixture
def table(request):
    """A campaign of one system: its GM, Bob who owns the patient, Dora (another
    player), Olga (an observer) and Charlie, who is no member."""

    def make(system, *, owners_heal=False):
        users = {name: UserFactory(username=name) for name in ("gm", "bob", "dora", "olga")}
        users["charlie"] = UserFactory(username="charlie")
        campaign = CampaignFactory(system=system, created_by=users["gm"])
        for name, role in (
            ("gm", "gm"),
            ("bob", "player"),
            ("dora", "player"),
            ("olga", "observer"),
        ):
            MembershipFactory(campaign=campaign, user=users[name], role=role)
        # Whatever the campaign shares, only the permission decides.
        Campaign.objects.filter(pk=campaign.pk).update(
            owner_applies_damage=owners_heal, players_see_full_sheets=True
        )
        campaign.refresh_from_db()
        patient = make_character(campaign, users["bob"], name="Paciente")
        return users, patient

    return make


def post(client, user, patient, key):
    client.force_login(user)
    address = reverse(f"mechanics:health_{key}", args=[patient.campaign_id, patient.pk])
    return client.post(address, {}, **HTMX)


def nothing_happened():
    return not HealthEvent.objects.exists() and not Roll.objects.exists()


def test_the_table_lists_every_treatment_the_systems_declare_with_its_permission():
    declared = {
        (system.key, treatment.key): treatment.permission
        for system in all_systems()
        for treatment in system.treatments
    }
    assert declared == TREATMENTS


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_treatment_urls_keep_their_names_and_addresses(system, key):
    address = reverse(f"mechanics:health_{key}", args=[3, 5])
    assert address == f"/campaigns/3/characters/5/health/{PATHS[key]}/"


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_the_gm_reaches_every_treatment_of_the_system(client, table, system, key):
    users, patient = table(system)
    response = post(client, users["gm"], patient, key)
    assert response.status_code == 200
    assert 'id="sheet-health"' in response.text


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_the_owner_gives_no_treatment_without_the_campaign_setting(client, table, system, key):
    users, patient = table(system)
    assert post(client, users["bob"], patient, key).status_code == 403
    assert nothing_happened()


@pytest.mark.parametrize(("system", "key"), HEALING)
def test_the_owner_heals_when_the_campaign_lets_owners_apply_damage(client, table, system, key):
    users, patient = table(system, owners_heal=True)
    response = post(client, users["bob"], patient, key)
    assert response.status_code == 200
    assert 'id="sheet-health"' in response.text


@pytest.mark.parametrize(("system", "key"), GM_ONLY)
def test_the_gms_calls_stay_the_gms_even_with_the_setting(client, table, system, key):
    users, patient = table(system, owners_heal=True)
    assert post(client, users["bob"], patient, key).status_code == 403
    assert nothing_happened()


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_another_player_treats_nobody_elses_character(client, table, system, key):
    users, patient = table(system, owners_heal=True)
    assert post(client, users["dora"], patient, key).status_code == 403
    assert nothing_happened()


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_an_observer_treats_nobody(client, table, system, key):
    users, patient = table(system, owners_heal=True)
    assert post(client, users["olga"], patient, key).status_code == 403
    assert nothing_happened()


@pytest.mark.parametrize(("system", "key"), list(TREATMENTS))
def test_a_stranger_is_told_nothing_exists(client, table, system, key):
    users, patient = table(system, owners_heal=True)
    assert post(client, users["charlie"], patient, key).status_code == 404
    assert nothing_happened()


@pytest.mark.parametrize(
    ("system", "key"),
    [
        (other.key, key)
        for (_own, key) in TREATMENTS
        for other in all_systems()
        if (other.key, key) not in TREATMENTS
    ],
)
def test_a_system_that_does_not_declare_a_treatment_answers_404_at_its_url(
    client, table, system, key
):
    users, patient = table(system, owners_heal=True)
    assert post(client, users["gm"], patient, key).status_code == 404
    page = client.get(patient.get_absolute_url()).text
    assert f'id="health-{PATHS[key]}"' not in page
    assert nothing_happened()


# A fifth system that declares nothing of its own health section.


class HitPoints(GameSystem):
    key = "puntos_de_vida"
    name = "Puntos de vida"

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return (TraitSpec("cuerpo", "Cuerpo", "attribute", "Atributos", 1, 5),)

    def new_health(self, ratings: Mapping[str, int], details, rules) -> dict:
        return {"lost": 0}

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        most = 2 * ratings.get("cuerpo", 1)
        lost = stored.get("lost", 0)
        return HealthView(
            state="Herido" if lost else None,
            penalty=0,
            dead=lost >= most,
            lines=(("PV", f"{most - lost}/{most}"),),
        )

    def apply_damage(self, stored, ratings, details, rules, damage, rng=None) -> HealthChange:
        return HealthChange({"lost": stored.get("lost", 0) + damage.amount}, f"−{damage.amount}")

    def advance_time(self, stored, ratings, details, rules, hours, rested=True) -> HealthChange:
        return HealthChange(dict(stored), f"{hours} h")


@pytest.fixture
def toy():
    system = register(HitPoints())
    yield system
    unregister(system.key)


def test_a_system_without_treatments_takes_damage_through_the_generic_views_and_offers_none(
    client, gm, toy
):
    campaign = CampaignFactory(system=toy.key, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, name="Héroe", user=gm, ratings={"cuerpo": 3})
    client.force_login(gm)
    address = reverse("mechanics:health_damage", args=[campaign.pk, hero.pk])
    response = client.post(address, {"damage-amount": 2, "damage-reason": "Caída"}, **HTMX)
    assert response.status_code == 200
    assert HealthEvent.objects.get().summary == "−2"
    assert "4/6" in response.text
    assert 'name="damage-amount"' in response.text
    assert 'name="damage-damage_type"' not in response.text
    assert response.text.count('class="gm-form health-tool"') == 2  # damage and time
    for key in PATHS:
        assert post(client, gm, hero, key).status_code == 404
