"""A diary pasted past its limit is neither cut by the browser nor lost: the count under
the field turns red, and publishing shows the server's message above all of the text."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership
from characters.models import DiaryEntry
from tests.factories import CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# 66,000 characters in the textarea; a form sends each line break as two, so the server
# (and the count, which counts as the server does) finds 66,300. (Few long lines: the
# browser inserts a line break as slowly as a paragraph, 4 ms each.)
LINE = ("Huimos por el tejado. " * 10).rstrip() + "\n"
TEXT = LINE * 300


def test_a_pasted_diary_past_its_limit_is_refused_with_a_message_and_kept(open_as, screenshot):
    gm, pablo = UserFactory(username="narradora"), UserFactory(username="pablo")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=pablo, role="player")
    lucia = make_character(campaign, pablo, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El incendio", participants=[lucia])

    page = open_as("pablo", width=360, height=780)
    page.goto(reverse("characters:diary", args=[campaign.pk, lucia.pk, scene.pk]))
    body = page.get_by_label("Entrada de diario")
    count = page.locator("#id_body-count")
    expect(count).to_have_text("0 de 50000 caracteres")

    # A paste: the browser inserts the text as typed text, which a maxlength would cut.
    body.focus()
    page.keyboard.insert_text(TEXT)
    expect(body).to_have_value(TEXT)
    expect(count.locator("[aria-hidden=true]")).to_have_text("66300 de 50000 caracteres")
    expect(count).to_have_class("form-text text-danger-emphasis")
    # Screen readers hear the count once typing pauses.
    expect(count.locator("[aria-live=polite]")).to_have_text("66300 de 50000 caracteres")

    page.get_by_role("button", name="Publicar").click()
    expect(
        page.get_by_text("El texto puede tener como máximo 50000 caracteres (tiene 66300).")
    ).to_be_visible()
    expect(page.get_by_label("Entrada de diario")).to_have_value(TEXT)
    expect(page.locator("#id_body-count [aria-hidden=true]")).to_have_text(
        "66300 de 50000 caracteres"
    )
    assert not DiaryEntry.objects.exists()
    screenshot(page, "long-diary-refused-360")
