"""Hitos roll panel: hindering a roll names the opponent and the aspect it activates,
and the opponent pays for it (a drama point, handed to the roller when the aspect is the
roller's; or exhausting its own aspect), in the roll's transaction
(docs/rules.md#hitos-hindering). Only a GM names a hindering opponent."""

import pytest

from characters.models import Aspect, Resource
from characters.services import aspect_add
from mechanics.models import Roll
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(gm, player, dora, observer):
    campaign = campaign_with("hitos", gm, players=[player, dora], observers=[observer])
    pepa = make_character(campaign, player, name="Pepa", ratings={"reflejos": 4, "combate": 3})
    rival = make_character(campaign, None, user=gm, name="Rival")
    aspect_add(character=pepa, user=gm, kind="complicacion", text="Cojo")
    aspect_add(character=rival, user=gm, kind="concepto", text="Rencoroso")
    return pepa, rival


def points(character):
    return Resource.objects.get(character=character, key="drama_points").current


def aspect(character):
    return Aspect.objects.get(character=character)


def check(**extra):
    return {
        "kind": "check",
        "characteristic": "reflejos",
        "skill": "combate",
        "difficulty": "15",
        "modifier": "0",
        **extra,
    }


def test_only_the_gm_is_offered_a_hindering_opponent(client, gm, player, table):
    pepa, _rival = table
    client.force_login(gm)
    page = parse(client.get(roll_url(pepa), HTTP_HX_REQUEST="true").text)
    assert "Rival" in page.one("select", name="hinderer").text()
    assert page.one("select", name="hinder_aspect")
    client.force_login(player)
    page = parse(client.get(roll_url(pepa), HTTP_HX_REQUEST="true").text)
    assert not page.find_all("select", name="hinderer")
    assert not page.find_all("input", name="hinder")


def test_the_rival_uses_pepas_aspect_against_her_and_hands_her_the_point(
    client, gm, table, fixed_dice
):
    pepa, rival = table
    client.force_login(gm)
    data = check(hinderer=rival.pk, hinder_aspect=aspect(pepa).pk)
    odds = client.get(roll_url(pepa), {**data, "part": "odds"}, HTTP_HX_REQUEST="true").text
    assert "Rival activa «Cojo» contra esta tirada: se queda con m." in odds
    fixed_dice(3, 6, 9)
    client.post(roll_url(pepa), data)
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "m"
    assert roll.result == 3 + 7
    assert roll.record["details"]["hinder_activation"]["by"] == rival.pk
    assert (points(rival), points(pepa)) == (2, 4)
    whats = [item["what"] for item in roll.record["details"]["applied"]]
    assert whats == ["drama_points", "drama_point_to_owner"]


def test_the_rival_exhausts_its_own_aspect_to_hinder(client, gm, table, fixed_dice):
    pepa, rival = table
    client.force_login(gm)
    fixed_dice(3, 6, 9)
    client.post(
        roll_url(pepa),
        check(hinderer=rival.pk, hinder_aspect=aspect(rival).pk, hinder_pay="exhaust"),
    )
    assert Roll.objects.get().record["details"]["kept_die"] == "m"
    assert aspect(rival).exhausted
    assert (points(rival), points(pepa)) == (3, 3)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"hinder_aspect": "pepa"}, "A Rival no le quedan puntos dramáticos."),
        ({"hinder_aspect": "pepa", "hinder_pay": "exhaust"}, "Solo puedes agotar tus propios"),
        ({"hinderer": ""}, "Nombra a la vez al rival y el aspecto que activa."),
    ],
)
def test_a_hindering_that_cannot_be_paid_is_refused_and_nothing_is_written(
    client, gm, table, extra, message
):
    pepa, rival = table
    Resource.objects.filter(character=rival, key="drama_points").update(current=0)
    ids = {"pepa": aspect(pepa).pk}
    data = check(hinderer=rival.pk, hinder_aspect=aspect(pepa).pk)
    data.update({key: ids.get(value, value) for key, value in extra.items()})
    client.force_login(gm)
    response = client.post(roll_url(pepa), data, HTTP_HX_REQUEST="true")
    assert message in response.text
    assert not Roll.objects.exists()
    assert (points(rival), points(pepa)) == (0, 3)


def test_a_player_cannot_make_the_rival_pay_a_forged_hindering_is_ignored(
    client, player, table, fixed_dice
):
    pepa, rival = table
    client.force_login(player)
    fixed_dice(3, 6, 9)
    client.post(roll_url(pepa), check(hinderer=rival.pk, hinder_aspect=aspect(pepa).pk))
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "C"
    assert "hinder_activation" not in roll.record["details"]
    assert (points(rival), points(pepa)) == (3, 3)


@pytest.mark.parametrize(("who", "status"), [("dora", 403), ("observer", 403), ("stranger", 404)])
def test_others_cannot_roll_for_pepa_and_nothing_is_paid(client, request, table, who, status):
    pepa, rival = table
    client.force_login(request.getfixturevalue(who))
    response = client.post(roll_url(pepa), check(hinderer=rival.pk, hinder_aspect=aspect(pepa).pk))
    assert response.status_code == status
    assert not Roll.objects.exists()
    assert (points(rival), points(pepa)) == (3, 3)


def test_the_cached_gm_panel_lists_a_new_or_renamed_opponent_at_once(client, gm, table):
    pepa, rival = table
    client.force_login(gm)

    def opponents():
        page = parse(client.get(roll_url(pepa), HTTP_HX_REQUEST="true").text)
        return page.one("select", name="hinderer").text()

    assert "Rival" in opponents()
    make_character(pepa.campaign, None, user=gm, name="Sombra")
    assert "Sombra" in opponents()
    rival.name = "Némesis"
    rival.save()
    assert "Némesis" in opponents()


# --- Damage steps from aspects in the roll panel -------------------------------------------


def attack(**extra):
    return check(kind="attack", weapon="central", attack_range="melee", target_rd="0", **extra)


def test_the_roll_panel_has_no_typed_damage_steps(client, gm, table):
    pepa, _rival = table
    client.force_login(gm)
    page = parse(client.get(roll_url(pepa), {"kind": "attack"}, HTTP_HX_REQUEST="true").text)
    assert not page.find_all("input", name="damage_shift")
    assert page.one("select", name="aspect_use")


def test_pepa_raises_her_attacks_damage_with_her_aspect(client, player, table, fixed_dice):
    pepa, _rival = table
    client.force_login(player)
    fixed_dice(3, 6, 9)
    client.post(roll_url(pepa), attack(aspect=aspect(pepa).pk, aspect_use="damage"))
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "C"
    assert roll.record["details"]["damage_category"] == "M"
    assert points(pepa) == 2


def test_the_rival_lowers_the_damage_of_pepas_attack(client, gm, table, fixed_dice):
    pepa, rival = table
    client.force_login(gm)
    data = attack(hinderer=rival.pk, hinder_aspect=aspect(rival).pk, hinder_use="damage")
    fixed_dice(3, 6, 9)
    client.post(roll_url(pepa), data)
    roll = Roll.objects.get()
    assert roll.record["details"]["kept_die"] == "C"
    assert roll.record["details"]["damage_category"] == "m"
    assert points(rival) == 2


def test_an_aspect_for_the_damage_of_a_plain_check_is_refused(client, player, table):
    pepa, _rival = table
    client.force_login(player)
    response = client.post(
        roll_url(pepa), check(aspect=aspect(pepa).pk, aspect_use="damage"), HTTP_HX_REQUEST="true"
    )
    assert "Solo un ataque tiene daño que subir o bajar." in response.text
    assert not Roll.objects.exists()
    assert points(pepa) == 3
