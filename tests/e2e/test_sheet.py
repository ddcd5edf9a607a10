"""The sheet page in a browser: inline edits without reloads, and how every system's
sheet looks on a phone and on a desktop."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from characters import services
from characters.models import Character, Resource, Trait
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    make_character,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = 360, 1280


def campaign_with(system: str):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Crónica de prueba", system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign, gm, player


def hurt(character: Character, damage: DamageInput) -> None:
    character.refresh_from_db()
    system = get_system(character.campaign.system)
    ratings = services.ratings_of(character)
    change = system.apply_damage(
        character.health, ratings, character.details, character.campaign.rules, damage
    )
    Character.objects.filter(pk=character.pk).update(health=change.health)


def tinieblas_character():
    campaign, gm, player = campaign_with("tinieblas")
    character = make_character(
        campaign,
        player,
        name="Lucía Ferrer",
        concept="Forense curiosa",
        description="Treinta y tantos, bata siempre manchada de café, mirada cansada.",
        ratings={
            "inteligencia": 4,
            "astucia": 3,
            "aplomo": 2,
            "fuerza": 2,
            "destreza": 3,
            "resistencia": 2,
            "presencia": 2,
            "manipulacion": 2,
            "compostura": 3,
            "fuerza_de_voluntad": 5,
            "medicina": 4,
            "ciencia": 3,
            "investigacion": 3,
            "academicismo": 2,
            "ocultismo": 1,
            "atletismo": 2,
            "conducir": 1,
            "armas_de_fuego": 1,
            "empatia": 2,
            "persuasion": 1,
            "sociedad": 1,
        },
        details={"virtue": "prudencia", "vice": "orgullo"},
        specialties=[("medicina", "Autopsias"), ("ciencia", "Química"), ("ocultismo", "Ritos")],
        merits=[("memoria_eidetica", "Memoria Eidética", 2), ("recursos", "Recursos", 2)],
        approved_over_budget=True,
    )
    services.character_update(
        character=character, user=gm, notes="Le debe un favor al comisario Álvarez."
    )
    hurt(character, DamageInput(amount=1, damage_type="L"))
    hurt(character, DamageInput(amount=2, damage_type="B"))
    services.resource_adjust(character=character, user=player, key="willpower", delta=-2)
    services.xp_adjust(character=character, user=gm, amount=9, reason="Escenas 1–3")
    return character, gm, player


def hitos_character():
    campaign, gm, player = campaign_with("hitos")
    character = make_character(
        campaign,
        player,
        name="Marcos Albéniz",
        concept="Contrabandista con deudas",
        description="Manos de marinero y sonrisa de vendedor.",
        ratings={
            "fortaleza": 5,
            "reflejos": 6,
            "voluntad": 4,
            "intelecto": 4,
            "combate": 4,
            "forma_fisica": 3,
            "subterfugio": 5,
            "interaccion": 3,
        },
        aspects=[
            ("concepto", "Contrabandista con deudas"),
            ("cita", "«Todo tiene un precio, incluso yo»"),
            ("hito", "Sobreviví al naufragio del Esperanza"),
            ("hito", "Traicioné a mi hermano por un cargamento"),
            ("hito", "Conozco cada cala de la costa"),
            ("hito", "Salvé a la hija del alcalde"),
            ("complicacion", "Buscado por la Guardia Civil"),
            ("libre", "Amigo de los pescadores de Cádiz"),
        ],
    )
    aspect = character.aspects.get(kind="hito", text__startswith="Traicioné")
    services.aspect_set_exhausted(aspect=aspect, user=player, exhausted=True)
    # Two hits under Aguante (no massive-damage roll): 10 of 21 lost, Herido.
    hurt(character, DamageInput(amount=5))
    hurt(character, DamageInput(amount=5))
    return character, gm, player


def ndp_character():
    campaign, gm, player = campaign_with("ndp")
    character = make_character(
        campaign,
        player,
        name="Irene de Valdés",
        concept="Mercenaria y devota del Sol",
        ratings={
            "fortitud": 3,
            "vitalidad": 3,
            "voluntad": 4,
            "percibir": 3,
            "combate_c_a_c": 6,
            "esquivar": 4,
            "interceptar": 3,
            "religion": 2,
            "arcano": 1,
            "correr": 2,
        },
        details={"deities": {"sol": "Sol Invicto"}},
    )
    Trait.objects.filter(character=character, key="combate_c_a_c").update(progress=3)
    Trait.objects.filter(character=character, key="esquivar").update(progress=1)
    for kind, name, weight, data in (
        (
            "armour",
            "Casco acolchado con anillas",
            "2.5",
            {"part": "cabeza", "rd": 4, "integrity": 6},
        ),
        ("armour", "Cota de malla", "12", {"part": "torso", "rd": 5, "integrity": 0}),
        (
            "weapon",
            "Espada larga",
            "1.5",
            {"sides": 8, "count": 1, "fixed": 0, "damage_type": "cortante", "integrity": 8},
        ),
        ("shield", "Escudo de torre", "7", {"gdc": 7, "integrity": 10}),
        ("item", "Cuerda de cáñamo (15 m)", "18", {}),
    ):
        services.item_add(
            character=character, user=gm, kind=kind, name=name, weight_kg=Decimal(weight), data=data
        )
    services.resource_adjust(character=character, user=player, key="fe_sol", delta=3)
    return character, gm, player


def objetivo_character():
    campaign, gm, player = campaign_with("objetivo")
    character = make_character(
        campaign,
        player,
        name="Fred Calloway",
        concept="Pistolero a sueldo",
        description="Sombrero gastado, revólver del 45.",
        ratings={
            "fuerza": 5,
            "destreza": 8,
            "resistencia": 6,
            "percepcion": 6,
            "inteligencia": 4,
            "carisma": 3,
            "armas_cc": 6,
            "armas_dist": 4,
            "pelea": 3,
            "juegos_de_azar": 5,
        },
        details={"specialization": "armas_dist"},
    )
    services.resource_adjust(
        character=character, user=gm, key="destiny_points", delta=2, may_raise_open=True
    )
    hurt(character, DamageInput(amount=5))
    return character, gm, player


def test_owner_spends_a_drama_point_without_a_page_reload_and_cannot_add_one(open_as, screenshot):
    character, _gm, player = hitos_character()
    page = open_as(player, width=PHONE, height=780)
    page.goto(character.get_absolute_url())
    pool = page.locator("#pool-drama_points")
    expect(pool.locator("[data-pool-value]")).to_have_text("3")
    # A page load would wipe this; an htmx swap keeps it.
    page.evaluate("window.sheetMarker = 'still here'")

    pool.get_by_role("button", name="Gastar un punto de Puntos dramáticos").click()
    expect(page.locator("#pool-drama_points [data-pool-value]")).to_have_text("2")
    assert Resource.objects.get(character=character, key="drama_points").current == 2
    # Only the GM adds to a pool with no maximum: the owner has no + to press.
    expect(
        page.locator("#pool-drama_points").get_by_role(
            "button", name="Recuperar un punto de Puntos dramáticos"
        )
    ).to_have_count(0)

    assert page.evaluate("window.sheetMarker") == "still here"
    screenshot(page, "after-drama-points")
    page.emulate_media(color_scheme="dark")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-bs-theme", "dark")
    screenshot(page, "dark")


def test_owner_exhausts_an_aspect_in_place(open_as):
    character, _gm, player = hitos_character()
    page = open_as(player)
    page.goto(character.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    aspect = character.aspects.get(kind="concepto")
    row = page.locator(f"#aspect-{aspect.pk}")
    row.get_by_role("button", name="Agotar").click()
    expect(page.locator(f"#aspect-{aspect.pk}")).to_contain_text("agotado")
    assert page.evaluate("window.sheetMarker") == 1
    aspect.refresh_from_db()
    assert aspect.exhausted


def test_spending_from_an_empty_pool_shows_why_in_place(open_as):
    character, _gm, player = hitos_character()
    Resource.objects.filter(character=character, key="drama_points").update(current=0)
    page = open_as(player)
    page.goto(character.get_absolute_url())
    page.get_by_role("button", name="Gastar un punto de Puntos dramáticos").click()
    expect(page.locator("#pool-drama_points [role=alert]")).to_have_text(
        "No quedan puntos que gastar."
    )


def test_gm_clicks_a_dot_and_the_derived_traits_follow(open_as):
    character, gm, _player = tinieblas_character()
    page = open_as(gm)
    page.goto(character.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    defensa = page.locator("#sheet-derived dl > div").filter(has_text="Defensa")
    expect(defensa).to_contain_text("3")  # min(Astucia 3, Destreza 3)
    page.get_by_role("button", name="Poner Astucia a 1").click()
    expect(page.locator("#trait-astucia").get_by_role("toolbar")).to_have_attribute(
        "aria-label", "Astucia 1 de 5"
    )
    expect(page.locator("#sheet-derived dl > div").filter(has_text="Defensa")).to_contain_text("1")
    assert page.evaluate("window.sheetMarker") == 1
    assert Trait.objects.get(character=character, key="astucia").rating == 1


def test_gm_opens_a_form_it_loads_and_saves_in_place(open_as):
    """The GM's forms load when opened: the merit's and Virtue and Vice's."""
    character, gm, _player = tinieblas_character()
    page = open_as(gm)
    page.goto(character.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    merits = page.locator("#merits")
    expect(merits.get_by_label("Puntos")).to_have_count(0)
    merits.locator("summary").click()
    merits.get_by_label("Nombre del mérito propio").fill("Contactos")
    merits.get_by_label("Puntos").fill("2")
    merits.get_by_role("button", name="Guardar mérito").click()
    expect(merits.locator("li").filter(has_text="Contactos")).to_have_count(1)
    change = page.locator("#sheet-virtue-vice details.gm-form")
    change.locator("summary").click()
    change.get_by_label("Vicio").select_option("ira")
    change.get_by_role("button", name="Guardar").click()
    expect(page.locator("#sheet-virtue-vice h3").nth(1)).to_have_text("Vicio: Ira")
    assert page.evaluate("window.sheetMarker") == 1


def test_owner_edits_the_story_inline(open_as):
    character, _gm, player = objetivo_character()
    page = open_as(player)
    page.goto(character.get_absolute_url())
    page.evaluate("window.sheetMarker = 1")
    page.locator("#sheet-story").get_by_role("link", name="Editar").click()
    page.get_by_role("textbox", name="Notas").fill("Busca al hombre que mató a su hermano.")
    page.get_by_role("button", name="Guardar").click()
    expect(page.locator("#sheet-story")).to_contain_text("Busca al hombre que mató a su hermano.")
    # Cancelling puts the story back as it was, still without a reload.
    page.locator("#sheet-story").get_by_role("link", name="Editar").click()
    page.get_by_role("textbox", name="Notas").fill("Algo que no se guarda")
    page.get_by_role("link", name="Cancelar").click()
    expect(page.locator("#sheet-story")).to_contain_text("Busca al hombre que mató a su hermano.")
    expect(page.get_by_role("textbox", name="Notas")).to_have_count(0)
    assert page.evaluate("window.sheetMarker") == 1


MAKERS = {
    "tinieblas": tinieblas_character,
    "hitos": hitos_character,
    "ndp": ndp_character,
    "objetivo": objetivo_character,
}


@pytest.mark.parametrize("system", list(MAKERS))
def test_every_systems_sheet_on_a_phone_and_a_desktop(open_as, screenshot, system):
    character, gm, player = MAKERS[system]()
    for width, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        # The owner on the phone (the table), the GM on the desktop (with the GM's controls).
        user = player if width == PHONE else gm
        page = open_as(user, width=width, height=800)
        page.goto(character.get_absolute_url())
        expect(page.get_by_role("heading", level=1, name=character.name)).to_be_visible()
        # Nothing sticks out sideways on a phone.
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{system} sheet scrolls sideways at {width}px"
        screenshot(page, f"{system}-{label}")


@pytest.mark.parametrize("system", list(MAKERS))
def test_every_systems_sheet_prints_on_one_page(open_as, screenshot, system):
    character, _gm, player = MAKERS[system]()
    page = open_as(player, width=DESKTOP)
    page.goto(character.get_absolute_url())
    pdf = page.pdf(format="A4")
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})
    screenshot(page, f"{system}-print")
    assert pages == 1, f"the {system} sheet prints on {pages} pages"
