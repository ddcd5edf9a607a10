"""A session that ended (CRONICA_SESSION_DAYS after signing in) while a page was open:
what htmx asks next sends the whole page to the login page, and back to that page after
signing in, never the login page drawn inside a panel (config.middleware.SignInAgainMiddleware).
"""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from characters.models import DiaryEntry
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def sheet(gm, player):
    campaign = campaign_with("tinieblas", gm, players=[player])
    return make_character(campaign, player, name="Lucía")


def _sheet_url(character) -> str:
    return reverse("characters:sheet", args=[character.campaign_id, character.pk])


def _sent_back_to(response) -> str:
    """The page the login form will return to, from an htmx answer that navigates."""
    assert response.status_code == 200
    assert response.content == b""
    login = urlsplit(response["HX-Redirect"])
    assert login.path == reverse("login")
    return parse_qs(login.query)["next"][0]


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_htmx_request_after_the_session_ended_goes_to_the_login_page(client, sheet, method):
    # The sheet page was open (signed in once); the session has since ended.
    page = f"https://testserver{_sheet_url(sheet)}"
    response = getattr(client, method)(
        roll_url(sheet), {"kind": "simple"}, HTTP_HX_CURRENT_URL=page, secure=True, **HTMX
    )
    assert _sent_back_to(response) == _sheet_url(sheet)
    assert not Roll.objects.exists()


def test_another_sites_page_is_never_where_signing_in_returns(client, sheet):
    response = client.get(
        roll_url(sheet), HTTP_HX_CURRENT_URL="https://elsewhere.example/phish", **HTMX
    )
    assert _sent_back_to(response) == "/"


def test_a_whole_page_keeps_djangos_redirect_to_the_login_page(client, sheet):
    response = client.get(_sheet_url(sheet))
    assert response.status_code == 302
    assert "HX-Redirect" not in response


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_signed_in_htmx_request_is_answered_as_before(request, client, sheet, who):
    """Members get the panel; a stranger's 404 stays a 404, not a trip to the login page."""
    client.force_login(request.getfixturevalue(who))
    response = client.get(roll_url(sheet), **HTMX)
    assert "HX-Redirect" not in response
    assert response.status_code == (404 if who == "stranger" else 200)


@pytest.fixture
def diary_url(sheet, gm):
    scene = services.scene_create(campaign=sheet.campaign, title="La cripta", participants=[sheet])
    return reverse("characters:diary", args=[sheet.campaign_id, sheet.pk, scene.pk])


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "No se ha guardado nada"), ("en", "Nothing was saved")],
)
@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_form_from_before_signing_in_again_is_refused_in_the_users_words(
    request, diary_url, who, language, words
):
    """A token from a page drawn before the user signed in again (another tab): Django's
    check refuses it before any view runs, for anyone, so the page says nothing of the
    campaign, only that nothing was saved and the way back to the page."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(request.getfixturevalue(who))
    client.cookies["django_language"] = language
    page = f"http://testserver{diary_url}"
    response = client.post(
        diary_url,
        {"text": "Bajamos a la cripta...", "action": "publish", "csrfmiddlewaretoken": "x" * 64},
        HTTP_REFERER=page,
    )
    assert response.status_code == 403
    refused = parse(response.text)
    assert words in refused.one("div", data_unsent_kept=True).text()
    assert refused.one("a", class_="btn-primary").attrs["href"] == page
    assert "La cripta" not in response.text
    assert not DiaryEntry.objects.exists()


def test_the_way_back_never_leads_to_another_site(diary_url):
    client = Client(enforce_csrf_checks=True)
    response = client.post(diary_url, {}, HTTP_REFERER="https://elsewhere.example/phish")
    assert response.status_code == 403
    assert parse(response.text).one("a", class_="btn-primary").attrs["href"] == reverse("home")
