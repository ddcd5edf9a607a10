"""After any action of the combat panel (an attack rolled, damage applied or discarded, a
fighter added, taken out, moved or put in another phase) the attack set-up comes back as
the GM left it: the panel's actions carry it (hx-include) and the answer binds it. A
fighter no longer in the fight is not offered again (the default comes back, without an
error), and one-off spends are not kept. When the turn moves on (initiative rolled, the
next turn) the set-up follows the turn: the new fighter against the next one."""

import pytest
from django.urls import reverse

from campaigns import services
from mechanics.models import CombatAttack, Roll
from mechanics.services import combat as combat_services
from tests.factories import campaign_with, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import FixedDice

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

# Each system's set-up, every field away from its default, and the spend it may carry.
SETUPS = {
    "tinieblas": (
        {
            "attribute": "destreza",
            "skill": "armamento",
            "weapon_bonus": "2",
            "damage_type": "L",
            "modifier": "-1",
            "defensa": "3",
        },
        "willpower",
    ),
    "hitos": (
        {
            "weapon": "mayor",
            "weapon_constant": "3",
            "attack_range": "ranged",
            "target_rd": "2",
            "target_state": "unaware",
            "defensa": "9",
            "modifier": "2",
        },
        None,
    ),
    "ndp": (
        {
            "skill": "pelea",
            "dice": "4",
            "gracias": "1",
            "desgracias": "2",
            "damage": "1d8",
            "damage_type": "contundente",
            "limb": "brazo_izquierdo",
            "part": "cabeza",
            "defence": "",
            "adversity": "7",
        },
        None,
    ),
    "objetivo": (
        {"weapon": "hacha", "modifier": "3", "distance": "12", "cover": "on", "defensa": "11"},
        "destiny_point",
    ),
}


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


def shown(response) -> dict[str, str]:
    """What the attack set-up of a panel shows, field by field (a checkbox: "on" or "")."""
    form = parse(response.content).one("form", id="combat-attack-form")
    values = {}
    for select in form.find_all("select"):
        options = select.find_all("option")
        chosen = [o for o in options if "selected" in o.attrs] or options[:1]
        values[select.attrs["name"]] = chosen[0].attrs["value"]
    for field in form.find_all("input"):
        kind = field.attrs.get("type")
        if kind == "checkbox":
            values[field.attrs["name"]] = "on" if "checked" in field.attrs else ""
        elif kind != "hidden":
            values[field.attrs["name"]] = field.attrs.get("value", "")
    return values


def errors(response) -> list[str]:
    form = parse(response.content).one("form", id="combat-attack-form")
    return [e.text() for e in form.find_all(class_="invalid-feedback")]


def pending(combat, attacker, target, amount=1, damage_type="B"):
    return CombatAttack.objects.create(
        combat=combat,
        attacker=attacker,
        target=target,
        attacker_name=attacker.name,
        target_name=target.name,
        hit=True,
        damage={"amount": amount, "damage_type": damage_type},
        damage_text=f"{amount} {damage_type}",
        status="pending",
    )


def htmx_post(client, address, data):
    return client.post(address, data, HTTP_HX_REQUEST="true")


@pytest.fixture
def bar(gm, player, observer):
    """A Tinieblas bar fight, no initiative yet: Lucía, Camarero, Matón in that order, so
    the set-up's defaults are Lucía against Camarero."""
    campaign = campaign_with("tinieblas", gm, players=[player], observers=[observer])
    lucia = make_character(campaign, player, name="Lucía")
    barman = make_character(campaign, None, user=gm, name="Camarero")
    thug = make_character(campaign, None, user=gm, name="Matón", ratings={"pelea": 3})
    scene = services.scene_create(
        campaign=campaign, title="La pelea del bar", participants=[lucia, barman, thug]
    )
    combat = combat_services.combat_start(scene=scene, user=gm)
    return combat, lucia, barman, thug


def thug_at_barman(bar) -> dict:
    """Matón against Camarero, with a knife: nothing as the defaults have it."""
    _combat, _lucia, barman, thug = bar
    return {"attacker": str(thug.pk), "target": str(barman.pk), **SETUPS["tinieblas"][0]}


def _action(name, bar, gm):
    """(the address, its own fields) of an action of the panel, its fight made ready."""
    combat, lucia, _barman, thug = bar
    if name == "initiative":
        return url("combat_initiative", combat), {}
    if name == "next":
        combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
        return url("combat_next", combat), {}
    if name == "add":
        newcomer = make_character(combat.scene.campaign, None, user=gm, name="Portero")
        return url("combat_add", combat), {"characters": str(newcomer.pk)}
    if name == "add_nobody":
        make_character(combat.scene.campaign, None, user=gm, name="Portero")
        return url("combat_add", combat), {}
    if name == "remove":
        participant = combat.participants.get(character=lucia)
        return url("combat_remove", combat, participant.pk), {}
    if name in ("apply", "discard"):
        attack = pending(combat, thug, lucia)
        return url(f"combat_{name}", combat, attack.pk), {}
    if name == "settled":
        attack = pending(combat, thug, lucia)
        combat_services.combat_attack_discard(attack=attack, user=gm)
        return url("combat_apply", combat, attack.pk), {}
    raise AssertionError(name)


ACTIONS = ["add", "add_nobody", "remove", "apply", "discard", "settled"]


@pytest.mark.parametrize("action", ACTIONS)
def test_the_set_up_is_kept_after_each_action(client, gm, bar, action):
    address, own = _action(action, bar, gm)
    setup = thug_at_barman(bar)
    client.force_login(gm)
    response = htmx_post(client, address, {**own, **setup})
    assert response.status_code == 200
    assert {name: shown(response)[name] for name in setup} == setup
    assert errors(response) == []


@pytest.mark.parametrize("action", ["initiative", "next"])
def test_the_set_up_follows_the_turn_when_it_moves_on(client, gm, bar, action):
    """The one whose turn it now is attacks the next one, with the defaults, as when the
    panel opens: a GM running the fight turn by turn picks nothing."""
    combat = bar[0]
    address, own = _action(action, bar, gm)
    client.force_login(gm)
    response = htmx_post(client, address, {**own, **thug_at_barman(bar)})
    assert response.status_code == 200
    combat.refresh_from_db()
    assert shown(response) == shown(client.get(url("combat_detail", combat)))
    assert shown(response)["attacker"] == str(combat.current.character_id)
    assert shown(response)["modifier"] == "0"
    assert errors(response) == []


def test_without_a_set_up_the_panel_shows_the_defaults(client, gm, bar):
    """An action that carries no set-up (an older page) draws the defaults, as before."""
    combat, lucia, barman, thug = bar
    attack = pending(combat, thug, lucia)
    client.force_login(gm)
    response = htmx_post(client, url("combat_discard", combat, attack.pk), {})
    assert shown(response)["attacker"] == str(lucia.pk)
    assert shown(response)["target"] == str(barman.pk)
    assert shown(response)["attribute"] == "fuerza"


def test_the_set_up_is_kept_after_an_attack_rolled_without_its_spend(client, gm, bar, fixed_dice):
    combat = bar[0]
    setup = thug_at_barman(bar)
    client.force_login(gm)
    fixed_dice(9)
    response = htmx_post(client, url("combat_attack", combat), {**setup, "willpower": "on"})
    assert response.status_code == 200
    assert Roll.objects.exists()
    values = shown(response)
    assert {name: values[name] for name in setup} == setup
    assert values["willpower"] == ""


@pytest.mark.parametrize("system", sorted(SETUPS))
def test_every_system_keeps_its_set_up_but_not_its_spend(client, gm, player, system):
    choices, spend = SETUPS[system]
    campaign = campaign_with(system, gm, players=[player])
    first = make_character(campaign, None, user=gm, name="Primera")
    second = make_character(campaign, None, user=gm, name="Segundo")
    third = make_character(campaign, None, user=gm, name="Tercera")
    scene = services.scene_create(
        campaign=campaign, title="Emboscada", participants=[first, second, third]
    )
    combat = combat_services.combat_start(scene=scene, user=gm)
    attack = pending(combat, third, second)
    client.force_login(gm)
    # The defaults are Primera against Segundo and each field's initial value.
    defaults = shown(client.get(url("combat_detail", combat)))
    setup = {"attacker": str(third.pk), "target": str(first.pk), **choices}
    assert all(defaults[name] != value for name, value in setup.items())
    posted = {**setup, **({spend: "on"} if spend else {})}
    response = htmx_post(client, url("combat_discard", combat, attack.pk), posted)
    assert response.status_code == 200
    values = shown(response)
    assert {name: values[name] for name in setup} == setup
    if spend:
        assert values[spend] == ""


@pytest.fixture
def road(gm, player):
    """A 3d6 + NdP fight in round 1: Caballero, Bandido and Arquera."""
    campaign = campaign_with("ndp", gm, players=[player])
    knight = make_character(campaign, None, user=gm, name="Caballero")
    bandit = make_character(campaign, None, user=gm, name="Bandido")
    archer = make_character(campaign, None, user=gm, name="Arquera")
    scene = services.scene_create(
        campaign=campaign, title="Camino", participants=[knight, bandit, archer]
    )
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    return combat, knight, bandit, archer


def test_ndp_a_move_keeps_the_attacks_own_adversity(client, gm, road):
    """The move form has an adversity too: its fields have their own names."""
    combat, knight, bandit, archer = road
    setup = {"attacker": str(archer.pk), "target": str(bandit.pk), **SETUPS["ndp"][0]}
    move = {"move-fighter": knight.pk, "move-metres": 1, "move-adversity": ""}
    client.force_login(gm)
    response = htmx_post(client, url("combat_move", combat), {**move, **setup})
    assert combat.participants.get(character=knight).moved_m == 1
    values = shown(response)
    assert {name: values[name] for name in setup} == setup


def test_ndp_a_phase_change_keeps_the_set_up(client, gm, road):
    combat, knight, bandit, archer = road
    setup = {"attacker": str(archer.pk), "target": str(bandit.pk), **SETUPS["ndp"][0]}
    participant = combat.participants.get(character=knight)
    phase = combat.scene.campaign.game_system.combat.phases[-1][0]
    client.force_login(gm)
    response = htmx_post(
        client, url("combat_phase", combat, participant.pk), {"phase": phase, **setup}
    )
    participant.refresh_from_db()
    assert participant.phase == phase
    values = shown(response)
    assert {name: values[name] for name in setup} == setup


# --- Who is no longer in the fight ----------------------------------------------------------


def test_an_attacker_taken_out_goes_back_to_the_default_without_an_error(client, gm, bar):
    combat, lucia, barman, thug = bar
    participant = combat.participants.get(character=thug)
    client.force_login(gm)
    response = htmx_post(client, url("combat_remove", combat, participant.pk), thug_at_barman(bar))
    values = shown(response)
    assert values["attacker"] == str(lucia.pk)
    assert values["target"] == str(barman.pk)
    assert str(thug.pk) not in {
        o.attrs["value"] for o in parse(response.content).find_all("option")
    }
    # The rest of the set-up still fits the new attacker: kept.
    assert values["attribute"] == "destreza"
    assert errors(response) == []


def test_a_target_taken_out_goes_back_to_the_default_without_an_error(client, gm, bar):
    combat, lucia, barman, thug = bar
    participant = combat.participants.get(character=barman)
    client.force_login(gm)
    response = htmx_post(client, url("combat_remove", combat, participant.pk), thug_at_barman(bar))
    values = shown(response)
    assert (values["attacker"], values["target"]) == (str(thug.pk), str(lucia.pk))
    assert values["damage_type"] == "L"
    assert errors(response) == []


def test_a_target_killed_by_the_damage_applied_is_no_longer_offered(client, gm, bar):
    combat, lucia, barman, thug = bar
    attack = pending(combat, thug, barman, amount=20, damage_type="L")
    client.force_login(gm)
    response = htmx_post(client, url("combat_apply", combat, attack.pk), thug_at_barman(bar))
    assert not combat.participants.get(character=barman).active
    values = shown(response)
    assert (values["attacker"], values["target"]) == (str(thug.pk), str(lucia.pk))
    assert errors(response) == []


def test_rolling_at_a_target_out_of_the_fight_is_still_refused(client, gm, bar):
    """Only a set-up shown falls back: a roll never goes to someone else than chosen."""
    combat, _lucia, barman, _thug = bar
    combat_services.combat_remove_participant(participant=combat.participants.get(character=barman))
    client.force_login(gm)
    response = htmx_post(client, url("combat_attack", combat), thug_at_barman(bar))
    assert response.status_code == 200
    assert not Roll.objects.exists()
    assert "Ese personaje no participa en este combate." in errors(response)


# --- Who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("observer", 403), ("stranger", 404)])
def test_only_the_gm_runs_the_actions_that_carry_the_set_up(client, request, bar, who, status):
    combat, lucia, _barman, thug = bar
    attack = pending(combat, thug, lucia)
    client.force_login(request.getfixturevalue(who))
    for address in (
        url("combat_discard", combat, attack.pk),
        url("combat_next", combat),
        url("combat_attack", combat),
    ):
        response = htmx_post(client, address, thug_at_barman(bar))
        assert response.status_code == status, address
        assert b"combat-attack-form" not in response.content
    attack.refresh_from_db()
    assert attack.status == "pending"
    assert not Roll.objects.exists()


# --- The panel's forms carry the set-up -----------------------------------------------------


def test_every_action_of_the_panel_carries_the_attack_set_up(client, gm, road):
    """Each form that redraws the panel includes the attack form, and does not stop on a
    set-up field still being typed (the server checks it); ending the fight needs none."""
    combat, knight, bandit, _archer = road
    campaign = combat.scene.campaign
    make_character(campaign, None, user=gm, name="Lobo")
    late = make_character(campaign, None, user=gm, name="Rezagado")
    combat_services.combat_add_participants(combat=combat, characters=[late])
    attack = pending(combat, knight, bandit)
    fighter = combat.participants.get(character=knight).pk
    client.force_login(gm)
    page = parse(client.get(url("combat_detail", combat)).content)
    page.one("form", id="combat-attack-form")
    forms = {
        f.attrs["hx-post"]: f
        for f in page.find_all("form")
        if f.attrs.get("hx-target") == "#combat-panel"
    }
    actions = [
        url("combat_initiative", combat),
        url("combat_next", combat),
        url("combat_add", combat),
        url("combat_move", combat),
        url("combat_remove", combat, fighter),
        url("combat_phase", combat, fighter),
        url("combat_apply", combat, attack.pk),
        url("combat_discard", combat, attack.pk),
    ]
    for address in actions:
        assert forms[address].attrs.get("hx-include") == "#combat-attack-form", address
        assert "novalidate" in forms[address].attrs, address
    assert "hx-include" not in forms[url("combat_end", combat)].attrs
