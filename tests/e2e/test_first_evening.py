"""The first evening, as a new group lives it on a 360 px phone and a 1280 px laptop."""

import re

import pytest
from playwright.sync_api import expect

from mechanics.models import Roll
from tests.e2e.conftest import SCREENSHOTS
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics import rolling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

fixed_dice = rolling.fixed_dice

# A skill of each system, the ratings behind it, and the start of the card's set-up line.
ROLLS = {
    "tinieblas": (
        "atletismo",
        {"atletismo": 2},
        "Reserva de 3 dados: Inteligencia +1 · Atletismo +2",
    ),
    "hitos": ("combate", {"combate": 4}, "Fortaleza + Combate · +5 · Dificultad 15"),
    "ndp": ("pelea", {"pelea": 4}, "Pelea · 3d6 + NdP 4"),
    "objetivo": ("armas_cc", {"fuerza": 7, "armas_cc": 5}, "Fuerza + Armas CC · +12"),
}


def _table(system, ratings):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Prueba", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign, make_character(campaign, player, name="Rufo", ratings=ratings)


@pytest.mark.parametrize(
    ("system", "width"), [("tinieblas", 360), ("hitos", 1280), ("ndp", 360), ("objetivo", 1280)]
)
def test_a_roll_card_on_the_campaign_page_says_what_was_rolled(open_as, screenshot, system, width):
    key, ratings, setup = ROLLS[system]
    campaign, character = _table(system, ratings)
    page = open_as("jugadora", width=width, height=800)
    page.goto(character.get_absolute_url())
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    page.locator(f'a[data-roll-trait="{key}"]').click()
    # The dock opens once the trait's answer is drawn. The skill alone is no sign of it:
    # a panel may choose that skill already (Objetivo's first), and a tap on the old
    # panel's button, swapped out by that answer, would be lost.
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value(key)
    panel.get_by_role("button", name="Tirar los dados").click()
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    expect(result.locator(".roll-setup")).to_contain_text(setup)
    roll = Roll.objects.get(character=character)

    page.goto(campaign.get_absolute_url())
    card = page.locator(f'article.roll[data-roll="{roll.pk}"]').first
    expect(card.locator(".roll-setup")).to_contain_text(setup)
    screenshot(page, f"campaign-card-{system}-{width}")


def test_hitos_odds_out_of_reach_say_so_and_the_scene_list_is_not_called_cronica(
    open_as, screenshot
):
    campaign, character = _table("hitos", {"fortaleza": 1, "forma_fisica": 0})
    page = open_as("jugadora", width=360, height=800)
    page.goto(character.get_absolute_url())
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    page.locator('a[data-roll-trait="forma_fisica"]').click()
    odds = page.locator(f"#roll-odds-{character.pk}")
    expect(odds.locator(".roll-note")).to_have_text(
        "Como mucho 11: la dificultad 15 queda fuera de alcance."
    )
    expect(odds.locator(".odds-exceptional dt")).to_have_text("Crítico (doble 10)")
    screenshot(page, "hitos-out-of-reach-360")

    page.goto(f"/campaigns/{campaign.pk}/scenes/")
    expect(page.locator("h1")).to_have_text("Escenas")


@pytest.mark.parametrize("width", [360, 1280])
def test_the_gm_attack_form_describes_its_fields_with_help_texts_on_the_page(
    open_as, screenshot, width
):
    from campaigns import services
    from mechanics.services import combat as combat_services
    from tests.e2e.test_accessibility import axe_violations

    campaign, lucia = _table("ndp", {"pelea": 4})
    thug = make_character(campaign, None, name="Matón", user=campaign.created_by)
    scene = services.scene_create(campaign=campaign, title="La pelea", participants=[lucia, thug])
    combat_services.combat_start(scene=scene, user=campaign.created_by)
    page = open_as("narradora", width=width, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/")
    form = page.locator("#combat-attack")
    described = form.locator("[aria-describedby]")
    expect(described.first).to_be_attached()
    assert described.count() == 6
    for number in range(described.count()):
        target = described.nth(number).get_attribute("aria-describedby")
        expect(page.locator(f"#{target}")).to_have_class("form-text")
        expect(page.locator(f"#{target}")).not_to_be_empty()
    # The accessible description the field announces is the help text.
    adversity = form.locator("#id_adversity")
    expect(adversity).to_have_accessible_description("Solo con una adversidad fija.")
    screenshot(page, f"combat-help-{width}")
    assert axe_violations(page, "light") == []


def _shot(page, name: str) -> None:
    """What the player sees (the viewport, not the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"first-evening-{name}.png"))


def _box(locator) -> dict:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
    )


def _overlap(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def test_on_a_phone_the_roll_sheet_leaves_the_sheet_usable_for_a_second_trait(open_as):
    from tests.e2e.test_roll import lucia

    _campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    page.goto(character.get_absolute_url())
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel).to_be_attached()
    dock = page.locator(f"#roll-dock-{character.pk}")
    attribute = page.get_by_role("link", name="Tirar Inteligencia")
    attribute.scroll_into_view_if_needed()
    attribute.click()
    expect(dock).to_have_attribute("role", "dialog")
    assert _box(dock)["top"] >= 800 * 0.45 - 1
    # The sheet stays in reach above the dock: a second trait builds the pool.
    page.get_by_role("link", name="Tirar Investigación").click()
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("investigacion")
    expect(panel.get_by_label("Atributo", exact=True)).to_have_value("inteligencia")
    expect(dock).to_have_attribute("role", "dialog")
    expect(panel.get_by_role("button", name="Tirar los dados")).to_be_in_viewport()
    _shot(page, "dock-360")


def test_on_a_laptop_the_side_panel_hides_neither_the_top_bar_nor_the_sheet_buttons(
    open_as,
):
    from tests.e2e.test_roll import lucia

    _campaign, character = lucia()
    page = open_as("jugadora", width=1280, height=900)
    page.goto(character.get_absolute_url())
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    dock = page.locator(f"#roll-dock-{character.pk}")
    page.get_by_role("link", name="Tirar Inteligencia").click()
    expect(dock).to_have_attribute("role", "dialog")
    page.evaluate("window.scrollTo(0, 0)")
    docked = _box(dock)
    covered = [
        name
        for name, locator in [
            ("top bar", page.locator("nav.cronica-bar")),
            ("Editar", page.get_by_role("link", name="Editar", exact=True)),
            ("Historial", page.get_by_role("link", name="Historial", exact=True)),
            ("Exportar", page.get_by_role("link", name="Exportar", exact=True)),
        ]
        if _overlap(docked, _box(locator))
    ]
    _shot(page, "dock-1280")
    assert covered == []


@pytest.mark.parametrize("width", [360, 1280])
def test_a_diary_written_after_the_rolls_is_one_tap_away_on_the_scene_page(open_as, width):
    import random

    from campaigns import services
    from characters import services as character_services
    from mechanics.rules.tinieblas.rolls import roll_dice
    from mechanics.services.rolls import roll_store

    campaign, lucia = _table("tinieblas", {"atletismo": 2})
    scene = services.scene_create(campaign=campaign, title="La cripta", participants=[lucia])
    player = lucia.owner
    for seed in range(30):
        record = roll_dice(3, rng=random.Random(seed))
        roll_store(campaign=campaign, user=player, record=record, character=lucia, scene=scene)
    character_services.diary_save(
        scene=scene, character=lucia, user=player, body="Nadie volvió igual de la cripta.",
        status="published", visibility="group",
    )  # fmt: skip
    page = open_as("narradora", width=width, height=800)
    page.goto(scene.get_absolute_url())
    review = page.locator("#group-review")
    review.get_by_role("link", name="Diario (1)").click()
    diary = review.locator(".scene-timeline-diary")
    expect(diary).to_contain_text("Nadie volvió igual de la cripta.")
    expect(review.locator(".scene-timeline-roll")).to_have_count(0)
    expect(diary).to_be_in_viewport()
    _shot(page, f"scene-diaries-{width}")


@pytest.mark.parametrize("width", [360, 1280])
def test_the_demo_dashboard_shows_faces_and_links_to_my_characters(open_as, width):
    import io

    from django.core.management import call_command

    from characters.models import Character

    call_command("seed_demo", stdout=io.StringIO())
    page = open_as("ana", width=width, height=900)
    page.goto("/")
    mine = Character.objects.filter(owner__username="ana").order_by("campaign__name").first()
    link = page.locator(f'a.campaign-card-character[href="{mine.get_absolute_url()}"]')
    expect(link).to_have_text(mine.name)
    face = link.locator("img")
    expect(face).to_be_visible()
    # decode() waits for the image to load: visible alone may be its empty box.
    assert face.evaluate("img => img.decode().then(() => img.naturalWidth)") == 160
    expect(page.locator(".campaign-card img.float-end").first).to_be_visible()
    _shot(page, f"dashboard-{width}")
    link.click()
    expect(page).to_have_url(re.compile(re.escape(mine.get_absolute_url()) + "$"))
    expect(page.locator("h1")).to_contain_text(mine.name)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tinieblas_roll_page_is_short_on_a_phone_with_labelled_selects(
    open_as, screenshot, fixed_dice, scheme
):
    from tests.e2e.test_accessibility import axe_violations
    from tests.e2e.test_roll import lucia

    _campaign, character = lucia()
    page = open_as("jugadora", width=360, height=800)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{character.get_absolute_url()}roll/")
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    panel = page.locator(f"#roll-panel-{character.pk}")
    for number in (1, 2, 3):
        select = panel.locator(f"select[name=modifier_{number}]")
        expect(select).to_be_visible()
        label = panel.locator(f"label[for={select.get_attribute('id')}]")
        expect(label).to_have_text(f"Mod. {number}")
        # Shown, not only there for screen readers (a 1 px clipped label).
        assert label.bounding_box()["width"] > 20
    # A 10 that explodes: the result card as tall as a three-dice roll makes it.
    fixed_dice(10, 3, 1, 1)
    panel.get_by_role("button", name="Tirar los dados").click()
    card = panel.locator(".roll-result .roll-card")
    expect(card).to_be_visible()
    expect(card.locator(".die")).to_have_count(4)
    expect(page.locator(".dice-legend")).to_have_count(1)
    screenshot(page, f"tinieblas-roll-page-360-{scheme}")
    # The lighter layout keeps WCAG 2.1 AA (contrast of the smaller labels, the trail's
    # last step left to screen readers).
    assert axe_violations(page, scheme) == []
    height = page.evaluate("document.documentElement.scrollHeight")
    # 2,021 px before the fold and the visible labels; 1,344 before the phone's lighter
    # layout (smaller labels, tighter gaps, the trail on one line); 1,255 since each list
    # has its own row, so that "Inteligencia (3)" shows whole (test_lists_show_their_choice).
    assert height <= 1260, height
