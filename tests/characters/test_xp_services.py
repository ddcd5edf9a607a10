"""The XP ledger and its services: scene awards and corrections, purchases priced by the
engine, the approval queue, the balance guard, and the Hitos drama-point sacrifice."""

from functools import partial

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import RestrictedError
from django.utils import translation

from campaigns.models import Scene
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import (
    Character,
    Merit,
    Resource,
    Specialty,
    Trait,
    WillpowerGrant,
    XpEntry,
    XpPurchase,
)
from mechanics.rules.tinieblas.advancement import SceneAward, award_total, xp_cost
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages are matched in English (the site's default language is Spanish)."""
    with translation.override("en"):
        yield


RATINGS = {
    "inteligencia": 3,
    "fuerza": 2,
    "aplomo": 2,
    "compostura": 3,
    "sigilo": 2,
    "pelea": 1,
    "investigacion": 3,
    "fuerza_de_voluntad": 5,
}


@pytest.fixture
def lucia(campaign, player):
    return make_character(
        campaign,
        player,
        name="Lucía",
        ratings=RATINGS,
        merits=[("recursos", "Recursos", 1), ("ambidiestro", "Ambidiestro", 3)],
        specialties=[("investigacion", "Archivos")],
    )


@pytest.fixture
def mateo(campaign, gm):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    return make_character(campaign, other, name="Mateo", ratings=RATINGS)


@pytest.fixture
def scene(campaign, lucia, mateo):
    scene = Scene.objects.create(campaign=campaign, title="El sótano", status="closed")
    scene.participants.set([lucia, mateo])
    return scene


def give(character, user, amount):
    return services.xp_adjust(character=character, user=user, amount=amount, reason="Inicial")


def rating(character, key):
    return Trait.objects.get(character=character, key=key).rating


def ledger_sum(character):
    return sum(XpEntry.objects.filter(character=character).values_list("amount", flat=True))


CHUPI = SceneAward(interpretacion=3, ideas=2, diario=2, constancia=1, sobornos=1)


# Scene awards


def test_a_scene_award_records_the_engines_total_for_everyone_at_once(scene, gm, lucia, mateo):
    plain = SceneAward(interpretacion=1, ideas=1)
    entries = services.scene_award_xp(
        scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: plain}
    )
    assert [(e.character_id, e.kind, e.amount) for e in entries] == [
        (lucia.pk, "award", award_total(CHUPI)),
        (mateo.pk, "award", award_total(plain)),
    ]
    lucia.refresh_from_db()
    assert lucia.xp_balance == award_total(CHUPI) == 10
    assert entries[0].scene == scene
    assert entries[0].breakdown["rubric"] == CHUPI.to_dict()
    assert entries[0].balance_after == 10


def test_submitting_the_same_award_again_records_nothing(scene, gm, lucia):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI})
    assert services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI}) == []
    assert XpEntry.objects.filter(character=lucia).count() == 1


def test_changing_an_award_records_a_correction_with_the_difference(scene, gm, lucia):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI})
    better = SceneAward(interpretacion=4, ideas=4, diario=2, constancia=1, sobornos=1)
    [correction] = services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: better})
    assert correction.kind == "correction"
    assert correction.amount == award_total(better) - award_total(CHUPI) == 3
    assert correction.breakdown["previous"] == 10
    assert correction.breakdown["total"] == 13
    lucia.refresh_from_db()
    assert lucia.xp_balance == 13 == ledger_sum(lucia)
    # The first entry is untouched: corrections never overwrite.
    first = XpEntry.objects.filter(character=lucia).order_by("pk").first()
    assert first.amount == 10
    assert first.breakdown["rubric"] == CHUPI.to_dict()


def test_moving_points_within_the_rubric_records_a_zero_correction(scene, gm, lucia):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI})
    swapped = SceneAward(interpretacion=2, ideas=3, diario=2, constancia=1, sobornos=1)
    [correction] = services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: swapped})
    assert correction.amount == 0
    assert correction.breakdown["rubric"] == swapped.to_dict()


def test_a_plain_amount_is_recorded_without_a_rubric(scene, gm, lucia):
    [entry] = services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 7})
    assert entry.amount == 7
    assert "rubric" not in entry.breakdown


def test_taking_back_xp_already_spent_is_refused_and_nothing_changes(scene, gm, player, lucia):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI})
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"))
    with pytest.raises(ValidationError, match="already spent"):
        services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: 0})
    lucia.refresh_from_db()
    assert lucia.xp_balance == 0 == ledger_sum(lucia)


def test_an_award_for_a_character_outside_the_scene_is_refused(scene, gm, campaign):
    outsider = make_character(campaign, None, name="Ramírez")
    with pytest.raises(ValidationError):
        services.scene_award_xp(scene=scene, user=gm, awards={outsider.pk: CHUPI})
    assert not XpEntry.objects.exists()


def test_one_bad_row_awards_nobody(scene, gm, lucia, mateo):
    with pytest.raises(ValidationError):
        services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: 999})
    assert not XpEntry.objects.exists()


def test_willpower_for_virtue_or_vice_fills_one_point_once_per_scene(scene, gm, lucia, mateo):
    Resource.objects.filter(character=lucia, key="willpower").update(current=2)
    services.scene_award_xp(scene=scene, user=gm, awards={}, willpower={lucia.pk, mateo.pk})
    services.scene_award_xp(scene=scene, user=gm, awards={}, willpower={lucia.pk, mateo.pk})
    assert Resource.objects.get(character=lucia, key="willpower").current == 3
    mateo_pool = Resource.objects.get(character=mateo, key="willpower")
    assert mateo_pool.current == mateo_pool.maximum  # already full: nothing to add
    grants = {g.character_id: g.points for g in WillpowerGrant.objects.all()}
    assert grants == {lucia.pk: 1, mateo.pk: 0}


def test_a_system_without_a_scene_end_pool_grants_no_point(gm, player):
    campaign = CampaignFactory(system="hitos")
    hero = make_character(campaign, player, name="Iria", user=gm)
    scene = Scene.objects.create(campaign=campaign, title="El puerto", status="closed")
    scene.participants.set([hero])
    with pytest.raises(ValidationError, match="grants no points at the end of a scene"):
        services.scene_award_xp(scene=scene, user=gm, awards={}, willpower={hero.pk})
    assert not WillpowerGrant.objects.exists()


# The ledger itself


def test_the_ledger_is_append_only(scene, gm, lucia):
    entry = give(lucia, gm, 5)
    entry.amount = 50
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        XpEntry.objects.filter(pk=entry.pk).update(amount=50)
    with pytest.raises(TypeError):
        XpEntry.objects.all().delete()
    assert XpEntry.objects.get(pk=entry.pk).amount == 5


def test_the_database_refuses_a_negative_balance(lucia):
    with pytest.raises(IntegrityError), transaction.atomic():
        Character.objects.filter(pk=lucia.pk).update(xp_balance=-1)


def test_the_database_refuses_a_positive_spend(lucia, gm):
    with pytest.raises(IntegrityError), transaction.atomic():
        XpEntry.objects.create(character=lucia, kind="spend", amount=3, balance_after=3)


def test_a_character_with_a_ledger_goes_only_with_its_campaign(lucia, gm):
    give(lucia, gm, 5)
    with pytest.raises(RestrictedError):
        lucia.delete()
    assert XpEntry.objects.filter(character=lucia).exists()
    lucia.campaign.delete()
    assert not XpEntry.objects.exists()


# Purchases: costs come from the engine


@pytest.mark.parametrize(
    ("spec", "engine_args", "key", "after"),
    [
        (PurchaseSpec("attribute", "fuerza"), ("attribute", 2), "fuerza", 3),
        (PurchaseSpec("skill", "sigilo"), ("skill", 2), "sigilo", 3),
        (PurchaseSpec("skill", "ocultismo"), ("skill", 0), "ocultismo", 1),
        (PurchaseSpec("morality", "moralidad"), ("morality", 7), "moralidad", 8),
        (
            PurchaseSpec("willpower", "fuerza_de_voluntad"),
            ("willpower", 5),
            "fuerza_de_voluntad",
            6,
        ),
    ],
)
def test_raising_a_trait_costs_what_the_engine_says(
    lucia, gm, player, spec, engine_args, key, after
):
    give(lucia, gm, 40)
    entry = services.xp_spend(character=lucia, user=player, purchase=spec)
    assert entry.amount == -xp_cost(*engine_args)
    assert rating(lucia, key) == after
    lucia.refresh_from_db()
    assert lucia.xp_balance == 40 - xp_cost(*engine_args) == ledger_sum(lucia)
    assert entry.breakdown["purchase"]["target"] == after


def test_buying_willpower_raises_the_pool_maximum(lucia, gm, player):
    give(lucia, gm, 20)
    services.xp_spend(
        character=lucia, user=player, purchase=PurchaseSpec("willpower", "fuerza_de_voluntad")
    )
    assert Resource.objects.get(character=lucia, key="willpower").maximum == 6


def test_a_new_specialty_costs_three_and_appears_on_the_sheet(lucia, gm, player):
    give(lucia, gm, 5)
    entry = services.xp_spend(
        character=lucia, user=player, purchase=PurchaseSpec("specialty", "sigilo", "Tejados")
    )
    assert entry.amount == -xp_cost("specialty", 0) == -3
    assert Specialty.objects.filter(character=lucia, skill_key="sigilo", name="Tejados").exists()


def test_a_specialty_needs_a_skill_with_dots(lucia, gm, player):
    give(lucia, gm, 5)
    with pytest.raises(ValidationError, match="at least one dot"):
        services.xp_spend(
            character=lucia, user=player, purchase=PurchaseSpec("specialty", "ocultismo", "Tarot")
        )


def test_the_same_specialty_cannot_be_bought_twice(lucia, gm, player):
    give(lucia, gm, 10)
    with pytest.raises(ValidationError, match="already has"):
        services.xp_spend(
            character=lucia,
            user=player,
            purchase=PurchaseSpec("specialty", "investigacion", "archivos"),
        )


def test_merits_cost_what_the_engine_says(lucia, gm, player):
    give(lucia, gm, 20)
    raised = services.xp_spend(
        character=lucia, user=player, purchase=PurchaseSpec("merit", "recursos", "Recursos")
    )
    assert raised.amount == -xp_cost("merit", 1, merit_key="recursos")
    assert Merit.objects.get(character=lucia, key="recursos").rating == 2
    new = services.xp_spend(
        character=lucia,
        user=player,
        purchase=PurchaseSpec("merit", "apariencia_llamativa", "Apariencia Llamativa"),
    )
    assert new.amount == -xp_cost("merit", 0, merit_key="apariencia_llamativa") == -4
    assert Merit.objects.get(character=lucia, key="apariencia_llamativa").rating == 2
    custom = services.xp_spend(
        character=lucia, user=player, purchase=PurchaseSpec("merit", "", "Biblioteca familiar")
    )
    assert custom.amount == -xp_cost("merit", 0) == -2


def test_a_creation_only_merit_cannot_be_bought(lucia, gm, player):
    give(lucia, gm, 30)
    for key in ("gigante", "ambidiestro"):
        with pytest.raises(ValidationError, match="character creation"):
            services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("merit", key))
    lucia.refresh_from_db()
    assert lucia.xp_balance == 30


def test_spending_more_than_the_balance_is_refused_and_changes_nothing(lucia, gm, player):
    give(lucia, gm, 9)
    with pytest.raises(ValidationError, match="costs 10"):
        services.xp_spend(
            character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza")
        )
    lucia.refresh_from_db()
    assert lucia.xp_balance == 9
    assert rating(lucia, "fuerza") == 2
    assert not XpEntry.objects.filter(kind="spend").exists()


def test_a_price_that_changed_since_the_player_saw_it_is_refused(lucia, gm, player):
    give(lucia, gm, 20)
    with pytest.raises(ValidationError, match="price changed"):
        services.xp_spend(
            character=lucia,
            user=player,
            purchase=PurchaseSpec("attribute", "fuerza"),
            expected_cost=5,
        )


def test_a_trait_at_its_maximum_cannot_be_raised(campaign, gm, player):
    strong = make_character(campaign, player, name="Bruno", ratings={"fuerza": 5})
    give(strong, gm, 40)
    with pytest.raises(ValidationError, match="maximum"):
        services.xp_spend(
            character=strong, user=player, purchase=PurchaseSpec("attribute", "fuerza")
        )


def test_a_kind_that_does_not_match_the_trait_is_refused(lucia, gm, player):
    give(lucia, gm, 40)
    with pytest.raises(ValidationError, match="Unknown trait"):
        services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "fuerza"))


def test_other_systems_have_no_xp_purchases(gm, player):
    campaign = CampaignFactory(system="ndp")
    character = make_character(campaign, player, name="Aldo", user=gm)
    give(character, gm, 10)
    with pytest.raises(ValidationError, match="no purchases with XP"):
        services.xp_spend(character=character, user=player, purchase=PurchaseSpec("skill", "x"))


# The approval queue


def test_a_pending_purchase_waits_and_reserves_its_cost(lucia, gm, player):
    give(lucia, gm, 12)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=False
    )
    assert purchase.status == "pending"
    assert purchase.cost == 10
    assert rating(lucia, "fuerza") == 2
    with pytest.raises(ValidationError, match="waiting for approval"):
        services.xp_purchase_request(
            character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
        )
    with pytest.raises(ValidationError, match="already waiting"):
        services.xp_purchase_request(
            character=lucia,
            user=player,
            purchase=PurchaseSpec("attribute", "fuerza"),
            apply_now=False,
        )


def test_approving_applies_the_purchase_once(lucia, gm, player):
    give(lucia, gm, 12)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=False
    )
    approved = services.xp_purchase_approve(purchase=purchase, user=gm)
    assert approved.status == "applied"
    assert approved.decided_by == gm
    assert approved.entry.amount == -10
    assert rating(lucia, "fuerza") == 3
    with pytest.raises(ValidationError, match="already been decided"):
        services.xp_purchase_approve(purchase=purchase, user=gm)
    lucia.refresh_from_db()
    assert lucia.xp_balance == 2


def test_approval_is_refused_when_the_sheet_changed_meanwhile(lucia, gm, player):
    give(lucia, gm, 30)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=False
    )
    services.trait_set(character=lucia, user=gm, key="fuerza", rating=3)
    with pytest.raises(ValidationError, match="sheet changed"):
        services.xp_purchase_approve(purchase=purchase, user=gm)
    lucia.refresh_from_db()
    assert lucia.xp_balance == 30


def test_rejecting_and_cancelling_close_a_purchase_without_spending(lucia, gm, player):
    give(lucia, gm, 30)
    first = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=False
    )
    second = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    assert services.xp_purchase_reject(purchase=first, user=gm, note="Aún no").status == "rejected"
    assert services.xp_purchase_cancel(purchase=second, user=player).status == "cancelled"
    lucia.refresh_from_db()
    assert lucia.xp_balance == 30
    assert XpPurchase.objects.get(pk=first.pk).note == "Aún no"
    with pytest.raises(ValidationError):
        services.xp_purchase_approve(purchase=first, user=gm)


def test_an_immediate_purchase_is_recorded_as_applied(lucia, gm, player):
    give(lucia, gm, 10)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=True
    )
    assert purchase.status == "applied"
    assert purchase.entry.amount == -6


# Hitos: a drama point for a skill


@pytest.fixture
def hitos_hero(gm, player):
    campaign = CampaignFactory(system="hitos", hitos_drama_sacrifice=True)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return make_character(campaign, player, name="Iria", ratings={"combate": 3})


def test_a_drama_point_raises_a_skill_by_one(hitos_hero, player):
    services.xp_spend(character=hitos_hero, user=player, purchase=PurchaseSpec("drama", "combate"))
    assert rating(hitos_hero, "combate") == 4
    assert Resource.objects.get(character=hitos_hero, key="drama_points").current == 2
    assert not XpEntry.objects.exists()


def test_characteristics_cannot_be_raised_with_drama_points(hitos_hero, player):
    with pytest.raises(ValidationError, match="Only skills"):
        services.xp_spend(
            character=hitos_hero, user=player, purchase=PurchaseSpec("drama", "fortaleza")
        )


def test_the_drama_sacrifice_needs_the_campaign_setting(hitos_hero, player):
    type(hitos_hero.campaign).objects.filter(pk=hitos_hero.campaign_id).update(
        hitos_drama_sacrifice=False
    )
    hitos_hero.refresh_from_db()
    with pytest.raises(ValidationError, match="does not allow"):
        services.xp_spend(
            character=hitos_hero, user=player, purchase=PurchaseSpec("drama", "combate")
        )


def test_no_drama_point_left_means_no_sacrifice(hitos_hero, player):
    Resource.objects.filter(character=hitos_hero, key="drama_points").update(current=0)
    with pytest.raises(ValidationError, match="no drama points"):
        services.xp_spend(
            character=hitos_hero, user=player, purchase=PurchaseSpec("drama", "combate")
        )
    assert rating(hitos_hero, "combate") == 3


def test_waiting_drama_purchases_hold_their_points(hitos_hero, player):
    """A drama point held by a request waiting for the GM is not sacrificed twice."""
    Resource.objects.filter(character=hitos_hero, key="drama_points").update(current=1)
    request = partial(services.xp_purchase_request, character=hitos_hero, user=player)
    assert request(purchase=PurchaseSpec("drama", "combate"), apply_now=False).is_pending
    with pytest.raises(ValidationError, match="no drama points"):
        request(purchase=PurchaseSpec("drama", "percepcion"), apply_now=False)


def test_a_purchase_applied_at_once_does_not_spend_what_waiting_purchases_hold(lucia, gm, player):
    """A GM's purchase (applied at once) leaves the XP a player's request holds: else
    approving the request later would find its points gone."""
    give(lucia, gm, 12)
    waiting = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=False
    )
    sigilo = PurchaseSpec("skill", "sigilo")  # 6 XP: 12 - 10 held leaves 2
    with pytest.raises(ValidationError, match=r"12 XP \(10 waiting for approval\)"):
        services.xp_purchase_request(character=lucia, user=gm, purchase=sigilo, apply_now=True)
    with pytest.raises(ValidationError, match="waiting for approval"):
        services.xp_spend(character=lucia, user=gm, purchase=sigilo)
    lucia.refresh_from_db()
    assert (lucia.xp_balance, rating(lucia, "sigilo")) == (12, 2)
    with pytest.raises(ValidationError, match="already waiting"):
        services.xp_purchase_request(
            character=lucia, user=gm, purchase=PurchaseSpec("attribute", "fuerza"), apply_now=True
        )
    services.xp_purchase_reject(purchase=waiting, user=gm)
    services.xp_purchase_request(character=lucia, user=gm, purchase=sigilo, apply_now=True)
    lucia.refresh_from_db()
    assert (lucia.xp_balance, rating(lucia, "sigilo")) == (6, 3)


def test_a_drama_point_held_by_a_waiting_request_is_not_sacrificed_at_once(hitos_hero, gm, player):
    Resource.objects.filter(character=hitos_hero, key="drama_points").update(current=1)
    request = partial(services.xp_purchase_request, character=hitos_hero)
    assert request(user=player, purchase=PurchaseSpec("drama", "combate"), apply_now=False)
    with pytest.raises(ValidationError, match="no drama points"):
        request(user=gm, purchase=PurchaseSpec("drama", "percepcion"), apply_now=True)
    assert Resource.objects.get(character=hitos_hero, key="drama_points").current == 1


# Options the purchase form offers


def offers(character):
    """What the system's purchase form offers this sheet."""
    purchases = character.campaign.game_system.advancement
    return purchases.purchase_context(character, list(character.traits.all()))


def test_the_trait_options_are_priced_by_the_engine(lucia):
    groups = dict(offers(lucia)["trait_options"])
    options = {o.value: o for group in groups.values() for o in group}
    assert options["fuerza"].cost == xp_cost("attribute", 2)
    assert options["sigilo"].cost == xp_cost("skill", 2)
    assert options["ocultismo"].cost == xp_cost("skill", 0)
    assert options["ocultismo"].note == "new skill"
    assert options["moralidad"].cost == xp_cost("morality", 7)


def test_creation_only_merits_are_not_offered(lucia):
    lucia.merits.all().delete()
    merit_options = offers(lucia)["merit_options"]
    values = {option.value for _label, options in merit_options for option in options}
    assert "gigante|" not in values
    assert "ambidiestro|" not in values
    assert "recursos|" in values
