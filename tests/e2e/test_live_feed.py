"""The live roll feed in browsers: a roll appears on every member's open page within
3 seconds without a reload; a GM's secret roll never reaches a player."""

import random
import re

import pytest
from playwright.sync_api import expect

from mechanics.rules.expressions import parse, roll_expression
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CANARY = "CANARIO-SECRETO-7731"
# What a page without a stream polls (live.views.check).
CHECK = "/live/check/"


def table():
    gm = UserFactory(username="narradora")
    bob, paula = UserFactory(username="bob"), UserFactory(username="paula")
    campaign = CampaignFactory(name="Sombras de Toledo", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=bob, role="player")
    MembershipFactory(campaign=campaign, user=paula, role="player")
    lucia = make_character(campaign, bob, name="Lucía Ferrer")
    return campaign, gm, bob, paula, lucia


def test_a_roll_appears_on_another_players_page_and_a_secret_roll_never_does(open_as, screenshot):
    campaign, gm, bob, paula, lucia = table()
    url = f"/campaigns/{campaign.pk}/"
    bob_page = open_as(bob)
    paula_page = open_as(paula, width=360, height=780)
    gm_page = open_as(gm)
    for page in (bob_page, paula_page, gm_page):
        page.goto(url)
        expect(page.locator("#roll-feed")).to_contain_text("Aún no hay tiradas")

    # Bob rolls (stored the way the roll endpoint stores it).
    record = roll_dice(7, 9, False, random.Random(3))
    roll = roll_store(campaign=campaign, user=bob, record=record, character=lucia, label="Sigilo")
    card = paula_page.locator(f'#roll-feed [data-roll="{roll.pk}"]')
    expect(card).to_be_visible()
    expect(card).to_contain_text("Lucía Ferrer")
    expect(card).to_contain_text("Sigilo")
    expect(card.locator(".die")).to_have_count(len(record.dice))
    # Screen readers hear it once, from a live region outside the swapped list.
    expect(paula_page.locator("#roll-feed-status")).to_have_text(
        re.compile(r"^Nueva tirada: bob · Lucía Ferrer · Sigilo · \d+ éxitos?")
    )
    expect(bob_page.locator(f'#roll-feed [data-roll="{roll.pk}"]')).to_be_visible()
    # The page was not reloaded: the feed's own poll brought the roll.
    assert paula_page.evaluate("performance.getEntriesByType('navigation').length") == 1

    # The GM makes a secret free roll from the campaign page.
    gm_page.locator("summary", has_text="Tirada libre").click()
    gm_page.get_by_label("Dados a tirar").fill("3d10 central")
    gm_page.get_by_label("Para qué").fill(CANARY)
    gm_page.get_by_label("Secreta: solo la ve el máster").check()
    gm_page.get_by_role("button", name="Tirar", exact=True).click()
    result = gm_page.locator("#free-roller .free-roll-result")
    expect(result).to_contain_text(CANARY)
    expect(result.locator(".die")).to_have_count(3)
    # The GM's own feed shows it (the roller's cronica:roll event refreshes it at once;
    # tests/mechanics_web checks that trigger and the feed's listener).
    expect(gm_page.locator("#roll-feed")).to_contain_text(CANARY)

    # A public roll after it reaches the players; the secret one never does.
    later = roll_store(
        campaign=campaign,
        user=gm,
        record=roll_expression(parse("2d6+1"), random.Random(5)),
        label="Trueno",
    )
    for page in (paula_page, bob_page):
        expect(page.locator(f'#roll-feed [data-roll="{later.pk}"]')).to_be_visible()
        # At least one more poll answers before the page is read again.
        with page.expect_response(lambda response: CHECK in response.url):
            pass
        assert CANARY not in page.content()
    screenshot(gm_page, "campaign-feed-gm-1280")
    screenshot(paula_page, "campaign-feed-player-360")


def test_a_page_without_a_stream_polls_once_and_its_parts_only_after_a_change(open_as):
    """The live server is a WSGI server: the sheet (four live parts) asks one URL a poll
    while nothing changes, and its parts ask for themselves once something did."""
    campaign, _gm, bob, _paula, lucia = table()
    page = open_as(bob)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/")
    expect(page.locator("#roll-feed")).to_contain_text("Aún no hay tiradas")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    for _ in range(2):
        with page.expect_response(lambda response: CHECK in response.url) as answer:
            pass
        assert answer.value.status == 204
    assert asked
    assert all(CHECK in url for url in asked), asked

    roll = roll_store(
        campaign=campaign, user=bob, record=roll_dice(5, 10, False, random.Random(2)), label="Pelea"
    )
    expect(page.locator(f'#roll-feed [data-roll="{roll.pk}"]')).to_be_visible()
    assert any("/rolls/feed/" in url for url in asked)


@pytest.mark.parametrize("width", [360, 1280])
def test_the_roll_log_and_the_free_roller_at_phone_and_desktop_width(open_as, screenshot, width):
    campaign, gm, bob, paula, lucia = table()
    rng = random.Random(11)
    for n, (expression, user, character) in enumerate(
        [
            ("7d10 9-again", bob, lucia),
            ("8d10 rote", bob, lucia),
            ("chance", paula, None),
            ("3d10 central", gm, None),
            ("3d6+1d4-1d4+2", gm, None),
            ("2d6!", gm, None),
            ("4d6kh3", gm, None),
        ]
    ):
        roll_store(
            campaign=campaign,
            user=user,
            character=character,
            record=roll_expression(parse(expression, pools=True), rng),
            label=f"Tirada {n + 1}",
            secret=n == 6,
        )
    gm_page = open_as(gm, width=width)
    gm_page.goto(f"/campaigns/{campaign.pk}/rolls/")
    expect(gm_page.get_by_role("heading", name="Registro de tiradas")).to_be_visible()
    expect(gm_page.locator("#roll-count")).to_have_text("7 tiradas")
    screenshot(gm_page, f"log-gm-{width}")
    if width == 1280:
        gm_page.emulate_media(color_scheme="dark")
        gm_page.reload()
        expect(gm_page.locator("html")).to_have_attribute("data-bs-theme", "dark")
        screenshot(gm_page, "log-gm-dark-1280")
        gm_page.emulate_media(color_scheme="light")

    player_page = open_as(paula, width=width)
    player_page.goto(f"/campaigns/{campaign.pk}/rolls/")
    expect(player_page.locator("#roll-count")).to_have_text("6 tiradas")
    player_page.get_by_label("Tirada por").select_option(label="bob")
    player_page.get_by_role("button", name="Filtrar").click()
    expect(player_page.locator("#roll-count")).to_have_text("2 tiradas")
    screenshot(player_page, f"log-player-filtered-{width}")

    gm_page.goto(f"/campaigns/{campaign.pk}/rolls/free/")
    gm_page.get_by_label("Dados a tirar").fill("3d10 cntral")
    gm_page.get_by_role("button", name="Tirar", exact=True).click()
    expect(gm_page.locator("#free-roller")).to_contain_text("No entiendo «cntral».")
    expect(gm_page.get_by_label("Dados a tirar")).to_have_value("3d10 cntral")
    gm_page.get_by_label("Dados a tirar").fill("5d10 9-again")
    gm_page.get_by_role("button", name="Tirar", exact=True).click()
    expect(gm_page.locator("#free-roller .free-roll-result")).to_contain_text("éxito")
    screenshot(gm_page, f"free-roll-{width}")
