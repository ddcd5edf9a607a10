"""Rolling where the eye is: a player clicks a trait on the sheet, the roll panel docks in
view with it chosen and its odds, one more tap rolls, and the result shows without the page
moving (at phone and laptop widths)."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from campaigns.htmx import SINCE_HEADER
from campaigns.models import Scene
from mechanics.models import Roll
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_roll import lucia
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def scroll_y(page) -> float:
    return page.evaluate("window.scrollY")


def in_view(page, name: str) -> None:
    """What the player sees (the viewport, not the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"trait-roll-{name}.png"))


@pytest.mark.parametrize("width", [360, 1280])
def test_player_clicks_a_skill_sees_the_odds_rolls_and_the_result_stays_in_view(open_as, width):
    campaign, character = lucia()
    # Two open scenes: the roll goes to Lucía's unless she picks the other.
    library = Scene.objects.create(campaign=campaign, title="La biblioteca")
    character.scenes.add(library)
    Scene.objects.create(campaign=campaign, title="El claustro")
    page = open_as("jugadora", width=width, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    dock = page.locator(f"#roll-dock-{character.pk}")

    # An attribute, then a skill: the panel docks with both chosen and the odds of the pool.
    attribute = page.get_by_role("link", name="Tirar Inteligencia")
    attribute.scroll_into_view_if_needed()
    attribute.click()
    expect(dock).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("inteligencia")
    skill = page.get_by_role("link", name="Tirar Investigación")
    if width >= 992:
        # The side panel leaves the sheet in reach: a second click builds the pool.
        skill.click()
    else:
        # The bottom sheet covers part of the page: close it, then click the skill.
        page.keyboard.press("Escape")
        expect(dock).not_to_have_attribute("role", "dialog")
        expect(attribute).to_be_focused()
        skill.scroll_into_view_if_needed()
        skill.click()
    expect(dock).to_have_attribute("role", "dialog")
    # A skill asks for its attribute: the focus is on it, the one chosen before kept.
    attribute_select = panel.get_by_label("Atributo", exact=True)
    expect(attribute_select).to_be_focused()
    expect(attribute_select).to_have_value("inteligencia")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("investigacion")
    odds = page.locator(f"#roll-odds-{character.pk}")
    expect(odds.locator(".roll-summary")).to_have_text("6 dados")
    expect(odds).to_be_in_viewport()
    expect(panel.get_by_label("Escena de la tirada")).to_have_value(str(library.pk))
    in_view(page, f"docked-{width}")
    # The docked panel (a dialog over the sheet) passes axe's WCAG 2.1 AA rules.
    assert axe_violations(page, "light") == []

    # One more tap rolls; the page does not move and the result is in view.
    button = panel.get_by_role("button", name="Tirar los dados")
    expect(button).to_be_in_viewport()
    before = scroll_y(page)
    button.click()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result).to_be_visible()
    expect(result).to_be_in_viewport()
    assert scroll_y(page) == before
    # The focus stays on the roll button, so a second tap rolls again.
    expect(page.locator(f"#roll-submit-{character.pk}")).to_be_focused()
    roll = Roll.objects.get(character=character)
    expect(result).to_have_attribute("data-roll", str(roll.pk))
    assert roll.record["details"]["pool"] == 6
    assert roll.scene == library
    in_view(page, f"rolled-{width}")

    # Esc closes the panel and gives the focus back to the trait that opened it.
    page.keyboard.press("Escape")
    expect(dock).not_to_have_attribute("role", "dialog")
    expect(skill).to_be_focused()
    assert scroll_y(page) == before

    # The result stays until the next roll: another trait changes the set-up, not the result.
    page.get_by_role("link", name="Tirar Astucia").click()
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("astucia")
    expect(result).to_have_attribute("data-roll", str(roll.pk))
    expect(panel.locator(".odds-success .odds-value")).to_have_text(re.compile(r"^\d+,\d %$"))


SKILLS = {
    "hitos": ("combate", {"reflejos": 5, "combate": 4}),
    "ndp": ("pelea", {"pelea": 4}),
    "objetivo": ("armas_cc", {"fuerza": 7, "armas_cc": 5}),
}


@pytest.mark.parametrize("system", list(SKILLS))
def test_a_skill_of_every_other_system_rolls_in_one_more_tap_on_a_phone(open_as, system):
    key, ratings = SKILLS[system]
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Prueba", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player, name="Rufo", ratings=ratings)
    page = open_as(player, width=360, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()

    page.locator(f'a[data-roll-trait="{key}"]').click()
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value(key)
    expect(panel.locator(".roll-summary")).to_be_in_viewport()
    before = scroll_y(page)
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result).to_be_in_viewport()
    assert scroll_y(page) == before
    roll = Roll.objects.get(character=character)
    skill = campaign.game_system.trait_spec(campaign, key)
    assert roll.record["details"]["traits"]["skill"] == skill.name
    in_view(page, f"{system}-360")


@pytest.mark.parametrize("width", [360, 1280])
def test_rolling_from_the_panel_in_the_sheet_keeps_the_page_still(open_as, width):
    campaign, character = lucia()
    page = open_as("jugadora", width=width, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#sheet-rolls #roll-panel-{character.pk}")
    button = panel.get_by_role("button", name="Tirar los dados")
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport()
    before = scroll_y(page)
    button.click()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result).to_be_visible()
    expect(result).to_be_in_viewport()
    assert scroll_y(page) == before
    in_view(page, f"in-sheet-{width}")


def test_the_panel_a_trait_brings_is_live_the_moment_it_is_swapped_in(open_as):
    """A tap on "Tirar" right after the panel changes goes through htmx: with a settle delay,
    the new button stayed a plain submit button for 20 ms and the roll posted as a page."""
    campaign, character = lucia()
    page = open_as("jugadora", width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    # htmx marks swapped-in content with `htmx-added` until it has processed it; the check
    # runs once the swap's own task is over, before any timer.
    unprocessed = page.evaluate(
        """(id) => new Promise((resolve) => {
          document.body.addEventListener("htmx:afterSwap", () => queueMicrotask(() => {
            resolve(document.getElementById("roll-panel-" + id).classList.contains("htmx-added"));
          }), { once: true });
          document.querySelector("a[data-roll-trait]").click();
        })""",
        character.pk,
    )
    assert unprocessed is False


def test_a_roll_tapped_while_a_trait_is_still_loading_keeps_its_result(open_as):
    """The CI failure of session 12: a tap on "Tirar" before the clicked trait's panel had
    arrived stored the roll, the trait's panel took its place, and the roll's answer went to
    the panel that was gone: no result. The roll now cancels that reload."""
    campaign, character = lucia()
    page = open_as("jugadora", width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    page.evaluate(
        """() => {
          window.traitEnded = false;
          document.addEventListener("htmx:afterRequest", (event) => {
            if (event.detail.pathInfo.finalRequestPath.includes("trait=")) window.traitEnded = true;
          });
        }"""
    )
    # The trait's panel and the roll are held, and answered in the worst order.
    held = {}

    def hold(route):
        key = "roll" if route.request.method == "POST" else "trait"
        held[key] = route

    page.route(lambda url: "trait=" in url, hold)
    page.route(lambda url: url.endswith(f"/characters/{character.pk}/roll/"), hold)
    with page.expect_request(lambda request: "trait=" in request.url):
        page.get_by_role("link", name="Tirar Inteligencia").click()
    with page.expect_request(lambda request: request.method == "POST"):
        panel.get_by_role("button", name="Tirar los dados").click()

    with contextlib.suppress(PlaywrightError):  # the roll cancelled it: nothing to answer
        held["trait"].continue_()
    page.wait_for_function("() => window.traitEnded")
    held["roll"].continue_()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result).to_be_visible()
    roll = Roll.objects.get(character=character)
    expect(result).to_have_attribute("data-roll", str(roll.pk))


def test_a_trait_clicked_while_the_panel_reloads_for_a_change_is_chosen(open_as):
    """The CI failure of session 14: after a roll, the panel's reload for the change it made
    (live.js) was still in flight when the player clicked another trait, and htmx dropped the
    trait's reload (hx-sync): the panel kept the old trait. The click now cancels it."""
    campaign, character = lucia()
    page = open_as("jugadora", width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    held = []

    def hold_live_reload(route):
        if SINCE_HEADER.lower() in route.request.headers:
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: f"/characters/{character.pk}/roll/" in url, hold_live_reload)
    with page.expect_request(lambda request: SINCE_HEADER.lower() in request.headers):
        page.evaluate("htmx.trigger(document.body, 'cronica:poll')")
    page.get_by_role("link", name="Tirar Astucia").click()
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("astucia")
    with contextlib.suppress(PlaywrightError):  # the click cancelled it: nothing to answer
        held[0].continue_()
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("astucia")


def test_a_trait_clicked_while_a_roll_is_in_flight_is_chosen_after_its_result(open_as):
    campaign, character = lucia()
    page = open_as("jugadora", width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    page.get_by_role("link", name="Tirar Inteligencia").click()
    # Open once the trait's answer is drawn: Inteligencia is the panel's first attribute
    # already, so the value alone is no sign of it (test_first_evening says why).
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("inteligencia")
    held = []
    page.route(
        lambda url: url.endswith(f"/characters/{character.pk}/roll/"),
        lambda route: held.append(route),
    )
    with page.expect_request(lambda request: request.method == "POST"):
        panel.get_by_role("button", name="Tirar los dados").click()
    page.get_by_role("link", name="Tirar Astucia").click()
    held[0].continue_()
    # The roll's result, then the trait on the panel the roll left.
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("astucia")
    roll = Roll.objects.get(character=character)
    expect(page.locator(f"#roll-result-{character.pk} .roll-card")).to_have_attribute(
        "data-roll", str(roll.pk)
    )
    assert roll.record["details"]["traits"]["attribute"] == "Inteligencia"
