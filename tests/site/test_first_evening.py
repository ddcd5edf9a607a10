"""Friction a first evening found (issue 14) that had no test yet: each test names the item."""

from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns import services as campaign_services
from campaigns.models import Scene
from characters.models import XpEntry
from mechanics.health_panel import condition_word
from mechanics.rules.tinieblas.advancement import award_total
from tests.characters.test_health_views import damage, table
from tests.characters.test_sheet_views import ndp_sheet
from tests.characters.test_xp_views import CHUPI, award_url, rubric_post
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url
from tests.mechanics.test_roll_panel import LUCIA, POOL

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=LUCIA)


@pytest.mark.parametrize(("modifier", "summary"), [("-5", "1 dado"), ("-4", "2 dados")])
def test_the_roll_panel_counts_one_die_in_the_singular(client, player, lucia, modifier, summary):
    client.force_login(player)
    data = {**POOL, "modifier_1": modifier, "part": "odds"}
    response = client.get(roll_url(lucia), data, HTTP_HX_REQUEST="true")
    assert parse(response.text).one("p", class_="roll-summary").text() == summary


# Awarding XP can close the scene in the same step.


@pytest.fixture
def open_scene(campaign, lucia):
    return campaign_services.scene_create(
        campaign=campaign, title="La noche del incendio", participants=[lucia]
    )


def test_awarding_xp_can_close_the_scene_in_the_same_step(client, gm, open_scene, lucia):
    client.force_login(gm)
    page = parse(client.get(award_url(open_scene)).content)
    assert page.one("input", name="close_scene").attrs["type"] == "checkbox"
    data = {**rubric_post((lucia, CHUPI)), "close_scene": "1"}
    response = client.post(award_url(open_scene), data)
    assert response.status_code == 302
    assert response["Location"] == open_scene.get_absolute_url()
    open_scene.refresh_from_db()
    assert open_scene.status == Scene.Status.CLOSED
    assert XpEntry.objects.get(character=lucia).amount == award_total(CHUPI)


def test_awarding_xp_without_the_box_leaves_the_scene_open(client, gm, open_scene, lucia):
    client.force_login(gm)
    client.post(award_url(open_scene), rubric_post((lucia, CHUPI)))
    open_scene.refresh_from_db()
    assert open_scene.status == Scene.Status.OPEN


def test_an_award_that_fails_does_not_close_the_scene(client, gm, open_scene, lucia):
    client.force_login(gm)
    data = {**rubric_post((lucia, CHUPI)), f"c{lucia.pk}-interpretacion": "99", "close_scene": "1"}
    client.post(award_url(open_scene), data)
    open_scene.refresh_from_db()
    assert open_scene.status == Scene.Status.OPEN
    assert not XpEntry.objects.filter(character=lucia).exists()


def test_a_player_cannot_close_a_scene_through_the_award_form(client, player, open_scene, lucia):
    client.force_login(player)
    data = {**rubric_post((lucia, CHUPI)), "close_scene": "1"}
    assert client.post(award_url(open_scene), data).status_code == 403
    open_scene.refresh_from_db()
    assert open_scene.status == Scene.Status.OPEN


# The sheet's XP card links to buying with XP.


def test_the_xp_card_links_the_owner_and_the_gm_to_buying_with_xp(client, gm, player, lucia):
    xp_page = reverse("characters:xp", args=[lucia.campaign_id, lucia.pk])
    for user in (player, gm):
        client.force_login(user)
        link = parse(client.get(lucia.get_absolute_url()).content).one("a", id="sheet-xp-link")
        assert (link.attrs["href"], link.text()) == (xp_page, "Comprar con PX")
        assert client.get(xp_page).status_code == 200


def test_another_player_who_sees_full_sheets_is_linked_to_the_ledger_only(client, campaign, lucia):
    campaign.players_see_full_sheets = True
    campaign.save()
    dora = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=dora, role="player")
    client.force_login(dora)
    link = parse(client.get(lucia.get_absolute_url()).content).one("a", id="sheet-xp-link")
    assert link.text() == "Registro de PX"


@pytest.mark.parametrize("system", ["objetivo", "ndp"])
def test_a_system_with_nothing_to_buy_links_its_sheets_to_the_ledger(client, system):
    """Neither system buys with XP (docs/rules.md): no "Buy with XP" leading nowhere."""
    gm, player = UserFactory(username="gm"), UserFactory(username="ana")
    campaign = CampaignFactory(system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Carmen")
    for user in (player, gm):
        client.force_login(user)
        page = parse(client.get(character.get_absolute_url()).content)
        assert page.one("a", id="sheet-xp-link").text() == "Registro de PX"
    client.force_login(UserFactory(username="nadie"))
    assert client.get(character.get_absolute_url()).status_code == 404


def test_who_does_not_see_the_full_sheet_gets_no_xp_link(client, observer, lucia):
    client.force_login(observer)
    assert not parse(client.get(lucia.get_absolute_url()).content).find_all(id="sheet-xp-link")


# No duplicated state words ("Muerte muerto", "Inconsciente inconsciente").


@pytest.mark.parametrize(
    ("condition", "label", "word"),
    [
        ({"dead": True}, "Muerte", ""),
        ({"dead": True}, "Muerto", ""),
        ({"unconscious": True}, "Inconsciente", ""),
        ({"dead": True}, "Malherido", "muerto"),
        ({"unconscious": True}, "Herido", "inconsciente"),
        ({}, "Herido", ""),
    ],
)
def test_the_condition_badge_is_left_out_when_the_state_already_names_it(condition, label, word):
    health = SimpleNamespace(**{"dead": False, "unconscious": False, **condition})
    with translation.override("es"):
        assert condition_word(health, label) == word


def test_an_unconscious_objetivo_sheet_says_inconsciente_once(client, gm, player):
    campaign = table("objetivo", gm, player)
    hero = make_character(campaign, player, name="Fred", ratings={"resistencia": 8})
    client.force_login(gm)
    response = damage(client, hero, amount=16)  # 16 PV lost: 0 left, Inconsciente
    summary = parse(response.text).one("p", class_="health-summary").text()
    assert summary.casefold().count("inconsciente") == 1, summary


# The creation form draws the free attribute dot.


def test_the_creation_form_draws_each_attributes_free_dot_from_the_start(client, campaign, player):
    client.force_login(player)
    page = parse(client.get(reverse("characters:create", args=[campaign.pk])).content)
    strength = page.one("div", class_="dot-row", aria_labelledby="attr_fuerza-label")
    radios = strength.find_all("input", type="radio")
    assert [r.attrs["value"] for r in radios if "checked" in r.attrs] == ["1"]
    free = strength.one("label", class_="dot-free")
    assert free.attrs["title"] == "Punto gratuito"
    assert free.one("input").attrs["value"] == "1"
    # Skills have no free dot: "no dots" is what is chosen.
    academics = page.one("div", class_="dot-row", aria_labelledby="skill_academicismo-label")
    assert [r.attrs["value"] for r in academics.find_all("input") if "checked" in r.attrs] == ["0"]
    assert not academics.find_all(class_="dot-free")


# The layout follows play: an NdP sheet can hide its untrained skills.


def test_an_ndp_sheet_offers_to_fold_its_untrained_skills(client, gm, player):
    irene = ndp_sheet(gm, player)
    client.force_login(player)
    page = parse(client.get(irene.get_absolute_url()).content)
    switch = page.one("input", id="fold-untrained")
    assert "checked" in switch.attrs
    assert page.one("label", for_="fold-untrained").text() == "Ocultar habilidades sin entrenar"
    assert "data-untrained" not in page.one(id="trait-combate_c_a_c").attrs
    assert "data-untrained" in page.one(id="trait-sigilo").attrs
    # Characteristics are never folded, whatever their rating.
    assert not any("data-untrained" in row.attrs for row in page.find_all(id="trait-fortitud"))
    untrained = [
        row for row in page.find_all("div", class_="trait-row") if "data-untrained" in row.attrs
    ]
    assert len(untrained) > 40


def test_a_tinieblas_sheet_has_no_fold_switch(client, gm, player, lucia):
    client.force_login(player)
    page = parse(client.get(lucia.get_absolute_url()).content)
    assert not page.find_all(id="fold-untrained")
    assert not any("data-untrained" in row.attrs for row in page.find_all(class_="trait-row"))
