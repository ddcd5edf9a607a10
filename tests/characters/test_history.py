import pytest
from django.urls import reverse

from characters import services
from characters.models import SheetChange
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def character(campaign, player):
    return make_character(campaign, player, name="Lucía Ferrer")


def url(character) -> str:
    return reverse("characters:history", args=[character.campaign_id, character.pk])


def test_owner_sees_the_history_of_their_sheet_in_words(client, character, player, gm):
    services.trait_set(character=character, user=gm, key="fuerza", rating=3)
    services.resource_adjust(character=character, user=player, key="willpower", delta=-1)
    services.character_update(character=character, user=player, concept="Forense")
    client.force_login(player)
    response = client.get(url(character))
    assert response.status_code == 200
    text = response.text
    assert "Fuerza de Voluntad (reserva)" in text
    assert ">Fuerza<" in text
    assert "Forense" in text
    assert "alice" in text
    assert "bob" in text
    # Newest first: the concept change comes before the trait change.
    assert text.index("Forense") < text.index(">Fuerza<")
    assert "trait:fuerza" not in text


def test_gm_sees_the_history(client, character, gm):
    client.force_login(gm)
    response = client.get(url(character))
    assert response.status_code == 200
    assert "Ficha creada" in response.text


def test_other_player_cannot_see_the_history(client, character, other_player):
    client.force_login(other_player)
    assert client.get(url(character)).status_code == 403


def test_other_player_cannot_see_the_history_even_with_full_sheets_shared(
    client, campaign, character, other_player
):
    campaign.players_see_full_sheets = True
    campaign.save()
    client.force_login(other_player)
    assert client.get(url(character)).status_code == 403


def test_observer_cannot_see_the_history(client, character, observer):
    client.force_login(observer)
    assert client.get(url(character)).status_code == 403


def test_stranger_gets_404_for_the_history(client, character, stranger):
    client.force_login(stranger)
    assert client.get(url(character)).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, character):
    response = client.get(url(character))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_history_of_a_character_is_not_reachable_through_another_campaign(client, character, gm):
    other = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=other, user=gm, role="gm")
    client.force_login(gm)
    wrong = reverse("characters:history", args=[other.pk, character.pk])
    assert client.get(wrong).status_code == 404


def _add_changes(character, user, count: int) -> None:
    SheetChange.objects.bulk_create(
        SheetChange(
            character=character, user=user, field="trait:pelea", old_value=i, new_value=i + 1
        )
        for i in range(count)
    )


def test_history_is_paginated_by_25(client, character, player):
    _add_changes(character, player, 30)  # plus "created"
    client.force_login(player)
    first = client.get(url(character))
    assert first.text.count('class="list-group-item history-item"') == 25
    assert "Página 1 de 2" in first.text
    second = client.get(url(character), {"page": 2})
    assert second.text.count('class="list-group-item history-item"') == 6
    assert "Ficha creada" in second.text  # the oldest entry is last


def test_history_runs_a_constant_number_of_queries(
    client, character, player, django_assert_max_num_queries
):
    client.force_login(player)
    with django_assert_max_num_queries(9) as few:
        client.get(url(character))
    _add_changes(character, player, 60)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url(character))
    assert response.text.count("history-item") >= 25


def test_objetivo_history_runs_a_constant_number_of_queries(
    client, gm, player, django_assert_max_num_queries
):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    MembershipFactory(campaign=campaign, user=player, role="player")
    character = make_character(campaign, player)
    services.campaign_trait_add(campaign=campaign, user=gm, kind="skill", name="Pilotar")
    client.force_login(player)
    with django_assert_max_num_queries(10) as few:
        client.get(url(character))
    for rating in range(1, 10):
        services.trait_set(character=character, user=gm, key="pilotar", rating=rating)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url(character))
    assert "Pilotar" in response.text


def test_htmx_page_request_gets_only_the_list(client, character, player):
    _add_changes(character, player, 30)
    client.force_login(player)
    response = client.get(url(character), {"page": 2}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="history"' in response.text
    assert "HX-Request" in response["Vary"]


def test_a_bad_page_number_shows_a_page_not_an_error(client, character, player):
    client.force_login(player)
    assert client.get(url(character), {"page": "zzz"}).status_code == 200
    assert client.get(url(character), {"page": 999}).status_code == 200


def test_history_is_in_english_too(client, character, player):
    services.resource_adjust(character=character, user=player, key="willpower", delta=-1)
    client.force_login(player)
    client.cookies["django_language"] = "en"
    response = client.get(url(character))
    assert "Fuerza de Voluntad (pool)" in response.text
    assert "Sheet created" in response.text


def test_detail_changes_read_with_the_names_their_system_gives(client, gm, player):
    campaign = CampaignFactory(system="objetivo")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    fred = make_character(campaign, player, name="Fred", user=gm)
    values = {"specialization": "pelea", "destiny_returned": True}
    services.character_set_details(character=fred, user=gm, values=values)
    client.force_login(player)
    text = client.get(url(fred)).text
    assert "Especialización" in text
    assert "Punto de destino devuelto" in text
    assert "details:" not in text
