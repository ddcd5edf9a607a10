"""Hitos: the character's concept is its Concepto aspect (GameSystem.concept_aspect). Asked
once at creation (tests/characters/test_creation_views.py); afterwards, the concept edited
on the sheet moves the aspect, and the aspect added or removed by the GM moves the concept.
Other systems keep the concept as a text alone."""

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from characters.models import Aspect, SheetChange
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse


@pytest.fixture
def irene(gm, player):
    campaign = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return make_character(
        campaign,
        player,
        name="Irene",
        concept="Periodista sin miedo",
        aspects=[("concepto", "Periodista sin miedo"), ("cita", "«La verdad primero»")],
    )


def edit(client, character, concept: str):
    url = reverse("characters:edit", args=[character.campaign_id, character.pk])
    data = {
        "story-name": character.name,
        "story-concept": concept,
        "story-description": "",
        "story-notes": "",
    }
    return client.post(url, data)


def aspects(character) -> list[tuple[str, str]]:
    return list(character.aspects.values_list("kind", "text"))


@pytest.mark.parametrize("who", ["player", "gm"])
def test_the_concept_edited_on_the_sheet_is_the_concepto_aspects_new_text(
    client, irene, request, who
):
    user = request.getfixturevalue(who)
    client.force_login(user)
    assert edit(client, irene, "Periodista retirada").status_code == 302
    irene.refresh_from_db()
    assert irene.concept == "Periodista retirada"
    assert aspects(irene) == [("concepto", "Periodista retirada"), ("cita", "«La verdad primero»")]
    change = SheetChange.objects.get(character=irene, field="aspect:concepto")
    assert (change.user, change.old_value, change.new_value) == (
        user,
        "Periodista sin miedo",
        "Periodista retirada",
    )


def test_a_stranger_changes_neither(client, irene, stranger):
    client.force_login(stranger)
    assert edit(client, irene, "Otra cosa").status_code == 404
    irene.refresh_from_db()
    assert (irene.concept, aspects(irene)[0]) == (
        "Periodista sin miedo",
        ("concepto", "Periodista sin miedo"),
    )


def test_a_concept_emptied_takes_its_aspect_and_a_new_one_makes_it(client, irene, player):
    client.force_login(player)
    edit(client, irene, "")
    assert aspects(irene) == [("cita", "«La verdad primero»")]
    edit(client, irene, "Reportera de sucesos")
    assert ("concepto", "Reportera de sucesos") in aspects(irene)


def test_the_concepto_aspect_the_gm_adds_or_removes_is_the_concept(client, irene, gm):
    client.force_login(gm)
    concepto = Aspect.objects.get(character=irene, kind="concepto")
    remove = reverse("characters:aspect_remove", args=[irene.campaign_id, irene.pk, concepto.pk])
    assert client.post(remove, {CONFIRMED: "1"}).status_code == 302
    irene.refresh_from_db()
    assert irene.concept == ""
    add = reverse("characters:aspect_add", args=[irene.campaign_id, irene.pk])
    data = {"aspect-kind": "concepto", "aspect-text": "Cazadora de bulos", "aspect-duration": ""}
    assert client.post(add, data).status_code == 302
    irene.refresh_from_db()
    assert irene.concept == "Cazadora de bulos"
    # Another kind of aspect leaves the concept as it is.
    client.post(add, {**data, "aspect-kind": "libre", "aspect-text": "Testaruda"})
    irene.refresh_from_db()
    assert irene.concept == "Cazadora de bulos"


def test_the_edit_form_says_the_concept_is_the_concepto_aspect(client, irene, player):
    client.force_login(player)
    url = reverse("characters:edit", args=[irene.campaign_id, irene.pk])
    page = parse(client.get(url).text)
    assert "También es el aspecto Concepto" in page.one(id="id_story-concept_helptext").text()


def test_other_systems_keep_the_concept_as_a_text(client, gm, player):
    campaign = CampaignFactory(system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=player, role="player")
    lucia = make_character(campaign, player, name="Lucía", concept="Forense")
    client.force_login(player)
    assert edit(client, lucia, "Forense jubilada").status_code == 302
    assert not lucia.aspects.exists()
    url = reverse("characters:edit", args=[campaign.pk, lucia.pk])
    assert "aspecto Concepto" not in client.get(url).text


def test_an_aspect_on_two_lines_is_refused_and_the_concept_stays_one_line(client, irene, gm):
    """An aspect is one line (the sheet's input is): a forged one on two lines would make
    a concept the sheet's import refuses."""
    client.force_login(gm)
    irene.aspects.filter(kind="concepto").delete()
    add = reverse("characters:aspect_add", args=[irene.campaign_id, irene.pk])
    data = {"aspect-kind": "concepto", "aspect-text": "Dos\nlíneas", "aspect-duration": ""}
    response = client.post(add, data, follow=True)
    assert "Escríbelo en una sola línea" in response.text
    irene.refresh_from_db()
    assert irene.concept == "Periodista sin miedo"
    assert not irene.aspects.filter(kind="concepto").exists()
