"""Hitos situation aspects and narrative facts (RULES 2 and 6; docs/rules.md
#hitos-situation-aspects, #hitos-narrative-facts) through the views: the GM writes a scene's
situation aspects, anyone activates them for a drama point that goes to no one, and a
character declares a fact by activating an aspect; the fact is logged in the scene."""

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters.models import Aspect, Resource
from mechanics.models import NarrativeFact, Roll, SituationAspect
from tests.factories import UserFactory, campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(gm, player, observer):
    """Bob plays Pepa, Rivera plays Rocco (with a complication); an open scene."""
    rivera = UserFactory(username="rivera")
    campaign = campaign_with("hitos", gm, players=[player, rivera], observers=[observer])
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})
    rocco = make_character(campaign, rivera, name="Rocco")
    hito = Aspect.objects.create(character=pepa, kind="hito", text="Hija del puerto")
    theirs = Aspect.objects.create(character=rocco, kind="complicacion", text="Confiado")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El muelle", participants=[pepa, rocco]
    )
    return {"campaign": campaign, "pepa": pepa, "rocco": rocco, "hito": hito,
            "theirs": theirs, "scene": scene, "rivera": rivera}  # fmt: skip


CHECK = {"kind": "check", "characteristic": "reflejos", "skill": "combate", "difficulty": "15"}


def url(name, scene, *extra):
    return reverse(f"hitos:{name}", args=[scene.campaign_id, scene.pk, *extra])


def drama(character) -> int:
    return Resource.objects.get(character=character, key="drama_points").current


def situation(scene, text="Niebla espesa"):
    return SituationAspect.objects.create(scene=scene, text=text)


def declare(client, user, character, scene, aspect, pay="drama_point", text="El barco zarpa."):
    client.force_login(user)
    data = {"character": character.pk, "fact-aspect": aspect, "fact-pay": pay, "fact-text": text}
    return client.post(url("fact_declare", scene), data)


# --- Situation aspects --------------------------------------------------------------------


def test_the_gm_adds_a_situation_aspect_and_everyone_sees_it(client, gm, observer, table):
    scene = table["scene"]
    client.force_login(gm)
    response = client.post(url("situation_add", scene), {"situation-text": "Niebla espesa"})
    assert response.status_code == 302
    assert list(SituationAspect.objects.values_list("text", flat=True)) == ["Niebla espesa"]
    client.force_login(observer)
    page = parse(client.get(url("scene", scene)).text)
    assert page.one(id="situation-aspects").find_all("li", class_="situation-aspect")
    assert not page.find_all("form", id="situation-add")
    assert not page.find_all("form", id="fact-form")
    link = parse(client.get(scene.get_absolute_url()).text).find_all("a", href=url("scene", scene))
    assert link


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_adds_or_ends_situation_aspects(client, table, who, status, request):
    scene = table["scene"]
    aspect = situation(scene)
    client.force_login(request.getfixturevalue(who))
    added = client.post(url("situation_add", scene), {"situation-text": "Lluvia"})
    ended = client.post(url("situation_end", scene, aspect.pk))
    assert (added.status_code, ended.status_code) == (status, status)
    assert list(SituationAspect.objects.values_list("text", "ended_at")) == [
        ("Niebla espesa", None)
    ]


def test_the_gm_ends_a_situation_aspect_and_is_told_so(client, gm, table):
    scene = table["scene"]
    aspect = situation(scene)
    client.force_login(gm)
    response = client.post(url("situation_end", scene, aspect.pk), follow=True)
    assert response.status_code == 200
    assert "El aspecto de situación «Niebla espesa» termina." in response.text
    assert SituationAspect.objects.get(pk=aspect.pk).ended_at is not None


def test_a_situation_aspect_ends_with_its_scene_and_a_closed_scene_takes_no_new_one(
    client, gm, player, table
):
    scene, pepa = table["scene"], table["pepa"]
    aspect = situation(scene)
    campaign_services.scene_close(scene=scene, user=gm)
    assert SituationAspect.objects.get(pk=aspect.pk).ended_at is not None
    client.force_login(player)
    panel = parse(client.get(reverse("mechanics:roll", args=[pepa.campaign_id, pepa.pk])).text)
    values = [o.attrs.get("value") for o in panel.one("select", name="aspect").find_all("option")]
    assert f"situation:{aspect.pk}" not in values
    client.force_login(gm)
    response = client.post(url("situation_add", scene), {"situation-text": "Lluvia"})
    assert response.status_code == 422
    assert "Esa escena está cerrada" in response.text
    assert SituationAspect.objects.count() == 1


def test_a_situation_aspect_in_the_roll_panel_costs_a_drama_point_that_goes_to_no_one(
    client, player, table, fixed_dice
):
    pepa, rocco, scene = table["pepa"], table["rocco"], table["scene"]
    aspect = situation(scene)
    mine, theirs = drama(pepa), drama(rocco)
    client.force_login(player)
    address = reverse("mechanics:roll", args=[pepa.campaign_id, pepa.pk])
    panel = parse(client.get(address).text)
    offered = {
        o.attrs["value"]: o.text() for o in panel.one("select", name="aspect").find_all("option")
    }
    assert offered[f"situation:{aspect.pk}"] == "El muelle: Niebla espesa"
    fixed_dice(3, 6, 7)
    data = {**CHECK, "aspect": f"situation:{aspect.pk}", "pay": "drama_point"}
    client.post(address, data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "M"
    assert "aspect_owner" not in roll.record["details"]
    assert (drama(pepa), drama(rocco)) == (mine - 1, theirs)


def test_a_situation_aspect_cannot_be_paid_by_exhausting_it(client, player, table):
    pepa, scene = table["pepa"], table["scene"]
    aspect = situation(scene)
    mine = drama(pepa)
    client.force_login(player)
    address = reverse("mechanics:roll", args=[pepa.campaign_id, pepa.pk])
    data = {**CHECK, "aspect": f"situation:{aspect.pk}", "pay": "exhaust"}
    response = client.post(address, data)
    assert "Solo puedes agotar tus propios aspectos" in response.text
    assert not Roll.objects.exists()
    assert drama(pepa) == mine


# --- Narrative facts ----------------------------------------------------------------------


def test_a_player_declares_a_fact_with_their_own_aspect_and_pays_a_drama_point(
    client, player, observer, table
):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    mine = drama(pepa)
    response = declare(client, player, pepa, scene, str(hito.pk))
    assert response.status_code == 302
    fact = NarrativeFact.objects.get()
    assert (fact.character, fact.text, fact.aspect, fact.paid) == (
        pepa, "El barco zarpa.", "Hija del puerto", "drama_point"
    )  # fmt: skip
    assert drama(pepa) == mine - 1
    # Listed on the scene's Hitos page, and logged in the scene: its timeline shows it to
    # every member.
    client.force_login(observer)
    listed = parse(client.get(url("scene", scene)).text).one(id="narrative-facts")
    assert listed.one("p", class_="fact-text").text() == "El barco zarpa."
    timeline = parse(client.get(scene.get_absolute_url()).text)
    item = timeline.one("article", id=f"fact-{fact.pk}")
    assert "El barco zarpa." in item.text()
    assert "Hecho narrativo de Pepa" in item.text()


def test_a_fact_paid_by_exhausting_ones_own_aspect_spends_no_drama_point(client, player, table):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    mine = drama(pepa)
    declare(client, player, pepa, scene, str(hito.pk), pay="exhaust")
    assert Aspect.objects.get(pk=hito.pk).exhausted
    assert drama(pepa) == mine
    assert NarrativeFact.objects.get().paid == "exhaust"


def test_a_fact_on_a_rivals_aspect_hands_the_rival_the_drama_point(client, player, table):
    pepa, rocco, scene, theirs = table["pepa"], table["rocco"], table["scene"], table["theirs"]
    before = (drama(pepa), drama(rocco))
    declare(client, player, pepa, scene, f"other:{theirs.pk}")
    assert (drama(pepa), drama(rocco)) == (before[0] - 1, before[1] + 1)
    assert NarrativeFact.objects.get().drama_point_to == rocco


def test_a_fact_on_a_situation_aspect_hands_the_point_to_no_one(client, player, table):
    pepa, rocco, scene = table["pepa"], table["rocco"], table["scene"]
    aspect = situation(scene)
    before = (drama(pepa), drama(rocco))
    declare(client, player, pepa, scene, f"situation:{aspect.pk}")
    assert (drama(pepa), drama(rocco)) == (before[0] - 1, before[1])
    fact = NarrativeFact.objects.get()
    assert (fact.aspect_type, fact.drama_point_to) == ("de_situacion", None)


def test_without_a_drama_point_a_fact_is_refused_with_a_message_and_nothing_is_written(
    client, player, table
):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    Resource.objects.filter(character=pepa, key="drama_points").update(current=0)
    response = declare(client, player, pepa, scene, str(hito.pk))
    assert response.status_code == 422
    assert "no te quedan puntos dramáticos" in response.text
    assert not NarrativeFact.objects.exists()
    assert drama(pepa) == 0
    assert not Aspect.objects.get(pk=hito.pk).exhausted


@pytest.mark.parametrize(
    ("aspect", "pay"),
    [("other", "exhaust"), ("elsewhere", "drama_point"), ("999999", "drama_point")],
)
def test_forged_fact_choices_are_refused_and_nothing_is_written(
    client, gm, player, table, aspect, pay
):
    pepa, rocco, scene = table["pepa"], table["rocco"], table["scene"]
    values = {"other": f"other:{table['theirs'].pk}"}
    if aspect == "elsewhere":
        other_scene = campaign_services.scene_create(campaign=table["campaign"], title="Otra")
        closed = situation(other_scene)
        campaign_services.scene_close(scene=other_scene, user=gm)
        values["elsewhere"] = f"situation:{closed.pk}"
    before = (drama(pepa), drama(rocco))
    response = declare(client, player, pepa, scene, values.get(aspect, aspect), pay=pay)
    assert response.status_code == 422
    assert not NarrativeFact.objects.exists()
    assert (drama(pepa), drama(rocco)) == before


def test_a_player_cannot_declare_a_fact_for_another_players_character(client, player, table):
    rocco, scene, theirs = table["rocco"], table["scene"], table["theirs"]
    before = drama(rocco)
    response = declare(client, player, rocco, scene, str(theirs.pk))
    assert response.status_code == 403
    assert not NarrativeFact.objects.exists()
    assert drama(rocco) == before


def test_an_observer_declares_nothing_and_a_stranger_finds_nothing(
    client, observer, stranger, table
):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    assert declare(client, observer, pepa, scene, str(hito.pk)).status_code == 403
    assert declare(client, stranger, pepa, scene, str(hito.pk)).status_code == 404
    client.force_login(stranger)
    assert client.get(url("scene", scene)).status_code == 404
    assert not NarrativeFact.objects.exists()


def test_the_gm_declares_for_any_character_they_choose(client, gm, table):
    rocco, scene, theirs = table["rocco"], table["scene"], table["theirs"]
    client.force_login(gm)
    page = parse(client.get(url("scene", scene), {"character": rocco.pk}).text)
    assert page.one("input", name="character").attrs["value"] == str(rocco.pk)
    assert declare(client, gm, rocco, scene, str(theirs.pk), pay="exhaust").status_code == 302
    assert NarrativeFact.objects.get().character == rocco


def test_no_fact_is_declared_in_a_closed_scene(client, gm, player, table):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    campaign_services.scene_close(scene=scene, user=gm)
    mine = drama(pepa)
    response = declare(client, player, pepa, scene, str(hito.pk))
    assert response.status_code == 422
    assert "Esa escena está cerrada" in response.text
    assert not NarrativeFact.objects.exists()
    assert drama(pepa) == mine


def test_the_hitos_pages_do_not_exist_in_another_system(client, gm, campaign):
    scene = campaign_services.scene_create(campaign=campaign, title="Cripta")
    client.force_login(gm)
    assert client.get(url("scene", scene)).status_code == 404
    page = parse(client.get(scene.get_absolute_url()).text)
    assert not page.find_all("section", class_="scene-system-page")


NOT_HERE = ("Ese personaje no está en esta campaña.", "That character is not in this campaign.")


@pytest.mark.parametrize(
    ("character", "spanish", "english"),
    [
        ("", "Elige el personaje que declara", "Choose the character who declares the fact."),
        ("abc", *NOT_HERE),
        ("9" * 30, *NOT_HERE),
        ("elsewhere", *NOT_HERE),
    ],
)
def test_a_bad_declaring_character_is_a_message_in_spanish_and_english_and_nothing_is_written(
    client, player, stranger, table, character, spanish, english
):
    pepa, scene, hito = table["pepa"], table["scene"], table["hito"]
    if character == "elsewhere":
        character = make_character(campaign_with("hitos", stranger), stranger, name="Otra").pk
    before = drama(pepa)
    client.force_login(player)
    data = {"character": character, "fact-aspect": str(hito.pk), "fact-text": "El barco zarpa."}
    response = client.post(url("fact_declare", scene), data)
    assert response.status_code == 422
    assert spanish in parse(response.text).one("div", role="alert").text()
    client.cookies["django_language"] = "en"
    response = client.post(url("fact_declare", scene), data)
    assert response.status_code == 422
    assert english in parse(response.text).one("div", role="alert").text()
    assert not NarrativeFact.objects.exists()
    assert drama(pepa) == before
