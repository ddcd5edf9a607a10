"""Nothing typed is lost when a send does not go through: the browser keeps a long text
until its send is answered, and the form offers it back (static/js/app.js)."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership, SceneNote
from characters.models import DiaryEntry
from tests.factories import PASSWORD, CampaignFactory, UserFactory, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A week's diary: forty paragraphs, 9,000 characters and more.
TEXT = "\n\n".join(
    f"Día {day}: huimos por los tejados de Toledo y el inquisidor nos pisaba los talones; "
    "Lucía guardó la carta del conde en el forro de la capa, sin abrirla todavía."
    for day in range(1, 41)
)
KEPT = "cronica:unsent:"
ALERT = "Tienes un texto sin enviar"


def _diary(username: str):
    gm, player = UserFactory(username="narradora"), UserFactory(username=username)
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=player, role="player")
    lucia = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El incendio", participants=[lucia])
    return scene, reverse("characters:diary", args=[campaign.pk, lucia.pk, scene.pk])


def _kept(page, path: str) -> dict:
    """The copies the browser keeps for a page's long texts, once its scripts have run."""
    page.wait_for_load_state("load")
    return page.evaluate(
        "prefix => Object.keys(localStorage).filter(key => key.startsWith(prefix))"
        ".reduce((kept, key) => ({...kept, [key]: JSON.parse(localStorage[key])}), {})",
        f"{KEPT}{path}#",
    )


def test_a_diary_sent_after_the_session_expired_is_offered_back_after_logging_in(
    open_as, screenshot
):
    scene, url = _diary("pablo")
    page = open_as("pablo", width=360, height=780)
    page.goto(url)
    body = page.get_by_label("Entrada de diario")
    body.focus()
    page.keyboard.insert_text(TEXT)

    # A week later the session is over; the tab still shows the form.
    page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
    page.get_by_role("button", name="Publicar").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    assert not DiaryEntry.objects.exists()

    page.locator("#id_username").fill("pablo")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    expect(page).to_have_url(re.compile(re.escape(url) + "$"))
    alert = page.get_by_role("status").filter(has_text=ALERT)
    expect(alert).to_be_visible()
    expect(body).to_have_value("")
    screenshot(page, "unsent-diary-offered-360")

    alert.get_by_role("button", name="Recuperar el texto").click()
    expect(alert).to_have_count(0)
    expect(body).to_have_value(TEXT)
    expect(body).to_be_focused()
    # The count follows the text put back (a form sends each line break as two).
    count = len(TEXT) + TEXT.count("\n")
    expect(page.locator("#id_body-count [aria-hidden=true]")).to_have_text(
        f"{count} de 50000 caracteres"
    )

    page.get_by_role("button", name="Publicar").click()
    expect(page.get_by_text("Entrada de diario publicada.")).to_be_visible()
    entry = DiaryEntry.objects.get(scene=scene)
    assert entry.is_published
    assert entry.body.replace("\r\n", "\n") == TEXT
    shown = page.locator(f"#diary-{entry.pk}")
    for day in (1, 20, 40):
        expect(shown).to_contain_text(f"Día {day}: huimos por los tejados de Toledo")
    assert _kept(page, url) == {}

    page.goto(url)
    expect(body).to_have_value(TEXT)
    expect(page.get_by_role("status").filter(has_text=ALERT)).to_have_count(0)
    assert _kept(page, url) == {}


def test_a_discarded_unsent_diary_is_gone_and_not_offered_again(open_as):
    _scene, url = _diary("pablo")
    page = open_as("pablo")
    page.goto(url)
    page.get_by_label("Entrada de diario").focus()
    page.keyboard.insert_text(TEXT)
    # Kept once typing pauses.
    key = f"{KEPT}{url}#body"
    page.wait_for_function("key => localStorage.getItem(key) !== null", arg=key)

    page.goto(url)
    body = page.get_by_label("Entrada de diario")
    expect(body).to_have_value("")
    alert = page.get_by_role("status").filter(has_text=ALERT)
    alert.get_by_role("button", name="Descartarlo").click()
    expect(alert).to_have_count(0)
    expect(body).to_be_focused()
    expect(body).to_have_value("")
    assert _kept(page, url) == {}

    page.goto(url)
    expect(body).to_have_value("")
    expect(page.get_by_role("status").filter(has_text=ALERT)).to_have_count(0)
    assert _kept(page, url) == {}


def test_a_gm_note_saved_through_htmx_is_not_offered_back(open_as):
    """The form's answer comes into the page (a fresh, empty form): the send went through."""
    scene, _url = _diary("pablo")
    page = open_as("narradora")
    url = scene.get_absolute_url()
    page.goto(url)
    note = page.get_by_label("Nota del máster")
    note.focus()
    page.keyboard.insert_text("El conde miente sobre la carta.")
    page.get_by_role("button", name="Añadir nota").click()
    expect(page.locator("#gm-notes")).to_contain_text("El conde miente sobre la carta.")
    assert SceneNote.objects.get().body == "El conde miente sobre la carta."
    expect(page.get_by_label("Nota del máster")).to_have_value("")
    expect(page.get_by_role("status").filter(has_text=ALERT)).to_have_count(0)
    assert _kept(page, url) == {}

    page.goto(url)
    expect(page.get_by_role("status").filter(has_text=ALERT)).to_have_count(0)


def test_a_gm_note_sent_through_htmx_after_the_session_ended_is_offered_back(open_as):
    """htmx's send goes to sign in (SignInAgainMiddleware), and back to the scene, where
    the note typed is offered again."""
    scene, _url = _diary("pablo")
    page = open_as("narradora")
    url = scene.get_absolute_url()
    page.goto(url)
    page.get_by_label("Nota del máster").focus()
    page.keyboard.insert_text("El conde miente sobre la carta.")
    page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
    page.get_by_role("button", name="Añadir nota").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    page.locator("#id_username").fill("narradora")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()

    expect(page).to_have_url(re.compile(re.escape(url) + "$"))
    alert = page.get_by_role("status").filter(has_text=ALERT)
    alert.get_by_role("button", name="Recuperar el texto").click()
    expect(page.get_by_label("Nota del máster")).to_have_value("El conde miente sobre la carta.")
    page.get_by_role("button", name="Añadir nota").click()
    expect(page.locator("#gm-notes")).to_contain_text("El conde miente sobre la carta.")
    assert SceneNote.objects.get().body == "El conde miente sobre la carta."


def test_a_diary_refused_for_an_old_token_says_why_and_is_offered_back(open_as, screenshot):
    """Signed in again in another tab: the form's token is old, Django refuses the send
    (accounts.views.csrf_failure), and the way back offers the text again."""
    _scene, url = _diary("pablo")
    page = open_as("pablo", width=360, height=780)
    page.goto(url)
    page.get_by_label("Entrada de diario").focus()
    page.keyboard.insert_text(TEXT)
    page.context.clear_cookies(name=settings.CSRF_COOKIE_NAME)
    page.get_by_role("button", name="Publicar").click()

    expect(page.get_by_role("heading", name="La página había caducado")).to_be_visible()
    assert not DiaryEntry.objects.exists()
    screenshot(page, "old-token-360")
    page.get_by_role("link", name="Volver a la página").click()
    expect(page).to_have_url(re.compile(re.escape(url) + "$"))
    page.get_by_role("status").filter(has_text=ALERT).get_by_role(
        "button", name="Recuperar el texto"
    ).click()
    expect(page.get_by_label("Entrada de diario")).to_have_value(TEXT)
