"""The campaign page's body is rendered once per key and cached (campaigns/views/
campaign.py, `_page_key`): every row it shows, the viewer and their rights, the latest
scenes with their counts and the invitations' statuses. A write shows on the next request,
one member's page never reaches another, and the roll feed between its parts stays live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns import services
from campaigns.models import Membership
from characters.models import Character
from tests.cached import cached_keys
from tests.campaigns.test_chronicle import draft, publish, store_roll
from tests.factories import InvitationFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


def _url(campaign) -> str:
    return reverse("campaigns:detail", args=[campaign.pk])


def _pages_cached() -> int:
    return sum("campaign-page" in key for key in cached_keys())


def _page(client, campaign):
    response = client.get(_url(campaign))
    assert response.status_code == 200
    return parse(response.text)


def _cached_page(client, campaign):
    """The page asked twice: the second answer's body comes from the cache."""
    cached = _pages_cached()
    _page(client, campaign)
    assert _pages_cached() == cached + 2  # its two parts
    return _page(client, campaign)


def _names(page, section: str) -> list[str]:
    return [item.text() for item in page.one("section", id=section).find_all("li")]


def _reader(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_or_renamed_character_shows_on_the_next_request(client, campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    client.force_login(player)
    assert any("Lucía" in name for name in _names(_cached_page(client, campaign), "characters"))
    make_character(campaign, player, name="Mateo")
    # Written past the services and signals: only the key can notice.
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Vidal")
    names = " ".join(_names(_page(client, campaign), "characters"))
    assert "Mateo" in names
    assert "Lucía Vidal" in names


def test_a_new_member_and_a_role_change_show_on_the_next_request(client, campaign, gm, player):
    client.force_login(gm)
    assert not any("dora" in name for name in _names(_cached_page(client, campaign), "members"))
    dora = MembershipFactory(campaign=campaign, user=UserFactory(username="dora"), role="player")
    assert any("dora" in name for name in _names(_page(client, campaign), "members"))
    Membership.objects.filter(pk=dora.pk).update(role="observer")
    (item,) = [li for li in _page(client, campaign).one("section", id="members").find_all("li")
               if "dora" in li.text()]  # fmt: skip
    assert item.one("span", class_="badge").text() == "Observador"


def test_a_new_diary_changes_the_latest_scenes_count(client, campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El archivo", participants=[lucia])
    client.force_login(gm)
    assert "0 entradas de diario" in _names(_cached_page(client, campaign), "scenes")[0]
    publish(scene, lucia, player, "Lo que vi")
    assert "1 entrada de diario" in _names(_page(client, campaign), "scenes")[0]


def test_a_players_own_draft_counts_on_their_page_alone(campaign, gm, player):
    """The latest scenes' counts are cached under the change sequence, which a draft
    moves although players' pages follow only what they all may see."""
    lucia = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El archivo", participants=[lucia])
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    author, reader = _reader(player), _reader(other)
    assert "0 entradas de diario" in _names(_cached_page(author, campaign), "scenes")[0]
    assert "0 entradas de diario" in _names(_cached_page(reader, campaign), "scenes")[0]
    draft(scene, lucia, player, "Borrador")
    assert "1 entrada de diario" in _names(_page(author, campaign), "scenes")[0]
    assert "0 entradas de diario" in _names(_page(reader, campaign), "scenes")[0]


def test_a_roll_leaves_the_cached_page_as_it_is_and_shows_in_the_feed(client, campaign, gm, player):
    """The latest scenes show no roll counts, so play does not wipe the page's cache."""
    lucia = make_character(campaign, player, name="Lucía")
    scene = services.scene_create(campaign=campaign, title="El archivo", participants=[lucia])
    client.force_login(player)
    _cached_page(client, campaign)
    cached = _pages_cached()
    roll = store_roll(campaign, scene, lucia, player)
    page = _page(client, campaign)
    assert _pages_cached() == cached
    feed = page.one("div", id="roll-feed")
    assert feed.find_all("article", data_roll=str(roll.pk))


def test_an_invitation_that_expires_meanwhile_says_so(client, campaign, gm, monkeypatch):
    InvitationFactory(campaign=campaign, expires_at=timezone.now() + timedelta(hours=1))
    client.force_login(gm)
    invitation = _cached_page(client, campaign).one("div", class_="invitation")
    assert invitation.attrs["data-status"] == "active"
    later = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    invitation = _page(client, campaign).one("div", class_="invitation")
    assert invitation.attrs["data-status"] == "expired"


@pytest.mark.parametrize("gm_first", [True, False])
def test_a_cached_page_never_reaches_another_member(campaign, gm, player, gm_first):
    # Both log in first: a login writes the user's row, which the page names.
    readers = [(_reader(gm), True), (_reader(player), False)]
    for reader, manages in readers if gm_first else readers[::-1]:
        page = _cached_page(reader, campaign)
        assert bool(page.find_all("section", id="invitations")) is manages
        edit = reverse("campaigns:edit", args=[campaign.pk])
        assert bool(page.find_all("a", href=edit)) is manages


def test_each_host_gets_invitation_links_to_itself(client, campaign, gm, settings):
    settings.ALLOWED_HOSTS = ["mesa.example", "otra.example"]
    InvitationFactory(campaign=campaign)
    client.force_login(gm)
    for host in ("mesa.example", "otra.example", "mesa.example"):
        response = client.get(_url(campaign), HTTP_HOST=host)
        link = parse(response.text).one("div", class_="invite-url").text()
        assert link.startswith(f"http://{host}/")
