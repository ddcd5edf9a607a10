"""The XP log's pieces cached apart from its body: each character's points and line
marks (under the character's version), and the filter menus (under the campaign's). A
write shows on the very next request, for each viewer, in each language."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from campaigns import services as campaign_services
from characters import services, xp_buckets
from characters.advancement import PurchaseSpec
from characters.models import Character
from tests.factories import backdated, make_character
from tests.html import parse


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def mateo(campaign, gm):
    return make_character(campaign, gm, name="Mateo")


@pytest.fixture
def grouped(monkeypatch):
    """Lines grouped by time whatever their number of entries, as a long campaign's."""
    monkeypatch.setattr(xp_buckets, "POINT_BUDGET", 1)


def _log(client, campaign, query: str = "") -> str:
    return client.get(reverse("characters:xp_log", args=[campaign.pk]) + query).text


def _line(page: str, name: str) -> str:
    """The markup of one character's line in the chart."""
    found = re.search(rf'<g class="xp-series[^"]*" data-series="{name}">(.*?)</g>', page, re.S)
    assert found, f"no line for {name}"
    return found.group(1)


def _points(line: str) -> int:
    """How many points a line draws: a circle an entry, a box a group of them."""
    return line.count("<circle") + line.count("<rect")


def _menu(page: str, field: str) -> list[str]:
    return [option.text() for option in parse(page).one(id=f"id_{field}").find_all("option")]


@pytest.mark.parametrize("who", ["gm", "player"])
def test_an_award_to_one_character_shows_in_its_line_and_keeps_the_others(
    client, request, campaign, gm, lucia, mateo, who
):
    with backdated(timezone.now() - timedelta(minutes=20)):
        services.xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
        services.xp_adjust(character=mateo, user=gm, amount=7, reason="Inicio")
    client.force_login(request.getfixturevalue(who))
    page = _log(client, campaign)
    assert "Lucía: 5 PX el" in _line(page, "Lucía")
    with backdated(timezone.now() - timedelta(minutes=10)):
        services.xp_adjust(character=lucia, user=gm, amount=3, reason="Bonificación")
    page = _log(client, campaign)
    assert "Lucía: 8 PX ahora" in page
    # Both entries in this hour: a point each, as the ledger lists them.
    line = _line(page, "Lucía")
    assert "Lucía: 8 PX el" in line
    assert "Lucía: 5 PX el" in line
    if who == "gm":
        assert "Mateo: 7 PX ahora" in page
        assert "Mateo: 7 PX el" in _line(page, "Mateo")
    else:  # the player sees their own sheet's line only
        assert "Mateo" not in page[page.index("<svg") : page.index("</svg>")]


def test_a_correction_and_an_approved_spend_show_in_the_line(client, campaign, gm, player, lucia):
    scene = campaign_services.scene_create(
        campaign=campaign, title="La cripta", participants=[lucia]
    )
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 12})
    client.force_login(player)
    assert "Lucía: 12 PX ahora" in _log(client, campaign)
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 10})  # a correction
    page = _log(client, campaign)
    assert "Lucía: 10 PX ahora" in page
    assert _totals(page, "Lucía") == ["10", "0", "10"]
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    assert "Lucía: 10 PX ahora" in _log(client, campaign)
    services.xp_purchase_approve(purchase=purchase, user=gm)
    lucia.refresh_from_db()
    page = _log(client, campaign)
    assert f"Lucía: {lucia.xp_balance} PX ahora" in page
    assert lucia.xp_balance < 10
    assert _totals(page, "Lucía") == ["10", str(10 - lucia.xp_balance), str(lucia.xp_balance)]
    assert f"Lucía: {lucia.xp_balance} PX el" in _line(page, "Lucía")


def _noon(moment):
    """Midday of that day (UTC, as the chart's spans are cut): its next hours stay in it,
    whatever the time the test runs at."""
    return moment.replace(hour=12, minute=0, second=0, microsecond=0)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_new_entry_that_widens_the_chart_regroups_its_points(
    request, client, campaign, gm, lucia, who, grouped
):
    """Three entries of one evening are three points (hours); a month later, the chart
    groups them by day: the first and last entries' times are read again with the line.
    The player's chart has Lucía's line alone, whose points are read with her sums by the
    span it took last time (the hour)."""
    month_ago = _noon(timezone.now() - timedelta(days=30))
    for hour in range(3):
        with backdated(month_ago + timedelta(hours=hour)):
            services.xp_adjust(character=lucia, user=gm, amount=2, reason="Sesión")
    client.force_login(request.getfixturevalue(who))
    assert _line(_log(client, campaign), "Lucía").count("<circle") == 3
    services.xp_adjust(character=lucia, user=gm, amount=1, reason="Hoy")
    line = _line(_log(client, campaign), "Lucía")
    assert (line.count("<rect"), line.count("<circle")) == (1, 1)
    assert "entre 2 y 6 PX desde" in line
    assert "Lucía: 7 PX el" in line


def test_a_wider_chart_regroups_the_lines_of_characters_whose_ledger_did_not_change(
    client, campaign, gm, lucia, mateo, grouped
):
    month_ago = _noon(timezone.now() - timedelta(days=30))
    for hour in range(3):
        with backdated(month_ago + timedelta(hours=hour)):
            services.xp_adjust(character=mateo, user=gm, amount=2, reason="Sesión")
            services.xp_adjust(character=lucia, user=gm, amount=1, reason="Sesión")
    client.force_login(gm)
    assert _points(_line(_log(client, campaign), "Mateo")) == 3
    services.xp_adjust(character=lucia, user=gm, amount=1, reason="Hoy")
    page = _log(client, campaign)
    assert _points(_line(page, "Mateo")) == 1
    # Her points read again by day, not by the hour the other lines were grouped by.
    assert _points(_line(page, "Lucía")) == 2


def test_points_read_with_an_award_follow_the_span_the_chart_takes(
    client, campaign, gm, lucia, mateo, grouped
):
    """Mateo's line alone would be grouped by the hour; both lines are grouped by the day.
    Lucía's new entry is read with her sums by the hour Mateo's line alone suggests: the
    chart draws her line by the day all the same."""
    day = (timezone.now() - timedelta(days=20)).replace(hour=0, minute=0, second=0)
    with backdated(day + timedelta(hours=1)):
        services.xp_adjust(character=mateo, user=gm, amount=2, reason="Sesión")
    with backdated(day + timedelta(hours=301)):
        services.xp_adjust(character=mateo, user=gm, amount=2, reason="Sesión")
    for hour in (2, 3):
        with backdated(day + timedelta(hours=hour)):
            services.xp_adjust(character=lucia, user=gm, amount=1, reason="Sesión")
    client.force_login(gm)
    assert _points(_line(_log(client, campaign), "Lucía")) == 1
    services.xp_adjust(character=lucia, user=gm, amount=1, reason="Hoy")
    page = _log(client, campaign)
    assert _points(_line(page, "Lucía")) == 2
    assert _points(_line(page, "Mateo")) == 2


def _totals(page: str, name: str) -> list[str]:
    """Earned, spent and balance in a character's row of the totals."""
    for row in parse(page).one(id="character-totals").find_all("tr"):
        if row.find_all("a") and row.one("a").text() == name:
            return [cell.text() for cell in row.find_all("td")]
    raise AssertionError(f"no totals for {name}")


def test_a_renamed_character_reads_right_in_its_line_and_the_menu(client, campaign, gm, lucia):
    services.xp_adjust(character=lucia, user=gm, amount=5, reason="Inicio")
    client.force_login(gm)
    page = _log(client, campaign)
    assert "Lucía: 5 PX el" in _line(page, "Lucía")
    assert "Lucía" in _menu(page, "character")
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Ferrer")
    page = _log(client, campaign)
    assert "Lucía Ferrer: 5 PX el" in _line(page, "Lucía Ferrer")
    assert _menu(page, "character") == ["Todos", "Lucía Ferrer"]


def test_the_line_marks_follow_the_measure_and_the_language(client, campaign, gm, player, lucia):
    december = timezone.make_aware(datetime(2025, 12, 1, 20, 0))  # Dic in Spanish
    with backdated(december):
        services.xp_adjust(character=lucia, user=gm, amount=10, reason="Inicio")
    with backdated(december + timedelta(days=1)):
        services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    lucia.refresh_from_db()
    client.force_login(gm)
    line = _line(_log(client, campaign), "Lucía")
    assert f"Lucía: {lucia.xp_balance} PX el 2 Dic 2025" in line
    earned = _line(_log(client, campaign, "?measure=earned"), "Lucía")
    assert earned.count("Lucía: 10 PX el") == 2  # a spend leaves what was earned
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _line(_log(client, campaign, "?measure=earned"), "Lucía")
    assert english.count("Lucía: 10 XP on") == 2
    assert "Lucía: 10 XP on 2 Dec 2025" in english
    assert "PX" not in english
    assert "Dic" not in english


def test_the_menus_follow_new_scenes_and_each_viewer(client, campaign, gm, player, lucia, mateo):
    client.force_login(gm)
    assert _menu(_log(client, campaign), "character") == ["Todos", "Lucía", "Mateo"]
    client.force_login(player)
    assert _menu(_log(client, campaign), "character") == ["Todos", "Lucía"]
    campaign_services.scene_create(campaign=campaign, title="La cripta", participants=[lucia])
    assert "La cripta" in _menu(_log(client, campaign), "scene")
    client.force_login(gm)
    page = _log(client, campaign)
    assert "La cripta" in _menu(page, "scene")
    assert _menu(page, "character") == ["Todos", "Lucía", "Mateo"]


@pytest.mark.parametrize(
    ("last_day", "tooltip"),
    [
        # The line spans two days: grouped by the day, each point says its times.
        (2, "Lucía: 4 PX el 6 Ene 2023, 21:30 (entre 2 y 4 PX desde el 6 Ene 2023, 21:00)"),
        # Twenty months: grouped by the week, where their times of day say nothing.
        (600, "Lucía: 4 PX el 6 Ene 2023 (entre 2 y 4 PX desde el 6 Ene 2023)"),
    ],
)
def test_points_grouping_weeks_of_entries_say_their_dates_and_finer_ones_their_times(
    client, campaign, gm, lucia, grouped, last_day, tooltip
):
    first = datetime(2023, 1, 6, 20, 0, tzinfo=UTC)  # 21:00 in Madrid
    for moment in (first, first + timedelta(minutes=30), first + timedelta(days=last_day)):
        with backdated(moment):
            services.xp_adjust(character=lucia, user=gm, amount=2, reason="Sesión")
    client.force_login(gm)
    chart = parse(_log(client, campaign)).one(id="campaign-xp-chart")
    tooltips = [title.text() for title in chart.find_all("title")]
    assert tooltip in tooltips
