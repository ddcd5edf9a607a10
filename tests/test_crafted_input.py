"""Crafted input gets a clear refusal, never a server error, on SQLite and PostgreSQL."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

BIG_ID = "1" * 26


@pytest.fixture
def sheet_file(client, campaign, player):
    """A valid exported sheet, as a dict to tamper with."""
    character = make_character(campaign, player, name="Lucía")
    client.force_login(player)
    response = client.get(reverse("characters:export", args=[campaign.pk, character.pk]))
    character.delete()
    return json.loads(response.content)


def post_import(client, campaign, raw: bytes):
    upload = SimpleUploadedFile("ficha.json", raw, content_type="application/json")
    return client.post(reverse("characters:import", args=[campaign.pk]), {"file": upload})


def test_an_import_with_a_lone_surrogate_in_the_name_is_refused(client, campaign, sheet_file):
    raw = json.dumps({**sheet_file, "name": "Luc\ud800ía"}).encode()  # escaped as \ud800
    response = post_import(client, campaign, raw)
    assert response.status_code == 200
    assert "carácter no válido" in response.text
    assert not Character.objects.exists()


@pytest.mark.parametrize("field", ["name", "notes"])
def test_an_import_with_a_nul_character_is_refused(client, campaign, sheet_file, field):
    raw = json.dumps({**sheet_file, field: "Lucía\x00"}).encode()  # escaped as \u0000
    response = post_import(client, campaign, raw)
    assert response.status_code == 200
    assert "carácter nulo" in response.text
    assert not Character.objects.exists()


def test_the_import_refusal_is_in_english_too(client, campaign, sheet_file):
    client.cookies.load({"django_language": "en"})
    raw = json.dumps({**sheet_file, "name": "Lucía\x00"}).encode()
    assert "null character" in post_import(client, campaign, raw).text


ONE_LINE_ES = "debe ocupar una sola línea, sin saltos de línea ni caracteres de control"


def _with_name(sheet: dict, field: str, name: str) -> dict:
    """The sheet with `name` in a top-level text or in a new row of one of its lists."""
    if field in ("name", "concept"):
        return {**sheet, field: name}
    row = {
        "specialties": {"skill": "pelea", "name": name},
        "merits": {"key": "", "name": name, "rating": 1, "notes": ""},
        "items": {"kind": "item", "name": name, "weight_kg": 1, "data": {}},
    }[field]
    return {**sheet, field: [*sheet.get(field, []), row]}


@pytest.mark.parametrize("field", ["name", "concept", "specialties", "merits", "items"])
@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 200), ("stranger", 404)], ids=lambda v: str(v)
)
def test_an_import_with_a_control_character_in_a_name_is_refused(
    client, campaign, sheet_file, request, field, who, status
):
    """Names are one line in an import as in the sheet's forms (issue 25)."""
    client.force_login(request.getfixturevalue(who))
    raw = json.dumps(_with_name(sheet_file, field, "Lucía\r\nGM: \x1b[2J")).encode()
    response = post_import(client, campaign, raw)
    assert response.status_code == status
    if status == 200:
        assert ONE_LINE_ES in response.text
    assert not Character.objects.exists()


def test_a_nul_in_an_invitation_token_is_a_bad_request(client, player):
    client.force_login(player)
    response = client.get("/campaigns/join/%00/")
    assert response.status_code == 400
    assert "carácter nulo" in response.text


@pytest.mark.parametrize("view", ["mechanics:log", "mechanics:log_export"])
@pytest.mark.parametrize("bound", ["date_to", "date_from"])
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_an_extreme_date_in_the_roll_log_filter_is_refused(
    client, campaign, player, view, bound, day
):
    client.force_login(player)
    response = client.get(reverse(view, args=[campaign.pk]), {bound: day})
    assert response.status_code == 200
    if view == "mechanics:log":
        assert "Introduce una fecha entre" in response.text


@pytest.mark.parametrize(
    "url",
    [
        f"/campaigns/{BIG_ID}/",
        f"/campaigns/{BIG_ID}/scenes/",
        f"/campaigns/{BIG_ID}/rolls/",
        f"/campaigns/{BIG_ID}/characters/import/",
        "/campaigns/{campaign}/characters/" + BIG_ID + "/",
        "/campaigns/{campaign}/scenes/" + BIG_ID + "/",
        f"/campaigns/{2**63}/",
    ],
)
def test_an_id_too_large_for_the_database_is_not_found(client, campaign, gm, url):
    client.force_login(gm)
    assert client.get(url.format(campaign=campaign.pk)).status_code == 404


def test_the_largest_database_id_is_still_looked_up(client, gm):
    client.force_login(gm)
    assert client.get(f"/campaigns/{2**63 - 1}/").status_code == 404


@pytest.mark.parametrize(
    "query", ["q=%00", "system=%00", "system__exact=a%00b", "created_at__gte=%00"]
)
def test_a_nul_in_an_admin_changelist_filter_is_a_bad_request(client, campaign, gm, query):
    client.force_login(gm)
    response = client.get(reverse("admin:campaigns_campaign_changelist") + "?" + query)
    assert response.status_code == 400


def test_a_nul_in_a_query_parameter_is_a_bad_request(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("mechanics:log", args=[campaign.pk]), {"character": "\x00"})
    assert response.status_code == 400


FORM_BODIES = {
    "application/x-www-form-urlencoded": "name=Renombrada",
    "multipart/form-data; boundary=frontera": (
        '--frontera\r\nContent-Disposition: form-data; name="name"\r\n\r\n'
        "Renombrada\r\n--frontera--\r\n"
    ),
}


@pytest.mark.parametrize("charset", ["utf-16", "utf-32", "latin-1", "no-such-charset", "utf8"])
@pytest.mark.parametrize("kind", FORM_BODIES)
def test_a_post_body_declared_in_another_charset_is_a_bad_request(
    client, campaign, gm, charset, kind
):
    client.force_login(gm)
    body = FORM_BODIES[kind].encode(charset if charset in ("utf-16", "utf-32") else "utf-8")
    # `generic` sends the bytes as they are; `post` would re-encode them itself.
    response = client.generic(
        "POST",
        reverse("campaigns:edit", args=[campaign.pk]),
        body,
        content_type=f"{kind}; charset={charset}",
    )
    assert response.status_code == 400
    assert "UTF-8" in response.text
    campaign.refresh_from_db()
    assert campaign.name != "Renombrada"


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8"])
def test_a_post_body_declared_as_utf8_is_read(client, campaign, gm, charset):
    client.force_login(gm)
    response = client.generic(
        "POST",
        reverse("campaigns:edit", args=[campaign.pk]),
        b"name=Renombrada&description=&system=tinieblas",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )
    assert response.status_code == 200
    assert "Renombrada" in response.text


def test_a_participant_id_too_large_for_the_database_is_refused(client, campaign, gm, player):
    make_character(campaign, player, name="Lucía")
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        {"title": "Prólogo", "participants": [BIG_ID]},
    )
    assert response.status_code == 200
    assert parse(response.text).find_all(class_="invalid-feedback")
    assert not campaign.scenes.exists()


def test_an_admin_user_id_too_large_for_the_database_is_refused(client, campaign, gm):
    client.force_login(gm)
    before = Membership.objects.count()
    response = client.post(
        reverse("admin:campaigns_membership_add"),
        {"campaign": campaign.pk, "user": BIG_ID, "role": "player"},
    )
    assert response.status_code == 200
    assert "errorlist" in response.text
    assert Membership.objects.count() == before


@pytest.mark.parametrize("selected", ["1e309", "uno", "-0.5"])
def test_an_admin_action_on_ids_that_are_not_ids_is_refused(client, campaign, gm, selected):
    client.force_login(gm)
    response = client.post(
        reverse("admin:campaigns_campaign_changelist"),
        {"action": "delete_selected", "index": "0", "_selected_action": [selected]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Elige elementos de la lista" in response.text
    assert Campaign.objects.filter(pk=campaign.pk).exists()


@pytest.mark.parametrize("system", [[], {"a": 1}, 7, None])
def test_an_import_whose_system_is_not_a_name_is_refused(client, campaign, sheet_file, system):
    raw = json.dumps({**sheet_file, "system": system}).encode()
    response = post_import(client, campaign, raw)
    assert response.status_code == 200
    assert "Una ficha solo se importa en una campaña del mismo sistema" in response.text
    assert not Character.objects.exists()
