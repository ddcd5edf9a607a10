"""The tips of the history chains kept outside the tables (issue 25): in every backup's
manifest and in a GM's exported checkpoint, so that removing the newest rows, or
rewriting them with the key, shows when `verify_history --checkpoint` compares."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.history import chain_link, content_hash
from mechanics.models import Roll
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.html import parse
from tests.test_history import TABLES, drop_triggers, execute, play, rows, verify


@pytest.fixture
def history(campaign, gm, player):
    play(campaign, gm, player)
    return campaign


def saved_checkpoint(client, campaign, gm, tmp_path):
    client.force_login(gm)
    response = client.get(reverse("campaigns:history_checkpoint", args=[campaign.pk]))
    path = tmp_path / "checkpoint.json"
    path.write_bytes(response.content)
    return path


@pytest.mark.django_db
def test_the_gm_downloads_the_checkpoint_and_players_and_strangers_cannot(
    client, history, gm, player, stranger
):
    url = reverse("campaigns:history_checkpoint", args=[history.pk])
    client.force_login(gm)
    response = client.get(url)
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    tips = response.json()["history"]
    last = rows(Roll, history)[-1]
    assert tips["mechanics_roll"] == {str(history.pk): {"length": 3, "head": last.chain_hash}}
    assert set(tips) == set(TABLES.values())
    for user, status in ((player, 403), (stranger, 404)):
        client.force_login(user)
        assert client.get(url).status_code == status


@pytest.mark.django_db
def test_the_campaign_settings_page_shows_the_gm_the_tips(client, history, gm):
    client.force_login(gm)
    page = parse(client.get(reverse("campaigns:edit", args=[history.pk])).content)
    line = page.one(id="history-checkpoint").text()
    assert "Punto de control del historial" in line
    assert rows(Roll, history)[-1].chain_hash[:16] in line


@pytest.mark.django_db
def test_removing_the_newest_rows_passes_alone_but_not_against_a_checkpoint(
    client, history, gm, tmp_path
):
    checkpoint = saved_checkpoint(client, history, gm, tmp_path)
    drop_triggers(Roll)
    execute("DELETE FROM mechanics_roll WHERE id = %s", [rows(Roll, history)[-1].pk])

    assert verify()[0]  # a shorter chain is still a valid chain
    ok, out = verify("--checkpoint", str(checkpoint))

    assert not ok
    assert f"Campaign {history.pk} ({history.name}): BEHIND THE CHECKPOINT: Roll: " in out
    assert "rows were removed" in out


@pytest.mark.django_db
def test_the_newest_row_rewritten_with_the_key_is_found_against_a_checkpoint(
    client, history, gm, tmp_path
):
    checkpoint = saved_checkpoint(client, history, gm, tmp_path)
    drop_triggers(Roll)
    *_, before, last = rows(Roll, history)
    execute("UPDATE mechanics_roll SET result = 99 WHERE id = %s", [last.pk])
    last = Roll._base_manager.get(pk=last.pk)
    new_content = content_hash(last)
    execute(
        "UPDATE mechanics_roll SET content_hash = %s, chain_hash = %s WHERE id = %s",
        [new_content, chain_link(before.chain_hash, new_content), last.pk],
    )

    assert verify()[0]
    ok, out = verify("--checkpoint", str(checkpoint))

    assert not ok
    assert "Roll: position 3 is not the checkpoint's head, rewritten" in out


@pytest.mark.django_db(transaction=True)
def test_every_backup_keeps_the_tips_and_verify_history_reads_them(tmp_path):
    gm, player = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    play(campaign, gm, player, rounds=2)
    backup = tmp_path / "backup"
    call_command("backup", str(backup), stdout=StringIO())

    history = json.loads((backup / "manifest.json").read_text())["history"]

    assert history["characters_xpentry"][str(campaign.pk)]["length"] == 2
    last = rows(Roll, campaign)[-1]
    assert history["mechanics_roll"][str(campaign.pk)] == {"length": 2, "head": last.chain_hash}
    assert verify("--checkpoint", str(backup))[0]
    play(campaign, gm, player, rounds=1)  # newer rows than the checkpoint are fine
    assert verify("--checkpoint", str(backup))[0]
