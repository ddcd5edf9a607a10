"""Play sessions (RULES 6): the GM ends a session with one action, and Hitos scene- and
session-long temporary aspects and exhausted aspects run out with their scene or session."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import PlaySession
from characters.models import Aspect
from characters.services.sheet import aspect_add, aspect_set_exhausted
from tests.factories import campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def hitos(gm, player, observer):
    return campaign_with("hitos", gm, players=[player], observers=[observer])


@pytest.fixture
def marcos(hitos, player, gm):
    marcos = make_character(hitos, player, name="Marcos")
    aspect_add(character=marcos, user=gm, kind="temporal", text="Cegado", duration="scene")
    aspect_add(character=marcos, user=gm, kind="temporal", text="Inspirado", duration="session")
    hito = aspect_add(character=marcos, user=gm, kind="hito", text="Veterano de Ifni")
    aspect_set_exhausted(aspect=hito, user=gm, exhausted=True)
    return marcos


def aspects(character) -> dict[str, bool]:
    return dict(Aspect.objects.filter(character=character).values_list("text", "exhausted"))


def end_session(client, campaign, **extra):
    return client.post(reverse("campaigns:session_end", args=[campaign.pk]), extra)


def test_the_gm_ends_a_session_and_what_lasted_it_runs_out(client, gm, hitos, marcos):
    client.force_login(gm)
    response = end_session(client, hitos, confirmed="1")
    assert response.status_code == 302
    assert aspects(marcos) == {"Veterano de Ifni": False}
    session = PlaySession.objects.get(campaign=hitos)
    assert session.number == 1
    assert "Marcos puede volver a usar «Veterano de Ifni»." in session.notes
    page = parse(client.get(response.url).text)
    message = page.one("div", class_="messages").text()
    assert "Sesión 1 terminada." in message
    assert "Marcos pierde el aspecto temporal «Inspirado»." in message
    end_session(client, hitos, confirmed="1")
    assert list(PlaySession.objects.values_list("number", flat=True)) == [1, 2]


def test_ending_a_session_asks_first_and_changes_nothing_until_confirmed(client, gm, hitos, marcos):
    client.force_login(gm)
    response = end_session(client, hitos)
    assert response.status_code == 200
    question = parse(response.text).one("h1", id="confirm-question").text()
    assert question == "¿Terminar la sesión de juego? Lo que dura una sesión se acaba ahora."
    assert not PlaySession.objects.exists()
    assert len(aspects(marcos)) == 3


@pytest.mark.parametrize("who", ["player", "observer"])
def test_only_the_gm_ends_a_session(client, hitos, marcos, who, request):
    client.force_login(request.getfixturevalue(who))
    assert end_session(client, hitos, confirmed="1").status_code == 403
    assert not PlaySession.objects.exists()
    assert len(aspects(marcos)) == 3
    page = parse(client.get(reverse("campaigns:detail", args=[hitos.pk])).text)
    assert not page.find_all("form", id="session-end")


def test_a_stranger_finds_no_campaign(client, stranger, hitos, marcos):
    client.force_login(stranger)
    assert end_session(client, hitos, confirmed="1").status_code == 404
    assert not PlaySession.objects.exists()


def test_closing_a_scene_ends_the_scene_long_aspects_of_its_characters(gm, hitos, marcos):
    scene = services.scene_create(campaign=hitos, title="El zoco", participants=[marcos])
    services.scene_close(scene=scene, user=gm)
    assert aspects(marcos) == {"Inspirado": False, "Veterano de Ifni": True}


def test_a_tinieblas_session_ends_with_nothing_to_expire(client, gm, campaign):
    client.force_login(gm)
    end_session(client, campaign, confirmed="1")
    assert PlaySession.objects.get(campaign=campaign).notes == []
