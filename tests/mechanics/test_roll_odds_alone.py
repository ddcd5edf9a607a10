"""The odds box alone (htmx `part=odds`, at each change of the roll panel) reads less than
the panel: the open scenes only for a set-up that reads the scene (`RollSetup.reads_scene`),
a Tinieblas sheet's specialties only when one is chosen (`RollForm.drawn`), and each part
of the sheet's rows when first used (`mechanics.setup.cached_sheet`). It shows what the
panel's own odds box shows for the same choices, in every system: the same odds and the
same problems, with nothing cached, or with some of the sheet's rows cached."""

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import services as campaign_services
from campaigns.fragments import CACHE
from campaigns.models import Scene
from characters.models import Character, Resource
from characters.services import specialty_add
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics.rolling import roll_url
from tests.mechanics_web.rolls import hitos_rooftop_fight

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
POOL = {"kind": "pool", "attribute": "inteligencia", "skill": "investigacion", "again": "10"}


def shown(html: str) -> tuple[str, list[str]]:
    """What an odds box shows: its words (the odds, or what to fix) and exact values."""
    box = parse(html).one(class_="roll-odds")
    return box.text(), [data.attrs["value"] for data in box.find_all("data")]


def odds_and_panel(client, character, setup: dict, *, first: str) -> tuple:
    """The odds box alone and the panel's, for `setup`: with nothing cached (`first`
    "neither"), or one after the other ("odds" or "panel" first), the second with the
    sheet's rows the first read in the cache (their fragments' keys differ)."""
    answers = {}
    for part in ("odds", "panel") if first == "odds" else ("panel", "odds"):
        if first == "neither" or part == first:
            caches[CACHE].clear()
        query = {**setup, "part": "odds"} if part == "odds" else setup
        response = client.get(roll_url(character), query, **HTMX)
        assert response.status_code == 200
        answers[part] = shown(response.text)
    return answers["odds"], answers["panel"]


def assert_same(client, character, setups: list[dict]) -> list[str]:
    """The odds box alone shows what the panel's does, for each set-up, in every order;
    the words shown, to check what they say."""
    words = []
    for setup in setups:
        for first in ("neither", "odds", "panel"):
            alone, in_panel = odds_and_panel(client, character, setup, first=first)
            assert alone == in_panel, (setup, first)
        words.append(alone[0])
    return words


@pytest.fixture
def lucia(campaign, player):
    return make_character(
        campaign,
        player,
        name="Lucía",
        ratings={"inteligencia": 3, "investigacion": 2, "pelea": 2, "fuerza": 2},
        specialties=[("investigacion", "Archivos"), ("pelea", "Cuchillos")],
    )


def test_tinieblas_odds_alone_show_what_the_panel_shows(client, gm, player, lucia, campaign):
    archives = lucia.specialties.get(name="Archivos").pk
    knives = lucia.specialties.get(name="Cuchillos").pk
    scene = campaign_services.scene_create(campaign=campaign, title="El sótano", participants=[])
    scene.participants.add(lucia)
    client.force_login(player)
    words = assert_same(
        client,
        lucia,
        [
            POOL,
            {**POOL, "specialty": ""},
            {**POOL, "specialty": str(archives)},
            {**POOL, "specialty": str(knives)},  # another skill's
            {**POOL, "specialty": "999999"},  # not hers
            {**POOL, "skill": "", "specialty": str(archives)},
            {**POOL, "willpower": "dice"},
            {**POOL, "willpower": "resistance"},
            {**POOL, "modifier_1": "-5", "modifier_2": "-3"},  # a chance die
            {**POOL, "kind": "extended", "target": ""},
            {**POOL, "kind": "extended", "target": "8", "max_rolls": "3"},
            {**POOL, "attribute": ""},
            {**POOL, "attribute": "nada"},
            {**POOL, "scene": str(scene.pk)},
            {**POOL, "scene": "none"},
        ],
    )
    assert "5 dados" in words[0]
    assert "6 dados" in words[2]  # the specialty's die
    assert "Esa especialidad no es de la habilidad elegida." in words[3]
    Resource.objects.filter(character=lucia, key="willpower").update(current=0)
    [spent] = assert_same(client, lucia, [{**POOL, "willpower": "dice"}])
    assert "Voluntad" in spent


def test_a_sheet_without_specialties_refuses_one_in_the_odds_as_in_the_panel(
    client, player, campaign
):
    """Without specialties the panel has no such field: one sent anyway is refused."""
    ana = make_character(campaign, player, name="Ana", ratings={"inteligencia": 3})
    client.force_login(player)
    [words] = assert_same(client, ana, [{**POOL, "specialty": "1"}])
    assert "Corrige" in words


def test_a_specialty_added_shows_in_the_odds_alone_on_the_next_request(
    client, player, lucia, campaign
):
    """Each part of the sheet's rows is kept under the character's grid version."""
    client.force_login(player)
    caches[CACHE].clear()
    odds = {**POOL, "part": "odds"}
    before = shown(client.get(roll_url(lucia), odds, **HTMX).text)
    # The specialties are read (and kept) by the panel, then by the odds of a new one.
    assert client.get(roll_url(lucia), **HTMX).status_code == 200
    added = specialty_add(character=lucia, user=player, skill_key="investigacion", name="Mapas")
    chosen = {**odds, "specialty": str(added.pk)}
    after = shown(client.get(roll_url(lucia), chosen, **HTMX).text)
    assert "6 dados" in after[0]
    assert "5 dados" in before[0]


def test_objetivo_odds_alone_read_the_scene_for_the_specialization(client, gm, player):
    campaign = campaign_with("objetivo", gm, players=[player])
    pepa = make_character(
        campaign, player, name="Pepa", ratings={"fuerza": 5, "pelea": 3, "resistencia": 8}
    )
    tavern = Scene.objects.create(campaign=campaign, title="La taberna")
    tavern.participants.add(pepa)
    port = Scene.objects.create(campaign=campaign, title="El puerto")
    closed = Scene.objects.create(campaign=campaign, title="El barco", status=Scene.Status.CLOSED)
    details = {"specialization": "pelea", "specialization_used_scene": tavern.pk}
    Character.objects.filter(pk=pepa.pk).update(details=details)
    Resource.objects.filter(character=pepa, key="destiny_points").update(current=1)
    client.force_login(player)
    punch = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "difficulty": "15"}
    special = {**punch, "specialization": "on"}
    words = assert_same(
        client,
        pepa,
        [
            punch,
            special,  # used in the scene she is in
            {**special, "scene": str(tavern.pk)},
            {**special, "scene": str(port.pk)},
            {**special, "scene": "none"},
            {**punch, "scene": str(closed.pk)},
            {**punch, "destiny_point": "on"},
            {**punch, "kind": "attack", "weapon": "", "defensa": ""},
        ],
    )
    assert "Ya se ha usado en esta escena." in words[1] == words[2]
    assert "Ya se ha usado" not in words[3]
    assert "Ya se ha usado" not in words[4]
    assert "cerrada" in words[5]


def test_hitos_odds_alone_read_the_scene_of_an_attack(client, gm, player):
    campaign = campaign_with("hitos", gm, players=[player])
    _combat, hero, foe = hitos_rooftop_fight(campaign, gm, player)
    elsewhere = Scene.objects.create(campaign=campaign, title="Calle")
    client.force_login(player)
    check = {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "modifier": "0",
    }
    blow = {
        **check,
        "kind": "attack",
        "difficulty": "30",
        "weapon": "central",
        "attack_range": "melee",
        "target": str(foe.pk),
    }
    words = assert_same(
        client,
        hero,
        [check, {**check, "modifier": "3"}, blow, {**blow, "scene": str(elsewhere.pk)}],
    )
    assert "Corrige" not in words[2]
    assert "Corrige" in words[3]  # no fight in that scene


def test_ndp_odds_alone_show_what_the_panel_shows(client, gm, player):
    campaign = campaign_with("ndp", gm, players=[player])
    pepa = make_character(campaign, player, name="Pepa", ratings={"percibir": 4})
    client.force_login(player)
    check = {"kind": "check", "skill": "percibir", "dice": "4", "adversity": "12"}
    words = assert_same(
        client,
        pepa,
        [check, {**check, "gracias": "1", "desgracias": "2"}, {**check, "skill": "nada"}],
    )
    assert "Corrige" in words[2]


def test_the_cold_odds_of_a_roll_without_a_specialty_read_neither_scenes_nor_specialties(
    client, player, lucia, campaign
):
    campaign_services.scene_create(campaign=campaign, title="El sótano", participants=[lucia])
    client.force_login(player)
    caches[CACHE].clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(roll_url(lucia), {**POOL, "part": "odds"}, **HTMX)
    tables = " ".join(query["sql"] for query in queries)
    assert "characters_trait" in tables
    assert "characters_resource" in tables
    assert "campaigns_scene" not in tables
    assert "characters_specialty" not in tables
