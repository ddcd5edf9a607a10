"""No console error on a sheet at play: the roll panel docked, a roll, two wounds heard
live, the panel closed and opened again. A style or script the page's CSP refuses, or a
script error, would show here."""

import json

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from campaigns.permissions import character_access
from characters.views.sheet_context import live_version
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.e2e.test_live_table import lucias_sheet, panel_on_investigacion

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_sheet_at_play_logs_no_console_error(open_live):
    page, lucia = lucias_sheet(open_live)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    panel = panel_on_investigacion(page, lucia)
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{lucia.pk} .roll-card")).to_be_visible()
    gm = Campaign.objects.get(pk=lucia.campaign_id).created_by
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    expect(page.locator(".health-state")).to_have_text("Magullado")
    page.locator("[data-roll-dock-close]").click()
    page.locator('a[data-roll-trait="investigacion"]').click()
    health_services.character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, "L"))
    version = live_version(character_access(lucia.owner, lucia.campaign_id, lucia.pk))
    expect(page.locator("#live-refresh")).to_have_attribute(
        "hx-headers", json.dumps({"X-Cronica-Since": version})
    )
    # htmx logs as errors the requests it aborts: the roll takes over the panel's reload
    # (hx-sync "abort"), by design.
    aborted = {"htmx:afterRequest", "htmx:sendAbort"}
    assert [error for error in errors if error.split(",")[0] not in aborted] == []


def test_a_style_left_on_the_panels_fields_is_not_written_again_by_a_swap(open_live):
    """A browser extension, or a screenshot tool, may leave a style attribute on the
    page's fields; htmx writing it again on the swapped fields broke the CSP once per
    field at every roll."""
    page, lucia = lucias_sheet(open_live)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    panel = panel_on_investigacion(page, lucia)
    # Through the CSSOM, which the CSP allows: an empty style attribute stays behind.
    page.evaluate(
        """id => document.querySelectorAll(`#roll-panel-${id} input`).forEach(field => {
            field.style.caretColor = "transparent";
            field.style.caretColor = "";
        })""",
        lucia.pk,
    )
    assert errors == []
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator(f"#roll-result-{lucia.pk} .roll-card")).to_be_visible()
    assert [error for error in errors if "Content Security Policy" in error] == []
