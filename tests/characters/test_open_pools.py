"""Pools with no maximum (drama points, destiny points): a player spends them, only the GM
(or a rule) adds to them (RULES section 6, "Resources players may not mint")."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from characters import services
from characters.models import Resource, SheetChange
from tests.characters.test_sheet_views import (
    HTMX,
    campaign_of,
    hitos_sheet,
    objetivo_sheet,
    tinieblas_sheet,
    url,
)
from tests.factories import MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db

REFUSAL = "Solo el máster puede añadir puntos a esta reserva; tú puedes gastarlos."


def drama(character):
    return Resource.objects.get(character=character, key="drama_points").current


def pool_changes(character):
    return SheetChange.objects.filter(character=character, field__startswith="resource:")


def test_the_gm_adds_drama_points_to_a_players_sheet(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    response = client.post(url(character, "pool_adjust", "drama_points"), {"delta": 20})
    assert response.status_code == 302
    assert drama(character) == 23


def test_a_forged_plus_twenty_by_the_owner_is_refused_and_nothing_is_written(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    response = client.post(
        url(character, "pool_adjust", "drama_points"), {"delta": 20}, follow=True
    )
    assert REFUSAL in response.text
    assert drama(character) == 3
    assert not pool_changes(character).exists()


def test_the_owner_is_told_why_with_htmx(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    response = client.post(url(character, "pool_adjust", "drama_points"), {"delta": 1}, **HTMX)
    assert response.status_code == 200
    assert REFUSAL in response.text
    assert drama(character) == 3


def test_the_owner_still_spends_a_drama_point(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    client.post(url(character, "pool_adjust", "drama_points"), {"delta": -1})
    assert drama(character) == 2


def test_the_owner_cannot_add_destiny_points_either(client, gm, player):
    character = objetivo_sheet(gm, player)
    client.force_login(player)
    client.post(url(character, "pool_adjust", "destiny_points"), {"delta": 1})
    assert Resource.objects.get(character=character, key="destiny_points").current == 0


def test_the_owner_still_recovers_a_pool_that_has_a_maximum(client, campaign, player):
    sheet = tinieblas_sheet(campaign, player)
    Resource.objects.filter(character=sheet, key="willpower").update(current=1)
    client.force_login(player)
    client.post(url(sheet, "pool_adjust", "willpower"), {"delta": 1})
    assert Resource.objects.get(character=sheet, key="willpower").current == 2


def test_another_player_observer_and_stranger_cannot_add_drama_points(client, gm, player):
    character = hitos_sheet(gm, player)
    other, observer, stranger = (UserFactory(username=name) for name in ("dora", "olga", "eve"))
    MembershipFactory(campaign=character.campaign, user=other, role="player")
    MembershipFactory(campaign=character.campaign, user=observer, role="observer")
    for user, status in ((other, 403), (observer, 403), (stranger, 404)):
        client.force_login(user)
        response = client.post(url(character, "pool_adjust", "drama_points"), {"delta": 20})
        assert response.status_code == status
    assert drama(character) == 3
    assert not pool_changes(character).exists()


def test_an_observer_who_owns_a_sheet_cannot_add_to_it(client, gm, player):
    observer = UserFactory(username="olga")
    campaign = campaign_of("hitos", gm, player, observer=observer)
    own = make_character(campaign, observer, name="Vieja ficha")
    client.force_login(observer)
    response = client.post(url(own, "pool_adjust", "drama_points"), {"delta": 1})
    assert response.status_code == 403
    assert drama(own) == 3


def test_the_sheet_offers_the_plus_only_to_the_gm_on_a_pool_with_no_maximum(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    page = client.get(url(character)).text
    assert 'id="pool-drama_points-minus"' in page
    assert 'id="pool-drama_points-plus"' not in page
    client.force_login(gm)
    page = client.get(url(character)).text
    assert 'id="pool-drama_points-minus"' in page
    assert 'id="pool-drama_points-plus"' in page


def test_the_owner_keeps_the_plus_on_a_pool_with_a_maximum(client, campaign, player):
    sheet = tinieblas_sheet(campaign, player)
    client.force_login(player)
    assert 'id="pool-willpower-plus"' in client.get(url(sheet)).text


def test_the_service_refuses_by_default_in_english_too(gm, player):
    character = hitos_sheet(gm, player)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        services.resource_adjust(character=character, user=player, key="drama_points", delta=1)
    assert refused.value.messages == [
        "Only the GM can add points to this pool; you can spend them."
    ]
    assert drama(character) == 3
