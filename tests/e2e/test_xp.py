"""XP in a browser: the GM awards a scene's XP with the rubric, a player spends XP on a
skill, and the XP log and its chart show both."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from campaigns import services as campaign_services
from campaigns.models import Membership
from characters import services as character_services
from characters.models import Trait, XpEntry
from tests.factories import CampaignFactory, UserFactory, backdated, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def pick(page, character, field: str, value: int) -> None:
    """Click the label of a rubric level (radio values start at 1, Diario at 0)."""
    first = 0 if field == "diario" else 1
    page.locator(f"label[for=id_c{character.pk}-{field}_{value - first}]").click()


def test_gm_awards_xp_with_the_rubric_and_a_player_spends_it(open_as, screenshot):
    gm = UserFactory(username="narradora")
    pablo = UserFactory(username="pablo")
    marta = UserFactory(username="marta")
    campaign = CampaignFactory(name="Sombras de Toledo", created_by=gm)
    for user, role in ((gm, "gm"), (pablo, "player"), (marta, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    lucia = make_character(campaign, pablo, name="Lucía", ratings={"sigilo": 2})
    mateo = make_character(campaign, marta, name="Mateo", ratings={"sigilo": 1})
    scene = campaign_services.scene_create(
        campaign=campaign, title="La noche del incendio", participants=[lucia, mateo]
    )
    character_services.diary_save(
        scene=scene,
        character=lucia,
        user=pablo,
        body="El archivo ardía y nadie gritó.",
        status="published",
        visibility="group",
    )

    # The GM closes the scene and opens the award panel from the scene page.
    gm_page = open_as("narradora")
    gm_page.goto(scene.get_absolute_url())
    gm_page.get_by_role("button", name="Cerrar escena").click()
    # The link is there before too: follow it once the scene is closed.
    expect(gm_page.get_by_role("button", name="Reabrir escena")).to_be_visible()
    gm_page.get_by_role("link", name="Dar PX").click()
    expect(gm_page.get_by_role("heading", name="Dar PX")).to_be_visible()
    # Lucía wrote her diary: Diario is pre-marked at 2; Mateo's at 0.
    expect(gm_page.locator(f"#id_c{lucia.pk}-diario_2")).to_be_checked()
    expect(gm_page.locator(f"#id_c{mateo.pk}-diario_0")).to_be_checked()
    expect(gm_page.get_by_text("Chupi. Descripciones largas").first).to_be_visible()

    pick(gm_page, lucia, "interpretacion", 3)
    pick(gm_page, lucia, "ideas", 2)
    gm_page.locator(f"label[for=id_c{lucia.pk}-constancia]").click()
    pick(gm_page, mateo, "interpretacion", 2)
    pick(gm_page, mateo, "ideas", 4)
    # Totals follow as levels are clicked (htmx): 3 + 2 + 2 + 1 + 1 and 2 + 4 + 0 + 1.
    expect(gm_page.locator(f"#total-{lucia.pk}")).to_have_text(re.compile(r"9\s+PX"))
    expect(gm_page.locator(f"#total-{mateo.pk}")).to_have_text(re.compile(r"7\s+PX"))
    expect(gm_page.locator("#award-totals")).to_contain_text("16")
    screenshot(gm_page, "award-panel-1280")
    # Given minutes before the spend below, as at a table (the chart draws entries of one
    # second as one point: a fast run would make the award and the spend one).
    with backdated(timezone.now() - timedelta(minutes=5)):
        gm_page.get_by_role("button", name="Dar los PX", exact=True).click()
        expect(gm_page.get_by_text("PX anotados para 2 personajes.")).to_be_visible()
    assert dict(XpEntry.objects.values_list("character__name", "amount")) == {
        "Lucía": 9,
        "Mateo": 7,
    }

    # Reopened on a phone, the panel shows what was given.
    phone_gm = open_as("narradora", width=360, height=780)
    phone_gm.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/xp/")
    expect(phone_gm.locator(f"#id_c{lucia.pk}-interpretacion_2")).to_be_checked()
    expect(phone_gm.get_by_text("Dado hasta ahora: 9 PX.")).to_be_visible()
    screenshot(phone_gm, "award-panel-reopened-360")

    # Pablo, on his phone, buys a dot of Sigilo: the price shows before he confirms.
    player_page = open_as("pablo", width=360, height=780)
    player_page.goto(f"/campaigns/{campaign.pk}/characters/{lucia.pk}/xp/")
    expect(player_page.locator("#xp-balance")).to_contain_text("9")
    player_page.get_by_label("Subir un rasgo").select_option("sigilo")
    expect(player_page.locator("#purchase-quote")).to_contain_text("Sigilo 2 → 3")
    expect(player_page.locator("#purchase-quote")).to_contain_text("Saldo 9 → 3 PX")
    screenshot(player_page, "purchase-quote-360")
    player_page.get_by_role("button", name="Comprar por 6 PX").click()
    expect(player_page.get_by_text("Comprado: Sigilo 2 → 3 por 6 PX.")).to_be_visible()
    expect(player_page.locator("#xp-balance")).to_contain_text("3")
    assert Trait.objects.get(character=lucia, key="sigilo").rating == 3
    screenshot(player_page, "character-xp-360")

    # Pablo's XP log shows his character's award and spend, not Mateo's: XP follows the
    # sheet's visibility. The chart draws one line per character he may see.
    player_page.get_by_role("link", name="Registro de PX").first.click()
    expect(player_page.get_by_role("heading", name="Registro de PX")).to_be_visible()
    expect(player_page.locator("#ledger [data-entry-kind]")).to_have_count(2)
    chart = player_page.locator("#campaign-xp-chart > svg")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(1)
    expect(chart.locator("desc")).to_have_text("Lucía: 3 PX ahora")
    # The 9 before the spend, minutes earlier, is a point of its own, as in the ledger.
    expect(chart.locator("circle title", has_text="Lucía: 9 PX el")).to_have_count(1)
    screenshot(player_page, "xp-log-360")

    # The GM sees both awards and the spend, one line per character.
    gm_page.goto(f"/campaigns/{campaign.pk}/xp/")
    expect(gm_page.locator("#ledger [data-entry-kind]")).to_have_count(3)
    gm_chart = gm_page.locator("#campaign-xp-chart > svg")
    expect(gm_chart.locator("polyline")).to_have_count(2)
    expect(gm_chart.locator("desc")).to_have_text("Lucía: 3 PX ahora; Mateo: 7 PX ahora")
    expect(gm_page.locator("#character-totals")).to_contain_text("Lucía")
    screenshot(gm_page, "xp-log-1280")


def test_a_table_of_ten_tells_its_lines_apart_in_the_chart_and_its_legend(open_as, screenshot):
    """Ten characters: the first and the ninth line share a colour, not a dash pattern,
    and each legend swatch is drawn as its line is."""
    gm = UserFactory(username="narradora")
    player = UserFactory(username="pablo")
    campaign = CampaignFactory(name="La gran mesa", created_by=gm)
    for user, role in ((gm, "gm"), (player, "player")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    for number in range(1, 11):
        character = make_character(campaign, player, name=f"PJ {number:02d}")
        character_services.xp_adjust(
            character=character, user=gm, amount=number, reason="Experiencia inicial"
        )

    page = open_as(gm)
    page.goto(reverse("characters:xp_log", args=[campaign.pk]))
    chart = page.locator("#campaign-xp-chart")
    expect(chart.locator("g.xp-series")).to_have_count(10)
    looks = chart.evaluate(
        """chart => {
            const look = element => {
                const style = getComputedStyle(element);
                return [style.stroke, style.strokeDasharray];
            };
            return {
                lines: [...chart.querySelectorAll("g.xp-series polyline")].map(look),
                swatches: [...chart.querySelectorAll(".xp-legend-swatch line")].map(look),
            };
        }"""
    )
    lines = looks["lines"]
    assert looks["swatches"] == lines
    assert lines[8][0] == lines[0][0]
    assert lines[8][1] != lines[0][1]
    assert len({tuple(line) for line in lines}) == 10
    # A swatch is a short piece beside its name, not a drawing as wide as the chart.
    swatch = chart.locator(".xp-legend-swatch").first.bounding_box()
    assert swatch["width"] < 50, swatch
    assert swatch["height"] < 12, swatch
    screenshot(page, "ten-lines")
