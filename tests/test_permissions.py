"""Sweeps over every campaign URL, found from the URL configuration so that pages added
later are covered too: a stranger gets 404 everywhere (nothing leaks that a campaign or
an object exists), and no member's page breaks with a server error."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from campaigns import services as campaign_services
from tests.factories import InvitationFactory, make_character

pytestmark = pytest.mark.django_db

# Ids this test does not create: a missing object must be a 404 too.
UNKNOWN_ID = 987654


def campaign_routes():
    """(name, params) of every named route that takes a campaign id."""

    def walk(patterns, namespace, inherited):
        for pattern in patterns:
            params = [*inherited, *pattern.pattern.converters]
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, pattern.namespace or namespace, params)
            elif isinstance(pattern, URLPattern) and pattern.name and namespace:
                yield f"{namespace}:{pattern.name}", params

    return sorted(
        {(name, tuple(params)) for name, params in walk(get_resolver().url_patterns, None, [])}
        - {("", ())},
    )


@pytest.fixture
def world(campaign, gm, player):
    character = make_character(campaign, player, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="La biblioteca", participants=[character]
    )
    return {
        "campaign_id": campaign.pk,
        "character_id": character.pk,
        "scene_id": scene.pk,
        "invitation_id": InvitationFactory(campaign=campaign).pk,
        "membership_id": campaign.memberships.get(user=player).pk,
    }


def urls_for(world):
    urls = []
    for name, params in campaign_routes():
        if "campaign_id" not in params:
            continue
        kwargs = {}
        for param in params:
            if param in world:
                kwargs[param] = world[param]
            elif param in ("key",):
                kwargs[param] = "fuerza"
            else:
                kwargs[param] = UNKNOWN_ID
        urls.append(reverse(name, kwargs=kwargs))
    return urls


def test_the_sweep_covers_every_part_of_the_site(world):
    urls = urls_for(world)
    assert len(urls) > 60
    for part in ("/characters/", "/rolls/", "/scenes/", "/xp/", "/combat"):
        assert any(part in url for url in urls), part


def test_a_stranger_gets_404_on_every_campaign_url(client, stranger, world):
    client.force_login(stranger)
    client.raise_request_exception = False
    for url in urls_for(world):
        for method in (client.get, client.post):
            for headers in ({}, {"HX-Request": "true"}):
                status = method(url, headers=headers).status_code
                # 405 answers the method before looking at anything (GET on a POST form).
                assert status in (404, 405), (method.__name__, url, status)


def test_anonymous_visitors_are_sent_to_log_in_or_get_404(client, world):
    client.raise_request_exception = False
    for url in urls_for(world):
        status = client.get(url).status_code
        assert status in (302, 404, 405), (url, status)


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_no_page_breaks_for_any_member(client, world, who, request):
    client.force_login(request.getfixturevalue(who))
    client.raise_request_exception = False
    for url in urls_for(world):
        for headers in ({}, {"HX-Request": "true"}):
            status = client.get(url, headers=headers).status_code
            assert status < 500, (who, url, status)


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_an_empty_or_garbled_post_never_breaks_a_page(client, world, who, request):
    client.force_login(request.getfixturevalue(who))
    client.raise_request_exception = False
    garbled = {"amount": "muchos", "rating": "-1", "role": "root", "hours": "1e9", "kind": "?"}
    for url in urls_for(world):
        for data in ({}, garbled):
            for headers in ({}, {"HX-Request": "true"}):
                status = client.post(url, data, headers=headers).status_code
                assert status < 500, (who, url, data, status)


def _loaded(instance) -> dict:
    """Every column of a model instance, read without a query (a deferred one fails)."""
    deferred = instance.get_deferred_fields()
    assert not deferred, deferred
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


@pytest.mark.parametrize("who", ["gm", "player", "observer"])
def test_the_access_checks_load_the_membership_campaign_and_character_whole_in_one_query(
    campaign, who, request, player, django_assert_num_queries
):
    from campaigns.models import Membership
    from campaigns.permissions import campaign_access, character_access

    user = request.getfixturevalue(who)
    character = make_character(campaign, player, name="Lucía")
    membership = Membership.objects.get(campaign=campaign, user=user)
    stored = type(character).objects.get(pk=character.pk)
    campaign.refresh_from_db()
    with django_assert_num_queries(1):
        sheet = character_access(user, campaign.pk, character.pk)
        assert _loaded(sheet.access.membership) == _loaded(membership)
        assert _loaded(sheet.access.campaign) == _loaded(campaign)
        assert _loaded(sheet.character) == _loaded(stored)
        assert sheet.character.campaign is sheet.access.campaign
    with django_assert_num_queries(1):
        access = campaign_access(user, campaign.pk)
        assert _loaded(access.membership) == _loaded(membership)
        assert _loaded(access.campaign) == _loaded(campaign)
    assert (access.role, sheet.access.role) == (membership.role, membership.role)


def test_the_access_checks_answer_404_to_strangers_and_for_a_character_elsewhere(
    campaign, gm, player, stranger
):
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404

    from campaigns.permissions import campaign_access, character_access
    from tests.factories import CampaignFactory, MembershipFactory

    character = make_character(campaign, player, name="Lucía")
    # The GM runs both campaigns: a sheet of one is still not found under the other.
    other = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=other, user=gm, role="gm")
    elsewhere = make_character(other, None, name="Ajeno", user=gm)
    assert character_access(gm, other.pk, elsewhere.pk).character == elsewhere
    refused = [
        (stranger, campaign.pk, character.pk),
        (AnonymousUser(), campaign.pk, character.pk),
        (gm, campaign.pk, elsewhere.pk),
        (gm, other.pk, character.pk),
        (player, other.pk, elsewhere.pk),
        (player, campaign.pk, UNKNOWN_ID),
    ]
    for user, campaign_id, character_id in refused:
        with pytest.raises(Http404):
            character_access(user, campaign_id, character_id)
    for user, campaign_id in (
        (stranger, campaign.pk),
        (AnonymousUser(), campaign.pk),
        (player, other.pk),
        (gm, UNKNOWN_ID),
    ):
        with pytest.raises(Http404):
            campaign_access(user, campaign_id)
