"""XP pages: the per-scene award panel, a character's ledger and purchases, the campaign
XP log with its chart, and the campaign's XP settings. Every view with the GM, the
owner, another player, an observer and a stranger; forged POSTs; query counts."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from campaigns import services as campaign_services
from campaigns.models import Campaign
from characters import services
from characters import services as character_services
from characters.advancement import PurchaseSpec
from characters.models import Merit, Resource, Trait, WillpowerGrant, XpEntry, XpPurchase
from characters.views.xp import LOG_ENTRIES_PER_PAGE
from mechanics.models import Roll
from mechanics.rules.tinieblas.advancement import SceneAward, award_total, xp_cost
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    backdated,
    make_character,
)
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RATINGS = {"fuerza": 2, "sigilo": 2, "pelea": 1, "aplomo": 2, "compostura": 3}


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings=RATINGS)


@pytest.fixture
def mateo(campaign, other_player):
    return make_character(campaign, other_player, name="Mateo", ratings=RATINGS)


@pytest.fixture
def scene(campaign, lucia, mateo):
    scene = campaign_services.scene_create(
        campaign=campaign, title="La noche del incendio", participants=[lucia, mateo]
    )
    return campaign_services.scene_close(scene=scene)


def award_url(scene):
    return reverse("characters:scene_xp", args=[scene.campaign_id, scene.pk])


def xp_url(character):
    return reverse("characters:xp", args=[character.campaign_id, character.pk])


def buy_url(character):
    return reverse("characters:xp_buy", args=[character.campaign_id, character.pk])


def log_url(campaign):
    return reverse("characters:xp_log", args=[campaign.pk])


def give(character, gm, amount):
    return services.xp_adjust(character=character, user=gm, amount=amount, reason="Inicial")


def rubric_post(*rows, action="award"):
    """The award panel's POST for (character, SceneAward or None = not awarded) rows."""
    data = {"action": action}
    for character, award, *extra in rows:
        prefix = f"c{character.pk}-"
        if award is not None:
            data[prefix + "include"] = "on"
            for key, value in award.to_dict().items():
                if key == "constancia":
                    if value:
                        data[prefix + key] = "on"
                else:
                    data[prefix + key] = str(value)
        for name in extra:
            data[prefix + name] = "on"
    return data


CHUPI = SceneAward(interpretacion=3, ideas=2, diario=2, constancia=1, sobornos=0)  # 9 XP
NORMAL = SceneAward(interpretacion=2, ideas=2)


# The award panel


def test_the_gm_sees_every_participant_with_the_seeds_captions(client, gm, scene):
    client.force_login(gm)
    response = client.get(award_url(scene))
    assert response.status_code == 200
    text = response.text
    assert "Lucía" in text
    assert "Mateo" in text
    assert "Chupi. Descripciones largas" in text
    assert "En serio, ¿para qué necesitas Máster?" in text
    assert "1 PX siempre, por estar en el universo." in text
    assert "1 PX Constancia (Consistencia)." in text
    assert text.count('name="c') > 10  # a full rubric per character


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_opens_the_award_panel(client, scene, request, who, status):
    client.force_login(request.getfixturevalue(who))
    assert client.get(award_url(scene)).status_code == status


def test_anonymous_is_sent_to_log_in_from_the_award_panel(client, scene):
    response = client.get(award_url(scene))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_a_published_diary_pre_marks_the_diario_level(client, gm, player, scene, lucia):
    character_services.diary_save(
        scene=scene,
        character=lucia,
        user=player,
        body="Querido diario…",
        status="published",
        visibility="gm_only",
    )
    client.force_login(gm)
    text = client.get(award_url(scene)).text
    lucia_diary = re.search(rf'name="c{lucia.pk}-diario" value="2"[^>]*checked', text)
    assert lucia_diary is not None
    assert re.search(rf'name="c{scene.participants.last().pk}-diario" value="0"[^>]*checked', text)


def test_one_submit_awards_everyone_with_the_engines_totals(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    response = client.post(award_url(scene), rubric_post((lucia, CHUPI), (mateo, NORMAL)))
    assert response.status_code == 302
    assert response["Location"] == award_url(scene)
    totals = dict(XpEntry.objects.values_list("character_id", "amount"))
    assert totals == {lucia.pk: award_total(CHUPI), mateo.pk: award_total(NORMAL)}


def test_reopening_the_panel_shows_what_was_given(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    client.post(award_url(scene), rubric_post((lucia, CHUPI), (mateo, NORMAL)))
    text = client.get(award_url(scene)).text
    assert re.search(rf'name="c{lucia.pk}-interpretacion" value="3"[^>]*checked', text)
    assert "Given so far: 9 XP." in text or "Dado hasta ahora: 9 PX." in text
    assert f'id="total-{lucia.pk}"' in text


def test_changing_an_award_records_a_correction(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    client.post(award_url(scene), rubric_post((lucia, CHUPI), (mateo, NORMAL)))
    better = SceneAward(interpretacion=4, ideas=2, diario=2, constancia=1, sobornos=0)
    client.post(award_url(scene), rubric_post((lucia, better), (mateo, NORMAL)))
    kinds = list(XpEntry.objects.filter(character=lucia).values_list("kind", "amount"))
    assert kinds == [("award", 9), ("correction", 1)]
    assert XpEntry.objects.filter(character=mateo).count() == 1


def test_htmx_recalculates_the_totals_without_saving(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    response = client.post(
        award_url(scene), rubric_post((lucia, CHUPI), (mateo, None), action="recalculate"), **HTMX
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    assert 'id="award-totals"' in response.text
    assert "<html" not in response.text
    assert re.search(rf'id="total-{lucia.pk}" hx-swap-oob="true">\s*9 ', response.text)
    assert re.search(rf'id="total-{mateo.pk}" hx-swap-oob="true">\s*0 ', response.text)
    assert not XpEntry.objects.exists()


def test_recalculate_without_javascript_shows_the_whole_page_with_totals(client, gm, scene, lucia):
    client.force_login(gm)
    response = client.post(award_url(scene), rubric_post((lucia, CHUPI), action="recalculate"))
    assert response.status_code == 200
    assert "<html" in response.text
    assert re.search(rf'id="total-{lucia.pk}">\s*9 ', response.text)
    assert not XpEntry.objects.exists()


def test_a_player_cannot_award_xp_even_with_a_forged_post(client, player, scene, lucia):
    client.force_login(player)
    response = client.post(award_url(scene), rubric_post((lucia, CHUPI)))
    assert response.status_code == 403
    assert not XpEntry.objects.exists()


def test_a_stranger_posting_awards_gets_404(client, stranger, scene, lucia):
    client.force_login(stranger)
    assert client.post(award_url(scene), rubric_post((lucia, CHUPI))).status_code == 404
    assert not XpEntry.objects.exists()


def test_an_out_of_range_level_is_refused_and_keeps_the_input(client, gm, scene, lucia, mateo):
    client.force_login(gm)
    data = rubric_post((lucia, CHUPI), (mateo, NORMAL))
    data[f"c{lucia.pk}-interpretacion"] = "9"
    response = client.post(award_url(scene), data)
    assert response.status_code == 200
    assert not XpEntry.objects.exists()
    assert re.search(rf'name="c{mateo.pk}-ideas" value="2"[^>]*checked', response.text)


def test_a_forged_bribe_says_what_is_wrong_in_its_row(client, gm, player, stranger, scene, lucia):
    """The panel said "Revisa las filas marcadas." with nothing marked in the row."""
    data = rubric_post((lucia, CHUPI))
    data[f"c{lucia.pk}-sobornos"] = "99"
    client.force_login(gm)
    response = client.post(award_url(scene), data)
    assert response.status_code == 200
    assert not XpEntry.objects.exists()
    error = parse(response.text).one(id=f"id_c{lucia.pk}-sobornos-error")
    assert error.text() == "Elige una opción válida. 99 no es una de las opciones disponibles."
    client.force_login(player)
    assert client.post(award_url(scene), data).status_code == 403
    client.force_login(stranger)
    assert client.post(award_url(scene), data).status_code == 404
    assert not XpEntry.objects.exists()


def test_the_willpower_box_grants_one_point_once(client, gm, scene, lucia, mateo):
    Resource.objects.filter(character=lucia, key="willpower").update(current=1)
    client.force_login(gm)
    client.post(award_url(scene), rubric_post((lucia, CHUPI, "willpower"), (mateo, NORMAL)))
    client.post(award_url(scene), rubric_post((lucia, CHUPI, "willpower"), (mateo, NORMAL)))
    assert Resource.objects.get(character=lucia, key="willpower").current == 2
    assert WillpowerGrant.objects.filter(character=lucia, scene=scene).count() == 1
    text = client.get(award_url(scene)).text
    assert re.search(rf'name="c{lucia.pk}-willpower"[^>]*disabled', text)


def test_a_campaign_without_the_rubric_awards_a_plain_amount(client, gm, player):
    campaign = CampaignFactory(system="hitos")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, player, name="Iria", user=gm)
    scene = campaign_services.scene_create(campaign=campaign, title="Puerto", participants=[hero])
    client.force_login(gm)
    text = client.get(award_url(scene)).text
    assert f'name="c{hero.pk}-amount"' in text
    assert f'name="c{hero.pk}-interpretacion"' not in text
    assert f'name="c{hero.pk}-willpower"' not in text  # Willpower is Mundo de Tinieblas only
    client.post(
        award_url(scene),
        {"action": "award", f"c{hero.pk}-include": "on", f"c{hero.pk}-amount": "4"},
    )
    assert XpEntry.objects.get(character=hero).amount == 4


def test_the_award_panel_runs_constant_queries(
    client, gm, campaign, scene, django_assert_max_num_queries
):
    client.force_login(gm)
    with django_assert_max_num_queries(12):
        client.get(award_url(scene))
    for index in range(8):
        extra = make_character(campaign, None, name=f"PNJ {index}")
        scene.participants.add(extra)
    client.post(award_url(scene), rubric_post(*[(c, NORMAL) for c in scene.participants.all()]))
    with django_assert_max_num_queries(12):
        client.get(award_url(scene))


def test_the_scene_timeline_shows_the_awards(client, gm, player, scene, lucia, mateo):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    client.force_login(player)
    page = parse(client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk])).text)
    award = XpEntry.objects.get(character=lucia, scene=scene)
    assert "Lucía +9 PX" in page.one(id=f"xp-entry-{award.pk}").text()


# A character's XP page


def test_the_owner_sees_balance_ledger_and_purchase_forms(client, gm, player, scene, lucia):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI})
    client.force_login(player)
    response = client.get(xp_url(lucia))
    assert response.status_code == 200
    text = response.text
    assert parse(text).one(id="xp-balance").text().startswith("9 ")
    assert "Chupi" in text  # the rubric breakdown of the award
    assert "La noche del incendio" in text
    assert 'id="buy-trait"' in text
    assert "<svg" in text


def test_the_gm_sees_the_adjust_form(client, gm, lucia):
    client.force_login(gm)
    text = client.get(xp_url(lucia)).text
    assert 'id="adjust"' in text
    assert 'id="buy-trait"' in text


def test_a_stranger_gets_404_on_a_characters_xp(client, stranger, lucia):
    client.force_login(stranger)
    assert client.get(xp_url(lucia)).status_code == 404


def test_the_price_is_shown_before_confirming(client, gm, player, lucia):
    give(lucia, gm, 20)
    client.force_login(player)
    response = client.get(xp_url(lucia), {"kind": "trait", "key": "fuerza"})
    assert response.status_code == 200
    assert "Fuerza 2 → 3" in response.text
    assert f'name="expected_cost" value="{xp_cost("attribute", 2)}"' in response.text
    assert Trait.objects.get(character=lucia, key="fuerza").rating == 2


def test_htmx_gets_only_the_price(client, gm, player, lucia):
    give(lucia, gm, 20)
    client.force_login(player)
    response = client.get(xp_url(lucia), {"kind": "trait", "key": "sigilo"}, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.strip().startswith('<div id="purchase-quote"')
    assert 'value="6"' in response.text
    assert "HX-Request" in response["Vary"]


def test_a_refused_price_says_why(client, gm, player, lucia):
    client.force_login(player)
    response = client.get(xp_url(lucia), {"kind": "merit", "merit": "gigante|"}, **HTMX)
    assert "Gigante" in response.text
    assert "expected_cost" not in response.text


def test_the_xp_page_runs_constant_queries(
    client, gm, player, lucia, django_assert_max_num_queries
):
    client.force_login(player)
    with django_assert_max_num_queries(16):
        client.get(xp_url(lucia))
    for _ in range(30):
        give(lucia, gm, 1)
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("merit", "recursos"))
    with django_assert_max_num_queries(16):
        client.get(xp_url(lucia), {"kind": "trait", "key": "fuerza"})


def test_an_ndp_sheet_shows_the_pdp_gained_in_rolls(client, gm, player):
    campaign = CampaignFactory(system="ndp")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    hero = make_character(campaign, player, name="Aldo", user=gm)
    record = {"effects": {"pdp_gained": {"atletismo": 1}}}
    Roll.objects.create(
        campaign=campaign,
        character=hero,
        user=player,
        system="ndp",
        kind="check",
        label="Saltar el foso",
        record=record,
        result=15,
        outcome="success",
    )
    Roll.objects.create(
        campaign=campaign,
        character=hero,
        user=gm,
        system="ndp",
        kind="check",
        label="SECRETO",
        record=record,
        result=15,
        outcome="success",
        secret=True,
    )
    Roll.objects.create(
        campaign=campaign,
        character=hero,
        user=player,
        system="ndp",
        kind="check",
        label="Sin progreso",
        record={"effects": {"pdp_gained": {}}},
        result=5,
        outcome="failure",
    )
    client.force_login(player)
    text = client.get(xp_url(hero)).text
    assert "Saltar el foso" in text
    assert "+1 PdP" in text
    assert "SECRETO" not in text
    assert "Sin progreso" not in text
    client.force_login(gm)
    assert "SECRETO" in client.get(xp_url(hero)).text


# Buying


def test_the_owner_buys_a_skill_at_once(client, gm, player, lucia):
    give(lucia, gm, 10)
    client.force_login(player)
    response = client.post(
        buy_url(lucia), {"kind": "skill", "key": "sigilo", "expected_cost": "6"}, follow=True
    )
    assert Trait.objects.get(character=lucia, key="sigilo").rating == 3
    lucia.refresh_from_db()
    assert lucia.xp_balance == 4
    assert XpPurchase.objects.get().status == "applied"
    assert "Sigilo 2 → 3" in response.text


def test_a_player_cannot_spend_another_players_xp(client, gm, other_player, lucia):
    give(lucia, gm, 10)
    client.force_login(other_player)
    response = client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo"})
    assert response.status_code == 403
    lucia.refresh_from_db()
    assert lucia.xp_balance == 10


def test_an_observer_cannot_spend(client, gm, observer, lucia):
    give(lucia, gm, 10)
    client.force_login(observer)
    assert client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo"}).status_code == 403


def test_a_stranger_posting_a_purchase_gets_404(client, gm, stranger, lucia):
    give(lucia, gm, 10)
    client.force_login(stranger)
    assert client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo"}).status_code == 404


def test_spending_more_than_the_balance_is_refused_with_the_choice_kept(client, gm, player, lucia):
    give(lucia, gm, 5)
    client.force_login(player)
    response = client.post(
        buy_url(lucia), {"kind": "trait", "key": "fuerza", "expected_cost": "10"}
    )
    assert response.status_code == 302
    assert "kind=trait" in response["Location"]
    assert "key=fuerza" in response["Location"]
    lucia.refresh_from_db()
    assert lucia.xp_balance == 5
    assert Trait.objects.get(character=lucia, key="fuerza").rating == 2
    page = parse(client.get(response["Location"]).text)
    assert page.one(class_="alert-danger").text() == "Lucía tiene 5 PX; esto cuesta 10."


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_buying_at_once_leaves_what_a_waiting_request_holds(client, request, who, lucia, gm):
    """The GM's purchase, or the player's once approval is off, cannot spend the XP a
    request still waiting holds: the page says so, the choice is kept; a stranger: 404."""
    give(lucia, gm, 12)
    services.xp_purchase_request(
        character=lucia, user=lucia.owner, purchase=PurchaseSpec("attribute", "fuerza"),
        apply_now=False,
    )  # fmt: skip
    lucia.campaign.xp_purchases_need_approval = False
    lucia.campaign.save()
    client.force_login(request.getfixturevalue(who))
    response = client.post(buy_url(lucia), {"kind": "trait", "key": "sigilo", "expected_cost": "6"})
    lucia.refresh_from_db()
    assert (lucia.xp_balance, Trait.objects.get(character=lucia, key="sigilo").rating) == (12, 2)
    if who == "stranger":
        assert response.status_code == 404
        return
    assert response.status_code == 302
    assert "key=sigilo" in response["Location"]
    page = parse(client.get(response["Location"]).text)
    assert (
        page.one(class_="alert-danger").text()
        == "Lucía tiene 12 PX (10 a la espera de aprobación); esto cuesta 6."
    )


def test_a_forged_creation_only_merit_is_refused(client, gm, player, lucia):
    give(lucia, gm, 30)
    client.force_login(player)
    client.post(buy_url(lucia), {"kind": "merit", "merit": "gigante|"})
    assert not Merit.objects.filter(character=lucia, key="gigante").exists()
    lucia.refresh_from_db()
    assert lucia.xp_balance == 30


def test_a_merit_taken_once_per_language_is_named_by_its_detail(client, gm, player, lucia):
    give(lucia, gm, 30)
    client.force_login(player)
    for language in ("francés", "latín"):
        client.post(buy_url(lucia), {"kind": "merit", "merit": "idioma|", "name": language})
    names = set(Merit.objects.filter(character=lucia, key="idioma").values_list("name", flat=True))
    assert names == {"Idioma (francés)", "Idioma (latín)"}


def test_a_forged_cheaper_price_is_refused(client, gm, player, lucia):
    give(lucia, gm, 30)
    client.force_login(player)
    client.post(buy_url(lucia), {"kind": "trait", "key": "fuerza", "expected_cost": "1"})
    lucia.refresh_from_db()
    assert lucia.xp_balance == 30


def test_with_approval_on_a_players_purchase_waits_for_the_gm(client, gm, player, campaign, lucia):
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    give(lucia, gm, 10)
    client.force_login(player)
    client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo", "expected_cost": "6"})
    purchase = XpPurchase.objects.get()
    assert purchase.status == "pending"
    assert Trait.objects.get(character=lucia, key="sigilo").rating == 2
    decide = reverse("characters:xp_purchase_decide", args=[campaign.pk, lucia.pk, purchase.pk])
    assert client.post(decide, {"action": "approve"}).status_code == 403
    client.force_login(gm)
    assert purchase.character.name in client.get(log_url(campaign)).text
    client.post(decide, {"action": "approve", "back": "log"})
    purchase.refresh_from_db()
    assert purchase.status == "applied"
    assert Trait.objects.get(character=lucia, key="sigilo").rating == 3


def test_with_approval_on_the_price_counts_what_already_waits_for_the_gm(
    client, gm, player, stranger, campaign, lucia
):
    """A purchase is refused when the requests waiting hold the balance, the GM's applied at
    once too: the price says so before, rather than "Balance 8 → 5" and a button that asks
    in vain."""
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    give(lucia, gm, 8)
    services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    price = {"kind": "trait", "key": "pelea"}  # Pelea 1 → 2: 3 XP, of the 2 not held
    client.force_login(player)
    quote = parse(client.get(xp_url(lucia), price, **HTMX).text)
    assert "Saldo 2 → -1 PX" in quote.one("div", class_="xp-quote").text()
    assert quote.one("p", data_quote_reserved=True).text() == (
        "Lo que espera la aprobación del máster reserva 6 PX."
    )
    assert "disabled" in quote.one("button", type="submit").attrs
    assert "Todavía no hay PX suficientes para esto." in quote.text()
    # The GM buys at once, but not with what the request holds either (decide it first).
    client.force_login(gm)
    quote = parse(client.get(xp_url(lucia), price, **HTMX).text)
    assert "Saldo 2 → -1 PX" in quote.one("div", class_="xp-quote").text()
    assert quote.one("p", data_quote_reserved=True).text() == (
        "Lo que espera la aprobación del máster reserva 6 PX."
    )
    assert "disabled" in quote.one("button", type="submit").attrs
    client.force_login(stranger)
    assert client.get(xp_url(lucia), price).status_code == 404


def test_with_approval_on_the_gm_buys_at_once(client, gm, campaign, lucia):
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    give(lucia, gm, 10)
    client.force_login(gm)
    client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo", "expected_cost": "6"})
    assert XpPurchase.objects.get().status == "applied"


def test_the_owner_may_cancel_but_another_player_may_not(
    client, gm, player, other_player, campaign, lucia
):
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    give(lucia, gm, 10)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    decide = reverse("characters:xp_purchase_decide", args=[campaign.pk, lucia.pk, purchase.pk])
    client.force_login(other_player)
    assert client.post(decide, {"action": "cancel"}).status_code == 403
    client.force_login(player)
    client.post(decide, {"action": "cancel"})
    purchase.refresh_from_db()
    assert purchase.status == "cancelled"


def test_only_the_gm_adjusts_a_balance(client, gm, player, lucia):
    url = reverse("characters:xp_adjust", args=[lucia.campaign_id, lucia.pk])
    client.force_login(player)
    assert client.post(url, {"amount": "50", "reason": "Porque sí"}).status_code == 403
    client.force_login(gm)
    client.post(url, {"amount": "5", "reason": "PX iniciales"})
    lucia.refresh_from_db()
    assert lucia.xp_balance == 5


# The campaign's XP log


def test_the_xp_log_charts_one_line_per_character(client, gm, scene, lucia, mateo):
    # Who sees which lines: tests/characters/test_xp_privacy.py.
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    client.force_login(gm)
    response = client.get(log_url(scene.campaign))
    assert response.status_code == 200
    text = response.text
    # One line per character, drawn once for every screen size.
    assert text.count("<polyline") == 2
    # (The legend's two swatches are pieces of line, hidden with the legend.)
    assert text.count('role="img"') == 1
    assert text.count('<svg class="xp-legend-swatch"') == 2
    assert 'data-series-count="2"' in text
    assert "<title id=" in text
    assert "<desc id=" in text
    assert "Lucía: 9 PX" in text or "Lucía: 9 XP" in text
    assert "La noche del incendio" in text


@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("page", ["character", "log"])
def test_the_chart_shows_every_balance_the_ledger_beside_it_shows(
    client, request, gm, player, lucia, who, page
):
    """Two awards and a spend within the hour: the ledger reads 9, 18 and then less; the
    chart has a point at each, the 18 among them, at the time the ledger says."""
    now = timezone.now()
    for minutes, amount in ((30, 9), (27, 9)):
        with backdated(now - timedelta(minutes=minutes)):
            give(lucia, gm, amount)
    with backdated(now - timedelta(minutes=26)):
        services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    client.force_login(request.getfixturevalue(who))
    url, chart_id = (
        (xp_url(lucia), "character-xp-chart")
        if page == "character"
        else (log_url(lucia.campaign), "campaign-xp-chart")
    )
    html = parse(client.get(url).text)
    tooltips = [title.text() for title in html.one(id=chart_id).find_all("title")]
    rows = html.one(id="ledger").find_all("li", class_="list-group-item")
    shown = [
        (row.one(class_="xp-balance").text().removeprefix("= "), row.one("time").text())
        for row in rows
    ]
    assert [balance for balance, _at in shown][::-1][:2] == ["9", "18"]
    for balance, at in shown:
        assert f"Lucía: {balance} PX el {at}" in tooltips


def test_a_stranger_gets_404_on_the_xp_log(client, stranger, campaign):
    client.force_login(stranger)
    assert client.get(log_url(campaign)).status_code == 404


def test_the_xp_log_filters_by_character_scene_and_kind(client, gm, player, scene, lucia, mateo):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    give(mateo, gm, 3)
    client.force_login(gm)
    only_mateo = client.get(log_url(scene.campaign), {"character": mateo.pk}).text
    assert only_mateo.count('data-entry-kind="') == 2
    assert only_mateo.count("<polyline") == 1
    only_scene = client.get(log_url(scene.campaign), {"scene": scene.pk}).text
    assert only_scene.count('data-entry-kind="') == 2
    awards = client.get(log_url(scene.campaign), {"kind": "award", "character": lucia.pk}).text
    assert awards.count('data-entry-kind="award"') == 1
    ignored = client.get(log_url(scene.campaign), {"character": "nope", "kind": "bogus"})
    assert ignored.status_code == 200
    assert ignored.text.count('data-entry-kind="') == 3


def test_the_xp_log_shows_totals_per_scene_and_per_character(
    client, gm, player, scene, lucia, mateo
):
    services.scene_award_xp(scene=scene, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    client.force_login(gm)
    page = parse(client.get(log_url(scene.campaign)).text)
    scenes = page.one(id="scene-totals").find_all("li")
    assert [row.text() for row in scenes] == [f"{scene.title} 14 PX"]  # 9 + 5 awarded
    characters = {
        row.one("th").text(): [cell.text() for cell in row.find_all("td")]
        for row in page.one(id="character-totals").one("tbody").find_all("tr")
    }
    assert characters["Lucía"] == ["9", "6", "3"]  # earned, spent, balance


def test_the_xp_log_hides_what_another_player_bought(client, gm, player, other_player, lucia):
    give(lucia, gm, 10)
    services.xp_spend(character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"))
    client.force_login(other_player)
    assert "Sigilo 2 → 3" not in client.get(log_url(lucia.campaign)).text
    client.force_login(player)
    assert "Sigilo 2 → 3" in client.get(log_url(lucia.campaign)).text


def test_the_xp_log_runs_constant_queries(
    client, gm, player, campaign, scene, lucia, mateo, django_assert_max_num_queries
):
    client.force_login(gm)
    with django_assert_max_num_queries(14):
        client.get(log_url(campaign))
    for index in range(5):
        extra = campaign_services.scene_create(
            campaign=campaign, title=f"Escena {index}", participants=[lucia, mateo]
        )
        services.scene_award_xp(scene=extra, user=gm, awards={lucia.pk: CHUPI, mateo.pk: NORMAL})
    services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "pelea"), apply_now=False
    )
    with django_assert_max_num_queries(14):
        client.get(log_url(campaign), {"measure": "earned"})


# Campaign settings


def campaign_data(**overrides):
    data = {
        "name": "La Casa Usher",
        "description": "",
        "system": "tinieblas",
        "max_characters_per_player": 2,
        "xp_rubric": "unknown",
    }
    data.update(overrides)
    return data


def test_the_xp_settings_are_saved_from_the_campaign_form(client, gm, campaign):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]),
        campaign_data(
            xp_rubric="false", xp_purchases_need_approval="on", hitos_drama_sacrifice="on"
        ),
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.xp_rubric is False
    assert campaign.uses_xp_rubric is False
    assert campaign.xp_purchases_need_approval is True
    assert campaign.hitos_drama_sacrifice is True
    assert campaign.max_characters_per_player == 2


def test_the_rubric_follows_the_system_unless_the_gm_chooses(client, gm):
    client.force_login(gm)
    client.post(reverse("campaigns:create"), campaign_data(name="Tinieblas"))
    client.post(reverse("campaigns:create"), campaign_data(name="Hitos", system="hitos"))
    client.post(
        reverse("campaigns:create"), campaign_data(name="NdP", system="ndp", xp_rubric="true")
    )
    rubric = {c.name: (c.xp_rubric, c.uses_xp_rubric) for c in Campaign.objects.all()}
    assert rubric["Tinieblas"] == (None, True)
    assert rubric["Hitos"] == (None, False)
    assert rubric["NdP"] == (True, True)


def test_the_campaign_form_offers_the_xp_settings(client, gm, campaign):
    client.force_login(gm)
    text = client.get(reverse("campaigns:edit", args=[campaign.pk])).text
    assert 'name="xp_rubric"' in text
    assert 'name="xp_purchases_need_approval"' in text
    assert 'name="hitos_drama_sacrifice"' in text


# Who may post to the purchase queue and the adjustments


@pytest.mark.parametrize(("who", "status"), [("observer", 403), ("stranger", 404)])
def test_observers_and_strangers_cannot_adjust_or_decide(
    client, gm, player, campaign, lucia, request, who, status
):
    give(lucia, gm, 10)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    client.force_login(request.getfixturevalue(who))
    adjust = reverse("characters:xp_adjust", args=[campaign.pk, lucia.pk])
    decide = reverse("characters:xp_purchase_decide", args=[campaign.pk, lucia.pk, purchase.pk])
    assert client.post(adjust, {"amount": "5", "reason": "x"}).status_code == status
    for action in ("approve", "reject", "cancel"):
        assert client.post(decide, {"action": action}).status_code == status
    purchase.refresh_from_db()
    assert purchase.status == "pending"
    lucia.refresh_from_db()
    assert lucia.xp_balance == 10


def test_a_purchase_of_another_character_cannot_be_decided_through_this_one(
    client, gm, player, campaign, lucia, mateo
):
    give(lucia, gm, 10)
    purchase = services.xp_purchase_request(
        character=lucia, user=player, purchase=PurchaseSpec("skill", "sigilo"), apply_now=False
    )
    client.force_login(gm)
    decide = reverse("characters:xp_purchase_decide", args=[campaign.pk, mateo.pk, purchase.pk])
    assert client.post(decide, {"action": "approve"}).status_code == 404


def test_a_hitos_player_raises_a_skill_with_a_drama_point(client, gm, player):
    campaign = CampaignFactory(system="hitos", hitos_drama_sacrifice=True)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    hero = make_character(campaign, player, name="Iria", user=gm, ratings={"combate": 3})
    client.force_login(player)
    page = client.get(xp_url(hero), {"kind": "drama", "key": "combate"})
    assert 'id="buy-drama"' in page.text
    assert "Combate 3 → 4" in page.text
    client.post(buy_url(hero), {"kind": "drama", "key": "combate", "expected_cost": "1"})
    assert Trait.objects.get(character=hero, key="combate").rating == 4
    assert Resource.objects.get(character=hero, key="drama_points").current == 2


def test_without_the_setting_a_hitos_sheet_offers_no_sacrifice(client, gm, player):
    campaign = CampaignFactory(system="hitos")
    MembershipFactory(campaign=campaign, user=player, role="player")
    hero = make_character(campaign, player, name="Iria", user=gm)
    client.force_login(player)
    assert 'id="buy-drama"' not in client.get(xp_url(hero)).text
    client.post(buy_url(hero), {"kind": "drama", "key": "combate"})
    assert Trait.objects.get(character=hero, key="combate").rating == 0


def test_the_xp_log_pages_from_the_last_entry_shown(client, gm, campaign, lucia):
    for n in range(1, LOG_ENTRIES_PER_PAGE + 3):
        give(lucia, gm, n)
    client.force_login(gm)
    first = client.get(log_url(campaign))
    assert first.text.count('data-entry-kind="') == LOG_ENTRIES_PER_PAGE
    older = re.search(r'href="\?after=([0-9.]+)" rel="next"', first.text).group(1)
    second = client.get(log_url(campaign), {"after": older})
    assert second.text.count('data-entry-kind="') == 2
    assert 'rel="next"' not in second.text
    newer = re.search(r'href="\?before=([0-9.]+)" rel="prev"', second.text).group(1)
    again = client.get(log_url(campaign), {"before": newer})
    assert again.text.count('data-entry-kind="') == LOG_ENTRIES_PER_PAGE
    garbled = client.get(log_url(campaign), {"after": "nope"})
    assert garbled.status_code == 200


def test_the_xp_logs_chart_ends_at_the_hour_it_is_read(client, gm, lucia, monkeypatch):
    """The chart's time axis ends now: the log cached an hour ago is drawn again."""
    give(lucia, gm, 5)
    client.force_login(gm)
    later = timezone.now() + timedelta(hours=1)

    def last_tick(moment) -> str:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        chart = parse(client.get(log_url(lucia.campaign)).text).one(id="campaign-xp-chart")
        return chart.find_all("text", class_="xp-chart-label")[-1].text()

    assert last_tick(later) == date_format(timezone.localtime(later), "H:i")
    even_later = later + timedelta(hours=2)
    assert last_tick(even_later) == date_format(timezone.localtime(even_later), "H:i")


@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_the_campaign_page_tells_the_gm_of_purchases_waiting_for_approval(
    request, client, gm, player, campaign, lucia, who
):
    """The GM lands on the campaign page: a purchase waiting for approval says so there,
    and stops saying so once decided; players are not told of it there."""
    Campaign.objects.filter(pk=campaign.pk).update(xp_purchases_need_approval=True)
    give(lucia, gm, 10)
    page_url = reverse("campaigns:detail", args=[campaign.pk])
    reader = request.getfixturevalue(who)

    def waiting_notice():
        client.force_login(reader)
        response = client.get(page_url)
        if who == "stranger":
            assert response.status_code == 404
            return None
        found = parse(response.text).find_all("p", class_="xp-waiting")
        return found[0].text() if found else ""

    assert waiting_notice() in ("", None)  # nothing waits yet (and the page is cached)
    client.force_login(player)
    client.post(buy_url(lucia), {"kind": "skill", "key": "sigilo", "expected_cost": "6"})
    notice = waiting_notice()
    if who == "gm":
        assert "Una compra de PX espera tu aprobación." in notice
    else:
        assert notice in ("", None)
    purchase = XpPurchase.objects.get()
    client.force_login(gm)
    decide = reverse("characters:xp_purchase_decide", args=[campaign.pk, lucia.pk, purchase.pk])
    client.post(decide, {"action": "approve", "back": "log"})
    assert waiting_notice() in ("", None)
