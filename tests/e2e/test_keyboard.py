"""Keyboard and screen-reader paths: after a roll the focus stays on the control used, the page
does not move and one live region outside the swapped panel says the result once; a trait's
dots are one tab stop moved with the arrow keys; the focus ring stands out in both schemes."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from characters.models import Trait
from mechanics.models import Roll, SavedRoll
from mechanics.presentation import roll_display
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_accessibility import contrast
from tests.e2e.test_roll import lucia
from tests.factories import make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every text the announcer shows, in order: "once per roll" is countable.
LISTEN = """() => {
  window.said = [];
  const region = document.getElementById("roll-announcer");
  new MutationObserver(() => {
    if (region.textContent) window.said.push(region.textContent);
  }).observe(region, {childList: true, characterData: true, subtree: true});
}"""


# Resolves once the page has stopped scrolling (Bootstrap scrolls smoothly): two frames alike.
STEADY = """() => new Promise(resolve => {
  let last = -1;
  const tick = () => {
    if (window.scrollY === last) resolve(last);
    else { last = window.scrollY; requestAnimationFrame(tick); }
  };
  requestAnimationFrame(tick);
})"""


def steady_scroll_y(page) -> float:
    return page.evaluate(STEADY)


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"keyboard-{name}.png"))


def spoken(roll: Roll) -> str:
    """What the announcer says for a stored roll: its summary, what was rolled, then its
    lines."""
    with translation.override("es"):
        shown = roll_display(roll)
    return " · ".join([shown.summary, *filter(None, [shown.setup]), *shown.notes])


def said_once(page, character, before: int) -> Roll:
    """The new stored roll, after checking the page shows it and the announcer said it once
    (and the feed, where the page has one, did not say it again)."""
    card = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(card).not_to_have_attribute("data-roll", str(before))
    roll = Roll.objects.filter(character=character).latest("pk")
    expect(card).to_have_attribute("data-roll", str(roll.pk))
    with translation.override("es"):
        shown = roll_display(roll)
    said = spoken(roll)
    announcer = page.locator("#roll-announcer")
    expect(announcer).to_have_text(said)
    # Who, what (the pool) and the result, in words, as the stored roll has them.
    for words in (character.name, shown.setup, shown.result, shown.outcome):
        assert words in announcer.inner_text()
    assert announcer.evaluate("e => !e.closest('.roll-panel')")
    feed = page.locator("#roll-feed")
    if feed.count():
        # The feed has taken the roll in (its own announcement skipped, not just late).
        expect(feed.locator(f'[data-roll="{roll.pk}"]')).to_be_attached()
        expect(page.locator("#roll-feed-status")).not_to_contain_text(shown.summary)
    assert page.evaluate("window.said") == [said]
    return roll


@pytest.mark.parametrize("width", [360, 1280])
def test_a_roll_from_the_docked_panel_keeps_the_focus_on_the_roll_button_and_says_the_result(
    open_as, width
):
    campaign, character = lucia()
    page = open_as("jugadora", width=width, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    trait = page.get_by_role("link", name="Tirar Inteligencia")
    trait.scroll_into_view_if_needed()
    trait.click()
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    button = page.locator(f"#roll-submit-{character.pk}")
    expect(button).to_be_focused()
    page.evaluate(LISTEN)

    # From the keyboard: Enter on the roll button.
    before = steady_scroll_y(page)
    page.keyboard.press("Enter")
    first = said_once(page, character, before=0)
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    shot(page, f"docked-rolled-{width}")

    # A click that does not focus the button (Safari and Firefox on macOS do not focus a
    # clicked button): the focus still ends on the roll button, not on the page body.
    page.evaluate("() => { document.activeElement.blur(); window.said = []; }")
    button.evaluate("b => b.click()")
    said_once(page, character, before=first.pk)
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before


def test_a_saved_roll_at_the_top_of_the_sheet_keeps_the_focus_on_its_button(open_as):
    campaign, character = lucia()
    setup = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}
    SavedRoll.objects.create(
        character=character, name="Investigar", setup={k: [v] for k, v in setup.items()}
    )
    page = open_as("jugadora", width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    saved = page.locator(f"#saved-rolls-{character.pk}").get_by_role("button", name="Investigar")
    saved.focus()
    page.evaluate(LISTEN)
    before = steady_scroll_y(page)
    page.keyboard.press("Enter")
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    roll = said_once(page, character, before=0)
    assert roll.label == "Investigar"
    expect(saved).to_be_focused()
    assert steady_scroll_y(page) == before
    shot(page, "saved-rolled-1280")


def test_a_roll_on_the_full_roll_page_keeps_the_focus_and_says_the_result(open_as):
    campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/roll/")
    button = page.locator(f"#roll-submit-{character.pk}")
    button.scroll_into_view_if_needed()
    button.focus()
    page.evaluate(LISTEN)
    before = steady_scroll_y(page)
    page.keyboard.press("Enter")
    said_once(page, character, before=0)
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    shot(page, "roll-page-rolled-360")


@pytest.mark.parametrize("width", [360, 1280])
def test_a_gm_two_sided_roll_keeps_the_focus_on_the_roll_button_and_says_both_results(
    open_as, width
):
    campaign, lucia_ = lucia()
    bruto = make_character(campaign, None, name="Bruto", ratings={"fuerza": 4, "pelea": 3})
    page = open_as("narradora", width=width, height=700)
    page.goto(reverse("mechanics:gm_roll", args=[campaign.pk]))
    page.locator("#id_a-character").select_option(str(lucia_.pk))
    page.locator("#id_a-attribute").select_option("fuerza")
    page.locator("#id_b-character").select_option(str(bruto.pk))
    page.locator("#id_b-attribute").select_option("fuerza")
    page.locator("#id_b-skill").select_option("pelea")
    expect(page.locator("#gm-roll-odds .odds-win")).to_contain_text("Gana Lucía Ferrer")
    button = page.locator("#gm-roll-submit")
    button.focus()
    page.evaluate(LISTEN)
    before = steady_scroll_y(page)
    page.keyboard.press("Enter")
    expect(page.locator("#gm-roll-result .roll-card")).to_have_count(2)
    rolls = list(Roll.objects.filter(campaign=campaign).order_by("pk"))
    assert [roll.character for roll in rolls] == [lucia_, bruto]
    # Both sides, in the order shown, from the one region outside the swapped panel.
    said = " · ".join(spoken(roll) for roll in rolls)
    expect(page.locator("#roll-announcer")).to_have_text(said)
    assert page.locator("#gm-roll-panel [role=status], #gm-roll-panel #roll-announcer").count() == 0
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    assert page.evaluate("window.said") == [said]
    shot(page, f"gm-rolled-{width}")

    # A click that does not focus the button (Safari): htmx has no focus to keep, a11y.js
    # puts it on the button used.
    page.evaluate("() => { document.activeElement.blur(); window.said = []; }")
    button.evaluate("b => b.click()")
    expect(page.locator("#gm-roll-result .roll-card").first).not_to_have_attribute(
        "data-roll", str(rolls[0].pk)
    )
    again = list(Roll.objects.filter(campaign=campaign).order_by("pk"))[2:]
    said = " · ".join(spoken(roll) for roll in again)
    expect(page.locator("#roll-announcer")).to_have_text(said)
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    assert page.evaluate("window.said") == [said]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_free_roll_keeps_the_focus_on_the_roll_button_and_says_the_result_once(open_as, width):
    campaign, _character = lucia()
    page = open_as("narradora", width=width, height=700)
    page.goto(reverse("mechanics:free_roll", args=[campaign.pk]))
    page.get_by_label("Dados a tirar").fill("2d6+1")
    page.get_by_label("Para qué").fill("Trueno")
    button = page.locator("#free-roll-submit")
    button.focus()
    page.evaluate(LISTEN)
    before = steady_scroll_y(page)
    page.keyboard.press("Enter")
    result = page.locator("#free-roller .free-roll-result")
    expect(result).to_be_attached()
    roll = Roll.objects.filter(campaign=campaign).latest("pk")
    expect(result).to_have_attribute("data-roll", str(roll.pk))
    said = spoken(roll)
    assert "Trueno" in said
    assert f"Total {roll.result}" in said
    expect(page.locator("#roll-announcer")).to_have_text(said)
    assert page.locator("#free-roller [role=status]").count() == 0
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    # The page's feed takes the roll in without saying it a second time.
    expect(page.locator(f'#roll-feed [data-roll="{roll.pk}"]')).to_be_attached()
    expect(page.locator("#roll-feed-status")).not_to_contain_text("Trueno")
    assert page.evaluate("window.said") == [said]
    shot(page, f"free-rolled-{width}")

    # A click that does not focus the button (Safari): a11y.js puts the focus on it.
    page.evaluate("() => { document.activeElement.blur(); window.said = []; }")
    button.evaluate("b => b.click()")
    expect(result).not_to_have_attribute("data-roll", str(roll.pk))
    roll = Roll.objects.filter(campaign=campaign).latest("pk")
    expect(result).to_have_attribute("data-roll", str(roll.pk))
    expect(page.locator("#roll-announcer")).to_have_text(spoken(roll))
    expect(button).to_be_focused()
    assert steady_scroll_y(page) == before
    assert page.evaluate("window.said") == [spoken(roll)]


def test_a_skip_link_at_the_top_of_a_gm_sheet_takes_the_focus_into_the_roll_panel(open_as):
    campaign, character = lucia()
    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    # From the top of the page: past the menu to the content, then to the skip link.
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Saltar al contenido")).to_be_focused()
    page.keyboard.press("Enter")
    skip = page.get_by_role("link", name="Saltar al panel de tiradas")
    presses = 0
    while presses < 3 and not skip.evaluate("a => a === document.activeElement"):
        page.keyboard.press("Tab")
        presses += 1
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert page.evaluate(f"!!document.activeElement.closest('#roll-panel-{character.pk}')")
    # The next Tab goes on inside the panel, not back at the top of the sheet.
    page.keyboard.press("Tab")
    assert page.evaluate(f"!!document.activeElement.closest('#roll-panel-{character.pk}')")
    shot(page, "skip-to-roll-panel")


def tab_stops_to_panel(page, character) -> int:
    """Tab presses from the focused element until the focus is inside the roll panel."""
    presses = 0
    while not page.evaluate(f"!!document.activeElement.closest('#roll-panel-{character.pk}')"):
        page.keyboard.press("Tab")
        presses += 1
        assert presses < 400, "the roll panel is not in the tab order"
    return presses


def test_a_gm_tabs_past_each_trait_in_one_stop_and_sets_a_rating_with_the_arrow_keys(open_as):
    campaign, character = lucia()
    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    groups = page.locator("#sheet-traits .dot-buttons")
    traits = groups.count()
    assert traits > 20
    # Each trait's dots: a named toolbar with one tab stop, the current rating's dot.
    expect(groups.first).to_have_attribute("role", "toolbar")
    for index in range(traits):
        assert groups.nth(index).locator('button[tabindex="0"]').count() == 1
    dots = page.locator("#trait-inteligencia .dot-buttons")
    expect(dots).to_have_accessible_name("Inteligencia 3 de 5")
    expect(dots.locator('[tabindex="0"]')).to_have_id("trait-inteligencia-3")

    # From the first trait's dots to the roll panel: at most two stops a trait (its roll
    # link and its dots), not one per dot.
    page.locator("#sheet-traits .dot-buttons button[tabindex='0']").first.focus()
    presses = tab_stops_to_panel(page, character)
    assert presses <= 2 * traits + 10, presses
    # The last Tab scrolls smoothly to the panel: let it end before a dot takes the focus.
    steady_scroll_y(page)

    # Arrow keys move along the dots without moving the page; Enter sets the rating.
    third = page.locator("#trait-inteligencia-3")
    third.focus()
    expect(third).to_be_in_viewport()
    # The keys' own scrolling is prevented (read after the page's handlers ran): the
    # page's position itself moves with the panel's smooth scroll on a loaded machine.
    page.evaluate(
        "window.kept = [];"
        "window.addEventListener('keydown', e => window.kept.push(e.defaultPrevented))"
    )
    page.keyboard.press("ArrowRight")
    expect(page.locator("#trait-inteligencia-4")).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#trait-inteligencia-4")).to_be_focused()
    assert page.evaluate("window.kept") == [True, True, True]
    page.keyboard.press("Enter")
    expect(dots).to_have_accessible_name("Inteligencia 4 de 5")
    assert Trait.objects.get(character=character, key="inteligencia").rating == 4
    # The new row keeps the focus on the dot used, and it is the row's one tab stop.
    fourth = page.locator("#trait-inteligencia-4")
    expect(fourth).to_be_focused()
    expect(dots.locator('[tabindex="0"]')).to_have_id("trait-inteligencia-4")
    page.keyboard.press("Home")
    expect(page.locator("#trait-inteligencia-1")).to_be_focused()
    page.keyboard.press("End")
    expect(page.locator("#trait-inteligencia-5")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#trait-inteligencia-3")).to_be_focused()
    page.keyboard.press("Space")
    expect(dots).to_have_accessible_name("Inteligencia 3 de 5")
    assert Trait.objects.get(character=character, key="inteligencia").rating == 3


def test_without_javascript_every_dot_is_still_a_button_in_the_tab_order(browser, live_server):
    campaign, character = lucia()
    client = Client()
    client.force_login(get_user_model().objects.get(username="narradora"))
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    try:
        page = context.new_page()
        page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
        dots = page.locator("#trait-inteligencia .dot-buttons button")
        expect(dots).to_have_count(5)
        assert page.locator(".dot-buttons button[tabindex]").count() == 0
        page.locator("#trait-inteligencia-4").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#trait-inteligencia .dot-buttons")).to_have_accessible_name(
            "Inteligencia 4 de 5"
        )
        assert Trait.objects.get(character=character, key="inteligencia").rating == 4
    finally:
        context.close()


# The ring's backdrop: the control's own fill when the ring is drawn inside it (a dot), else
# the first filled element behind it.
RING = """el => {
  const style = getComputedStyle(el);
  let behind = parseFloat(style.outlineOffset) < 0 ? style.backgroundColor : null;
  if (behind === "rgba(0, 0, 0, 0)") behind = null;
  for (let node = el.parentElement; node && !behind; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (colour !== "rgba(0, 0, 0, 0)" && colour !== "transparent") behind = colour;
  }
  return {ring: style.outlineColor, style: style.outlineStyle,
          width: parseFloat(style.outlineWidth), behind: behind || "rgb(255, 255, 255)"};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_of_the_dots_and_roll_controls_is_at_least_3_to_1(open_as, scheme):
    campaign, character = lucia()
    SavedRoll.objects.create(character=character, name="Investigar", setup={"kind": ["pool"]})
    page = open_as("narradora", width=1280, height=900)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    checked = []
    # Reached with Tab from the element before, so the ring is the keyboard's (:focus-visible).
    for target in (
        page.locator(f"#saved-rolls-{character.pk}").get_by_role("button", name="Investigar"),
        page.locator("#trait-inteligencia-3"),
        page.locator(f"#roll-submit-{character.pk}"),
    ):
        target.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        expect(target).to_be_focused()
        ring = target.evaluate(RING)
        assert ring["style"] == "solid", ring
        assert ring["width"] >= 2, ring
        assert contrast(ring["ring"], ring["behind"]) >= 3, ring
        checked.append(ring)
        shot(page, f"focus-ring-{scheme}-{len(checked)}")
    assert len(checked) == 3
