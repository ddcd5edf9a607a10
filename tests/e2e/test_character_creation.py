"""A player builds a Mundo de Tinieblas character through the guided form."""

import re

import pytest
from playwright.sync_api import expect

from characters.models import Character
from mechanics.rules.tinieblas import catalogue
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MENTAL = catalogue.skills_in("mental")
PHYSICAL = catalogue.skills_in("physical")
SOCIAL = catalogue.skills_in("social")


def dots(page, name: str, value: int, maximum: int = 5) -> None:
    """Click a dot the way a user does: on its label ("Fuerza 3 de 5")."""
    page.locator("label.dot").filter(has=page.get_by_label(f"{name} {value} de {maximum}")).click()


@pytest.fixture
def tinieblas_campaign():
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Noches de Madrid", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def fill_valid_sheet(page) -> None:
    page.locator("#id_name").fill("Lucía Ferrer")
    page.get_by_label("Concepto").fill("Forense curiosa")
    # Attributes: mental 5, physical 4, social 3 over the free dots.
    for name, value in (
        ("Inteligencia", 3),
        ("Astucia", 3),
        ("Aplomo", 2),
        ("Fuerza", 2),
        ("Destreza", 3),
        ("Resistencia", 2),
        ("Presencia", 2),
        ("Manipulación", 2),
        ("Compostura", 2),
    ):
        dots(page, name, value)
    # Skills: mental 11 (the fifth dot costs 2), physical 7, social 4.
    for skill, value in (
        (MENTAL[0], 5),
        (MENTAL[1], 3),
        (MENTAL[2], 2),
        (PHYSICAL[0], 3),
        (PHYSICAL[1], 2),
        (PHYSICAL[2], 2),
        (SOCIAL[0], 2),
        (SOCIAL[1], 2),
    ):
        dots(page, skill.name, value)
    for index, (skill, text) in enumerate(
        ((MENTAL[0], "Autopsias"), (MENTAL[1], "Archivos"), (SOCIAL[0], "Interrogatorios")),
        start=1,
    ):
        page.get_by_label(f"Especialidad {index}: habilidad").select_option(skill.key)
        page.get_by_label(f"Especialidad {index}: nombre").fill(text)
    page.get_by_label("Mérito 1", exact=True).select_option("sentido_comun")
    dots(page, "Mérito 1: puntos", 4)
    page.get_by_label("Mérito 2", exact=True).select_option("custom")
    page.get_by_label("Mérito 2: nombre de otro mérito").fill("Contactos en la morgue")
    dots(page, "Mérito 2: puntos", 3)
    page.get_by_label(catalogue.VIRTUES[0].name, exact=True).check()
    page.get_by_label(catalogue.VICES[0].name, exact=True).check()


def test_player_creates_a_tinieblas_character_breaks_a_budget_fixes_it_and_lands_on_the_sheet(
    open_as, tinieblas_campaign, screenshot
):
    campaign = tinieblas_campaign
    page = open_as("jugadora", width=360, height=780)
    page.goto(campaign.get_absolute_url())
    page.get_by_role("link", name="Nuevo personaje").click()
    expect(page.get_by_role("heading", name="Nuevo personaje")).to_be_visible()
    screenshot(page, "empty-form-phone")

    # The points left follow the clicks without a page reload.
    page.evaluate("window.notReloaded = true")
    badge = page.locator("#left-attributes-mental")
    expect(badge).to_have_text("quedan 5")
    dots(page, "Inteligencia", 3)
    expect(badge).to_have_text("quedan 3")
    points_row = page.locator("#creation-points [data-budget=attributes-mental]")
    expect(points_row.locator("[data-left]")).to_have_text("3")
    dots(page, "Compostura", 4)
    expect(page.locator("#willpower-value")).to_contain_text("5")
    assert page.evaluate("window.notReloaded") is True

    fill_valid_sheet(page)
    # Break two budgets: one dot too many in mental attributes, one merit dot short.
    dots(page, "Astucia", 4)
    dots(page, "Mérito 2: puntos", 2)
    expect(page.locator("#left-attributes-mental")).to_have_text("1 de más")
    expect(page.locator("#left-merits")).to_have_text("queda 1")
    screenshot(page, "filled-form-phone")
    page.get_by_role("button", name="Crear personaje").click()

    problems = page.locator("#creation-problems")
    expect(problems).to_contain_text("Atributos Mentales: 6 de 5 puntos gastados")
    expect(problems).to_contain_text("Méritos: 6 de 7 puntos gastados")
    expect(problems.locator("li")).to_have_count(2)
    # Everything entered is still there.
    expect(page.locator("#id_name")).to_have_value("Lucía Ferrer")
    expect(page.get_by_label("Astucia 4 de 5")).to_be_checked()
    expect(page.get_by_label("Mérito 2: nombre de otro mérito")).to_have_value(
        "Contactos en la morgue"
    )
    expect(page.get_by_label(catalogue.VIRTUES[0].name, exact=True)).to_be_checked()
    screenshot(page, "problems-phone")
    assert not Character.objects.exists()

    dots(page, "Astucia", 3)
    dots(page, "Mérito 2: puntos", 3)
    expect(page.locator("#left-attributes-mental")).to_have_text("completo")
    page.get_by_role("button", name="Crear personaje").click()

    character = Character.objects.get()
    expect(page).to_have_url(re.compile(re.escape(character.get_absolute_url()) + "$"))
    # Exact: the roll panel, loaded after the page, is headed "Tirada de Lucía Ferrer".
    expect(page.get_by_role("heading", name="Lucía Ferrer", exact=True)).to_be_visible()
    assert character.owner.username == "jugadora"
    assert character.traits.get(key="fuerza_de_voluntad").rating == 4


def test_creation_form_screenshots_at_phone_and_desktop_width(
    open_as, tinieblas_campaign, screenshot
):
    """The guided form for a GM (owner choice and approval shown) at both widths."""
    for width, height in ((360, 780), (1280, 900)):
        page = open_as("narradora", width=width, height=height)
        page.goto(f"/campaigns/{tinieblas_campaign.pk}/characters/new/")
        dots(page, "Inteligencia", 5)
        dots(page, "Astucia", 2)
        dots(page, MENTAL[0].name, 3)
        page.get_by_label(catalogue.VIRTUES[1].name, exact=True).check()
        expect(page.locator("#left-attributes-mental")).to_have_text("1 de más")
        # Nothing sticks out sideways on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"gm-form-{width}")
