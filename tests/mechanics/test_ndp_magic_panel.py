"""3d6 + NdP magic on the site (docs/rules.md#ndp-magic): an arcane spell built from the
gesture table, Disipar, Artesanía mágica, divine conjurations spending a deity's faith and
summoning, through the roll panel; the deities and bound creatures on the sheet."""

from fractions import Fraction
from itertools import product

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.models import Character, Item, Resource, SheetChange
from mechanics.models import HealthEvent, Roll
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp.reference import reference_divine_odds
from mechanics.rules.ndp.rolls import ArcaneSpec, CraftingSpec, DivineSpec
from mechanics.services.rolls import RollSide, roll_perform
from mechanics.setup import load_sheet
from mechanics.systems.ndp.magic_forms import NdpMagicRollForm
from mechanics.systems.registry import get_system
from tests.factories import UserFactory, campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

SPELL = {"kind": "arcane", "dice": "3", "gesture_poder": "3", "gesture_distancia": "2"}


@pytest.fixture
def table(gm, player, observer):
    other = UserFactory(username="dora")
    campaign = campaign_with("ndp", gm, players=[player, other], observers=[observer])
    maga = make_character(
        campaign,
        player,
        name="Maga",
        ratings={"voluntad": 2, "arcano": 2, "vitalidad": 1, "religion": 1},
    )
    return campaign, maga, other


def prana(character) -> int:
    return Resource.objects.get(character=character, key="prana").current


def set_prana(character, value: int) -> None:
    Resource.objects.filter(character=character, key="prana").update(current=value)


def enumerated_p_exceeds(level: int, adversity: int) -> Fraction:
    """P(3d6 + level > adversity), counting all 216 throws: independent of the engine."""
    wins = sum(1 for dice in product(range(1, 7), repeat=3) if sum(dice) + level > adversity)
    return Fraction(wins, 216)


# --- Arcane casting -------------------------------------------------------------------------


def test_the_spell_panel_shows_the_prana_cost_and_exact_odds_of_the_voluntad_roll(
    client, player, table
):
    _, maga, _other = table
    client.force_login(player)
    response = client.get(roll_url(maga), {**SPELL, "part": "odds"}, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    engine = ndp_odds.arcane_odds(ArcaneSpec(level=2, prana=5))
    assert shown["success"] == engine.p_success
    assert shown["success"] == pytest.approx(float(enumerated_p_exceeds(2, 5)), abs=1e-15)
    assert "Coste de Prana 5: todo si sale, 3 si falla." in response.text
    assert "Poder 3: 3 daño" in response.text
    assert "Distancia 2: 21 m" in response.text


def test_a_successful_spell_spends_all_its_prana(client, player, table, fixed_dice):
    _, maga, _other = table
    before = prana(maga)
    fixed_dice(6)  # 18 + 2 > 5
    client.force_login(player)
    client.post(roll_url(maga), SPELL)
    roll = Roll.objects.get(character=maga)
    assert (roll.kind, roll.outcome) == ("arcane", "success")
    assert prana(maga) == before - 5


def test_a_failed_spell_spends_half_its_prana_rounded_up(client, player, table, fixed_dice):
    _, maga, _other = table
    before = prana(maga)
    fixed_dice(1)  # 3 + 2 = 5 does not exceed 5
    client.force_login(player)
    client.post(roll_url(maga), SPELL)
    assert Roll.objects.get(character=maga).outcome == "failure"
    assert prana(maga) == before - 3


def test_a_forged_cast_with_prana_the_character_does_not_have_is_refused_and_writes_nothing(
    client, player, table, fixed_dice
):
    _, maga, _other = table
    set_prana(maga, 4)
    fixed_dice(1)  # a failure would only spend 3: still refused
    client.force_login(player)
    response = client.post(roll_url(maga), SPELL, HTTP_HX_REQUEST="true")
    assert "Maga tiene 4 de Prana; esto necesita 5." in response.text
    assert not Roll.objects.exists()
    assert prana(maga) == 4


@pytest.mark.parametrize(
    ("arcano", "extra", "message"),
    [
        # Poder 2 + Distancia 1 at Arcano 1: one gesture known, singular.
        (1, {}, "Con Arcano 1 conoces 1 gesto como mucho; este conjuro usa 2."),
        (
            2,
            {"gesture_precision": "1"},
            "Con Arcano 2 conoces 2 gestos como mucho; este conjuro usa 3.",
        ),
    ],
)
def test_a_spell_uses_no_more_gestures_than_arcano_ndp(
    client, player, table, arcano, extra, message
):
    _, maga, _other = table
    maga.traits.filter(key="arcano").update(rating=arcano)
    client.force_login(player)
    spell = {**SPELL, "gesture_poder": "2", "gesture_distancia": "1", **extra}
    response = client.post(roll_url(maga), spell)
    assert message in response.text
    assert not Roll.objects.exists()


def test_a_spell_without_prana_in_any_gesture_is_refused(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    response = client.post(roll_url(maga), {"kind": "arcane", "dice": "3"})
    assert "Pon al menos 1 de Prana en un gesto para lanzar." in response.text
    assert not Roll.objects.exists()


# --- Dispel, crafting ---------------------------------------------------------------------


def test_a_successful_dispel_regains_one_prana(client, player, table, fixed_dice):
    _, maga, _other = table
    set_prana(maga, 3)
    fixed_dice(6)
    client.force_login(player)
    client.post(roll_url(maga), {"kind": "dispel", "dice": "3", "original_adversity": "7"})
    assert Roll.objects.get(character=maga).kind == "dispel"
    assert prana(maga) == 4


def test_a_successful_dispel_at_full_prana_logs_no_prana_change(client, player, table, fixed_dice):
    _, maga, _other = table
    full = Resource.objects.get(character=maga, key="prana").maximum
    set_prana(maga, full)
    fixed_dice(6)
    client.force_login(player)
    client.post(roll_url(maga), {"kind": "dispel", "dice": "3", "original_adversity": "7"})
    roll = Roll.objects.get(character=maga)
    assert roll.outcome == "success"
    assert [e["what"] for e in roll.record["details"].get("applied", [])] == ["pdp"]
    assert not SheetChange.objects.filter(character=maga, field="resource:prana").exists()
    assert prana(maga) == full


@pytest.mark.parametrize(("artefact", "adversity"), [("bengala", 11), ("ariete_portatil", 13)])
def test_example_crafting_adversities_on_the_panel(client, player, table, artefact, adversity):
    """Seed 002: Bengala Adv. 11, Ariete portátil Adv. 13 (Voluntad vs 10 + cost)."""
    _, maga, _other = table
    client.force_login(player)
    data = {"kind": "crafting", "dice": "3", "artefact": artefact, "part": "odds"}
    response = client.get(roll_url(maga), data, HTTP_HX_REQUEST="true")
    assert f"contra {adversity}" in response.text
    engine = ndp_odds.arcane_odds(CraftingSpec(level=2, prana_cost=adversity - 10))
    assert odds_values(response.text)["success"] == engine.p_success
    assert engine.p_success == pytest.approx(float(enumerated_p_exceeds(2, adversity)))


def test_a_failed_crafting_roll_spends_half_the_artefacts_prana(client, player, table, fixed_dice):
    _, maga, _other = table
    before = prana(maga)
    fixed_dice(1)
    client.force_login(player)
    client.post(roll_url(maga), {"kind": "crafting", "dice": "3", "artefact": "ariete_portatil"})
    assert prana(maga) == before - 2


# --- Divine magic ---------------------------------------------------------------------------


def worship(client, character, name="Sol Invicto"):
    url = reverse("ndp:deity_add", args=[character.campaign_id, character.pk])
    return client.post(url, {"name": name}, HTTP_HX_REQUEST="true")


def test_divine_odds_equal_the_engines_and_icepools(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    worship(client, maga)
    Resource.objects.filter(character=maga, key="fe_sol_invicto").update(current=2)
    data = {"kind": "divine", "deity": "sol_invicto", "faith": "2", "divine_target": "10"}
    response = client.get(roll_url(maga), {**data, "part": "odds"}, HTTP_HX_REQUEST="true")
    shown = odds_values(response.text)
    spec = DivineSpec(faith=2, target=10)
    assert shown["success"] == ndp_odds.divine_odds(spec).p_success
    assert shown["success"] == pytest.approx(reference_divine_odds(spec).p_success, abs=1e-9)
    tiers = ndp_odds.divine_tier_odds(spec)
    assert shown["tier_media"] == tiers["media"]


def test_a_divine_roll_spends_the_faith_of_its_deity(client, player, table, fixed_dice):
    _, maga, _other = table
    client.force_login(player)
    worship(client, maga)
    Resource.objects.filter(character=maga, key="fe_sol_invicto").update(current=3)
    fixed_dice(4, 3)
    response = client.post(
        roll_url(maga),
        {"kind": "divine", "deity": "sol_invicto", "faith": "2", "divine_target": "5"},
        HTTP_HX_REQUEST="true",
    )
    roll = Roll.objects.get(character=maga)
    assert (roll.kind, roll.result, roll.outcome) == ("divine", 7, "success")
    assert Resource.objects.get(character=maga, key="fe_sol_invicto").current == 1
    assert "Fe · Sol Invicto: 3 → 1" in response.text


def test_a_forged_divine_roll_with_more_faith_than_the_pool_is_refused(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    worship(client, maga)
    Resource.objects.filter(character=maga, key="fe_sol_invicto").update(current=1)
    response = client.post(roll_url(maga), {"kind": "divine", "deity": "sol_invicto", "faith": "3"})
    assert "Sol Invicto: queda 1 punto de fe; esto necesita 3." in response.text
    assert not Roll.objects.exists()


def test_religion_ndp_limits_the_deities_on_the_sheet(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    worship(client, maga, "Sol Invicto")
    response = worship(client, maga, "Luna")
    assert "Con Religión 1 se adoran 1 divinidades como mucho" in response.text
    assert Character.objects.get(pk=maga.pk).details["deities"] == {"sol_invicto": "Sol Invicto"}
    assert not Resource.objects.filter(character=maga, key="fe_luna").exists()


def test_the_deities_heading_counts_them_in_spanish_and_english(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    worship(client, maga)
    heading = parse(client.get(maga.get_absolute_url()).text).one(id="magic-deities-title")
    assert heading.text() == "Divinidades (1 de 1)"
    client.cookies["django_language"] = "en"
    heading = parse(client.get(maga.get_absolute_url()).text).one(id="magic-deities-title")
    assert heading.text() == "Deities (1 of 1)"


# --- Summoning ------------------------------------------------------------------------------

BIND = {
    "kind": "summon",
    "dice": "3",
    "creature": "Sombra",
    "school": "etereologia",
    "creature_voluntad": "1",
}


def test_a_successful_binding_keeps_the_creature_on_the_sheet(client, player, table, fixed_dice):
    _, maga, _other = table
    fixed_dice(6, 6, 6, 1, 1, 1)  # 18 + 2 against 3 + 1
    client.force_login(player)
    client.post(roll_url(maga), BIND)
    creatures = Character.objects.get(pk=maga.pk).details["creatures"]
    assert [(c["name"], c["school"], c["voluntad"]) for c in creatures] == [
        ("Sombra", "Etereología", 1)
    ]
    sheet = client.get(maga.get_absolute_url())
    assert "Criaturas vinculadas (1 de 4)" in sheet.text


def test_a_failed_binding_binds_nothing(client, player, table, fixed_dice):
    _, maga, _other = table
    fixed_dice(1, 1, 1, 6, 6, 6)
    client.force_login(player)
    client.post(roll_url(maga), BIND)
    assert Roll.objects.get(character=maga).outcome == "failure"
    assert "creatures" not in Character.objects.get(pk=maga.pk).details


def test_the_binding_odds_are_the_opposed_voluntad_rolls(client, player, table):
    _, maga, _other = table
    client.force_login(player)
    response = client.get(roll_url(maga), {**BIND, "part": "odds"}, HTTP_HX_REQUEST="true")
    wins = sum(
        1
        for a in product(range(1, 7), repeat=3)
        for b in product(range(1, 7), repeat=3)
        if sum(a) + 2 > sum(b) + 1
    )
    assert odds_values(response.text)["success"] == pytest.approx(wins / 6**6, abs=1e-12)


def test_voluntad_limits_the_bound_creatures(client, player, table, fixed_dice):
    _, maga, _other = table
    maga.details = {"creatures": [{"id": f"c{n}", "name": f"C{n}"} for n in range(4)]}
    maga.save()
    client.force_login(player)
    response = client.post(roll_url(maga), BIND)
    assert "Maga ya tiene 4 criaturas vinculadas" in response.text
    assert not Roll.objects.exists()


def bound(character):
    character.details = {
        "creatures": [{"id": "abc", "name": "Sombra", "school": "Etereología", "voluntad": 1}]
    }
    character.save()
    return reverse("ndp:creature_release", args=[character.campaign_id, character.pk, "abc"])


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_gm_or_the_owner_releases_a_bound_creature(client, table, who, request):
    _, maga, _other = table
    url = bound(maga)
    client.force_login(request.getfixturevalue(who))
    response = client.post(url)
    assert response.status_code == 302
    assert Character.objects.get(pk=maga.pk).details["creatures"] == []


def test_another_player_or_an_observer_cannot_release_a_creature(client, table, observer):
    _, maga, other = table
    url = bound(maga)
    for user in (other, observer):
        client.force_login(user)
        assert client.post(url).status_code == 403
    assert len(Character.objects.get(pk=maga.pk).details["creatures"]) == 1


def test_a_stranger_gets_404_from_the_magic_pages(client, table, stranger):
    _, maga, _other = table
    url = bound(maga)
    client.force_login(stranger)
    assert client.post(url).status_code == 404
    assert worship(client, maga).status_code == 404
    assert client.post(roll_url(maga), SPELL).status_code == 404


def test_another_player_cannot_cast_for_someone_elses_mage(client, table):
    _, maga, other = table
    client.force_login(other)
    assert client.post(roll_url(maga), SPELL).status_code == 403
    assert worship(client, maga).status_code == 403
    assert not Roll.objects.exists()


def test_the_gm_casts_for_a_players_mage(client, gm, table, fixed_dice):
    _, maga, _other = table
    fixed_dice(6)
    client.force_login(gm)
    client.post(roll_url(maga), SPELL)
    assert Roll.objects.get(character=maga).user == gm


def test_other_members_see_the_magic_section_only_with_the_full_sheet(client, table, observer):
    _, maga, _other = table
    client.force_login(observer)
    assert 'id="magic"' not in client.get(maga.get_absolute_url()).text


def test_a_cast_stored_after_the_prana_ran_out_is_refused_whole(table, player, fixed_dice):
    """Two requests at once: the second was planned with Prana the first then spent. The
    roll is checked again under the sheet's lock when stored, and nothing is written."""
    campaign, maga, _other = table
    sheet = load_sheet(maga, campaign, with_scene=False)
    form = NdpMagicRollForm(SPELL, sheet=sheet)
    assert form.is_valid(), form.errors
    plan = sheet.system.roll_setup.plan(sheet, form.cleaned_data)
    set_prana(maga, 4)
    fixed_dice(1)
    [side] = plan.roll(None)  # a failure: would spend only 3 of the 4 left
    with pytest.raises(ValidationError):
        roll_perform(
            campaign=campaign, user=player, sides=[RollSide(record=side.record, character=maga)]
        )
    assert not Roll.objects.exists()
    assert prana(maga) == 4


# --- Extra Prana: own leve wounds, an item's integrity (docs/rules.md#ndp-extra-prana) ------


def staff(character, integrity=6):
    return Item.objects.create(character=character, name="Bastón", data={"integrity": integrity})


def torso_wounds(character) -> list[tuple[str, str | None]]:
    health = get_system("ndp").state(Character.objects.get(pk=character.pk).health)
    return [(wound.tier, wound.damage_type) for wound in health.part("torso").wounds]


def integrity(item) -> int:
    return Item.objects.get(pk=item.pk).data["integrity"]


def test_the_panel_counts_the_extra_prana_and_the_odds_stay_exact(client, player, table):
    _, maga, _other = table
    set_prana(maga, 3)  # the spell costs 5: only the extra Prana makes it possible
    client.force_login(player)
    data = {**SPELL, "extra_wounds": "2", "part": "odds"}
    response = client.get(roll_url(maga), data, HTTP_HX_REQUEST="true")
    assert "Prana disponible 5: 3 propio y 2 extra, que se gasta primero" in response.text
    shown = odds_values(response.text)
    assert shown["success"] == ndp_odds.arcane_odds(ArcaneSpec(level=2, prana=5)).p_success
    assert shown["success"] == pytest.approx(float(enumerated_p_exceeds(2, 5)), abs=1e-15)
    without = client.get(roll_url(maga), {**SPELL, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert "Maga tiene 3 de Prana; esto necesita 5." in without.text


def test_a_spell_paid_partly_by_leve_wounds_stores_the_wounds_and_the_prana(
    client, player, table, fixed_dice
):
    _, maga, _other = table
    set_prana(maga, 3)
    fixed_dice(6)
    client.force_login(player)
    response = client.post(roll_url(maga), {**SPELL, "extra_wounds": "2"}, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get(character=maga)
    assert (roll.kind, roll.outcome) == ("arcane", "success")
    assert prana(maga) == 0  # 5: the 2 wounds first, then 3 of the pool
    assert torso_wounds(maga) == [("leve", None), ("leve", None)]
    assert HealthEvent.objects.filter(character=maga).count() == 2
    assert "2 herida(s) leve(s) a cambio de Prana: Torso." in response.text


def test_a_failed_spell_still_costs_the_sacrificed_integrity_and_the_pool_pays_the_rest(
    client, player, table, fixed_dice
):
    _, maga, _other = table
    item = staff(maga, 6)
    set_prana(maga, 3)
    fixed_dice(1)  # failure: half of 5, rounded up, is 3; the item's 2 Prana pay first
    client.force_login(player)
    data = {**SPELL, "extra_item": str(item.pk), "extra_integrity": "4"}
    response = client.post(roll_url(maga), data, HTTP_HX_REQUEST="true")
    assert Roll.objects.get(character=maga).outcome == "failure"
    assert prana(maga) == 2
    assert integrity(item) == 2
    assert "Bastón · Integridad: 6 → 2" in response.text


def test_crafting_takes_extra_prana_the_same_way(client, player, table, fixed_dice):
    _, maga, _other = table
    set_prana(maga, 0)
    fixed_dice(6)
    client.force_login(player)
    data = {"kind": "crafting", "dice": "3", "artefact": "bengala", "extra_wounds": "1"}
    client.post(roll_url(maga), data)
    assert Roll.objects.get(character=maga).outcome == "success"
    assert prana(maga) == 0
    assert torso_wounds(maga) == [("leve", None)]


def test_a_forged_cast_with_more_integrity_than_the_item_has_writes_nothing(
    client, player, table, fixed_dice
):
    _, maga, _other = table
    item = staff(maga, 3)
    set_prana(maga, 3)
    fixed_dice(6)
    client.force_login(player)
    data = {**SPELL, "extra_item": str(item.pk), "extra_integrity": "4"}
    response = client.post(roll_url(maga), data, HTTP_HX_REQUEST="true")
    assert "Bastón tiene 3 de integridad; esto gasta 4." in response.text
    assert not Roll.objects.exists()
    assert (prana(maga), integrity(item), torso_wounds(maga)) == (3, 3, [])


def test_extra_prana_out_of_range_or_from_someone_elses_item_is_refused(client, player, table):
    campaign, maga, other = table
    foreign = staff(make_character(campaign, other, name="Otra"), 10)
    item = staff(maga, 6)
    set_prana(maga, 3)
    client.force_login(player)
    for extra, message in [
        ({"extra_wounds": "21"}, "Asegúrate de que este valor es menor o igual a 20."),
        ({"extra_wounds": "-1"}, "Asegúrate de que este valor es mayor o igual a 0."),
        ({"extra_item": str(item.pk), "extra_integrity": "3"}, "indica un número par"),
        ({"extra_integrity": "4"}, "Elige el objeto cuya integridad gastas."),
        ({"extra_item": str(foreign.pk), "extra_integrity": "4"}, "Elige una opción válida"),
    ]:
        response = client.post(roll_url(maga), {**SPELL, **extra}, HTTP_HX_REQUEST="true")
        assert message in response.text, extra
    assert not Roll.objects.exists()
    assert (prana(maga), integrity(item), integrity(foreign), torso_wounds(maga)) == (3, 6, 10, [])


def test_the_gm_pays_a_spell_with_the_mages_wound(client, gm, table, fixed_dice):
    _, maga, _other = table
    set_prana(maga, 4)
    fixed_dice(6)
    client.force_login(gm)
    client.post(roll_url(maga), {**SPELL, "extra_wounds": "1"})
    assert Roll.objects.get(character=maga).user == gm
    assert (prana(maga), torso_wounds(maga)) == (0, [("leve", None)])


def test_another_player_or_a_stranger_cannot_pay_with_the_mages_wounds(
    client, table, stranger, fixed_dice
):
    _, maga, other = table
    item = staff(maga, 6)
    data = {**SPELL, "extra_wounds": "1", "extra_item": str(item.pk), "extra_integrity": "2"}
    fixed_dice(6)
    for user, status in ((other, 403), (stranger, 404)):
        client.force_login(user)
        assert client.post(roll_url(maga), data).status_code == status
    assert not Roll.objects.exists()
    assert (integrity(item), torso_wounds(maga)) == (6, [])


def test_a_cast_stored_after_the_item_lost_its_integrity_is_refused_whole(
    table, player, fixed_dice
):
    """The item's integrity is checked again under the sheet's lock when the roll is stored."""
    campaign, maga, _other = table
    item = staff(maga, 4)
    set_prana(maga, 3)
    sheet = load_sheet(maga, campaign, with_scene=False)
    data = {**SPELL, "extra_wounds": "1", "extra_item": str(item.pk), "extra_integrity": "4"}
    form = NdpMagicRollForm(data, sheet=sheet)
    assert form.is_valid(), form.errors
    plan = sheet.system.roll_setup.plan(sheet, form.cleaned_data)
    Item.objects.filter(pk=item.pk).update(data={"integrity": 2})
    fixed_dice(6)
    [side] = plan.roll(None)
    with pytest.raises(ValidationError):
        roll_perform(
            campaign=campaign, user=player, sides=[RollSide(record=side.record, character=maga)]
        )
    assert not Roll.objects.exists()
    assert (prana(maga), integrity(item), torso_wounds(maga)) == (3, 2, [])
