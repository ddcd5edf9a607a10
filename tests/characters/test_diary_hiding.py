"""A GM hides a diary entry from the group; its author keeps it and still reads it."""

from datetime import date

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.permissions import campaign_access, visible_diaries
from campaigns.selectors import scenes_for, with_counts
from characters import services as character_services
from characters.models import DiaryEntry
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db

CANARY = "CANARIO-OCULTO-321"


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def scene(campaign, lucia):
    return services.scene_create(
        campaign=campaign, title="El incendio", date=date(2025, 3, 14), participants=[lucia]
    )


@pytest.fixture
def entry(scene, lucia, player):
    return character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body=f"Lucía lo cuenta todo: {CANARY}",
        status="published",
        visibility="group",
    )


def hide_url(entry):
    return reverse("characters:diary_hide", args=[entry.scene.campaign_id, entry.pk])


def scene_page(client, user, scene):
    client.force_login(user)
    return client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk]))


def hide(client, user, entry, **extra):
    client.force_login(user)
    return client.post(hide_url(entry), {"hidden": "1", "confirmed": "1", **extra})


def test_the_gm_hides_a_diary_and_the_group_no_longer_sees_it(
    client, gm, player2, observer, scene, entry
):
    response = hide(client, gm, entry)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#diary-{entry.pk}")
    entry.refresh_from_db()
    assert entry.is_hidden
    assert entry.hidden_by == gm
    for user in (player2, observer):
        page = scene_page(client, user, scene)
        assert page.status_code == 200
        assert CANARY not in page.text


def test_the_author_still_reads_a_hidden_diary_marked_hidden(client, gm, player, scene, entry):
    hide(client, gm, entry)
    page = scene_page(client, player, scene).text
    assert CANARY in page
    assert "oculto por el máster" in page.lower()
    client.cookies["django_language"] = "en"
    assert "Hidden by the GM" in client.get(scene.get_absolute_url()).text


def test_the_author_keeps_the_text_and_can_still_edit_it(client, gm, player, scene, lucia, entry):
    hide(client, gm, entry)
    client.force_login(player)
    url = reverse("characters:diary", args=[scene.campaign_id, lucia.pk, scene.pk])
    page = client.get(url).text
    assert CANARY in page
    assert "Oculto por el máster" in page
    client.post(url, {"body": "Reescrito", "visibility": "group", "action": "publish"})
    entry.refresh_from_db()
    assert entry.body == "Reescrito"
    assert entry.is_hidden, "rewriting a hidden entry must not show it again"


def test_the_gm_sees_the_hidden_diary_and_can_show_it_again(client, gm, player2, scene, entry):
    hide(client, gm, entry)
    page = scene_page(client, gm, scene).text
    assert CANARY in page
    assert "Oculto por el máster" in page
    assert "Mostrar de nuevo al grupo" in page
    response = client.post(hide_url(entry), {"hidden": "0"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert not entry.is_hidden
    assert CANARY in scene_page(client, player2, scene).text


def test_hiding_asks_first_and_does_nothing_unconfirmed(client, gm, entry):
    client.force_login(gm)
    response = client.post(hide_url(entry), {"hidden": "1"})
    assert response.status_code == 200
    assert "¿Ocultar al grupo el diario de Lucía?" in response.text
    assert 'name="confirmed" value="1"' in response.text
    entry.refresh_from_db()
    assert not entry.is_hidden


def test_the_gm_page_offers_a_confirmed_hide_button(client, gm, scene, entry):
    page = scene_page(client, gm, scene).text
    assert f'action="{hide_url(entry)}"' in page
    assert "data-confirm=" in page


@pytest.mark.parametrize("who", ["player", "player2", "observer"])
def test_members_who_are_not_gms_cannot_hide_a_diary(client, entry, who, request):
    response = hide(client, request.getfixturevalue(who), entry)
    assert response.status_code == 403
    entry.refresh_from_db()
    assert not entry.is_hidden


@pytest.mark.parametrize("who", ["player", "player2", "observer"])
def test_members_who_are_not_gms_see_no_hide_button(client, scene, entry, who, request):
    page = scene_page(client, request.getfixturevalue(who), scene).text
    assert hide_url(entry) not in page


def test_a_player_cannot_unhide_their_own_hidden_diary(client, gm, player, entry):
    hide(client, gm, entry)
    client.force_login(player)
    assert client.post(hide_url(entry), {"hidden": "0"}).status_code == 403
    entry.refresh_from_db()
    assert entry.is_hidden


def test_a_stranger_gets_404(client, stranger, entry):
    assert hide(client, stranger, entry).status_code == 404


def test_a_gm_of_another_campaign_gets_404(client, entry):
    other_gm = UserFactory(username="eva")
    MembershipFactory(campaign=CampaignFactory(created_by=other_gm), user=other_gm, role="gm")
    # Their own campaign's URL with this entry's id: the entry is not in it.
    other = other_gm.memberships.get().campaign
    client.force_login(other_gm)
    url = reverse("characters:diary_hide", args=[other.pk, entry.pk])
    assert client.post(url, {"hidden": "1", "confirmed": "1"}).status_code == 404
    entry.refresh_from_db()
    assert not entry.is_hidden


def test_a_draft_the_gm_cannot_read_cannot_be_hidden(client, gm, player, scene, lucia):
    draft = character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body="borrador",
        status="draft",
        visibility="group",
    )
    assert hide(client, gm, draft).status_code == 404


def test_hiding_is_post_only(client, gm, entry):
    client.force_login(gm)
    assert client.get(hide_url(entry)).status_code == 405


def test_hidden_diaries_are_not_counted_for_the_group(gm, player, player2, campaign, scene, entry):
    character_services.diary_set_hidden(entry=entry, user=gm, hidden=True)
    counts = {}
    for user in (gm, player, player2):
        access = campaign_access(user, campaign.pk)
        counts[user.username] = with_counts(access, scenes_for(access))[0].diary_count
        visible = visible_diaries(access, DiaryEntry.objects.all())
        assert visible.exists() == (user != player2)
    assert counts == {"alice": 1, "bob": 1, "dora": 0}


def test_hiding_keeps_the_entrys_place_in_the_timeline(gm, entry):
    before = DiaryEntry.objects.get(pk=entry.pk).updated_at
    character_services.diary_set_hidden(entry=entry, user=gm, hidden=True)
    character_services.diary_set_hidden(entry=entry, user=gm, hidden=False)
    assert DiaryEntry.objects.get(pk=entry.pk).updated_at == before
