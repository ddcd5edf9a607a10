"""3d6 + NdP Lingüística: "Cada NdP otorga comprensión, habla o escritura de un idioma";
the sheet lists the grants, at most one per NdP; the owner or a GM adds and removes them
(docs/rules.md#ndp-linguistica)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.models import Character
from tests.factories import campaign_with, make_character
from tests.html import lazy_panel, parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def scholar(gm, player, dora, observer):
    campaign = campaign_with("ndp", gm, players=[player, dora], observers=[observer])
    return make_character(campaign, player, name="Erudita", ratings={"linguistica": 2})


def add_url(character):
    return reverse("ndp:language_add", args=[character.campaign_id, character.pk])


def known(character):
    return Character.objects.get(pk=character.pk).details.get("languages", [])


def add(client, character, language, grant):
    data = {"language": language, "grant": grant}
    return client.post(add_url(character), data, **HTMX)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_owner_or_the_gm_writes_down_a_language(client, request, scholar, who):
    client.force_login(request.getfixturevalue(who))
    response = add(client, scholar, "Élfico", "habla")
    assert "Élfico (habla) añadido." in response.text
    assert "Idiomas (1 de 2)" in response.text
    assert [(e["language"], e["grant"]) for e in known(scholar)] == [("Élfico", "habla")]


def test_each_ndp_grants_one_and_a_third_is_refused(client, player, scholar):
    client.force_login(player)
    add(client, scholar, "Élfico", "habla")
    add(client, scholar, "Élfico", "escritura")
    response = add(client, scholar, "Enano", "comprension")
    assert "Con Lingüística 2 un personaje tiene 2 conocimientos" in response.text
    assert 'value="Enano"' in response.text  # what was typed stays
    assert len(known(scholar)) == 2


def test_the_same_grant_twice_is_refused(client, player, scholar):
    client.force_login(player)
    add(client, scholar, "Élfico", "habla")
    response = add(client, scholar, "élfico", "habla")
    assert "Erudita ya tiene habla de élfico." in response.text
    assert len(known(scholar)) == 1


@pytest.mark.parametrize(("language", "grant"), [("", "habla"), ("Élfico", "canto")])
def test_a_bad_language_is_refused_with_the_reason(client, player, scholar, language, grant):
    client.force_login(player)
    response = add(client, scholar, language, grant)
    assert "alert-danger" in response.text
    assert known(scholar) == []


def test_a_language_is_removed(client, player, scholar):
    client.force_login(player)
    add(client, scholar, "Élfico", "habla")
    entry = known(scholar)[0]
    url = reverse("ndp:language_remove", args=[scholar.campaign_id, scholar.pk, entry["id"]])
    assert "Élfico quitado." in client.post(url, **HTMX).text
    assert known(scholar) == []


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("observer", 403), ("stranger", 404)])
def test_others_cannot_write_down_languages_and_nothing_is_written(
    client, request, scholar, who, status
):
    client.force_login(request.getfixturevalue(who))
    response = client.post(add_url(scholar), {"language": "Élfico", "grant": "habla"})
    assert response.status_code == status
    url = reverse("ndp:language_remove", args=[scholar.campaign_id, scholar.pk, "abc"])
    assert client.post(url).status_code == status
    assert known(scholar) == []


def test_the_sheet_shows_the_languages_section(client, gm, scholar):
    client.force_login(gm)
    page = client.get(reverse("characters:sheet", args=[scholar.campaign_id, scholar.pk])).text
    assert "Cada NdP de Lingüística otorga comprensión, habla o escritura de un idioma." in page
    assert "Idiomas (0 de 2)" in page


@pytest.mark.parametrize(
    "languages",
    [["Élfico"], [{"id": "a", "language": "Élfico", "grant": "canto"}], {"a": 1}],
)
def test_an_imported_sheet_with_malformed_languages_is_refused(scholar, languages):
    system = scholar.campaign.game_system
    with pytest.raises(ValidationError, match="comprension, habla o escritura"):
        system.clean_details({"languages": languages}, scholar.campaign)
    good = [{"id": "a", "language": "Élfico", "grant": "habla"}]
    assert system.clean_details({"languages": good}, scholar.campaign)["languages"] == good


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_language_form_loads_when_its_panel_is_opened(client, request, scholar, who):
    client.force_login(request.getfixturevalue(who))
    address = add_url(scholar)
    sheet = client.get(scholar.get_absolute_url()).text
    closed = lazy_panel(sheet, address)
    assert "open" not in closed.attrs
    assert closed.attrs["hx-get"] == address
    assert closed.attrs["hx-select"] == f"form[action='{address}']"
    assert closed.one("a").attrs["href"] == address
    assert not parse(sheet).find_all(id="language_language")
    fragment = client.get(address, **HTMX)
    assert "<html" not in fragment.text
    form = parse(fragment.text).one("form", action=address)
    assert form.find_all(id="language_language")
    assert form.find_all("input", name="csrfmiddlewaretoken")
    page = client.get(address).text
    assert "<html" in page
    assert "open" in lazy_panel(page, address).attrs


def test_a_refused_language_comes_back_open_with_what_was_typed(client, player, scholar):
    client.force_login(player)
    address = add_url(scholar)
    response = client.post(address, {"language": "Élfico", "grant": "nada"}, **HTMX)
    opened = lazy_panel(response.text, address)
    assert "open" in opened.attrs
    assert opened.one("input", name="language").attrs["value"] == "Élfico"


def test_only_the_owner_and_gms_get_the_language_form(client, dora, observer, stranger, scholar):
    for who, status in ((dora, 403), (observer, 403), (stranger, 404)):
        client.force_login(who)
        assert client.get(add_url(scholar), **HTMX).status_code == status
        assert client.get(add_url(scholar)).status_code == status
