"""Roll cards of the long lists (`mechanics.cards`): read from the cache in one go,
rendered only when not there, and keyed by every name they show, the way they are shown
and the language."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns import services as campaign_services
from characters.models import Character
from mechanics import cards
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services.rolls import roll_store
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="La cripta", participants=[lucia]
    )
    rolls = [
        roll_store(
            campaign=campaign,
            user=player,
            record=roll_dice(4, rng=random.Random(seed)),
            character=lucia,
            scene=scene,
        )
        for seed in range(3)
    ]
    return lucia, scene, rolls


def _log(client, campaign):
    return parse(client.get(reverse("mechanics:log", args=[campaign.pk])).text)


def _scene(client, scene):
    return parse(client.get(scene.get_absolute_url()).text)


def _card(page, roll):
    return page.one("article", data_roll=str(roll.pk))


@pytest.fixture
def renders(monkeypatch):
    """How many cards were rendered (not read from the cache)."""
    count = []
    original = cards.card_html

    def counted(*args, **kwargs):
        count.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(cards, "card_html", counted)
    return count


def test_a_list_renders_each_card_once_then_reads_them_all_from_the_cache(
    client, gm, campaign, table, renders
):
    client.force_login(gm)
    first = _log(client, campaign)
    assert len(renders) == 3
    again = _log(client, campaign)
    assert len(renders) == 3
    assert [a.text() for a in again.find_all("article")] == [
        a.text() for a in first.find_all("article")
    ]


def test_renamed_users_characters_and_scenes_show_on_the_next_request(
    client, gm, player, campaign, table
):
    lucia, scene, rolls = table
    client.force_login(gm)
    card = _card(_log(client, campaign), rolls[0])
    assert card.one(class_="roll-who").text() == player.username
    assert "Lucía" in card.one(class_="roll-character").text()
    assert "La cripta" in card.one(class_="roll-scene").text()
    get_user_model().objects.filter(pk=player.pk).update(username="bob_el_bardo")
    Character.objects.filter(pk=lucia.pk).update(name="Lucía Ferrer")
    campaign_services.scene_update(scene=scene, title="El osario", participants=[lucia])
    card = _card(_log(client, campaign), rolls[0])
    assert card.one(class_="roll-who").text() == "bob_el_bardo"
    assert "Lucía Ferrer" in card.one(class_="roll-character").text()
    assert "El osario" in card.one(class_="roll-scene").text()


def test_the_compact_card_of_the_timeline_is_not_the_logs(client, gm, campaign, table):
    _lucia, scene, rolls = table
    client.force_login(gm)
    assert _card(_log(client, campaign), rolls[0]).find_all(class_="roll-scene")
    compact = _card(_scene(client, scene), rolls[0])
    assert "roll-compact" in compact.attrs["class"].split()
    assert not compact.find_all(class_="roll-scene")
    # And the other way round, once both are cached.
    assert _card(_log(client, campaign), rolls[0]).find_all(class_="roll-scene")


def test_each_language_gets_its_own_cards(client, gm, campaign, table):
    _lucia, _scene_row, rolls = table
    client.force_login(gm)
    assert "Escena:" in _card(_log(client, campaign), rolls[0]).one(class_="roll-scene").text()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Scene:" in _card(_log(client, campaign), rolls[0]).one(class_="roll-scene").text()


def test_a_card_built_as_a_string_escapes_every_name_and_label(campaign, player):
    """`card_html` writes the markup itself: what players type reaches it escaped, once."""
    lucia = make_character(campaign, player, name='Lucía & <b>"la Roja"</b>')
    scene = campaign_services.scene_create(
        campaign=campaign, title="<i>Cripta</i> & 'sótano'", participants=[lucia]
    )
    roll = roll_store(
        campaign=campaign,
        user=player,
        record=roll_dice(4, rng=random.Random(1)),
        character=lucia,
        scene=scene,
        label="<script>alert(1)</script> & más",
    )
    roll = cards.with_relations(type(roll).objects.filter(pk=roll.pk)).get()
    html = cards.card_html(roll, compact=False)
    assert not any(tag in html for tag in ("<script>", "<b>", "<i>"))
    assert "· Lucía &amp; &lt;b&gt;&quot;la Roja&quot;&lt;/b&gt;</span>" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; más</p>" in html
    assert "Escena: &lt;i&gt;Cripta&lt;/i&gt; &amp; &#x27;sótano&#x27;</p>" in html
    assert "&amp;amp;" not in html
    page = parse(html)
    assert page.one("article", data_roll=str(roll.pk)).one("p", class_="roll-label").text() == (
        "<script>alert(1)</script> & más"
    )
    assert not cards.card_html(roll, compact=True).count("roll-scene")
