"""The GM's attack set-up stays as they left it through the fight's actions: they pick an
attacker and a target once, roll and apply the damage without picking them again; when
they pass the turn, the set-up follows it."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from mechanics.combat import turn_order
from mechanics.services import combat as combat_services
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import FixedDice

fixed_dice = rolling.fixed_dice

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_gm_picks_attacker_and_target_once_for_the_whole_journey(
    open_as, screenshot, fixed_dice
):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Sombras de Toledo", system="tinieblas", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    ratings = {"destreza": 3, "pelea": 3, "resistencia": 5, "compostura": 2}
    fighters = [
        make_character(campaign, None, name=name, user=gm, ratings=ratings)
        for name in ("Lucía Ferrer", "Camarero", "Matón")
    ]
    scene = services.scene_create(
        campaign=campaign, title="La pelea del bar", participants=fighters
    )
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([9, 5, 1]))
    first, second, last = (p.character for p in turn_order(combat.participants.all()))

    page = open_as(gm, width=1280, height=900)
    page.goto(combat.get_absolute_url())
    attack = page.locator("#combat-attack")
    attacker = attack.get_by_label("Atacante", exact=True)
    target = attack.get_by_label("Objetivo", exact=True)
    attribute = attack.get_by_label("Atributo", exact=True)
    modifier = attack.get_by_label("Modificador (dados)", exact=True)
    # The defaults: the one whose turn it is against the next one.
    expect(attacker).to_have_value(str(first.pk))
    expect(target).to_have_value(str(second.pk))

    # The GM picks the last one against the second one, with Destreza and a modifier.
    attacker.select_option(label=last.name)
    target.select_option(label=second.name)
    attribute.select_option("destreza")
    modifier.fill("1")
    modifier.press("Tab")
    expect(page.locator("#combat-odds .roll-summary")).to_have_text("6 dados")

    def picked(extra: str = "1") -> None:
        expect(attacker).to_have_value(str(last.pk))
        expect(target).to_have_value(str(second.pk))
        expect(attribute).to_have_value("destreza")
        expect(modifier).to_have_value(extra)

    fixed_dice(9, 9, 1, 1, 1, 1, 1)
    attack.get_by_role("button", name="Tirar el ataque").click()
    expect(page.locator("#combat-pending")).to_contain_text(f"{last.name} alcanza a {second.name}")
    picked()

    # A modifier typed and not yet sent goes with the next action too.
    modifier.fill("2")
    page.get_by_role("button", name=f"Aplicar el daño a {second.name}").click()
    expect(page.locator("#combat-status")).to_contain_text(f"Daño aplicado a {second.name}")
    picked("2")
    expect(page.locator("#combat-attack .invalid-feedback")).to_have_count(0)
    screenshot(page, "kept-after-the-damage")

    # The turn moves on: the set-up follows it, the new fighter against the next one.
    page.get_by_role("button", name="Siguiente turno").click()
    expect(page.locator("#combat-status")).to_contain_text(f"Turno de {second.name}.")
    expect(attacker).to_have_value(str(second.pk))
    expect(modifier).to_have_value("0")
    aimed = target.input_value()
    assert aimed != str(second.pk)
    page.reload()  # as the panel opens on this turn
    expect(attacker).to_have_value(str(second.pk))
    expect(target).to_have_value(aimed)
