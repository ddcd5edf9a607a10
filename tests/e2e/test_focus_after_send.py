"""A GM's form sent with htmx from the keyboard: the answer replaces the control that had
the focus, and the focus goes to what takes its place in the swapped part (the same button,
the tool's summary, the part's heading, or the field in error of a refused form), never to
the page's body, and never into a plain field after a send that went through (a focused
field holds back the part's live refreshes: static/js/live.js)."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from campaigns.models import Scene
from tests.e2e.test_health import table
from tests.e2e.test_keyboard import steady_scroll_y

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What has the focus: "body", or the focused element's tag, its id and whether it is a
# plain field, and whether it lies in the element with id `part`.
FOCUSED = """part => {
  const active = document.activeElement;
  if (!active || active === document.body) return {tag: "body"};
  const holder = document.getElementById(part);
  return {
    tag: active.tagName.toLowerCase(),
    id: active.id,
    text: active.textContent.trim(),
    field: active.matches("input, select, textarea, [contenteditable]"),
    inside: Boolean(holder && holder.contains(active)),
  };
}"""


def focused(page, part: str) -> dict:
    return page.evaluate(FOCUSED, part)


@pytest.mark.parametrize("width", [390, 1280])
def test_damage_sent_from_the_keyboard_leaves_the_focus_on_its_button(open_as, screenshot, width):
    campaign, gm, _bob, lucia, _doctor = table()
    page = open_as(gm, width=width, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/")
    health = page.locator("#sheet-health")
    tool = health.locator("#health-damage")
    tool.locator("summary").focus()
    page.keyboard.press("Enter")
    amount = tool.get_by_label("Niveles de daño")
    expect(amount).to_be_visible()
    amount.focus()
    page.keyboard.type("2")
    tool.get_by_text("Letal", exact=True).click()
    send = tool.get_by_role("button", name="Aplicar daño")
    send.focus()
    page.keyboard.press("Enter")
    expect(health.locator(".health-notice")).to_contain_text("Daño aplicado: 2 L")
    # The whole section is drawn again, the tool open with an empty form: its button has
    # the focus, not the emptied field.
    expect(send).to_be_focused()
    shown = focused(page, "sheet-health")
    assert shown["inside"], shown
    assert not shown["field"], shown
    expect(amount).to_have_value("")
    screenshot(page, f"damage-{width}")


def test_a_refused_damage_puts_the_focus_on_the_field_in_error(open_as, screenshot):
    campaign, gm, _bob, lucia, _doctor = table()
    page = open_as(gm, width=1280, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/")
    tool = page.locator("#health-damage")
    tool.locator("summary").focus()
    page.keyboard.press("Enter")
    send = tool.get_by_role("button", name="Aplicar daño")
    expect(send).to_be_visible()
    # No amount: the server refuses the form and draws it again with the error.
    send.focus()
    page.keyboard.press("Enter")
    amount = page.locator("#health-damage").get_by_label("Niveles de daño")
    expect(amount).to_have_attribute("aria-invalid", "true")
    expect(amount).to_be_focused()
    screenshot(page, "refused-1280")


def test_closing_a_scene_from_the_keyboard_leaves_the_focus_in_its_header(open_as, screenshot):
    campaign, gm, _bob, lucia, _doctor = table()
    scene = campaign_services.scene_create(
        campaign=campaign, title="El camino a Toledo", participants=[lucia]
    )
    page = open_as(gm, width=390, height=600)
    page.goto(scene.get_absolute_url())
    header = page.locator("#scene-header")
    close = header.get_by_role("button", name="Cerrar escena")
    # The page scrolled so that the button is at the top: the heading is above the view,
    # and it stays there when it takes the focus.
    close.evaluate(
        "b => window.scrollTo({top: window.scrollY + b.getBoundingClientRect().top - 4,"
        " behavior: 'instant'})"
    )
    close.focus()
    page.keyboard.press("Enter")
    expect(header.get_by_role("button", name="Reabrir escena")).to_be_visible()
    # Its button is another one now (Reopen): the header's heading takes the focus.
    heading = page.locator("#scene-header h1")
    expect(heading).to_be_focused()
    assert focused(page, "scene-header")["inside"]
    # Bootstrap scrolls smoothly: a focus that scrolled would show once the page is still.
    steady_scroll_y(page)
    assert heading.evaluate("h => h.getBoundingClientRect().bottom") < 0
    assert Scene.objects.get(pk=scene.pk).status == Scene.Status.CLOSED
    screenshot(page, "closed-390")

    # The page goes on following the table (the focused heading is not a field being
    # filled in): reopened elsewhere, the header says so, and the focus stays in it.
    campaign_services.scene_reopen(scene=scene)
    expect(header.get_by_role("button", name="Cerrar escena")).to_be_visible()
    expect(heading).to_be_focused()


def test_a_gm_note_added_from_the_keyboard_leaves_the_focus_on_add_note(open_as):
    campaign, gm, _bob, lucia, _doctor = table()
    scene = campaign_services.scene_create(
        campaign=campaign, title="El camino a Toledo", participants=[lucia]
    )
    page = open_as(gm, width=1280, height=800)
    page.goto(scene.get_absolute_url())
    notes = page.locator("#gm-notes")
    notes.locator("textarea").fill("Bruno miente.")
    notes.get_by_role("button", name="Añadir nota").focus()
    page.keyboard.press("Enter")
    expect(notes.locator(".markdown-body")).to_have_text("Bruno miente.")
    # The same button of the part drawn again, not its emptied field.
    expect(notes.get_by_role("button", name="Añadir nota")).to_be_focused()
