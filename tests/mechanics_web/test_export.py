"""The roll log as CSV or JSON, for every member, with the log's filters."""

import csv
import io
import json

import pytest
from django.urls import reverse

from tests.factories import make_character
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db


def export(client, campaign, **params):
    response = client.get(reverse("mechanics:log_export", args=[campaign.pk]), params)
    body = b"".join(response.streaming_content).decode() if response.status_code == 200 else ""
    return response, body


def csv_rows(body: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))


@pytest.mark.parametrize("member", ["gm", "player", "observer"])
def test_every_member_downloads_the_log_as_csv(client, campaign, player, member, request):
    lucia = make_character(campaign, player, name="Lucía")
    roll = store_roll(campaign, player, character=lucia, label="Sigilo")
    client.force_login(request.getfixturevalue(member))
    response, body = export(client, campaign)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="tiradas-')
    header, row = csv_rows(body)
    assert header[:4] == ["Id", "Cuándo", "Tirada por", "Personaje"]
    assert row[:1] == [str(roll.pk)]
    assert "bob" in row
    assert "Lucía" in row
    assert "Sigilo" in row
    dice = " ".join(str(die["value"]) for die in roll.record["dice"])
    assert dice in row


def test_the_json_export_holds_each_roll_with_its_whole_record(client, campaign, player, observer):
    roll = store_roll(campaign, player, label="Pelea")
    client.force_login(observer)
    response, body = export(client, campaign, format="json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(body)
    assert data["campaign"] == campaign.name
    [exported] = data["rolls"]
    assert exported["id"] == roll.pk
    assert exported["label"] == "Pelea"
    assert exported["record"] == roll.record
    assert exported["result"] == roll.result
    assert "secret" not in exported


def test_the_export_applies_the_logs_filters(client, campaign, gm, player):
    store_roll(campaign, gm, label="Del máster")
    mine = store_roll(campaign, player, label="Del jugador")
    client.force_login(player)
    _, body = export(client, campaign, player=player.pk, format="json")
    assert [row["id"] for row in json.loads(body)["rolls"]] == [mine.pk]


def test_an_unknown_format_falls_back_to_csv(client, campaign, player):
    client.force_login(player)
    response, _ = export(client, campaign, format="xml")
    assert response["Content-Type"] == "text/csv; charset=utf-8"


def test_labels_and_names_never_run_as_spreadsheet_formulas(client, campaign, player):
    store_roll(campaign, player, label='=HYPERLINK("http://evil","x")')
    client.force_login(player)
    _, body = export(client, campaign)
    row = csv_rows(body)[1]
    assert '\'=HYPERLINK("http://evil","x")' in row


def test_a_stranger_gets_a_404_from_the_export(client, campaign, stranger):
    client.force_login(stranger)
    response, _ = export(client, campaign)
    assert response.status_code == 404


def test_the_export_runs_constant_queries(client, campaign, player, django_assert_num_queries):
    client.force_login(player)
    store_roll(campaign, player)
    # the session with its user, membership, players, characters, scenes, the rolls
    with django_assert_num_queries(6):
        export(client, campaign)
    for seed in range(60):
        store_roll(campaign, player, seed=seed, character=make_character(campaign, player))
    with django_assert_num_queries(6):
        _, body = export(client, campaign)
    assert len(csv_rows(body)) == 62
