"""A killing blow in a browser: the GM applies it from the combat panel, the dead NPC
leaves the turn order (its turn passes on) while a player watches, and the scene's XP
award names it instead of offering it anything (docs/rules.md#shared-dead-fighters)."""

import pytest
from playwright.sync_api import expect

from mechanics.models import CombatAttack
from mechanics.services import combat as combat_services
from tests.e2e.test_combat import table
from tests.mechanics.rolling import FixedDice

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_gm_kills_an_npc_and_it_leaves_the_order_and_the_xp_award(open_as, screenshot):
    campaign, gm, bob, _olga, lucia, thug, scene = table()
    combat = combat_services.combat_start(scene=scene, user=gm)
    # Matón 3 + 2 + 9 = 14 plays first, Lucía 3 + 2 + 1 = 6.
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 9]))
    CombatAttack.objects.create(
        combat=combat,
        round=1,
        attacker=lucia,
        target=thug,
        attacker_name=lucia.name,
        target_name=thug.name,
        hit=True,
        damage={"amount": 20, "damage_type": "L"},
        damage_text="20 L",
        status="pending",
    )
    url = f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/"
    watcher = open_as(bob)
    watcher.goto(url)
    gm_page = open_as(gm)
    gm_page.goto(url)
    thug_row = gm_page.locator(".combat-fighter", has_text="Matón")
    expect(thug_row.locator(".badge", has_text="Su turno")).to_be_visible()

    gm_page.get_by_role("button", name="Aplicar el daño a Matón").click()
    expect(thug_row.locator(".badge", has_text="Fuera del combate")).to_be_visible()
    # No wound penalty beside the state of one who cannot roll any more.
    expect(thug_row.locator(".combat-health")).to_contain_text("Incapacitado")
    expect(thug_row.locator(".combat-health")).not_to_contain_text("penalización")
    lucia_row = gm_page.locator(".combat-fighter", has_text="Lucía Ferrer")
    expect(lucia_row.locator(".badge", has_text="Su turno")).to_be_visible()
    # Lucía is the only one left: nobody to attack.
    expect(gm_page.locator("#combat-no-attack")).to_contain_text("Nadie a quien atacar")
    screenshot(gm_page, "gm-after-the-killing-blow")
    # The player's panel follows by itself.
    expect(
        watcher.locator(".combat-fighter", has_text="Matón").locator(
            ".badge", has_text="Fuera del combate"
        )
    ).to_be_visible()

    gm_page.get_by_role("button", name="Terminar el combate").click()
    expect(gm_page.get_by_role("heading", name="Resumen")).to_be_visible()
    gm_page.goto(f"/campaigns/{campaign.pk}/scenes/{scene.pk}/xp/")
    expect(gm_page.locator("#award-dead")).to_have_text("No se ofrece a quien ha muerto: Matón.")
    expect(gm_page.locator(".xp-award-card h2")).to_have_count(1)
    expect(gm_page.locator(".xp-award-card h2")).to_contain_text("Lucía Ferrer")
    screenshot(gm_page, "xp-award-without-the-dead")
