"""A GM's forms on a sheet (Virtue and Vice, the specialization, a specialty, a merit, an
aspect) load the first time they are opened: the sheet draws each as a closed panel with
its address, the address's GET gives htmx the form (in its section, which htmx picks it
from) and, without JavaScript, the sheet with that form open; a refused form comes back
open, and only GMs get any of it."""

import pytest

from campaigns.permissions import character_access
from characters.views.sheet_context import sheet_context
from tests.characters.test_sheet_views import (
    HTMX,
    hitos_sheet,
    objetivo_sheet,
    tinieblas_sheet,
    url,
)
from tests.html import lazy_panel, parse

pytestmark = pytest.mark.django_db

# (the sheet, the form's URL name, a field of the form)
FORMS = [
    ("tinieblas", "details_set", "details-vice"),
    ("tinieblas", "specialty_add", "specialty-name"),
    ("tinieblas", "merit_set", "merit-name"),
    ("hitos", "aspect_add", "aspect-text"),
    ("objetivo", "details_set", "details-specialization"),
]


@pytest.fixture
def make(campaign, gm, player):
    makers = {
        "tinieblas": lambda: tinieblas_sheet(campaign, player),
        "hitos": lambda: hitos_sheet(gm, player),
        "objetivo": lambda: objetivo_sheet(gm, player),
    }
    return lambda system: makers[system]()


@pytest.mark.parametrize(("system", "name", "field"), FORMS)
def test_the_gms_sheet_has_the_form_closed_with_its_address_and_no_fields(
    client, gm, make, system, name, field
):
    character = make(system)
    client.force_login(gm)
    page = client.get(url(character)).text
    address = url(character, name)
    closed = lazy_panel(page, address)
    assert "open" not in closed.attrs
    assert closed.attrs["hx-trigger"] == "toggle once"
    assert closed.attrs["hx-select"] == f"form[action='{address}']"
    # The form loaded inside posts with its own target and swap, not the panel's.
    assert closed.attrs["hx-disinherit"] == "*"
    # Without JavaScript, the link opens the sheet with the form.
    assert closed.one("a").attrs["href"] == address
    assert not parse(page).find_all(name=field)


@pytest.mark.parametrize(("system", "name", "field"), FORMS)
def test_the_address_gives_htmx_the_form_and_a_page_with_it_open(
    client, gm, make, system, name, field
):
    character = make(system)
    client.force_login(gm)
    address = url(character, name)
    fragment = client.get(address, **HTMX)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text
    form = parse(fragment.text).one("form", action=address)
    assert form.attrs["hx-post"] == address
    assert form.find_all(name=field)
    assert form.find_all("input", name="csrfmiddlewaretoken")
    page = client.get(address)
    assert page.status_code == 200
    assert "<html" in page.text
    opened = lazy_panel(page.text, address)
    assert "open" in opened.attrs
    assert opened.one("form", action=address).find_all(name=field)


@pytest.mark.parametrize(("system", "name", "field"), FORMS[:3])
def test_a_player_or_observer_gets_403_and_a_stranger_404(
    client, player, observer, stranger, make, system, name, field
):
    character = make(system)
    for who, status in ((player, 403), (observer, 403), (stranger, 404)):
        client.force_login(who)
        assert client.get(url(character, name), **HTMX).status_code == status
        assert client.get(url(character, name)).status_code == status


def test_a_refused_merit_comes_back_open_with_what_was_typed(client, gm, make):
    character = make("tinieblas")
    client.force_login(gm)
    address = url(character, "merit_set")
    data = {"merit-key": "", "merit-name": "", "merit-rating": 2, "merit-notes": "Sin nombre"}
    for headers in (HTMX, {}):
        response = client.post(address, data, **headers)
        opened = lazy_panel(response.text, address)
        assert "open" in opened.attrs
        assert opened.one("input", name="merit-notes").attrs["value"] == "Sin nombre"


@pytest.mark.parametrize(
    ("system", "names"),
    [("tinieblas", ["specialty_form", "merit_form"]), ("hitos", ["aspect_form"])],
)
def test_a_plain_sheet_does_not_build_the_forms_it_shows_closed(rf, gm, make, system, names):
    """Its sections' forms are closed panels (`SheetSection.closed_forms`): the plain
    sheet builds none of them; a sheet that may show one open (a refusal, a form asked
    for) has them."""
    character = make(system)
    access = character_access(gm, character.campaign_id, character.pk)
    request = rf.get(url(character))
    request.user = gm
    assert not set(names) & set(sheet_context(access, request))
    assert set(names) <= set(sheet_context(access))
