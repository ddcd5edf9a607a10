import re

import pytest
from playwright.sync_api import expect

from campaigns.models import Membership, Role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up(page, username: str, *, go: bool = True) -> None:
    if go:
        page.goto("/accounts/signup/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill("una-clave-larga-42")
    page.locator("#id_password2").fill("una-clave-larga-42")
    page.get_by_role("button", name="Registrarse").click()


def test_gm_creates_a_campaign_and_a_player_joins_through_the_invite_link(new_page, screenshot):
    gm_page = new_page()
    sign_up(gm_page, "gm_lucia")
    expect(gm_page.get_by_role("heading", name="Mis campañas")).to_be_visible()

    gm_page.get_by_role("link", name="Nueva campaña").first.click()
    gm_page.locator("#id_name").fill("Sombras de Toledo")
    gm_page.locator("#id_description").fill("Una crónica de misterio.")
    gm_page.locator("#id_system").select_option("hitos")
    # Only the chosen system's house rules are shown.
    expect(gm_page.get_by_label("Puntos dramáticos iniciales")).to_be_visible()
    expect(gm_page.get_by_label("El daño agravado se cura al ritmo del letal")).to_be_hidden()
    screenshot(gm_page, "create-form")
    gm_page.get_by_role("button", name="Crear campaña").click()
    expect(gm_page.get_by_role("heading", name="Sombras de Toledo")).to_be_visible()

    gm_page.get_by_role("button", name="Crear enlace de invitación").click()
    invite_url = gm_page.locator("[data-invite-url]").first.inner_text().strip()
    assert re.search(r"/campaigns/join/[\w-]+/$", invite_url)
    screenshot(gm_page, "dashboard-with-invitation")

    player_page = new_page(width=360, height=780)
    player_page.goto(invite_url)
    expect(player_page.get_by_role("heading", name="Unirse a Sombras de Toledo")).to_be_visible()
    player_page.get_by_role("link", name="Registrarse").click()
    sign_up(player_page, "jugador_pablo", go=False)
    # Back on the invitation after signing up.
    player_page.get_by_role("button", name="Unirse a la campaña").click()
    expect(
        player_page.get_by_text("Te has unido a Sombras de Toledo como Jugador.")
    ).to_be_visible()

    player_page.goto("/campaigns/")
    card = player_page.locator(".campaign-card").filter(
        has=player_page.get_by_role("link", name="Sombras de Toledo")
    )
    expect(card).to_be_visible()
    expect(card.locator(".badge")).to_have_text("Jugador")
    screenshot(player_page, "player-my-campaigns-phone")
    assert Membership.objects.get(user__username="jugador_pablo").role == Role.PLAYER

    # With a link out, the next one is behind "Nuevo enlace de invitación": its form loads
    # when opened.
    gm_page.reload()
    opener = gm_page.locator("#new-invitation")
    opener.get_by_text("Nuevo enlace de invitación").click()
    opener.get_by_label("Rol").select_option("observer")
    screenshot(gm_page, "new-invitation-open")
    opener.get_by_role("button", name="Crear enlace de invitación").click()
    expect(gm_page.locator(".invitation")).to_have_count(2)
    expect(gm_page.locator(".invitation").filter(has_text="Observador")).to_have_count(1)


def test_language_switcher_shows_the_site_in_english(new_page, screenshot):
    page = new_page()
    sign_up(page, "lector")
    page.get_by_label("Idioma").select_option("en")
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()
    screenshot(page, "english")
