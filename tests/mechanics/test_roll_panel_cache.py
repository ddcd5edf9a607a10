"""The roll panel and its odds (htmx) are rendered once per key: the key holds every row
they are drawn from (`mechanics.views.roll._panel_key`), so a write shows on the next
request, and one reader's panel never reaches another."""

import json
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import services as campaign_services
from campaigns.htmx import SINCE_HEADER
from characters.models import Aspect, Character, Resource, Trait
from characters.services import xp_adjust
from mechanics.models import SituationAspect
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from tests.factories import UserFactory, campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url
from tests.mechanics_web.rolls import store_roll

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]+')
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}


@pytest.fixture
def lucia(campaign, player):
    return make_character(
        campaign, player, name="Lucía", ratings={"inteligencia": 3, "investigacion": 2}
    )


def panel(client, character, **query):
    response = client.get(roll_url(character), query, **HTMX)
    assert response.status_code == 200
    return parse(response.text)


def field(page, character, name):
    return page.one(id=f"roll{character.pk}_{name}")


def options(page, character, name) -> list[str]:
    return [option.text() for option in field(page, character, name).find_all("option")]


def test_the_same_request_again_is_served_from_the_cache(client, player, lucia):
    client.force_login(player)
    first = client.get(roll_url(lucia), {"trait": "inteligencia"}, **HTMX)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(roll_url(lucia), {"trait": "inteligencia"}, **HTMX)
    # The same panel, but for its token (masked anew in every response).
    assert TOKEN.sub("", again.text) == TOKEN.sub("", first.text)
    assert TOKEN.search(again.text)
    # The session with its user, and the access: the key is made of versions they load,
    # nothing more.
    assert len(queries) == 2


def test_a_new_rating_shows_on_the_next_request(client, player, lucia):
    client.force_login(player)
    assert "Inteligencia (3)" in options(panel(client, lucia), lucia, "attribute")
    Trait.objects.filter(character=lucia, key="inteligencia").update(rating=4)
    assert "Inteligencia (4)" in options(panel(client, lucia), lucia, "attribute")


def test_a_spent_pool_shows_on_the_next_request(client, player, lucia):
    client.force_login(player)

    def willpower(page):
        return page.one("li", data_pool="willpower").one(class_="roll-pool-value").text()

    before = willpower(panel(client, lucia))
    Resource.objects.filter(character=lucia, key="willpower").update(current=1)
    after = willpower(panel(client, lucia))
    assert before != after
    assert after.startswith("1")


def test_a_wound_shows_on_the_next_request(client, gm, player, lucia):
    client.force_login(player)
    assert not panel(client, lucia).find_all(class_="roll-health")
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(3, damage_type="L"))
    assert "Salud:" in panel(client, lucia).one(class_="roll-health").text()


def test_a_scene_opened_or_closed_shows_on_the_next_request(client, player, lucia, campaign):
    client.force_login(player)
    assert not panel(client, lucia).find_all(id=f"roll{lucia.pk}_scene")
    scene = campaign_services.scene_create(campaign=campaign, title="El sótano", participants=[])
    assert "El sótano" in options(panel(client, lucia), lucia, "scene")
    # Joining it makes it the default.
    scene.participants.add(lucia)
    chosen = field(panel(client, lucia), lucia, "scene").find_all("option", selected=True)
    assert [option.text() for option in chosen] == ["El sótano"]
    scene.status = scene.Status.CLOSED
    scene.save(update_fields=["status"])
    assert not panel(client, lucia).find_all(id=f"roll{lucia.pk}_scene")


def test_an_extended_action_in_progress_shows_on_the_next_request(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    assert len(options(panel(client, lucia), lucia, "action")) == 1  # a new action only
    fixed_dice(8, 1, 1)
    started = {**POOL, "kind": "extended", "target": "5", "max_rolls": "", "label": "Descifrar"}
    assert client.post(roll_url(lucia), started, **HTMX).status_code == 200
    assert len(options(panel(client, lucia), lucia, "action")) == 2


def test_a_plain_roll_leaves_a_tinieblas_panel_in_the_cache(client, gm, player, lucia, campaign):
    """Only an extended action's rolls change what the panel shows (READ_BACK)."""
    client.force_login(player)
    panel(client, lucia)
    with CaptureQueriesContext(connection) as cached:
        panel(client, lucia)
    store_roll(campaign, gm, character=lucia)
    with CaptureQueriesContext(connection) as after:
        panel(client, lucia)
    assert len(after) == len(cached)


def test_an_xp_award_leaves_the_panel_and_its_odds_in_the_cache(client, gm, player, lucia):
    """The panel does not show XP: an award bumps the character's version, not what the
    panel is keyed on (`_shown_version`)."""
    client.force_login(player)
    for query in ({}, {"part": "odds", **POOL}):
        first = client.get(roll_url(lucia), query, **HTMX).text
        xp_adjust(character=lucia, user=gm, amount=2, reason="Bonificación")
        with CaptureQueriesContext(connection) as queries:
            again = client.get(roll_url(lucia), query, **HTMX).text
        assert TOKEN.sub("", again) == TOKEN.sub("", first)
        assert len(queries) == 2  # the session with its user, and the access


def test_a_health_written_without_an_event_shows_on_the_next_request(client, player, lucia):
    """An import or an admin edit of the stored health: no health event, no grid version."""
    client.force_login(player)
    assert not panel(client, lucia).find_all(class_="roll-health")
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "LLL"})
    assert "Salud:" in panel(client, lucia).one(class_="roll-health").text()


def shown(page) -> str:
    """The version an open panel's live reload sends back."""
    reload = page.one("div", hx_headers=True)
    return json.loads(reload.attrs["hx-headers"])[SINCE_HEADER]


def test_an_open_panel_reloads_after_a_wound_and_not_after_an_award(client, gm, player, lucia):
    client.force_login(player)
    version = shown(panel(client, lucia))

    def live_reload():
        return client.get(roll_url(lucia), **HTMX, headers={SINCE_HEADER: version})

    assert live_reload().status_code == 204
    xp_adjust(character=lucia, user=gm, amount=2, reason="Bonificación")
    assert live_reload().status_code == 204
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(3, damage_type="L"))
    reloaded = live_reload()
    assert reloaded.status_code == 200
    assert "Salud:" in parse(reloaded.text).one(class_="roll-health").text()


def test_a_gm_panel_never_reaches_a_player_in_either_order(client, gm, player, lucia):
    def secret_box(user):
        client.force_login(user)
        return panel(client, lucia).find_all(id=f"roll{lucia.pk}_secret")

    # GM first, then the player; then the player first (a fresh key), then the GM.
    assert secret_box(gm)
    assert not secret_box(player)
    lucia.name = "Lucía Vega"
    lucia.save(update_fields=["name"])
    assert not secret_box(player)
    assert secret_box(gm)


def test_each_choice_and_each_language_is_its_own_panel(client, player, lucia):
    client.force_login(player)
    odds = panel(client, lucia, part="odds", **POOL)
    other = panel(client, lucia, part="odds", **{**POOL, "skill": ""})
    assert odds.one(class_="roll-odds").text() != other.one(class_="roll-odds").text()
    assert "Probabilidades" in panel(client, lucia).one(class_="roll-odds").text()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Odds before rolling" in panel(client, lucia).one(class_="roll-odds").text()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert "Probabilidades" in panel(client, lucia).one(class_="roll-odds").text()


def test_each_browser_gets_its_own_csrf_token(client, player, lucia):
    client.force_login(player)
    other = client.__class__()
    other.force_login(player)
    tokens = [
        parse(c.get(roll_url(lucia), **HTMX).text)
        .one("input", name="csrfmiddlewaretoken")
        .attrs["value"]
        for c in (client, other)
    ]
    assert tokens[0] != tokens[1]
    assert "~" not in tokens[0] + tokens[1]


@pytest.fixture
def hitos(gm, player):
    rivera = UserFactory(username="rivera")
    campaign = campaign_with("hitos", gm, players=[player, rivera])
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})
    rocco = make_character(campaign, rivera, name="Rocco")
    scene = campaign_services.scene_create(
        campaign=campaign, title="El muelle", participants=[pepa]
    )
    return pepa, rocco, scene


def aspects(page, character) -> list[str]:
    found = page.find_all(id=f"roll{character.pk}_aspect")
    return [option.text() for option in found[0].find_all("option")] if found else []


def test_hitos_aspects_of_others_and_of_the_scene_show_on_the_next_request(client, player, hitos):
    pepa, rocco, scene = hitos
    client.force_login(player)
    assert aspects(panel(client, pepa), pepa) == []
    Aspect.objects.create(character=rocco, kind="complicacion", text="Confiado")
    assert "Rocco: Confiado" in aspects(panel(client, pepa), pepa)
    Character.objects.filter(pk=rocco.pk).update(name="Rocco el Rubio")
    assert "Rocco el Rubio: Confiado" in aspects(panel(client, pepa), pepa)
    SituationAspect.objects.create(scene=scene, text="Niebla espesa")
    assert "El muelle: Niebla espesa" in aspects(panel(client, pepa), pepa)


def dice(page) -> str:
    """The odds' summary: how many dice the set-up rolls."""
    return page.one(class_="roll-odds").one(class_="roll-summary").text()


def test_a_wound_changes_the_odds_of_the_panel_and_of_the_odds_partial(client, gm, player, lucia):
    """A wound leaves what the panel keeps under the grid version (the choices); its odds
    are drawn anew, with the wound penalty."""
    client.force_login(player)
    before = (dice(panel(client, lucia, **POOL)), dice(panel(client, lucia, part="odds", **POOL)))
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(6, damage_type="B"))
    page = panel(client, lucia, **POOL)
    after = (dice(page), dice(panel(client, lucia, part="odds", **POOL)))
    assert before[0] == before[1] != after[0] == after[1]
    assert "Inteligencia (3)" in options(page, lucia, "attribute")


def test_a_character_who_cannot_act_gets_a_warning_and_no_roll_button(client, gm, player, lucia):
    client.force_login(player)
    button = f"roll-submit-{lucia.pk}"
    assert "disabled" not in panel(client, lucia).one(id=button).attrs
    character_apply_damage(character=lucia, user=gm, damage=DamageInput(12, damage_type="L"))
    page = panel(client, lucia)
    assert "disabled" in page.one(id=button).attrs
    assert "no puede actuar" in page.one(class_="alert-warning").text()


def test_a_new_rating_changes_the_odds_partial_on_the_next_request(client, player, lucia):
    client.force_login(player)
    before = dice(panel(client, lucia, part="odds", **POOL))
    Trait.objects.filter(character=lucia, key="inteligencia").update(rating=5)
    assert dice(panel(client, lucia, part="odds", **POOL)) != before
