"""A ledger row built as a string (characters.xp_rows.row_html): what it shows, escaped,
in either language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from campaigns import services as campaign_services
from characters import services
from characters.models import XpEntry
from characters.xp_rows import keyed, ledger_rows
from mechanics.rules.tinieblas.advancement import SceneAward
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HOSTILE = "<b>\"Ana\" & 'Bo'</b>"


def rows(campaign, *, show_character: bool = True):
    entries = list(keyed(XpEntry.objects.filter(campaign=campaign)).order_by("created_at", "pk"))
    names = dict(campaign.characters.values_list("pk", "name")) if show_character else None
    html = ledger_rows(entries, campaign=campaign, names=names)
    return parse(f"<ol>{html}</ol>").one("ol").find_all("li", class_="list-group-item")


def test_a_row_escapes_every_name_and_reason_it_shows(campaign, gm, player):
    get_user_model().objects.filter(pk=gm.pk).update(username="gm<i>")
    gm.refresh_from_db()
    lucia = make_character(campaign, player, name=HOSTILE)
    services.xp_adjust(character=lucia, user=gm, amount=4, reason=HOSTILE)
    (row,) = rows(campaign)
    assert row.one("a", class_="fw-semibold").text() == HOSTILE
    reason = [div for div in row.find_all("div") if div.attrs.get("class") == "small"]
    assert [div.text() for div in reason] == [HOSTILE]
    assert row.one("div", class_="text-body-secondary").text().startswith("por gm<i> · ")
    assert row.one("span", class_="xp-amount").text() == "+4"
    assert row.one("span", class_="xp-balance").text() == "= 4"


def test_a_scene_award_links_its_scene_and_a_correction_says_what_it_changed(campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    scene = campaign_services.scene_create(
        campaign=campaign, title="La <cripta>", participants=[lucia]
    )
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 3})
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 5})
    award, correction = rows(campaign, show_character=False)
    assert award.find_all("a")[0].text() == "La <cripta>"
    scene_link = reverse("campaigns:scene", args=[campaign.pk, scene.pk])
    assert [row.one("a").attrs["href"] for row in (award, correction)] == [scene_link] * 2
    assert award.attrs["data-entry-kind"] == "award"
    assert not award.find_all("a", class_="fw-semibold")
    assert correction.attrs["data-entry-kind"] == "correction"
    assert correction.one("span", class_="xp-amount").text() == "+2"
    assert "Cambiado de 3 a 5 PX." in correction.text()


def test_each_row_links_its_own_characters_ledger(campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    mateo = make_character(campaign, None, name="Mateo")
    for character in (lucia, mateo, lucia):
        services.xp_adjust(character=character, user=gm, amount=1, reason="Inicio")
    links = [row.one("a", class_="fw-semibold").attrs["href"] for row in rows(campaign)]
    assert links == [
        reverse("characters:xp", args=[campaign.pk, character.pk])
        for character in (lucia, mateo, lucia)
    ]


def test_a_row_reads_in_english(campaign, gm, player):
    lucia = make_character(campaign, player, name="Lucía")
    services.xp_adjust(character=lucia, user=gm, amount=2, reason="Inicio")
    with translation.override("en"):
        (row,) = rows(campaign)
    assert row.one("span", class_="xp-balance").attrs["title"] == "Balance after"
    assert f"by {gm.username} · " in row.text()


def test_a_rubric_line_has_its_captions_tooltip_and_diario_none_empty(campaign, gm, player):
    """The seed captions each level of Interpretación, not Diario's: its line has no
    tooltip rather than an empty one."""
    lucia = make_character(campaign, player, name="Lucía")
    scene = campaign_services.scene_create(campaign=campaign, title="Escena", participants=[lucia])
    award = SceneAward(interpretacion=2, ideas=2, diario=1)
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: award})
    (row,) = rows(campaign)
    lines = {
        line.text().split(" ")[0]: line for line in row.find_all("li", class_="list-inline-item")
    }
    assert lines["Interpretación"].attrs["title"]
    assert "title" not in lines["Diario"].attrs
    assert all(line.attrs.get("title", "x") for line in lines.values())
