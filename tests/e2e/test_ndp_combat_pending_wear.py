"""3d6 + NdP in a browser: two hits wait for the GM on the same armour; she applies one
and discards the other, and the armour has lost exactly 1 integrity
(docs/rules.md#ndp-write-back-when)."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from characters.services import item_add
from tests.e2e.test_ndp_combat import start_fight
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_ndp_two_waiting_hits_one_applied_one_discarded_wear_the_armour_once(
    open_as, screenshot, fixed_dice
):
    gm = UserFactory(username="narradora")
    campaign = CampaignFactory(name="Marcas", system="ndp", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    archer = make_character(
        campaign, None, name="Sigrid", user=gm, ratings={"alerta": 3, "combate_a_dist": 4}
    )
    soldier = make_character(campaign, None, name="Oswin", user=gm, ratings={"esquivar": 1})
    bow = item_add(
        character=archer,
        user=gm,
        kind="weapon",
        name="Arco corto",
        weight_kg=1,
        data={"sides": 6, "damage_type": "cortante", "integrity": 10, "skill": "combate_a_dist"},
    )
    mail = item_add(
        character=soldier,
        user=gm,
        kind="armour",
        name="Cota de malla",
        weight_kg=10,
        data={"part": "torso", "rd": 1, "integrity": 10},
    )
    scene = services.scene_create(campaign=campaign, title="Vado", participants=[archer, soldier])
    page = open_as(gm, width=1280)
    start_fight(page, scene, fixed_dice)

    attack = page.locator("#combat-attack")
    attack.get_by_label("Atacante", exact=True).select_option(label="Sigrid")
    attack.get_by_label("Arma", exact=True).select_option(str(bow.pk))
    attack.get_by_label("Defensa del objetivo", exact=True).select_option("esquivar")
    expect(page.locator("#combat-odds")).to_contain_text("Cota de malla, RD 1")
    # Oswin dodges 1+1+1 + 1 = 4; Sigrid shoots 6+6+6 + 4 = 22, then 6 damage − RD 1.
    fixed_dice(1, 1, 1, 6, 6, 6, 6)
    page.get_by_role("button", name="Tirar el ataque").click()
    cards = page.locator(".combat-attack-pending")
    expect(cards).to_have_count(1)
    # The second shot: its Desgracia d4 and the extra defence's come before the damage.
    fixed_dice(1, 1, 1, 1, 6, 6, 6, 1, 6)
    page.get_by_role("button", name="Tirar el ataque").click()
    expect(cards).to_have_count(2)
    waiting = "Cota de malla pierde 1 de integridad al aplicar el daño (le quedan 9)."
    expect(cards.nth(0)).to_contain_text(waiting)
    expect(cards.nth(1)).to_contain_text(waiting)
    screenshot(page, "ndp-two-waiting-hits")

    cards.nth(0).get_by_role("button", name="Aplicar el daño a Oswin").click()
    expect(cards).to_have_count(1)
    expect(cards.nth(0)).to_contain_text("al aplicar el daño (le quedan 8).")
    cards.nth(0).get_by_role("button", name="Descartar").click()
    expect(page.locator("#combat-panel")).to_contain_text("no se ha aplicado nada a Oswin")
    expect(cards).to_have_count(0)
    screenshot(page, "ndp-one-applied-one-discarded")
    mail.refresh_from_db()
    assert mail.data["integrity"] == 9
    bow.refresh_from_db()
    assert bow.data["integrity"] == 10
