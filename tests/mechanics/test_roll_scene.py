"""Which scene a roll goes to: the panel says it, the roller picks one of the open scenes
(by default the one the character is in), and the server refuses a closed scene or one of
another campaign, saying why."""

import pytest

from campaigns.models import Scene
from mechanics.models import Roll
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
POOL = {"kind": "pool", "attribute": "fuerza", "skill": "", "again": "10"}


@pytest.fixture
def pepa(campaign, player):
    return make_character(campaign, player, name="Pepa", ratings={"fuerza": 3})


@pytest.fixture
def scenes(campaign, pepa):
    """Two open scenes, Pepa in the older one, and a closed one."""
    tavern = Scene.objects.create(campaign=campaign, title="La taberna")
    pepa.scenes.add(tavern)
    harbour = Scene.objects.create(campaign=campaign, title="El puerto")
    closed = Scene.objects.create(campaign=campaign, title="El prólogo", status="closed")
    return tavern, harbour, closed


def scene_select(content):
    page = parse(content)
    select = next(s for s in page.find_all("select") if s.attrs.get("name") == "scene")
    options = {o.attrs["value"]: o.text() for o in select.find_all("option")}
    selected = [o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs]
    return options, selected


def test_the_panel_offers_the_open_scenes_with_the_characters_own_chosen(
    client, player, pepa, scenes
):
    tavern, harbour, _closed = scenes
    client.force_login(player)
    options, selected = scene_select(client.get(roll_url(pepa), **HTMX).content)
    assert options == {
        str(harbour.pk): "El puerto",
        str(tavern.pk): "La taberna",
        "none": "Sin escena: solo el registro de tiradas",
    }
    assert selected == [str(tavern.pk)]


def test_scenes_shared_with_others_are_offered_once_and_the_characters_newest_chosen(
    client, campaign, player, pepa, scenes
):
    """The open scenes come a row per participant (mechanics.selectors.roll_scenes): each
    is offered once, and the newest Pepa is in is chosen, not a newer one of others'."""
    tavern, harbour, _closed = scenes
    pepa.scenes.add(harbour)
    market = Scene.objects.create(campaign=campaign, title="El mercado")
    for name in ("Juan", "Lola"):
        make_character(campaign, player, name=name).scenes.add(tavern, harbour, market)
    client.force_login(player)
    page = parse(client.get(roll_url(pepa), **HTMX).content)
    select = next(s for s in page.find_all("select") if s.attrs.get("name") == "scene")
    options = select.find_all("option")
    expected = [str(market.pk), str(harbour.pk), str(tavern.pk), "none"]
    assert [o.attrs["value"] for o in options] == expected
    assert [o.attrs["value"] for o in options if "selected" in o.attrs] == [str(harbour.pk)]


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_roller_sends_the_roll_to_another_open_scene(client, request, who, pepa, scenes):
    _tavern, harbour, _closed = scenes
    client.force_login(request.getfixturevalue(who))
    response = client.post(roll_url(pepa), {**POOL, "scene": str(harbour.pk)}, **HTMX)
    assert response.status_code == 200
    assert Roll.objects.get().scene == harbour
    # The panel after the roll keeps the scene chosen.
    assert scene_select(response.content)[1] == [str(harbour.pk)]


def test_a_roll_without_a_scene_field_goes_to_the_characters_scene(client, player, pepa, scenes):
    tavern, _harbour, _closed = scenes
    client.force_login(player)
    assert client.post(roll_url(pepa), POOL).status_code == 302
    assert Roll.objects.get().scene == tavern


def test_the_roller_may_keep_a_roll_out_of_every_scene(client, player, pepa, scenes):
    client.force_login(player)
    client.post(roll_url(pepa), {**POOL, "scene": "none"})
    assert Roll.objects.get().scene is None


def test_a_closed_scene_is_refused_with_a_message(client, player, pepa, scenes):
    _tavern, _harbour, closed = scenes
    client.force_login(player)
    response = client.post(roll_url(pepa), {**POOL, "scene": str(closed.pk)}, **HTMX)
    assert response.status_code == 200
    assert "Esa escena está cerrada: elige una escena abierta." in response.text
    assert not Roll.objects.exists()


def test_the_odds_of_a_set_up_that_reads_no_scene_leave_it_to_the_panel_and_the_roll(
    client, player, pepa, scenes
):
    """A Tinieblas roll's odds never depend on its scene: the odds box alone reads no
    scene (`RollSetup.reads_scene`), while the panel and the roll refuse a closed one."""
    _tavern, _harbour, closed = scenes
    client.force_login(player)
    chosen = {**POOL, "scene": str(closed.pk)}
    odds = client.get(roll_url(pepa), {**chosen, "part": "odds"}, **HTMX).text
    assert "3 dados" in odds
    assert "cerrada" not in odds
    refused = "Esa escena está cerrada: elige una escena abierta."
    assert refused in client.get(roll_url(pepa), chosen, **HTMX).text
    assert refused in client.post(roll_url(pepa), chosen, **HTMX).text
    assert not Roll.objects.exists()


@pytest.mark.parametrize("scene", ["elsewhere", "999999", "99999999999999999999999", "x"])
def test_a_scene_of_another_campaign_or_none_at_all_is_refused(
    client, gm, player, pepa, scenes, scene
):
    if scene == "elsewhere":
        other = CampaignFactory(created_by=gm)
        MembershipFactory(campaign=other, user=player, role="player")
        scene = str(Scene.objects.create(campaign=other, title="Ajena").pk)
    client.force_login(player)
    response = client.post(roll_url(pepa), {**POOL, "scene": scene}, **HTMX)
    assert response.status_code == 200
    assert "Esa escena no es de esta campaña." in response.text
    assert not Roll.objects.exists()


def test_the_message_is_in_english_too(client, player, pepa, scenes):
    _tavern, _harbour, closed = scenes
    client.force_login(player)
    client.cookies["django_language"] = "en"
    response = client.post(roll_url(pepa), {**POOL, "scene": str(closed.pk)}, **HTMX)
    assert "That scene is closed: choose an open scene." in response.text


def test_without_open_scenes_the_panel_says_the_roll_goes_to_the_log(client, player, pepa):
    client.force_login(player)
    page = parse(client.get(roll_url(pepa), **HTMX).content)
    assert not [s for s in page.find_all("select") if s.attrs.get("name") == "scene"]
    assert "Ninguna escena abierta" in page.one(class_="roll-scene-choice").text()


def test_an_observer_and_a_stranger_cannot_roll_into_a_scene(
    client, observer, stranger, pepa, scenes
):
    tavern, _harbour, _closed = scenes
    client.force_login(observer)
    assert client.post(roll_url(pepa), {**POOL, "scene": str(tavern.pk)}).status_code == 403
    client.force_login(stranger)
    assert client.post(roll_url(pepa), {**POOL, "scene": str(tavern.pk)}).status_code == 404
    assert not Roll.objects.exists()
