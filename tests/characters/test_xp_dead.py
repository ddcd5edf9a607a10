"""The award panel offers no XP to the dead of the scene, player characters or NPCs, and
names them; a character given XP for the scene before it died keeps its row, to correct
it (docs/rules.md#shared-xp-dead)."""

import pytest

from campaigns import services as campaign_services
from characters.models import XpEntry
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.characters.test_xp_views import NORMAL, award_url, rubric_post
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

KILL = DamageInput(20, "L")


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def mateo(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return make_character(campaign, user, name="Mateo")


@pytest.fixture
def thug(campaign, gm):
    return make_character(campaign, None, user=gm, name="Matón", ratings={"resistencia": 2})


@pytest.fixture
def scene(campaign, lucia, mateo, thug):
    return campaign_services.scene_create(
        campaign=campaign, title="La pelea del bar", participants=[lucia, mateo, thug]
    )


def _rows(page) -> list[str]:
    return [h.text() for h in page.find_all("h2", id=True) if h.attrs["id"].startswith("award-")]


def test_the_dead_are_not_offered_and_the_panel_names_them(client, gm, scene, mateo, thug):
    for dead in (mateo, thug):
        character_apply_damage(character=dead, user=gm, damage=KILL, scene=scene)
    client.force_login(gm)
    page = parse(client.get(award_url(scene)).content.decode())
    assert [name.split(" ·")[0] for name in _rows(page)] == ["Lucía"]
    assert page.one(id="award-dead").text() == ("No se ofrece a quien ha muerto: Mateo, Matón.")
    assert page.find_all("input", name=f"c{mateo.pk}-include") == []


def test_a_forged_award_for_the_dead_gives_nothing(client, gm, scene, lucia, mateo):
    character_apply_damage(character=mateo, user=gm, damage=KILL, scene=scene)
    client.force_login(gm)
    response = client.post(award_url(scene), rubric_post((lucia, NORMAL), (mateo, NORMAL)))
    assert response.status_code == 302
    assert set(XpEntry.objects.values_list("character__name", flat=True)) == {"Lucía"}


def test_xp_given_before_the_death_keeps_its_row_to_correct_it(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    client.post(award_url(scene), rubric_post((lucia, NORMAL), (mateo, NORMAL)))
    character_apply_damage(character=mateo, user=gm, damage=KILL, scene=scene)
    page = parse(client.get(award_url(scene)).content.decode())
    assert [name.split(" ·")[0] for name in _rows(page)] == ["Lucía", "Mateo", "Matón"]
    assert page.find_all(id="award-dead") == []


def test_only_everyone_dead_says_so_and_not_that_nobody_takes_part(client, gm, scene, lucia):
    for character in scene.participants.all():
        character_apply_damage(character=character, user=gm, damage=KILL, scene=scene)
    client.force_login(gm)
    html = client.get(award_url(scene)).content.decode()
    assert "Nadie participa" not in html
    assert "No se ofrece a quien ha muerto" in html


def test_players_and_strangers_still_cannot_open_the_panel(client, player, stranger, scene):
    client.force_login(player)
    assert client.get(award_url(scene)).status_code == 403
    client.force_login(stranger)
    assert client.get(award_url(scene)).status_code == 404
