"""Dado objetivo at a live table: the GM hands a destiny point back on a character's sheet,
and the player's roll panel, open on her sheet as it loads untouched, follows with no
reload: its count and its odds with the lowered die (docs/rules.md#objetivo-destiny).
Its weapon list once showed a choice none marked, which live.js took for the player's
own and so held back every reload of the panel."""

import pytest
from playwright.sync_api import expect

from characters.models import Resource
from tests.e2e.test_live_table import live, not_reloaded
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_destiny_point_handed_back_reaches_the_players_open_roll_panel(open_live, screenshot):
    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = campaign_with("objetivo", gm, players=[ana], name="Lisboa")
    carmen = make_character(
        campaign, ana, name="Carmen", ratings={"fuerza": 5, "armas_cc": 4, "resistencia": 8}
    )
    Resource.objects.filter(character=carmen, key="destiny_points").update(current=2)

    ana_page = open_live(ana)
    live(ana_page, carmen.get_absolute_url())
    panel = ana_page.locator(f"#roll-panel-{carmen.pk}")
    pool = panel.locator('li[data-pool="destiny_points"] .roll-pool-value')
    odds = panel.locator(f"#roll-odds-{carmen.pk}")
    expect(pool).to_have_text("2")
    expect(odds).to_contain_text("dado central")

    gm_page = open_live(gm)
    gm_page.goto(carmen.get_absolute_url())
    gm_page.get_by_role("button", name="Devolver un punto de destino").click()
    expect(gm_page.locator("#pool-destiny_points .pool-pending")).to_be_visible()

    expect(ana_page.locator("#pool-destiny_points [data-pool-value]")).to_have_text("3")
    expect(pool).to_have_text("3")
    expect(odds).to_contain_text("dado menor")
    expect(odds).to_contain_text("Se devolvió un punto de destino: un nivel abajo.")
    screenshot(ana_page, "panel-after-hand-back")
    assert not_reloaded(ana_page)
