"""Saved rolls: a roll panel's set-up kept under a name and rolled in one tap from the top
of the sheet; renamed and deleted (after asking) by the sheet's owner and the GMs only."""

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.fragments import CACHE
from characters.models import Specialty
from characters.services import specialty_add, specialty_remove
from mechanics.models import Roll, SavedRoll
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LUCIA = {"inteligencia": 3, "astucia": 2, "destreza": 3, "investigacion": 3, "pelea": 2}
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=LUCIA)


@pytest.fixture
def npc(campaign, gm):
    return make_character(campaign, None, name="El guardia", user=gm, ratings=LUCIA)


def url(name, character, *args):
    return reverse(f"mechanics:{name}", args=[character.campaign_id, character.pk, *args])


def sheet_url(character):
    return reverse("characters:sheet", args=[character.campaign_id, character.pk])


def save(client, character, name="Investigar", **extra):
    return client.post(
        url("saved_roll_save", character), {**POOL, "saved_name": name, **extra}, **HTMX
    )


def saved_of(character, name="Percepción") -> SavedRoll:
    return SavedRoll.objects.create(character=character, name=name, setup=_lists(POOL))


def _lists(data):
    return {key: [value] for key, value in data.items()}


# Saving from the panel


def test_owner_saves_the_panels_set_up_without_its_one_off_spends(client, player, lucia):
    client.force_login(player)
    response = save(client, lucia, "  Percepción  +  Alerta ", willpower="dice", secret="on")
    assert response.status_code == 200
    assert "cronica:saved-rolls" in response["HX-Trigger"]
    saved = SavedRoll.objects.get(character=lucia)
    assert saved.name == "Percepción + Alerta"
    assert saved.setup == _lists(POOL)
    assert "Percepción + Alerta" in parse(response.content).one(class_="roll-save").text()


def test_a_set_up_that_does_not_roll_is_not_saved(client, player, lucia):
    client.force_login(player)
    response = save(client, lucia, attribute="no-such-trait")
    assert response.status_code == 200
    assert not SavedRoll.objects.exists()
    assert "cronica:saved-rolls" not in response.get("HX-Trigger", "")


def test_a_saved_roll_needs_a_name_not_taken_by_another(client, player, lucia):
    client.force_login(player)
    response = save(client, lucia, "   ")
    assert "Ponle un nombre a la tirada guardada." in response.text
    save(client, lucia, "Investigar")
    response = save(client, lucia, "investigar")
    assert "Ya hay una tirada guardada con ese nombre." in response.text
    assert SavedRoll.objects.count() == 1


def test_a_refused_name_stays_in_its_field_to_be_corrected(client, gm, player, stranger, lucia):
    saved_of(lucia, "Investigar")
    for user in (player, gm):
        client.force_login(user)
        panel = parse(save(client, lucia, "investigar").content)
        assert "Ya hay una tirada guardada con ese nombre." in panel.text()
        assert panel.one("input", name="saved_name").attrs["value"] == "investigar"
        # Without JavaScript, the panel's page the same.
        page = parse(
            client.post(url("saved_roll_save", lucia), {**POOL, "saved_name": "investigar"}).content
        )
        assert page.one("input", name="saved_name").attrs["value"] == "investigar"
    # Saved, the field is empty for the next one.
    panel = parse(save(client, lucia, "Buscar pistas").content)
    assert panel.one("input", name="saved_name").attrs["value"] == ""
    client.force_login(stranger)
    assert save(client, lucia, "investigar").status_code == 404
    assert set(SavedRoll.objects.values_list("name", flat=True)) == {"Investigar", "Buscar pistas"}


def test_without_javascript_saving_returns_to_the_panel_with_a_message(client, player, lucia):
    client.force_login(player)
    response = client.post(
        url("saved_roll_save", lucia), {**POOL, "saved_name": "Buscar"}, follow=True
    )
    assert response.redirect_chain[0][0].startswith(url("roll", lucia))
    assert "Guardada «Buscar»" in response.text


def test_gm_saves_a_roll_for_an_npc_and_for_a_players_character(client, gm, npc, lucia):
    client.force_login(gm)
    assert save(client, npc, "Disparar con la escopeta").status_code == 200
    assert save(client, lucia, "Investigar").status_code == 200
    assert set(SavedRoll.objects.values_list("character__name", "name")) == {
        ("El guardia", "Disparar con la escopeta"),
        ("Lucía", "Investigar"),
    }


# Rolling in one tap


def test_the_sheet_offers_each_saved_roll_as_one_button_at_its_top(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    page = parse(client.get(sheet_url(lucia)).content)
    bar = page.one(id=f"saved-rolls-{lucia.pk}")
    form = bar.one("form")
    assert form.attrs["action"] == url("roll", lucia)
    assert form.one("input", type="hidden", name="saved").attrs["value"] == str(saved.pk)
    assert bar.one("button").text() == "Percepción"
    # At the top: before the traits and the roll panel.
    content = client.get(sheet_url(lucia)).text
    assert content.index(f'id="saved-rolls-{lucia.pk}"') < content.index('id="sheet-traits"')


def test_the_bar_escapes_a_saved_rolls_name_and_says_when_there_is_none(client, player, lucia):
    client.force_login(player)
    empty = parse(client.get(sheet_url(lucia)).content).one(id=f"saved-rolls-{lucia.pk}")
    assert not empty.find_all("form")
    assert "Aún ninguna" in empty.text()
    saved = saved_of(lucia)
    SavedRoll.objects.filter(pk=saved.pk).update(name='<b>"Mira"</b> & co')
    content = client.get(sheet_url(lucia)).text
    assert '<b>"Mira"</b>' not in content
    bar = parse(content).one(id=f"saved-rolls-{lucia.pk}")
    assert bar.one("button").text() == '<b>"Mira"</b> & co'
    assert bar.one("a").attrs["href"] == url("saved_rolls", lucia)
    assert bar.attrs["hx-get"] == f"{url('saved_rolls', lucia)}?part=bar"


def test_a_saved_roll_rolls_its_set_up_in_one_post(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    response = client.post(url("roll", lucia), {"saved": saved.pk}, **HTMX)
    assert response.status_code == 200
    roll = Roll.objects.get(character=lucia)
    assert roll.label == "Percepción"
    assert roll.record["details"]["pool"] == 6  # Inteligencia 3 + Investigación 3
    page = parse(response.content)
    assert page.one(id=f"roll-result-{lucia.pk}").find_all(class_="die")


def test_without_javascript_a_saved_roll_shows_its_result_on_the_panel_page(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    response = client.post(url("roll", lucia), {"saved": saved.pk}, follow=True)
    roll = Roll.objects.get(character=lucia)
    assert response.redirect_chain[0][0].endswith(f"result={roll.pk}")
    assert parse(response.content).one(id=f"roll-result-{lucia.pk}").find_all(class_="die")


def test_a_saved_roll_that_no_longer_fits_the_sheet_says_so_and_rolls_nothing(
    client, player, lucia
):
    specialty = specialty_add(
        character=lucia, user=player, skill_key="investigacion", name="Archivos"
    )
    client.force_login(player)
    save(client, lucia, "Archivos", specialty=str(specialty.pk))
    saved = SavedRoll.objects.get()
    specialty_remove(specialty=Specialty.objects.get(pk=specialty.pk), user=player)
    for extra in ({}, HTMX):
        response = client.post(url("roll", lucia), {"saved": saved.pk}, **extra)
        assert response.status_code == 200
        assert "«Archivos» ya no encaja con la ficha" in response.text
    assert not Roll.objects.exists()


def test_a_saved_roll_of_another_character_is_not_found(client, player, lucia, npc):
    saved = saved_of(npc)
    client.force_login(player)
    assert client.post(url("roll", lucia), {"saved": saved.pk}, **HTMX).status_code == 404
    assert client.post(url("roll", lucia), {"saved": "x"}, **HTMX).status_code == 404


# Renaming and deleting


def test_owner_renames_a_saved_roll(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    response = client.post(url("saved_roll_rename", lucia, saved.pk), {"name": "Alerta"})
    assert response.status_code == 302
    saved.refresh_from_db()
    assert saved.name == "Alerta"


def test_renaming_to_a_taken_name_is_refused_with_a_message(client, player, lucia):
    saved = saved_of(lucia)
    saved_of(lucia, "Alerta")
    client.force_login(player)
    response = client.post(
        url("saved_roll_rename", lucia, saved.pk), {"name": "alerta"}, follow=True
    )
    assert "Ya hay una tirada guardada con ese nombre." in response.text
    saved.refresh_from_db()
    assert saved.name == "Percepción"


def test_deleting_asks_first_without_javascript_then_deletes(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    delete = url("saved_roll_delete", lucia, saved.pk)
    asked = client.post(delete)
    assert asked.status_code == 200
    assert "¿Borrar la tirada guardada «Percepción»?" in asked.text
    assert SavedRoll.objects.filter(pk=saved.pk).exists()
    assert client.post(delete, {"confirmed": "1"}).status_code == 302
    assert not SavedRoll.objects.filter(pk=saved.pk).exists()


def test_the_list_page_offers_rename_and_a_delete_that_asks(client, player, lucia):
    saved = saved_of(lucia)
    client.force_login(player)
    page = parse(client.get(url("saved_rolls", lucia)).content)
    delete = page.one("form", action=url("saved_roll_delete", lucia, saved.pk))
    assert "Percepción" in delete.attrs["data-confirm"]
    page.one("form", action=url("saved_roll_rename", lucia, saved.pk))


# Who may


def _every_request(client, character, saved):
    return {
        "save": save(client, character, "Nueva").status_code,
        "list": client.get(url("saved_rolls", character)).status_code,
        "roll": client.post(url("roll", character), {"saved": saved.pk}, **HTMX).status_code,
        "rename": client.post(
            url("saved_roll_rename", character, saved.pk), {"name": "Otra"}
        ).status_code,
        "delete": client.post(
            url("saved_roll_delete", character, saved.pk), {"confirmed": "1"}
        ).status_code,
    }


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("gm", {"save": 200, "list": 200, "roll": 200, "rename": 302, "delete": 302}),
        ("player", {"save": 200, "list": 200, "roll": 200, "rename": 302, "delete": 302}),
        ("other_player", dict.fromkeys(("save", "list", "roll", "rename", "delete"), 403)),
        ("observer", dict.fromkeys(("save", "list", "roll", "rename", "delete"), 403)),
        ("stranger", dict.fromkeys(("save", "list", "roll", "rename", "delete"), 404)),
    ],
)
def test_only_the_owner_and_the_gm_use_a_sheets_saved_rolls(client, request, lucia, who, expected):
    saved = saved_of(lucia)
    client.force_login(request.getfixturevalue(who))
    assert _every_request(client, lucia, saved) == expected
    kept = SavedRoll.objects.filter(character=lucia)
    if expected["delete"] == 302:
        assert list(kept.values_list("name", flat=True)) == ["Nueva"]
    else:
        assert list(kept.values_list("name", flat=True)) == ["Percepción"]
        assert not Roll.objects.exists()


def test_another_player_and_an_observer_see_no_saved_rolls_on_the_sheet(
    client, campaign, other_player, observer, lucia
):
    saved_of(lucia)
    campaign.players_see_full_sheets = True
    for user in (other_player, observer):
        client.force_login(user)
        assert f'id="saved-rolls-{lucia.pk}"' not in client.get(sheet_url(lucia)).text


def test_the_sheet_reads_its_saved_rolls_in_one_query_however_many(client, player, lucia):
    client.force_login(player)
    saved_of(lucia)
    client.get(sheet_url(lucia))  # the session and the like, read once
    caches[CACHE].clear()  # both requests below render the sheet's grid
    with CaptureQueriesContext(connection) as one:
        client.get(sheet_url(lucia))
    for number in range(8):
        saved_of(lucia, f"Tirada {number}")
    caches[CACHE].clear()
    with CaptureQueriesContext(connection) as nine:
        response = client.get(sheet_url(lucia))
    assert len(parse(response.content).one(id=f"saved-rolls-{lucia.pk}").find_all("form")) == 9
    assert len(nine) == len(one)


def test_the_sheets_bar_follows_a_saved_roll_renamed_added_or_deleted(client, player, lucia):
    """The bar's list is cached under the character's version, which each of these bumps,
    even written past the services."""
    saved = saved_of(lucia)
    client.force_login(player)

    def shown() -> list[str]:
        bar = parse(client.get(sheet_url(lucia)).content).one(id=f"saved-rolls-{lucia.pk}")
        return [button.text() for button in bar.find_all("button")]

    assert shown() == ["Percepción"]
    SavedRoll.objects.filter(pk=saved.pk).update(name="Alerta")
    assert shown() == ["Alerta"]
    saved_of(lucia, "Buscar")
    assert shown() == ["Alerta", "Buscar"]
    SavedRoll.objects.filter(pk=saved.pk).delete()
    assert shown() == ["Buscar"]


def test_the_sheet_reads_its_saved_rolls_from_the_cache_while_nothing_changes(
    client, player, lucia
):
    saved_of(lucia)
    client.force_login(player)
    client.get(sheet_url(lucia))
    with CaptureQueriesContext(connection) as queries:
        client.get(sheet_url(lucia))
    assert not [query for query in queries if "mechanics_savedroll" in query["sql"]]
