"""The scene's group review shows one kind alone (`?kind=diary`): a diary written after a
long evening of rolls is one tap away, not buried pages down."""

import random

import pytest
from django.urls import reverse

from campaigns import services
from characters import services as character_services
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(campaign, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="La cripta", participants=[lucia])
    # More rolls than a page holds, then the diary.
    for seed in range(55):
        roll_store(
            campaign=campaign,
            user=player,
            record=roll_dice(3, rng=random.Random(seed)),
            character=lucia,
            scene=scene,
        )
    character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body="Bajamos a la cripta y nadie volvió igual.",
        status="published",
        visibility="group",
    )
    return scene, lucia


def _review(client, scene, **query):
    url = reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    response = client.get(url, query)
    assert response.status_code == 200
    return parse(response.content).one("section", id="group-review")


def _kinds(review) -> list[str]:
    return [
        item.attrs["class"].split("scene-timeline-")[-1]
        for item in review.find_all("li", class_="scene-timeline-item")
    ]


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_diaries_tab_shows_the_diary_alone_with_its_count(client, request, evening, who):
    scene, _lucia = evening
    client.force_login(request.getfixturevalue(who))
    everything = _review(client, scene)
    assert "diary" not in _kinds(everything)  # on the first page: the evening's rolls
    tab = everything.one("nav", aria_label="Mostrar en la revisión del grupo")
    assert "Diario (1)" in tab.text()
    diaries = _review(client, scene, kind="diary")
    assert _kinds(diaries) == ["diary"]
    assert "nadie volvió igual" in diaries.text()
    assert diaries.one("a", aria_current="page").text() == "Diario (1)"


def test_the_rolls_tab_shows_rolls_only_and_pages_them(client, gm, evening):
    scene, _lucia = evening
    client.force_login(gm)
    rolls = _review(client, scene, kind="roll")
    assert set(_kinds(rolls)) == {"roll"}
    assert rolls.find_all("a", rel="next")


def test_an_unknown_kind_shows_nothing_and_says_so(client, gm, evening):
    scene, _lucia = evening
    client.force_login(gm)
    review = _review(client, scene, kind="zzz")
    assert _kinds(review) == []
    assert "Aún no hay nada de este tipo en esta escena." in review.text()


def test_a_new_diary_shows_at_once_in_the_diaries_tab(client, gm, campaign, evening):
    scene, _lucia = evening
    client.force_login(gm)
    assert len(_kinds(_review(client, scene, kind="diary"))) == 1
    mateo = make_character(campaign, gm, name="Mateo")
    scene.participants.add(mateo)
    character_services.diary_save(
        scene=scene, character=mateo, user=gm, body="Yo también.", status="published",
        visibility="group",
    )  # fmt: skip
    assert len(_kinds(_review(client, scene, kind="diary"))) == 2


def test_a_stranger_sees_no_tab(client, stranger, evening):
    scene, _lucia = evening
    client.force_login(stranger)
    url = reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    assert client.get(url, {"kind": "diary"}).status_code == 404
