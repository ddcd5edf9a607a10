"""The pages of a refusal or a failure (templates/404.html, 403.html, 500.html): in the
reader's language, with the way back, never Django's bare English page. A campaign's
pages answer 404 to who is not a member: the 404 page does not say which it was."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from tests.html import parse

pytestmark = pytest.mark.django_db


def shown(response) -> tuple[str, str]:
    """The page's heading and where its button leads."""
    page = parse(response.text)
    main = page.one("main")
    return main.one("h1").text(), main.one("a", class_="btn-primary").attrs["href"]


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_a_campaign_page_that_does_not_exist_says_so_with_the_way_back(
    client, request, campaign, who
):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("campaigns:detail", args=[campaign.pk + 1000]))
    assert response.status_code == 404
    assert shown(response) == ("Página no encontrada", reverse("campaigns:list"))
    # The site's own page: its menu and stylesheet.
    assert parse(response.text).find_all("nav", class_="cronica-bar")


@pytest.mark.parametrize(("who", "status"), [("gm", 200), ("player", 403), ("stranger", 404)])
def test_a_gm_page_refuses_a_player_with_words_and_a_stranger_as_not_found(
    client, request, campaign, who, status
):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("campaigns:edit", args=[campaign.pk]))
    assert response.status_code == status
    if status == 403:
        assert shown(response) == ("No permitido", reverse("campaigns:list"))
    elif status == 404:
        assert shown(response)[0] == "Página no encontrada"


def test_the_pages_follow_the_readers_language(client, campaign, player):
    client.force_login(player)
    client.cookies["django_language"] = "en"
    assert shown(client.get(reverse("campaigns:edit", args=[campaign.pk])))[0] == "Not allowed"
    response = client.get(reverse("campaigns:detail", args=[campaign.pk + 1000]))
    assert shown(response)[0] == "Page not found"


def test_an_unknown_address_before_logging_in_offers_the_login(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert shown(response) == ("Página no encontrada", f"{reverse('login')}?next=/no-such-page/")


def test_a_server_error_has_its_own_page_that_reads_nothing(django_assert_num_queries):
    """Rendered with no context: it may be the database that failed."""
    with translation.override("es"), django_assert_num_queries(0):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = parse(response.content.decode())
    assert page.one("h1").text() == "Algo ha fallado por nuestra parte"
    assert page.one("a", class_="btn-primary").attrs["href"] == "/"
