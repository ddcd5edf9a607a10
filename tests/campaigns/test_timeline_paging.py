"""The scene's group review pages over every source that grows (rolls and health events,
`campaigns.chronicle.TimelinePager`): a page holds at most TIMELINE_PAGE of their rows
whatever their kinds, merged in (time, source, id) order, so a long fight's wounds page
like an evening of rolls; the pager's links go both ways, the kind filter pages one kind,
and each reader pages through what they may see."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import chain

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from campaigns import chronicle, services
from campaigns.fragments import CACHE
from characters.models import Character
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.campaigns.test_chronicle import _count_queries, publish, store_roll
from tests.factories import backdated, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

PAGE = 4
START = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def small_pages(monkeypatch):
    monkeypatch.setattr(chronicle, "TIMELINE_PAGE", PAGE)


@pytest.fixture
def pablo(campaign, player2, scene, lucia):
    pablo = make_character(campaign, player2, name="Pablo")
    services.scene_update(scene=scene, title=scene.title, participants=[lucia, pablo])
    return pablo


def wound(character, gm, scene):
    event = health_services.character_apply_damage(
        character=character, user=gm, damage=DamageInput(1, "B"), scene=scene
    )
    return f"health-event-{event.pk}"


def roll(scene, character, user, seed=1):
    return f"scene-roll-{store_roll(scene.campaign, scene, character, user, seed=seed).pk}"


@pytest.fixture
def fight(scene, lucia, pablo, gm, player):
    """A long fight: two rolls, then ten wounds, Lucía's and Pablo's by turns, and a
    diary written at the end. Oldest first, the ids the GM sees."""
    shown = [roll(scene, lucia, player, seed=1), roll(scene, lucia, player, seed=2)]
    for turn in range(10):
        shown.append(wound(lucia if turn % 2 else pablo, gm, scene))
    publish(scene, lucia, player, "Acabó la pelea")
    return shown


def scene_url(scene, query: str = "") -> str:
    return reverse("campaigns:scene", args=[scene.campaign_id, scene.pk]) + query


def review(client, scene, query: str = ""):
    response = client.get(scene_url(scene, query))
    assert response.status_code == 200
    return parse(response.text).one("section", id="group-review")


def items(section) -> list[str]:
    """The ids of the section's paged items (rolls and health events), in order."""
    return [
        element.attrs["id"]
        for element in section.iter()
        if element.attrs.get("id", "").startswith(("scene-roll-", "health-event-", "time-"))
    ]


def every_item(pages) -> list[str]:
    return [item for page in pages for item in items(page)]


def link(section, rel: str) -> str | None:
    found = section.find_all("a", rel=rel)
    return found[0].attrs["href"].partition("#")[0] if found else None


def walk(client, scene, query: str = "") -> list:
    """Every page from the first, forwards along the "Later" links, then back along the
    "Earlier" ones: the pages each way."""
    forwards = [review(client, scene, query)]
    while (later := link(forwards[-1], "next")) is not None:
        assert len(forwards) < 20, "the pages never end"
        forwards.append(review(client, scene, later))
    backwards = [forwards[-1]]
    while (earlier := link(backwards[-1], "prev")) is not None:
        assert len(backwards) < 20, "the pages never end"
        backwards.append(review(client, scene, earlier))
    return forwards, backwards[::-1]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_long_fight_with_few_rolls_pages_its_wounds(gm, scene, fight):
    forwards, backwards = walk(logged_in(gm), scene)
    pages = [items(page) for page in forwards]
    assert [len(page) for page in pages] == [4, 4, 4]
    assert list(chain(*pages)) == fight
    # Back along the "Earlier" links: the same pages.
    assert [items(page) for page in backwards] == pages
    # The diary, written after the fight, falls on the last page alone.
    assert [bool(page.find_all(class_="scene-timeline-diary")) for page in forwards] == [
        False,
        False,
        True,
    ]
    assert link(forwards[0], "prev") is None
    assert link(forwards[-1], "next") is None


def test_a_page_draws_only_the_other_items_that_fall_on_it(gm, scene, fight):
    """A diary of the last page is counted on the first, and drawn only on its own."""
    client = logged_in(gm)
    forwards, _backwards = walk(client, scene)
    last_page = link(forwards[1], "next")

    def drawn(query: str = ""):
        caches[CACHE].clear()
        response = client.get(scene_url(scene, query))
        return response, {template.name for template in response.templates}

    first, templates = drawn()
    assert "campaigns/timeline/group_review.html" in templates
    assert "campaigns/timeline/diary.html" not in templates
    [diaries_tab] = [
        a for a in parse(first.text).find_all("a") if "kind=diary" in a.attrs.get("href", "")
    ]
    assert diaries_tab.text() == "Diario (1)"
    _last, templates = drawn(last_page)
    assert "campaigns/timeline/diary.html" in templates


@pytest.mark.parametrize(
    ("who", "sees"),
    [
        ("gm", lambda shown: shown),
        # Pablo's wounds are his player's sheet: Lucía's player pages through the rest.
        ("player", lambda shown: shown[:2] + shown[3::2]),
        ("player2", lambda shown: shown[:2] + shown[2::2]),
        ("observer", lambda shown: shown[:2]),
    ],
)
def test_each_reader_pages_through_what_they_may_see(request, scene, fight, who, sees):
    forwards, backwards = walk(logged_in(request.getfixturevalue(who)), scene)
    pages = [items(page) for page in forwards]
    assert all(0 < len(page) <= PAGE for page in pages)
    assert list(chain(*pages)) == sees(fight)
    assert [items(page) for page in backwards] == pages


def test_a_stranger_gets_no_page_of_the_timeline(gm, stranger, scene, fight):
    later = link(review(logged_in(gm), scene), "next")
    client = logged_in(stranger)
    assert client.get(scene_url(scene)).status_code == 404
    assert client.get(scene_url(scene, later)).status_code == 404


def test_the_kind_filter_pages_one_kind_and_keeps_the_counts(gm, scene, fight):
    client = logged_in(gm)
    forwards, backwards = walk(client, scene, "?kind=health")
    pages = [items(page) for page in forwards]
    assert [len(page) for page in pages] == [4, 4, 2]
    assert list(chain(*pages)) == fight[2:]
    assert [items(page) for page in backwards] == pages
    for page in forwards:
        assert "Diario (1)" in page.one("nav", aria_label="Mostrar en la revisión del grupo").text()
        assert all("kind=health" in a.attrs["href"] for a in page.find_all("a", rel=True))
    (rolls,), _back = walk(client, scene, "?kind=roll")
    assert items(rolls) == fight[:2]
    (diaries,), _back = walk(client, scene, "?kind=diary")
    assert items(diaries) == []
    assert diaries.find_all(class_="scene-timeline-diary")
    assert not diaries.find_all("a", rel="next")
    assert items(review(client, scene, "?kind=time")) == []


def test_a_time_advance_pages_as_the_kind_time(gm, scene, lucia, pablo):
    health_services.scene_advance_time(scene=scene, user=gm, hours=1, reason="Descanso")
    wound(lucia, gm, scene)
    section = review(logged_in(gm), scene, "?kind=time")
    (passed,) = section.find_all(class_="chronicle-time")
    assert "Lucía" in passed.text()
    assert "Pablo" in passed.text()
    assert not section.find_all(class_="chronicle-health")


def test_rows_of_both_sources_at_one_instant_page_once_each(gm, player, scene, lucia):
    """Rolls and events written at the same microsecond: rolls first, then by id, and no
    row is lost or shown twice at a page's edge."""
    shown = []
    with backdated(START):
        for seed in range(3):
            shown.append(wound(lucia, gm, scene))
            shown.append(roll(scene, lucia, player, seed=seed))
    rolls = [item for item in shown if item.startswith("scene-roll-")]
    events = [item for item in shown if item.startswith("health-event-")]
    forwards, backwards = walk(logged_in(gm), scene)
    pages = [items(page) for page in forwards]
    assert list(chain(*pages)) == rolls + events
    assert [items(page) for page in backwards] == pages


def test_a_wound_on_a_later_page_shows_on_the_next_request(gm, scene, lucia, fight):
    client = logged_in(gm)
    walk(client, scene)
    shown = wound(lucia, gm, scene)
    forwards, backwards = walk(client, scene)
    assert items(forwards[-1]) == [shown]
    assert [items(page) for page in forwards] == [items(page) for page in backwards]
    assert every_item(forwards) == [*fight, shown]


def test_a_new_roll_takes_its_place_among_cached_wounds(gm, player, scene, lucia, fight):
    client = logged_in(gm)
    walk(client, scene)
    shown = roll(scene, lucia, player, seed=9)
    pages, _back = walk(client, scene)
    assert every_item(pages) == [*fight, shown]


def test_a_renamed_character_reads_right_on_every_page(gm, player, scene, lucia, fight):
    client = logged_in(gm)
    walk(client, scene)
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Ferrer")
    forwards, _back = walk(client, scene)
    for page in forwards:
        for item in page.find_all(class_="scene-timeline-item"):
            text = item.text()
            assert text.count("Lucía") == text.count("Lucía Ferrer")
    assert all("Lucía Ferrer" in item.text() for item in forwards[0].find_all(class_="roll"))


def test_one_cursor_read_both_ways_gives_the_pages_on_either_side(gm, scene, fight):
    client = logged_in(gm)
    later = link(review(client, scene), "next")
    assert items(review(client, scene, later)) == fight[PAGE : 2 * PAGE]
    earlier = later.replace("after=", "before=")
    assert items(review(client, scene, earlier)) == fight[: PAGE - 1]


def test_a_scenes_cached_rows_never_show_in_another_scene(gm, player, scene, lucia, fight):
    other = services.scene_create(campaign=scene.campaign, title="El muelle", participants=[lucia])
    client = logged_in(gm)
    walk(client, scene)
    shown = roll(other, lucia, player)
    forwards, _back = walk(client, other)
    assert every_item(forwards) == [shown]


def test_a_wound_undone_past_the_first_page_shows_for_its_owner_alone(
    gm, player, player2, scene, lucia, pablo, fight
):
    """What each reader's cached rows hold follows who may see a sheet."""
    for user in (gm, player, player2):
        walk(logged_in(user), scene)
    shown = wound(pablo, gm, scene)
    for user, sees in ((gm, True), (player, False), (player2, True)):
        forwards, _back = walk(logged_in(user), scene)
        assert (shown in every_item(forwards)) is sees


@pytest.mark.parametrize("cursor", ["?after=zzz", "?before=1.2.x", "?after=99999999999.1.0"])
def test_a_garbled_or_stale_cursor_gives_the_first_page(gm, scene, fight, cursor):
    client = logged_in(gm)
    assert items(review(client, scene, cursor)) == fight[:PAGE]


def test_every_page_runs_the_same_queries_however_long_the_fight(gm, scene, lucia, pablo, fight):
    client = logged_in(gm)
    forwards, _back = walk(client, scene)
    later = link(forwards[0], "next")
    caches[CACHE].clear()
    few = [
        _count_queries(client, scene_url(scene)),
        _count_queries(client, scene_url(scene, later)),
    ]
    for turn in range(20):
        wound(lucia if turn % 2 else pablo, gm, scene)
    caches[CACHE].clear()
    many = [
        _count_queries(client, scene_url(scene)),
        _count_queries(client, scene_url(scene, later)),
    ]
    assert few == many
    # After a wound: the page's events, and the sources that do not page; the rolls stay.
    wound(lucia, gm, scene)
    assert _count_queries(client, scene_url(scene)) == AFTER_A_WOUND


# The session with its user, membership, scene, the cast card's participants and the reader's own
# diaries (it shows the cast, moved by the wound's sequence), the first page's health
# events, diaries, XP awards and combats; not the rolls, nor any event read whole (the new
# one is on another page).
AFTER_A_WOUND = 9
