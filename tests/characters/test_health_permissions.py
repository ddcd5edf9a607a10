"""Who may use each health URL, tried on the system where that URL exists.

Every request is one the GM would see succeed (valid data, a patient that can be treated),
so a refusal can only come from the permission check: a 403 for members without the right,
a 404 for strangers, and nothing written. The allowed users' successes prove the requests
are good ones.
"""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from mechanics.models import HealthEvent, Roll
from mechanics.services import health as services
from mechanics.systems.base import DamageInput
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ROLES = ("gm", "owner", "other_player", "observer", "former_owner", "stranger")


def _table(system, gm, player, observer, stranger):
    """A campaign where owners may hurt and heal their own characters, and players do not
    see each other's full sheets. The patient is the player's; the healer the GM's NPC."""
    campaign = CampaignFactory(
        system=system, created_by=gm, owner_applies_damage=True, players_see_full_sheets=False
    )
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    MembershipFactory(campaign=campaign, user=observer, role="observer")
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    former = UserFactory(username="pablo")
    MembershipFactory(campaign=campaign, user=former, role="observer")
    users = {
        "gm": gm,
        "owner": player,
        "other_player": other,
        "observer": observer,
        "former_owner": former,
        "stranger": stranger,
    }
    return campaign, users


def _as(client, users, role, patient):
    """Log in as the role; the former owner is an observer who still owns the patient."""
    if role == "former_owner":
        type(patient).objects.filter(pk=patient.pk).update(owner=users[role])
    client.force_login(users[role])


def _hurt(patient, gm, *damages):
    for damage in damages:
        services.character_apply_damage(character=patient, user=gm, damage=damage)


# Each case: system, URL name, method, what the patient needs, the data, who may.
VIEW_FULL = {"gm", "owner", "former_owner"}
HEAL = {"gm", "owner"}
GM = {"gm"}


def _tinieblas(gm, player, observer, stranger):
    campaign, users = _table("tinieblas", gm, player, observer, stranger)
    patient = make_character(campaign, player, name="Lucía")
    healer = make_character(
        campaign, None, name="Doctora Ruiz", user=gm, ratings={"inteligencia": 3, "medicina": 3}
    )
    _hurt(patient, gm, *(DamageInput(1, "L") for _ in range(3)))
    return users, patient, healer


def _hitos(gm, player, observer, stranger):
    campaign, users = _table("hitos", gm, player, observer, stranger)
    patient = make_character(
        campaign, player, name="Marcos", ratings={"fortaleza": 4, "voluntad": 2}
    )
    healer = make_character(
        campaign, None, name="Doctor Vidal", user=gm, ratings={"intelecto": 5, "profesion": 5}
    )
    _hurt(patient, gm, DamageInput(3), DamageInput(3))  # Herido, under Aguante 5
    return users, patient, healer


def _ndp(gm, player, observer, stranger):
    campaign, users = _table("ndp", gm, player, observer, stranger)
    patient = make_character(campaign, player, name="Aldo")
    healer = make_character(campaign, None, name="Sanadora", user=gm, ratings={"auxiliar": 5})
    arm = DamageInput(8, "cortante", rd=4, part="brazo_izquierdo")
    _hurt(patient, gm, arm, arm)  # a bleeding arm
    return users, patient, healer


CASES = [
    # (set-up, URL name, method, data given the healer and the last event, who may)
    (_tinieblas, "health", "get", lambda healer, event: {}, VIEW_FULL),
    (_tinieblas, "health_history", "get", lambda healer, event: {}, VIEW_FULL),
    (
        _tinieblas,
        "health_damage",
        "post",
        lambda healer, event: {"damage-amount": 1, "damage-damage_type": "B"},
        HEAL,
    ),
    (_tinieblas, "health_time", "post", lambda healer, event: {"time-preset": 8}, GM),
    (_tinieblas, "health_undo", "post", lambda healer, event: {"event": event.pk}, GM),
    (
        _tinieblas,
        "health_first_aid",
        "post",
        lambda healer, event: {"first_aid-healer": healer.pk, "first_aid-proper_kit": "on"},
        HEAL,
    ),
    (
        _hitos,
        "health_damage",
        "post",
        lambda healer, event: {"damage-amount": 1, "damage-rd": 0},
        HEAL,
    ),
    (
        _hitos,
        "health_supervision",
        "post",
        lambda healer, event: {
            "supervision-healer": healer.pk,
            "supervision-characteristic": "intelecto",
            "supervision-skill": "profesion",
        },
        HEAL,
    ),
    (_hitos, "health_drug", "post", lambda healer, event: {"drug-drug": "fuerte"}, HEAL),
    (
        _ndp,
        "health_auxiliar",
        "post",
        lambda healer, event: {"auxiliar-healer": healer.pk, "auxiliar-adversity": 9},
        HEAL,
    ),
    (_ndp, "health_bleed", "post", lambda healer, event: {}, GM),
    (_ndp, "health_unconscious", "post", lambda healer, event: {"unconscious": "1"}, GM),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("setup", "name", "method", "data", "allowed"),
    CASES,
    ids=[f"{setup.__name__.strip('_')}-{name}" for setup, name, *_ in CASES],
)
def test_each_health_url_answers_each_role_as_its_permission_says(
    client, gm, player, observer, stranger, setup, name, method, data, allowed, role
):
    users, patient, healer = setup(gm, player, observer, stranger)
    last = HealthEvent.objects.filter(character=patient).order_by("-pk").first()
    events, rolls = HealthEvent.objects.count(), Roll.objects.count()
    _as(client, users, role, patient)
    address = reverse(f"mechanics:{name}", args=[patient.campaign_id, patient.pk])
    response = getattr(client, method)(address, data(healer, last), **HTMX)
    if role in allowed:
        assert response.status_code == 200
        if method == "post":
            assert HealthEvent.objects.count() == events + 1
    else:
        assert response.status_code == (404 if role == "stranger" else 403)
        assert (HealthEvent.objects.count(), Roll.objects.count()) == (events, rolls)


@pytest.mark.parametrize(
    ("setup", "name", "data"),
    [(setup, name, data) for setup, name, method, data, allowed in CASES if allowed == HEAL],
    ids=[f"{s.__name__.strip('_')}-{n}" for s, n, _m, _d, a in CASES if a == HEAL],
)
def test_without_the_campaign_setting_the_owner_may_not_hurt_or_treat(
    client, gm, player, observer, stranger, setup, name, data
):
    _users, patient, healer = setup(gm, player, observer, stranger)
    Campaign.objects.filter(pk=patient.campaign_id).update(owner_applies_damage=False)
    events = HealthEvent.objects.count()
    client.force_login(player)
    address = reverse(f"mechanics:{name}", args=[patient.campaign_id, patient.pk])
    assert client.post(address, data(healer, None), **HTMX).status_code == 403
    assert HealthEvent.objects.count() == events


def test_other_players_read_the_health_when_the_campaign_shares_full_sheets(
    client, gm, player, observer, stranger
):
    users, patient, _healer = _tinieblas(gm, player, observer, stranger)
    Campaign.objects.filter(pk=patient.campaign_id).update(players_see_full_sheets=True)
    client.force_login(users["other_player"])
    for name in ("health", "health_history"):
        address = reverse(f"mechanics:{name}", args=[patient.campaign_id, patient.pk])
        assert client.get(address, **HTMX).status_code == 200
    # Sharing sheets is for players: observers still read nothing.
    client.force_login(observer)
    assert client.get(address, **HTMX).status_code == 403


@pytest.mark.parametrize("role", ["gm", "owner", "former_owner"])
def test_only_the_gm_is_offered_the_undo_button_on_the_sheet_and_the_history(
    client, gm, player, observer, stranger, role
):
    users, patient, _healer = _tinieblas(gm, player, observer, stranger)
    _as(client, users, role, patient)
    undo = reverse("mechanics:health_undo", args=[patient.campaign_id, patient.pk])
    for name in ("sheet", "health_history"):
        address = reverse(
            ("characters:" if name == "sheet" else "mechanics:") + name,
            args=[patient.campaign_id, patient.pk],
        )
        forms = parse(client.get(address).text).find_all("form", action=undo)
        assert len(forms) == (1 if role == "gm" else 0), name
