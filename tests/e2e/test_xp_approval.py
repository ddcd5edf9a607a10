"""XP purchases that wait for the GM's approval, in a browser: the price a player sees
counts what already waits."""

import pytest
from playwright.sync_api import expect

from characters import services as character_services
from characters.advancement import PurchaseSpec
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def waiting():
    """A campaign where the GM approves purchases, and Lucía's 8 XP, 6 held by a request."""
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    campaign = CampaignFactory(created_by=gm, xp_purchases_need_approval=True)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=pablo, role="player")
    lucia = make_character(campaign, pablo, name="Lucía", ratings={"sigilo": 2, "pelea": 1})
    character_services.xp_adjust(character=lucia, user=gm, amount=8, reason="Inicial")
    character_services.xp_purchase_request(
        character=lucia, user=pablo, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    return lucia


def test_the_price_counts_what_waits_for_the_gm(open_as, screenshot, waiting):
    page = open_as("pablo", width=390, height=844)
    page.goto(f"/campaigns/{waiting.campaign_id}/characters/{waiting.pk}/xp/")
    page.select_option("#buy-trait", "pelea")
    quote = page.locator("#purchase-quote")
    expect(quote.locator("[data-quote-reserved]")).to_have_text(
        "Lo que espera la aprobación del máster reserva 6 PX."
    )
    expect(quote).to_contain_text("Saldo 2 → -1 PX.")
    expect(quote.get_by_role("button", name="Pedírselo al máster")).to_be_disabled()
    screenshot(page, "price-with-xp-held-390")


def test_the_gms_approval_reaches_the_players_open_xp_page(open_as, screenshot, waiting):
    """Without reloading: the balance, the purchase's status and the ledger follow; what
    the player was typing in the purchase forms stays."""
    page = open_as("pablo")
    page.goto(f"/campaigns/{waiting.campaign_id}/characters/{waiting.pk}/xp/")
    purchases = page.locator("#purchases")
    expect(purchases.locator(".badge")).to_have_text("Pendiente")
    page.fill("#buy-specialty-name", "Tejados")

    gm_page = open_as("narradora")
    gm_page.goto(f"/campaigns/{waiting.campaign_id}/characters/xp/")
    gm_page.locator("#pending").get_by_role("button", name="Aprobar").click()
    expect(gm_page.get_by_text("Compra aprobada y aplicada.")).to_be_visible()

    expect(page.locator("#xp-balance")).to_have_text("2 PX disponibles")
    expect(purchases.locator(".badge")).to_have_text("Aplicada")
    expect(purchases.get_by_role("button", name="Cancelar la petición")).to_have_count(0)
    expect(page.locator("#ledger")).to_contain_text("Sigilo 2 → 3")
    expect(page.locator("#buy-specialty-name")).to_have_value("Tejados")
    screenshot(page, "approved-while-open-1280")
