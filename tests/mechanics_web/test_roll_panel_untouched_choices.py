"""An untouched roll panel marks the choice each of its lists shows. A list drawn with none
marked selected shows its first choice all the same, and the live table (static/js/live.js)
takes it for one the player changed: it held back every live reload of the panel, so a
destiny point the GM handed back never reached an open Dado objetivo panel."""

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from campaigns.htmx import SINCE_HEADER
from characters.models import Resource
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def untouched_panel(client, character):
    response = client.get(roll_url(character), **HTMX)
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
@pytest.mark.parametrize("who", ["gm", "player"])
def test_every_list_of_an_untouched_panel_marks_the_choice_it_shows(
    client, request, gm, player, system, who
):
    campaign = campaign_with(system, gm, players=[player])
    character = make_character(campaign, player, name="Carmen")
    client.force_login(request.getfixturevalue(who))
    page = parse(untouched_panel(client, character).text)
    unmarked = [
        select.attrs["name"]
        for select in page.find_all("select")
        if "multiple" not in select.attrs
        and select.find_all("option")
        and not any("selected" in option.attrs for option in select.find_all("option"))
    ]
    assert unmarked == []


def test_a_stranger_finds_no_panel(client, gm, player, stranger):
    campaign = campaign_with("objetivo", gm, players=[player])
    character = make_character(campaign, player, name="Carmen")
    client.force_login(stranger)
    assert client.get(roll_url(character), **HTMX).status_code == 404


def test_an_untouched_objetivo_panel_reloads_with_the_point_handed_back(client, gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    carmen = make_character(
        campaign, player, name="Carmen", ratings={"fuerza": 5, "armas_cc": 4, "resistencia": 8}
    )
    Resource.objects.filter(character=carmen, key="destiny_points").update(current=2)
    client.force_login(player)
    page = untouched_panel(client, carmen).text
    since = json.loads(unescape(re.search(r'hx-headers="([^"]+)"', page).group(1)))[SINCE_HEADER]
    form = parse(page).one("form", class_="roll-form")
    # What the open page sends with its reload: the choices it shows, the weapon included.
    assert form.one("select", name="weapon").one("option", selected=True).attrs["value"] == "pelea"
    client.force_login(gm)
    url = reverse(
        "characters:pool_action", args=[campaign.pk, carmen.pk, "destiny_points", "hand-back"]
    )
    client.post(url, **HTMX)
    client.force_login(player)
    choices = {"kind": "skill", "attribute": "fuerza", "skill": "armas_cc", "weapon": "pelea"}
    reload = client.get(roll_url(carmen), choices, **HTMX, headers={SINCE_HEADER: since})
    assert reload.status_code == 200
    panel = parse(reload.text)
    assert panel.one("li", data_pool="destiny_points").one(class_="roll-pool-value").text() == "3"
    assert (
        "Se devolvió un punto de destino: un nivel abajo." in panel.one(class_="roll-odds").text()
    )
