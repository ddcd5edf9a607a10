"""3d6 + NdP combat effects in a browser: a shield's GdC on Interceptar, the shield taking
the blow on the sheet, and the second attack's Desgracia, all shown in the panel."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from characters.models import Item
from characters.services import item_add
from mechanics.services import combat as combat_services
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def start_fight(page, scene, fixed_dice):
    """The GM starts a fight in the scene: the first side rolls 6s for initiative, the
    other 1s."""
    page.goto(f"/campaigns/{scene.campaign_id}/scenes/{scene.pk}/combat/")
    page.get_by_role("button", name="Empezar un combate").click()
    fixed_dice(6, 6, 6, 1, 1, 1)
    page.get_by_role("button", name="Tirar iniciativa").click()
    expect(page.locator("#combat-round")).to_have_text("Asalto 1")


def test_ndp_interceptar_with_a_shield_and_a_second_attack(open_as, screenshot, fixed_dice):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Reinos", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    knight = make_character(
        campaign, None, name="Caballero", user=gm, ratings={"alerta": 3, "combate_c_a_c": 4}
    )
    guard = make_character(campaign, None, name="Guardia", user=gm, ratings={"interceptar": 2})
    item_add(
        character=knight,
        user=gm,
        kind="weapon",
        name="Espada larga",
        weight_kg=2,
        data={"sides": 8, "damage_type": "cortante", "integrity": 10},
    )
    item_add(
        character=guard,
        user=gm,
        kind="shield",
        name="Escudo redondo",
        weight_kg=4,
        data={"gdc": 7, "integrity": 8},
    )
    scene = services.scene_create(campaign=campaign, title="Puerta", participants=[knight, guard])
    page = open_as(gm, width=1280)
    start_fight(page, scene, fixed_dice)

    attack = page.locator("#combat-attack")
    attack.get_by_label("Atacante", exact=True).select_option(label="Caballero")
    expect(attack.get_by_label("Arma", exact=True)).to_contain_text("Espada larga")
    attack.get_by_label("Defensa del objetivo", exact=True).select_option("interceptar")
    odds = page.locator("#combat-odds")
    expect(odds).to_contain_text("Escudo redondo (GdC 7) +4")
    screenshot(page, "ndp-interceptar-odds")

    # Guardia: 6+6+6 + 2 + 4 = 24 against 3+3+3 + 4 = 13: the shield stops the blow.
    fixed_dice(6, 6, 6, 3, 3, 3)
    page.get_by_role("button", name="Tirar el ataque").click()
    expect(page.locator("#combat-panel")).to_contain_text(
        "Escudo redondo pierde 1 de integridad (le quedan 7)."
    )
    # The next attack of the knight this round carries its Desgracia by itself.
    expect(odds).to_contain_text("Segundo ataque del turno −1d4")
    expect(odds).to_contain_text("Defensas anteriores en este asalto −1d4")
    screenshot(page, "ndp-interceptar-after")
    assert Item.objects.get(name="Escudo redondo").data["integrity"] == 7


def test_ndp_interceptar_in_the_gms_opposed_roll_adds_the_shield_and_wears_it(open_as, fixed_dice):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Reinos", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    knight = make_character(campaign, None, name="Caballero", user=gm, ratings={"pelea": 4})
    guard = make_character(campaign, None, name="Guardia", user=gm, ratings={"interceptar": 2})
    shield = item_add(
        character=guard,
        user=gm,
        kind="shield",
        name="Escudo redondo",
        weight_kg=3,
        data={"gdc": 7, "integrity": 8},
    )
    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/roll/")
    page.locator("#id_a-character").select_option(str(knight.pk))
    page.locator("#id_a-skill").select_option("pelea")
    page.locator("#id_b-character").select_option(str(guard.pk))
    page.locator("#id_b-skill").select_option("interceptar")
    odds = page.locator("#gm-roll-odds")
    expect(odds).to_contain_text("Escudo redondo (GdC 7) +4")
    expect(odds).to_contain_text("Guardia intercepta con Escudo redondo")
    # Attack 3+3+3 + 4 = 13; defence 6+6+6 + 2 + 4 = 24: the shield stops it.
    fixed_dice(3, 3, 3, 6, 6, 6)
    page.get_by_role("button", name="Tirar los dados").click()
    expect(page.locator("#gm-roll-result .roll-card")).to_have_count(2)
    shield.refresh_from_db()
    assert shield.data["integrity"] == 7


def test_ndp_a_fighter_moves_six_metres_and_cannot_attack(open_as):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Reinos", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    knight = make_character(campaign, None, name="Caballero", user=gm, ratings={"pelea": 3})
    guard = make_character(campaign, None, name="Guardia", user=gm)
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, guard])
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm)

    page = open_as("narradora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/")
    move = page.locator(".combat-move")
    move.locator("summary").click()
    move.get_by_label("Quién se mueve").select_option(label="Caballero")
    move.get_by_label("Metros").fill("6")
    move.get_by_role("button", name="Moverse").click()
    expect(
        page.get_by_text("Caballero se mueve: 6 m en este asalto, y no puede atacar.")
    ).to_be_visible()
    form = page.locator("#combat-attack")
    form.locator("#id_attacker").select_option(label="Caballero")
    expect(page.locator("#combat-attack")).to_contain_text(
        "Caballero se ha movido 6 m en este asalto: más de 1 m no deja atacar."
    )


def test_ndp_the_owner_sets_a_creatures_distance_from_its_anchor(open_as):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Reinos", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    maga = make_character(campaign, player, name="Maga", ratings={"voluntad": 2})
    maga.details = {
        "creatures": [{"id": "abc", "name": "Sombra", "school": "Etereología", "voluntad": 1}]
    }
    maga.save()

    page = open_as("jugadora", width=1280, height=900)
    page.goto(f"/campaigns/{campaign.pk}/characters/{maga.pk}/")
    magic = page.locator("#magic")
    magic.get_by_label("Metros entre Sombra y su ancla").fill("60")
    magic.get_by_role("button", name="Fijar").click()
    expect(page.locator("#magic")).to_contain_text("Sombra está a 60 m de su ancla.")
    expect(page.locator("#magic .creature-leash")).to_contain_text("a 60 m de su ancla")


def test_ndp_the_owner_writes_down_a_language_her_linguistica_grants(open_as):
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = CampaignFactory(name="Reinos", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    scholar = make_character(campaign, player, name="Erudita", ratings={"linguistica": 1})

    page = open_as("jugadora", width=360, height=800)
    page.goto(f"/campaigns/{campaign.pk}/characters/{scholar.pk}/")
    section = page.locator("#languages")
    section.get_by_text("Añadir un idioma").click()
    section.get_by_label("Idioma").fill("Élfico")
    section.get_by_label("Otorga").select_option("habla")
    section.get_by_role("button", name="Añadir", exact=True).click()
    expect(page.locator("#languages")).to_contain_text("Élfico (habla) añadido.")
    expect(page.locator("#languages h2")).to_have_text("Idiomas (1 de 1)")
