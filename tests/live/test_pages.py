"""The pages' side of the live table: which pages connect to the stream, what their live
refresh asks for, and that each view answers it (204 when up to date, the parts otherwise),
for a GM, a player and a stranger."""

import json
import re
from html import unescape

import pytest
from django.template import Context, Template
from django.test import AsyncRequestFactory
from django.urls import reverse

from campaigns.htmx import SINCE_HEADER
from campaigns.models import Campaign, SceneNote
from campaigns.permissions import campaign_access
from campaigns.views.chronicle import SCENES_PER_PAGE
from characters import services as character_services
from characters.advancement import PurchaseSpec
from characters.models import Character
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics_web.rolls import CANARY, make_scene, store_roll

fixed_dice = rolling.fixed_dice

HTMX = {"HTTP_HX_REQUEST": "true"}
# The header as the test client takes it.
SINCE = "HTTP_" + SINCE_HEADER.upper().replace("-", "_")


@pytest.fixture
def table(campaign, player):
    character = make_character(campaign, player, name="Lucía")
    scene = make_scene(campaign)
    return {"character": character, "scene": scene}


def live_pages(campaign, table) -> dict[str, str]:
    """Every page with a live refresh: a new one needs a row here (see the last test)."""
    return {
        "campaign": reverse("campaigns:detail", args=[campaign.pk]),
        "scene": table["scene"].get_absolute_url(),
        "roll log": reverse("mechanics:log", args=[campaign.pk]),
        "xp log": reverse("characters:xp_log", args=[campaign.pk]),
        "sheet": table["character"].get_absolute_url(),
        "character xp": reverse("characters:xp", args=[campaign.pk, table["character"].pk]),
        "timeline": reverse("campaigns:timeline", args=[campaign.pk]),
    }


def seq(campaign, member: str) -> int:
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign.change_seq if member == "gm" else campaign.public_seq


def refresh(html: str) -> tuple[str, str, list[str]]:
    """The page's live refresh: the URL it asks, the version it sends, the parts it swaps."""
    found = re.search(
        r'<div id="live-refresh" hidden hx-get="([^"]+)" hx-headers="([^"]+)"'
        r'[^>]*hx-select-oob="([^"]+)"',
        html,
    )
    assert found, "no live refresh on the page"
    headers = json.loads(unescape(found[2]))
    return found[1].replace("&amp;", "&"), headers[SINCE_HEADER], found[3].split(",")


@pytest.mark.parametrize("member", ["gm", "player"])
@pytest.mark.parametrize(
    "page", ["campaign", "scene", "roll log", "xp log", "sheet", "character xp", "timeline"]
)
def test_a_live_page_answers_204_when_up_to_date_and_its_parts_otherwise(
    client, request, campaign, table, member, page
):
    client.force_login(request.getfixturevalue(member))
    url = live_pages(campaign, table)[page]
    html = client.get(url).content.decode()
    asked, version, parts = refresh(html)
    assert asked == url
    # A sheet follows its character's and its campaign's rows (not every roll), the
    # campaign page its cache key (the last test); the rest, the reader's sequence.
    character = Character.objects.select_related("campaign").get(pk=table["character"].pk)
    sheet = f"{character.version}.{character.campaign.version}"
    if page != "campaign":
        assert version == (sheet if page == "sheet" else str(seq(campaign, member)))
    assert client.get(asked, **HTMX, **{SINCE: version}).status_code == 204
    stale = {SINCE: "0"}
    answer = client.get(asked, **HTMX, **stale)
    assert answer.status_code == 200
    body = answer.content.decode()
    # Every part the refresh swaps in is in the answer (an id that is not is a part that
    # would never refresh).
    for part in parts:
        assert f'id="{part.lstrip("#")}"' in body, (page, part)


@pytest.mark.parametrize(
    "page", ["campaign", "scene", "roll log", "xp log", "sheet", "character xp", "timeline"]
)
def test_a_stranger_gets_a_404_from_a_live_refresh(client, stranger, campaign, table, page):
    client.force_login(stranger)
    url = live_pages(campaign, table)[page]
    since = {SINCE: "1"}
    assert client.get(url, **HTMX, **since).status_code == 404


def test_a_secret_roll_leaves_a_players_pages_up_to_date_and_a_gms_stale(
    client, campaign, table, gm, player
):
    before = {member: seq(campaign, member) for member in ("gm", "player")}
    store_roll(campaign, gm, label=CANARY, secret=True, scene=table["scene"])
    url = table["scene"].get_absolute_url()
    client.force_login(player)
    assert client.get(url, **HTMX, **{SINCE: str(before["player"])}).status_code == 204
    client.force_login(gm)
    answer = client.get(url, **HTMX, **{SINCE: str(before["gm"])})
    assert answer.status_code == 200
    assert CANARY in answer.content.decode()


def test_a_page_served_by_asgi_connects_to_its_stream(campaign, player):
    """The tag `<main>` carries, given a request from an ASGI server (it has a scope)."""
    access = campaign_access(player, campaign.pk)
    request = AsyncRequestFactory().get(reverse("campaigns:detail", args=[campaign.pk]))
    rendered = Template("{% load live %}<main{% live_stream %}>{% live_scripts %}").render(
        Context({"access": access, "request": request})
    )
    stream = reverse("live:stream", args=[campaign.pk])
    check = reverse("live:check", args=[campaign.pk])
    public = seq(campaign, "player")
    assert rendered.startswith(
        f'<main hx-ext="sse" sse-connect="{stream}?since={public}" data-live-seq="{public}" '
        f'data-live-check="{check}">'
    )
    assert "js/live.js" in rendered
    assert "hx-sse-2.js" in rendered


def test_under_wsgi_a_page_has_no_stream_to_connect_to(client, campaign, player):
    client.force_login(player)
    html = client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    check = reverse("live:check", args=[campaign.pk])
    assert (
        f'<main id="main" class="container pb-5" data-live-seq="{seq(campaign, "player")}" '
        f'data-live-check="{check}">' in html
    )
    assert "sse-connect" not in html
    assert "js/live.js" in html


@pytest.mark.parametrize("member", ["gm", "player"])
def test_the_poll_of_a_page_without_a_stream_says_whether_its_readers_sequence_moved(
    client, request, campaign, table, member, django_assert_num_queries
):
    """One request a poll (live.js): 204 while nothing the reader may see changed, the
    new sequence once something did. The session with its user, the access check."""
    client.force_login(request.getfixturevalue(member))
    url = reverse("live:check", args=[campaign.pk])
    before = seq(campaign, member)
    with django_assert_num_queries(2):
        assert client.get(url, **HTMX, **{SINCE: str(before)}).status_code == 204
    store_roll(campaign, request.getfixturevalue("player"), label="Sigilo", scene=table["scene"])
    answer = client.get(url, **HTMX, **{SINCE: str(before)})
    assert answer.status_code == 200
    assert answer.content.decode() == str(seq(campaign, member)) != str(before)
    assert client.get(url, **HTMX, **{SINCE: answer.content.decode()}).status_code == 204


def test_a_secret_roll_moves_the_gms_poll_and_not_a_players(client, campaign, table, gm, player):
    url = reverse("live:check", args=[campaign.pk])
    before = {member: seq(campaign, member) for member in ("gm", "player")}
    store_roll(campaign, gm, label=CANARY, secret=True, scene=table["scene"])
    client.force_login(player)
    assert client.get(url, **HTMX, **{SINCE: str(before["player"])}).status_code == 204
    client.force_login(gm)
    assert client.get(url, **HTMX, **{SINCE: str(before["gm"])}).status_code == 200


def test_a_stranger_or_a_visitor_gets_a_404_from_the_poll(client, stranger, campaign):
    url = reverse("live:check", args=[campaign.pk])
    assert client.get(url, **HTMX, **{SINCE: "1"}).status_code == 404
    client.force_login(stranger)
    assert client.get(url, **HTMX, **{SINCE: "1"}).status_code == 404


def test_pages_outside_a_campaign_have_no_live_table(client, player, campaign):
    client.force_login(player)
    html = client.get(reverse("campaigns:list")).content.decode()
    assert "data-live-seq" not in html
    assert "live.js" not in html


def test_every_page_with_a_live_refresh_is_in_this_table():
    """A template that gains `{% live_refresh %}` must be added to `live_pages`."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    templates = sorted(
        str(path.relative_to(root))
        for path in root.glob("**/templates/**/*.html")
        if ".venv" not in path.parts and "{% live_refresh" in path.read_text()
    )
    assert templates == [
        "templates/campaigns/campaign_detail.html",
        "templates/campaigns/scene.html",
        "templates/campaigns/timeline.html",
        "templates/characters/sheet.html",
        "templates/characters/xp_ledger.html",
        "templates/characters/xp_log.html",
        "templates/mechanics/log.html",
    ]


def test_a_roll_leaves_an_open_sheet_as_it_is_and_a_pool_change_refreshes_it(
    client, campaign, table, gm, player
):
    """The sheet's parts (its traits: a focused link, a dot) are not swapped at each roll."""
    client.force_login(player)
    sheet = table["character"].get_absolute_url()
    _asked, version, _parts = refresh(client.get(sheet).content.decode())
    store_roll(campaign, player, character=table["character"])
    assert client.get(sheet, **HTMX, **{SINCE: version}).status_code == 204
    table["character"].resources.update(current=0)
    assert client.get(sheet, **HTMX, **{SINCE: version}).status_code == 200


@pytest.mark.parametrize("member", ["gm", "player"])
def test_a_roll_leaves_the_campaign_page_as_it_is_and_a_new_scene_refreshes_it(
    client, request, campaign, table, member
):
    """The roll reaches the page through its feed; the page itself re-renders only when
    what it shows changes."""
    client.force_login(request.getfixturevalue(member))
    page = reverse("campaigns:detail", args=[campaign.pk])
    _asked, version, _parts = refresh(client.get(page).content.decode())
    store_roll(campaign, request.getfixturevalue(member), scene=table["scene"])
    assert client.get(page, **HTMX, **{SINCE: version}).status_code == 204
    make_scene(campaign, title="El claustro")
    answer = client.get(page, **HTMX, **{SINCE: version})
    assert answer.status_code == 200
    assert "El claustro" in answer.content.decode()


def test_the_gms_approval_refreshes_the_players_open_xp_page(client, campaign, table, gm, player):
    """The balance, the purchase's status and the ledger follow the GM's decision; the
    price part stays out of it (the player may be choosing)."""
    character = table["character"]
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    character_services.xp_adjust(character=character, user=gm, amount=10, reason="Inicial")
    purchase = character_services.xp_purchase_request(
        character=character, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    client.force_login(player)
    url = reverse("characters:xp", args=[campaign.pk, character.pk])
    asked, version, parts = refresh(client.get(url).content.decode())
    assert "#purchase-quote" not in parts
    assert client.get(asked, **HTMX, **{SINCE: version}).status_code == 204
    character_services.xp_purchase_approve(purchase=purchase, user=gm)
    answer = parse(client.get(asked, **HTMX, **{SINCE: version}).content.decode())
    assert answer.one(id="xp-balance").text() == f"{10 - purchase.cost} PX disponibles"
    assert answer.one(id="xp-purchases").one("span", class_="badge").text() == "Aplicada"
    assert "Gasto" in answer.one(id="ledger").text()


@pytest.mark.parametrize("member", ["gm", "player"])
def test_a_new_scene_refreshes_an_open_timeline_and_a_page_of_it_refreshes_itself(
    client, request, campaign, table, member
):
    """The chronicle's list follows the GM's new scene; a later page swapped in (htmx)
    brings the refresh of that page, so a change does not send the reader to the first."""
    client.force_login(request.getfixturevalue(member))
    url = reverse("campaigns:timeline", args=[campaign.pk])
    asked, version, parts = refresh(client.get(url).content.decode())
    assert parts == ["#live-refresh", "#scene-list"]
    make_scene(campaign, title="El claustro")
    answer = parse(client.get(asked, **HTMX, **{SINCE: version}).content.decode())
    assert "El claustro" in answer.one("section", id="scene-list").text()
    for number in range(SCENES_PER_PAGE):
        make_scene(campaign, title=f"Escena {number}")
    page = client.get(url, {"page": "2"}, **HTMX).content.decode()
    swapped = parse(page).one(id="live-refresh")
    assert swapped.attrs["hx-swap-oob"] == "true"
    assert swapped.attrs["hx-get"] == f"{url}?page=2"
    # The whole page has one, not swapped out of band.
    assert "hx-swap-oob" not in parse(client.get(url).content.decode()).one(id="live-refresh").attrs


def panel_reload(html: str) -> str:
    """The version the open roll panel's live reload ({% live_reload %}) sends."""
    found = re.search(r'<div hidden hx-get="[^"]+" hx-headers="([^"]+)"[^>]*hx-include', html)
    assert found, "no live reload in the panel"
    return json.loads(unescape(found[1]))[SINCE_HEADER]


@pytest.mark.parametrize("member", ["gm", "player"])
def test_an_open_roll_panel_reloads_when_a_trait_changes_keeping_its_choices(
    client, request, campaign, table, member
):
    """A GM's edit of a rating reaches the open panel: its odds follow."""
    client.force_login(request.getfixturevalue(member))
    character = table["character"]
    url = reverse("mechanics:roll", args=[campaign.pk, character.pk])
    choices = {"attribute": "inteligencia", "skill": "investigacion"}
    version = panel_reload(client.get(url, choices, **HTMX).content.decode())
    assert client.get(url, choices, **HTMX, **{SINCE: version}).status_code == 204
    character.traits.filter(key="investigacion").update(rating=4)
    answer = client.get(url, choices, **HTMX, **{SINCE: version})
    assert answer.status_code == 200
    panel = answer.content.decode()
    assert panel_reload(panel) != version
    assert re.search(r'<option value="investigacion" selected', panel)
    assert "Investigación +4" in panel


def test_a_stranger_gets_a_404_from_a_roll_panel_reload(client, stranger, campaign, table):
    client.force_login(stranger)
    url = reverse("mechanics:roll", args=[campaign.pk, table["character"].pk])
    assert client.get(url, **HTMX, **{SINCE: "1.1."}).status_code == 404


@pytest.mark.parametrize("member", ["gm", "player"])
@pytest.mark.parametrize("system", ["ndp", "hitos", "objetivo"])
def test_another_players_roll_leaves_an_open_roll_panel_as_it_is(
    client, request, gm, player, system, member
):
    """No panel reads another character's rolls. Hitos' and Dado objetivo's read the
    other characters and the fight, for an attack at one: a change to another character
    reloads them."""
    campaign = CampaignFactory(system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    dora = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=dora, role="player")
    character = make_character(campaign, player, name="Rufo")
    other = make_character(campaign, dora, name="Tere")
    client.force_login(request.getfixturevalue(member))
    url = reverse("mechanics:roll", args=[campaign.pk, character.pk])
    version = panel_reload(client.get(url, **HTMX).content.decode())
    store_roll(campaign, dora, character=other)
    store_roll(campaign, gm, secret=True)
    assert client.get(url, **HTMX, **{SINCE: version}).status_code == 204
    Character.objects.filter(pk=other.pk).update(notes="Otra armadura")
    reloaded = client.get(url, **HTMX, **{SINCE: version}).status_code
    assert reloaded == (200 if system != "ndp" else 204)


def test_the_sequence_without_rolls_moves_for_a_player_with_what_players_see_alone(
    campaign, table, gm, player
):
    """What a Hitos or Dado objetivo panel follows: for a player, no new roll and no
    change only GMs see (a secret roll, a GM's note); for a GM, every change but a roll."""

    def sequences():
        return {user: campaign_access(user, campaign.pk).live_nonroll_seq for user in (gm, player)}

    before = sequences()
    store_roll(campaign, player, character=table["character"])
    store_roll(campaign, gm, secret=True)
    assert sequences() == before
    SceneNote.objects.create(scene=table["scene"], author=gm, body="El sicario es su hermano.")
    after_note = sequences()
    assert after_note[gm] > before[gm]
    assert after_note[player] == before[player]
    Character.objects.filter(pk=table["character"].pk).update(notes="Otra armadura")
    assert all(seq > after_note[user] for user, seq in sequences().items())


@pytest.mark.parametrize("member", ["gm", "player"])
def test_a_tinieblas_panel_stays_up_to_date_through_plain_rolls_and_follows_extended_ones(
    client, request, campaign, table, member, fixed_dice
):
    """The panel reads its character's extended actions back from its rolls: those bump
    the character (campaigns.versions.READ_BACK), every other roll leaves the panel be."""
    client.force_login(request.getfixturevalue(member))
    character = table["character"]
    url = reverse("mechanics:roll", args=[campaign.pk, character.pk])
    version = panel_reload(client.get(url, **HTMX).content.decode())
    store_roll(campaign, request.getfixturevalue(member), character=character)
    assert client.get(url, **HTMX, **{SINCE: version}).status_code == 204
    extended = {"kind": "extended", "attribute": "inteligencia", "skill": "investigacion",
                "again": "10", "target": "5", "max_rolls": "", "label": "Descifrar"}  # fmt: skip
    fixed_dice(8, 1, 1, 1, 1)  # one success of five: the action goes on
    assert client.post(url, extended, **HTMX).status_code == 200
    answer = client.get(url, **HTMX, **{SINCE: version})
    assert answer.status_code == 200
    assert "Descifrar" in answer.content.decode()


@pytest.mark.parametrize("member", ["gm", "player"])
def test_a_panel_answered_after_a_write_is_up_to_date_so_no_reload_takes_its_notice(
    client, request, campaign, table, member
):
    """The panel a write answers with (a saved roll's, with its "Guardada" notice) holds
    the version the write left: the next reload finds it up to date."""
    client.force_login(request.getfixturevalue(member))
    character = table["character"]
    choices = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}
    save = reverse("mechanics:saved_roll_save", args=[campaign.pk, character.pk])
    panel = client.post(save, {**choices, "saved_name": "Investigar"}, **HTMX).content.decode()
    assert "Guardada «Investigar»" in panel
    url = reverse("mechanics:roll", args=[campaign.pk, character.pk])
    assert client.get(url, choices, **HTMX, **{SINCE: panel_reload(panel)}).status_code == 204


@pytest.mark.parametrize("member", ["gm", "player"])
def test_an_up_to_date_refresh_of_the_campaign_page_or_a_roll_panel_reads_little(
    client, request, campaign, table, member, django_assert_max_num_queries
):
    """The 204 answers to every open page at every change: the access check, and for the
    campaign page the rows its key reads (the latest scenes' counts, the invitations)."""
    client.force_login(request.getfixturevalue(member))
    page = reverse("campaigns:detail", args=[campaign.pk])
    _asked, version, _parts = refresh(client.get(page).content.decode())
    # The session, the user, the membership and campaign; the scenes and their counts; a
    # GM's invitations.
    with django_assert_max_num_queries({"gm": 6, "player": 5}[member]):
        assert client.get(page, **HTMX, **{SINCE: version}).status_code == 204
    panel = reverse("mechanics:roll", args=[campaign.pk, table["character"].pk])
    since = panel_reload(client.get(panel, **HTMX).content.decode())
    # The session, the user, and the access check.
    with django_assert_max_num_queries(3):
        assert client.get(panel, **HTMX, **{SINCE: since}).status_code == 204


@pytest.mark.parametrize("member", ["gm", "player", "stranger"])
def test_a_scene_closed_reaches_an_open_scene_page_with_its_status_and_cast(
    request, client, campaign, table, gm, member
):
    """The scene page's refresh swaps in its header and who takes part, not only its
    timeline: a scene the GM closes says "Cerrada" on every member's open page."""
    scene = table["scene"]
    url = scene.get_absolute_url()
    client.force_login(request.getfixturevalue(member))
    page = client.get(url)
    if member == "stranger":
        assert page.status_code == 404
        assert client.get(url, **HTMX, **{SINCE: "1"}).status_code == 404
        return
    _asked, version, parts = refresh(page.content.decode())
    assert {"#scene-header", "#scene-side"} <= set(parts)
    closer = client.__class__()
    closer.force_login(gm)
    closer.post(reverse("campaigns:scene_close", args=[campaign.pk, scene.pk]))
    answer = client.get(url, **HTMX, **{SINCE: version})
    assert answer.status_code == 200
    header = parse(answer.content.decode()).one("header", id="scene-header")
    assert "Cerrada" in header.text()
    assert "Abierta" not in header.text()


# Each log with a scene menu: its name in live_pages, and the id of its filters' form.
LOG_FILTERS = {"roll log": "roll-filters", "xp log": "xp-filters"}


@pytest.mark.parametrize("member", ["gm", "player", "stranger"])
@pytest.mark.parametrize("log", list(LOG_FILTERS))
def test_a_new_scene_reaches_an_open_logs_scene_filter_keeping_the_chosen_scene(
    request, client, campaign, table, member, log
):
    """A log's refresh swaps in its filters, not only the entries: a scene the GM creates
    is offered in the open log's scene menu, and the scene chosen stays chosen."""
    chosen = table["scene"]
    url = live_pages(campaign, table)[log] + f"?scene={chosen.pk}"
    client.force_login(request.getfixturevalue(member))
    page = client.get(url)
    if member == "stranger":
        assert page.status_code == 404
        assert client.get(url, **HTMX, **{SINCE: "1"}).status_code == 404
        return
    asked, version, parts = refresh(page.content.decode())
    assert f"#{LOG_FILTERS[log]}" in parts
    assert client.get(asked, **HTMX, **{SINCE: version}).status_code == 204
    make_scene(campaign, title="El claustro")
    answer = client.get(asked, **HTMX, **{SINCE: version})
    assert answer.status_code == 200
    form = parse(answer.content.decode()).one("form", id=LOG_FILTERS[log])
    options = {
        option.text(): option.attrs
        for option in form.one("select", name="scene").find_all("option")
    }
    assert "El claustro" in options
    assert "selected" in options[chosen.title]
    assert "selected" not in options["El claustro"]
