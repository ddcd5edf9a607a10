"""3d6 + NdP summoning's leash (seed: "Distancia máxima al Ancla: 50m (daño leve/turno si
excede)"): the owner or the GM says how far a bound creature is from its anchor, and each
new round of a fight wounds (leve) every creature of a fighter beyond 50 m
(docs/rules.md#ndp-summon-leash)."""

import pytest
from django.urls import reverse

from campaigns import services
from characters.models import Character
from mechanics.models import Combat
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def coven(gm, player, dora, observer):
    campaign = campaign_with("ndp", gm, players=[player, dora], observers=[observer])
    maga = make_character(campaign, player, name="Maga", ratings={"voluntad": 2})
    maga.details = {
        "creatures": [
            {"id": "abc", "name": "Sombra", "school": "Etereología", "voluntad": 1},
            {"id": "def", "name": "Chispa", "school": "Elementología", "voluntad": 1},
        ]
    }
    maga.save()
    knight = make_character(campaign, None, user=gm, name="Caballero")
    return maga, knight


def distance_url(character, creature="abc"):
    return reverse("ndp:creature_distance", args=[character.campaign_id, character.pk, creature])


def creature(character, creature_id="abc"):
    creatures = Character.objects.get(pk=character.pk).details["creatures"]
    return next(c for c in creatures if c["id"] == creature_id)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_gm_or_the_owner_says_how_far_a_creature_is_from_its_anchor(
    client, request, coven, who
):
    maga, _knight = coven
    client.force_login(request.getfixturevalue(who))
    response = client.post(distance_url(maga), {"distance": "60"}, **HTMX)
    assert "Sombra está a 60 m de su ancla." in response.text
    assert "a 60 m de su ancla" in response.text
    assert creature(maga)["distance"] == 60
    assert "distance" not in creature(maga, "def")


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("observer", 403), ("stranger", 404)])
def test_others_cannot_move_the_creature_and_nothing_is_written(
    client, request, coven, who, status
):
    maga, _knight = coven
    client.force_login(request.getfixturevalue(who))
    assert client.post(distance_url(maga), {"distance": "60"}).status_code == status
    assert "distance" not in creature(maga)


@pytest.mark.parametrize(
    ("data", "creature_id", "message"),
    [
        ({"distance": "-1"}, "abc", "mayor o igual a 0"),
        ({"distance": "lejos"}, "abc", "número entero"),
        ({"distance": "10"}, "zzz", "Esa criatura no está vinculada a Maga."),
    ],
)
def test_a_bad_distance_or_creature_is_refused_with_the_reason(
    client, gm, coven, data, creature_id, message
):
    maga, _knight = coven
    client.force_login(gm)
    response = client.post(distance_url(maga, creature_id), data, **HTMX)
    assert message in response.text
    assert "distance" not in creature(maga)


def test_each_new_round_wounds_a_creature_beyond_50_m_only(client, gm, coven):
    maga, knight = coven
    client.force_login(gm)
    client.post(distance_url(maga), {"distance": "60"})
    client.post(distance_url(maga, "def"), {"distance": "50"})
    scene = services.scene_create(campaign=maga.campaign, title="Bosque", participants=[maga])
    scene.participants.add(knight)
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    combat.refresh_from_db()
    for _turn in range(2):
        moved = combat_services.combat_next_turn(combat=combat, user=gm)
        combat = Combat.objects.get(pk=combat.pk)
    assert moved.round == 2
    assert "Sombra, vinculada a Maga (más allá de su ancla)" in " ".join(moved.bled)
    assert creature(maga)["leve_wounds"] == 1
    assert "leve_wounds" not in creature(maga, "def")
    page = client.get(reverse("characters:sheet", args=[maga.campaign_id, maga.pk])).text
    assert "1 herida leve" in page
