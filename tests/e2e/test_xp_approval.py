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
