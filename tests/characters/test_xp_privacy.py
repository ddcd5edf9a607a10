"""XP is part of the full sheet: a character's balance, awards, spends and the ratings
they bought show to whoever may see that sheet (the GM, its owner, other players when
the campaign shares full sheets) and to no one else, on every page that shows XP: the
character's XP page, the campaign's XP log with its totals and chart, the scene
timeline, the sheet and its export. Each page as the GM, the owner, another player, an
observer and a stranger."""

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import XpEntry
from mechanics.rules.tinieblas.advancement import SceneAward
from tests.factories import MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

RATINGS = {"fuerza": 2, "sigilo": 2, "pelea": 1, "aplomo": 2, "compostura": 3}
CHUPI = SceneAward(interpretacion=3, ideas=2, diario=2, constancia=1, sobornos=0)  # 9 XP
NORMAL = SceneAward(interpretacion=2, ideas=2)  # 5 XP
ROLES = ["gm", "owner", "other_player", "observer", "stranger"]


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def owner(player):
    return player


@pytest.fixture
def played(campaign, gm, player, other_player):
    """Lucía (bob's) earns 9 XP in a scene and buys Sigilo 2 → 3 (6 XP, 3 left); Mateo
    (dora's) earns 5 XP in the same scene."""
    lucia = make_character(campaign, player, name="Lucía", ratings=RATINGS)
    mateo = make_character(campaign, other_player, name="Mateo", ratings=RATINGS)
    scene = campaign_services.scene_create(
        campaign=campaign, title="La noche del incendio", participants=[lucia, mateo]
    )
    scene = campaign_services.scene_close(scene=scene)
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    return lucia, mateo, scene


def as_(client, request, who):
    client.force_login(request.getfixturevalue(who))
    return client


def xp_url(character):
    return reverse("characters:xp", args=[character.campaign_id, character.pk])


def log_url(campaign):
    return reverse("characters:xp_log", args=[campaign.pk])


def share_full_sheets(campaign):
    campaign.players_see_full_sheets = True
    campaign.save(update_fields=["players_see_full_sheets"])


# A character's XP page


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("owner", 200), ("other_player", 403), ("observer", 403)]
)
def test_only_who_sees_the_full_sheet_opens_a_characters_xp_page(
    client, request, played, who, status
):
    lucia, _mateo, _scene = played
    response = as_(client, request, who).get(xp_url(lucia))
    assert response.status_code == status
    if status == 200:
        page = parse(response.text)
        assert page.one(id="xp-balance").text().startswith("3 ")
        spend = page.one("li", data_entry_kind="spend")
        assert spend.one(class_="xp-amount").text() == "-6"
        assert "Sigilo 2 → 3" in spend.text()
    else:
        assert "xp-balance" not in response.text
        assert "Sigilo" not in response.text


def test_a_stranger_gets_404_on_a_characters_xp_page(client, stranger, played):
    client.force_login(stranger)
    assert client.get(xp_url(played[0])).status_code == 404


def test_other_players_open_the_xp_page_when_the_campaign_shares_full_sheets(
    client, campaign, other_player, observer, played
):
    share_full_sheets(campaign)
    client.force_login(other_player)
    page = parse(client.get(xp_url(played[0])).text)
    assert page.one(id="xp-balance").text().startswith("3 ")
    # Observers never see another's full sheet, shared or not.
    client.force_login(observer)
    assert client.get(xp_url(played[0])).status_code == 403


# The campaign's XP log: entries, totals per character, chart


def _log(client, campaign, **query):
    response = client.get(log_url(campaign), query)
    assert response.status_code == 200
    return parse(response.text)


def _entry_names(page) -> list[str]:
    """Whose each ledger line is, newest first."""
    return [
        line.one("a", class_="fw-semibold").text()
        for line in page.one(id="ledger").find_all("li", data_entry_kind=True)
    ]


def _totals(page) -> dict[str, list[str]]:
    rows = page.one(id="character-totals").find_all("tr")[1:]
    return {row.one("th").text(): [cell.text() for cell in row.find_all("td")] for row in rows}


def _legend(page) -> list[str]:
    return [item.text() for item in page.one(id="campaign-xp-chart").find_all("li")]


LOG_SEES = {
    "gm": (["Lucía", "Lucía", "Mateo"], {"Lucía": ["9", "6", "3"], "Mateo": ["5", "0", "5"]}),
    "owner": (["Lucía", "Lucía"], {"Lucía": ["9", "6", "3"]}),
    "other_player": (["Mateo"], {"Mateo": ["5", "0", "5"]}),
    "observer": ([], {}),
}


@pytest.mark.parametrize("who", LOG_SEES)
def test_the_xp_log_lists_and_totals_only_the_sheets_the_member_may_see(
    client, request, played, who
):
    lucia, _mateo, _scene = played
    page = _log(as_(client, request, who), lucia.campaign)
    names, totals = LOG_SEES[who]
    assert sorted(_entry_names(page)) == names
    assert _totals(page) == totals
    assert ("Sigilo 2 → 3" in page.one(id="ledger").text()) == ("Lucía" in totals)


@pytest.mark.parametrize("who", LOG_SEES)
def test_the_xp_chart_draws_only_the_sheets_the_member_may_see(client, request, played, who):
    lucia, _mateo, _scene = played
    client = as_(client, request, who)
    _names, totals = LOG_SEES[who]
    balance = [f"{name} · {values[2]}" for name, values in totals.items()]
    assert _legend(_log(client, lucia.campaign)) == balance
    earned = [f"{name} · {values[0]}" for name, values in totals.items()]
    assert _legend(_log(client, lucia.campaign, measure="earned")) == earned
    chart = _log(client, lucia.campaign).one(id="campaign-xp-chart")
    assert len(chart.find_all("polyline")) == len(totals)


def test_filtering_the_log_by_a_hidden_character_shows_nothing_of_it(client, other_player, played):
    lucia, _mateo, _scene = played
    client.force_login(other_player)
    page = _log(client, lucia.campaign, character=lucia.pk)
    assert "Lucía" not in _entry_names(page)
    assert "Lucía" not in _totals(page)
    assert not any(name.startswith("Lucía") for name in _legend(page))
    menu = page.one("select", name="character")
    assert "Lucía" not in menu.text()


def test_a_campaign_that_shares_full_sheets_shows_every_players_xp_to_players(
    client, campaign, other_player, observer, played
):
    share_full_sheets(campaign)
    client.force_login(other_player)
    assert _totals(_log(client, campaign)) == LOG_SEES["gm"][1]
    client.force_login(observer)
    assert _totals(_log(client, campaign)) == {}


def test_a_stranger_gets_404_on_the_xp_log(client, stranger, played):
    client.force_login(stranger)
    assert client.get(log_url(played[0].campaign)).status_code == 404


# The scene timeline ("Group review")

TIMELINE_SEES = {
    "gm": {"Lucía", "Mateo"},
    "owner": {"Lucía"},
    "other_player": {"Mateo"},
    "observer": set(),
}


@pytest.mark.parametrize("who", TIMELINE_SEES)
def test_the_scene_timeline_shows_the_awards_of_the_sheets_the_member_may_see(
    client, request, played, who
):
    lucia, mateo, scene = played
    response = as_(client, request, who).get(
        reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    )
    page = parse(response.text)
    for character, amount in ((lucia, 9), (mateo, 5)):
        award = XpEntry.objects.get(character=character, scene=scene)
        shown = page.find_all(id=f"xp-entry-{award.pk}")
        if character.name in TIMELINE_SEES[who]:
            assert f"{character.name} +{amount} PX" in shown[0].text()
        else:
            assert shown == []


def test_a_stranger_gets_404_on_the_scene_timeline(client, stranger, played):
    scene = played[2]
    client.force_login(stranger)
    url = reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])
    assert client.get(url).status_code == 404


# The sheet and its export follow the same rule


@pytest.mark.parametrize(
    ("who", "sees"), [("gm", True), ("owner", True), ("other_player", False), ("observer", False)]
)
def test_the_sheet_shows_the_balance_and_exports_only_to_who_sees_it_full(
    client, request, played, who, sees
):
    lucia = played[0]
    client = as_(client, request, who)
    balances = parse(client.get(lucia.get_absolute_url()).text).find_all(data_xp_balance=True)
    assert [b.text() for b in balances] == (["3"] if sees else [])
    export = reverse("characters:export", args=[lucia.campaign_id, lucia.pk])
    assert client.get(export).status_code == (200 if sees else 403)
