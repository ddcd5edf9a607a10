""" "Crónica" names the site; the campaign's list of scenes has a name of its own."""

import pytest
from django.urls import reverse

from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_scene_list_is_called_scenes_not_cronica(client, request, campaign, who):
    client.force_login(request.getfixturevalue(who))
    page = parse(client.get(reverse("campaigns:timeline", args=[campaign.pk])).content)
    assert page.one("h1").text() == "Escenas"
    assert page.one("title").text().startswith("Escenas · ")
    brand = page.one("a", class_="navbar-brand").text()
    assert brand == "Crónica"


def test_a_stranger_does_not_see_the_scene_list(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(reverse("campaigns:timeline", args=[campaign.pk])).status_code == 404
