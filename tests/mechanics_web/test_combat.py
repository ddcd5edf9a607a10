"""The combat panel of a scene, time passing for a whole scene, and health events and
combat summaries in the scene's timeline."""

from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import chronicle, services
from characters.models import Resource, XpEntry
from characters.services import ratings_of
from mechanics.combat import AttackRoll, turn_order
from mechanics.models import Combat, CombatAttack, CombatParticipant, HealthEvent, Roll
from mechanics.rules.tinieblas.advancement import SceneAward
from mechanics.services import combat as combat_services
from mechanics.services.health import character_apply_damage
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system, register, unregister
from mechanics.systems.tinieblas.system import TinieblasSystem
from tests.characters.test_xp_views import rubric_post
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse
from tests.mechanics import rolling
from tests.mechanics.rolling import FixedDice

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db


# --- Fixtures and helpers -------------------------------------------------------------------


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def barman(campaign, gm):
    """The seed's barman: Fuerza 4, Armamento 3, Resistencia 4, Defensa 2."""
    return make_character(
        campaign,
        None,
        name="Camarero",
        user=gm,
        ratings={
            "fuerza": 4,
            "armamento": 3,
            "resistencia": 4,
            "destreza": 2,
            "astucia": 2,
            "compostura": 2,
        },
    )


@pytest.fixture
def thug(campaign, gm):
    """The seed's thug: Destreza + Pelea 6, Fuerza 2 + Armamento 2, Defensa 2."""
    return make_character(
        campaign,
        None,
        name="Matón",
        user=gm,
        ratings={
            "fuerza": 2,
            "destreza": 3,
            "pelea": 3,
            "armamento": 2,
            "astucia": 2,
            "resistencia": 5,
            "compostura": 2,
        },
    )


@pytest.fixture
def scene(campaign, lucia, barman, thug):
    return services.scene_create(
        campaign=campaign, title="La pelea del bar", participants=[lucia, barman, thug]
    )


@pytest.fixture
def combat(scene, gm):
    return combat_services.combat_start(scene=scene, user=gm)


@contextmanager
def refused(code):
    """The service refuses with this ValidationError code."""
    with pytest.raises(ValidationError) as info:
        yield
    assert info.value.code == code


def url(name, combat, *extra):
    scene = combat.scene
    return reverse(f"mechanics:{name}", args=[scene.campaign_id, scene.pk, combat.pk, *extra])


def scene_url(name, scene):
    namespace = "campaigns" if name == "scene" else "mechanics"
    return reverse(f"{namespace}:{name}", args=[scene.campaign_id, scene.pk])


def health_of(character):
    character.refresh_from_db()
    campaign = character.campaign
    return get_system(campaign.system).health_view(
        character.health, ratings_of(character), character.details, campaign.rules
    )


def attack(client, combat, attacker, target, **choices):
    data = {"attacker": attacker.pk, "target": target.pk, **choices}
    return client.post(url("combat_attack", combat), data)


PUNCH = {"attribute": "destreza", "skill": "pelea", "damage_type": "B"}
KNIFE = {"attribute": "fuerza", "skill": "armamento", "weapon_bonus": 1, "damage_type": "L"}
BAT = {"attribute": "fuerza", "skill": "armamento", "weapon_bonus": 1, "damage_type": "B"}


# --- Permissions ----------------------------------------------------------------------------


def test_gm_starts_a_combat_with_everyone_in_the_scene(client, gm, scene, lucia, barman, thug):
    client.force_login(gm)
    response = client.post(scene_url("combat_start", scene))
    combat = Combat.objects.get()
    assert response.status_code == 302
    assert response["Location"] == combat.get_absolute_url()
    assert combat.is_active
    assert combat.round == 0
    assert {p.character_id for p in combat.participants.all()} == {lucia.pk, barman.pk, thug.pk}
    # The scene's combat page leads to the fight in progress.
    assert client.get(scene_url("combat", scene))["Location"] == combat.get_absolute_url()


def test_a_scene_has_one_combat_at_a_time_and_none_while_closed(gm, scene, combat):
    with refused("active"):
        combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_end(combat=combat, user=gm)
    services.scene_close(scene=scene)
    with refused("closed"):
        combat_services.combat_start(scene=scene, user=gm)


def test_player_and_observer_watch_the_combat_but_cannot_run_it(
    client, player, observer, combat, lucia, thug
):
    attack_ = CombatAttack.objects.create(
        combat=combat,
        attacker=thug,
        target=lucia,
        attacker_name="Matón",
        target_name="Lucía",
        hit=True,
        damage={"amount": 2, "damage_type": "B"},
        damage_text="2 B",
        status="pending",
    )
    participant = combat.participants.get(character=thug)
    posts = [
        url("combat_initiative", combat),
        url("combat_next", combat),
        url("combat_attack", combat),
        url("combat_add", combat),
        url("combat_remove", combat, participant.pk),
        url("combat_apply", combat, attack_.pk),
        url("combat_discard", combat, attack_.pk),
        url("combat_end", combat),
        scene_url("combat_start", combat.scene),
        scene_url("scene_time", combat.scene),
    ]
    for user in (player, observer):
        client.force_login(user)
        page = client.get(combat.get_absolute_url())
        assert page.status_code == 200
        html = page.content.decode()
        assert "Matón" in html
        assert 'id="combat-attack"' not in html
        assert url("combat_apply", combat, attack_.pk) not in html
        # Watchers refresh the panel on each change while the fight is on.
        assert 'hx-trigger="sse:change, cronica:poll from:body"' in html
        assert client.get(url("combat_attack", combat)).status_code == 403
        for target in posts:
            assert client.post(target, {"preset": "8"}).status_code == 403, target
    attack_.refresh_from_db()
    assert attack_.status == "pending"
    assert not HealthEvent.objects.exists()


def test_a_stranger_gets_404_for_every_combat_url(client, stranger, combat, thug):
    participant = combat.participants.get(character=thug)
    client.force_login(stranger)
    gets = [scene_url("combat", combat.scene), combat.get_absolute_url()]
    posts = [
        url("combat_initiative", combat),
        url("combat_next", combat),
        url("combat_attack", combat),
        url("combat_add", combat),
        url("combat_remove", combat, participant.pk),
        url("combat_end", combat),
        scene_url("combat_start", combat.scene),
        scene_url("scene_time", combat.scene),
    ]
    for target in gets:
        assert client.get(target).status_code == 404
    for target in posts:
        assert client.post(target, {"preset": "8"}).status_code == 404


class NoCombatSystem(TinieblasSystem):
    """A rule system that declares no combat hooks."""

    key = "sin_combate"
    name = "Sin combate"
    combat = None


@pytest.fixture
def no_combat_system():
    system = register(NoCombatSystem())
    yield system
    unregister(system.key)


def test_a_system_without_combat_has_no_panel_and_its_combat_urls_are_404(
    client, gm, scene, no_combat_system
):
    campaign = CampaignFactory(system=no_combat_system.key, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    hero = make_character(campaign, None, user=gm, name="Héroe")
    calm = services.scene_create(campaign=campaign, title="Calma", participants=[hero])
    # A fight stored before the system had no combat still has no panel.
    stored = Combat.objects.create(scene=calm, started_by=gm)
    client.force_login(gm)
    # The scene page links to the panel only where the system has combat.
    assert 'id="scene-combat"' in client.get(scene_url("scene", scene)).content.decode()
    page = client.get(scene_url("scene", calm))
    assert page.status_code == 200
    assert 'id="scene-combat"' not in page.content.decode()
    assert client.get(scene_url("combat", calm)).status_code == 404
    assert client.get(url("combat_detail", stored)).status_code == 404
    assert client.get(url("combat_attack", stored)).status_code == 404
    for name in ("combat_initiative", "combat_next", "combat_end"):
        assert client.post(url(name, stored)).status_code == 404, name
    assert client.post(scene_url("combat_start", calm)).status_code == 404
    with refused("no_combat"):
        combat_services.combat_start(scene=calm, user=gm)
    assert Combat.objects.filter(scene=calm).count() == 1


def test_a_combat_of_another_scene_is_404(client, gm, campaign, combat):
    other = services.scene_create(campaign=campaign, title="Otra escena")
    client.force_login(gm)
    wrong = reverse("mechanics:combat_detail", args=[campaign.pk, other.pk, combat.pk])
    assert client.get(wrong).status_code == 404


# --- Initiative -----------------------------------------------------------------------------


def test_tinieblas_initiative_is_destreza_plus_compostura_plus_a_d10_stored_with_the_scene(
    client, gm, combat, lucia, barman, thug, fixed_dice
):
    client.force_login(gm)
    fixed_dice(4, 9, 2)  # in the order they joined: Lucía, then the NPCs by name
    response = client.post(url("combat_initiative", combat))
    assert response.status_code == 302
    initiative = {p.character_id: p.initiative for p in combat.participants.all()}
    # Lucía 1 + 1 + 4; Camarero 2 + 2 + 9; Matón 3 + 2 + 2.
    assert initiative == {lucia.pk: 6, barman.pk: 13, thug.pk: 7}
    rolls = Roll.objects.filter(kind="initiative")
    assert rolls.count() == 3
    assert {roll.scene_id for roll in rolls} == {combat.scene.pk}
    combat.refresh_from_db()
    assert combat.round == 1
    assert combat.current.character == barman
    page = client.get(combat.get_absolute_url()).content.decode()
    assert page.index("Camarero") < page.index("Matón") < page.index("Lucía")


def test_ties_go_to_the_higher_base_then_to_a_roll_off(gm, campaign, lucia, combat):
    twin = make_character(campaign, None, name="Gemelo", user=gm)
    combat_services.combat_add_participants(combat=combat, characters=[twin])
    # Lucía and Gemelo share base 2 and both roll 5; Camarero and Matón have base 4
    # and 5: Matón's 2 + 5 ties Camarero's 4 + 3 and wins on the base. Roll-off: 3, 8.
    combat_services.combat_roll_initiative(
        combat=combat, user=gm, rng=FixedDice([5, 3, 2, 5, 3, 8])
    )
    participants = {p.character.name: p for p in combat.participants.all()}
    assert participants["Camarero"].initiative == participants["Matón"].initiative == 7
    assert participants["Lucía"].tiebreak == 3
    assert participants["Gemelo"].tiebreak == 8
    assert participants["Matón"].tiebreak is None
    order = [p.character.name for p in _order(combat)]
    assert order == ["Matón", "Camarero", "Gemelo", "Lucía"]
    roll = participants["Gemelo"].initiative_roll
    assert roll.record["details"]["tiebreak"] == 8


def _order(combat):
    return turn_order(combat.participants.select_related("character"))


def test_a_late_joiner_rolls_initiative_without_reshuffling_the_order(gm, campaign, combat):
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
    before = [p.pk for p in _order(combat)]
    newcomer = make_character(campaign, None, name="Portero", user=gm)
    combat_services.combat_add_participants(combat=combat, characters=[newcomer])
    assert newcomer in combat.scene.participants.all()
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([10]))
    after = [p.pk for p in _order(combat) if p.character_id != newcomer.pk]
    assert after == before
    with refused("rolled"):
        combat_services.combat_roll_initiative(combat=combat, user=gm)


def _system_campaign(system, gm, player):
    campaign = CampaignFactory(system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def test_hitos_initiative_is_reflejos_plus_half_intelecto_plus_the_central_die(gm, player):
    campaign = _system_campaign("hitos", gm, player)
    hero = make_character(
        campaign, None, user=gm, name="Héroe", ratings={"reflejos": 3, "intelecto": 4}
    )
    scene = services.scene_create(campaign=campaign, title="Duelo", participants=[hero])
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([2, 9, 6]))
    participant = combat.participants.get()
    assert participant.initiative == 3 + 2 + 6
    assert participant.initiative_base == 5
    assert participant.initiative_roll.kind == "initiative"


def test_objetivo_initiative_is_destreza_plus_percepcion_plus_the_target_die(gm, player):
    campaign = _system_campaign("objetivo", gm, player)
    hero = make_character(
        campaign,
        None,
        user=gm,
        name="Fred",
        ratings={"destreza": 8, "percepcion": 5, "resistencia": 8},
    )
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[hero])
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([4, 8, 3]))
    assert combat.participants.get().initiative == 13 + 4
    # Incapacitado (PV at or below 10): one level down, the lowest die.
    character_apply_damage(character=hero, user=gm, damage=DamageInput(7))
    other = combat_services.combat_start(scene=_fresh_scene(campaign, hero), user=gm)
    combat_services.combat_roll_initiative(combat=other, user=gm, rng=FixedDice([4, 8, 3]))
    assert other.participants.get().initiative == 13 + 3


def _fresh_scene(campaign, *characters):
    return services.scene_create(campaign=campaign, title="Otra", participants=list(characters))


def test_ndp_acts_by_phases_then_by_an_alerta_roll(client, gm, player):
    campaign = _system_campaign("ndp", gm, player)
    archer = make_character(campaign, None, user=gm, name="Arquera", ratings={"alerta": 2})
    brute = make_character(campaign, None, user=gm, name="Bruto", ratings={"alerta": 6})
    scene = services.scene_create(
        campaign=campaign, title="Emboscada", participants=[archer, brute]
    )
    combat = combat_services.combat_start(scene=scene, user=gm)
    assert {p.phase for p in combat.participants.all()} == {3}
    client.force_login(gm)
    archer_row = combat.participants.get(character=archer)
    response = client.post(url("combat_phase", combat, archer_row.pk), {"phase": 2})
    assert response.status_code == 302
    combat_services.combat_roll_initiative(
        combat=combat, user=gm, rng=FixedDice([3, 3, 3, 6, 6, 6])
    )
    order = [p.character.name for p in _order(combat)]
    # The shooter acts in phase 2, before the melee phase, whatever her Alerta roll.
    assert order == ["Arquera", "Bruto"]
    archer_row.refresh_from_db()
    assert archer_row.initiative == 9 + 2
    assert archer_row.initiative_roll.record["spec"]["skill"] == "alerta"
    assert client.post(url("combat_phase", combat, archer_row.pk), {"phase": 9}).status_code == 302
    archer_row.refresh_from_db()
    assert archer_row.phase == 2


# --- Turns ----------------------------------------------------------------------------------


def test_turns_follow_the_order_and_a_new_round_starts_after_the_last(
    gm, combat, lucia, barman, thug
):
    with refused("no_initiative"):
        combat_services.combat_next_turn(combat=combat)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
    names = []
    for _turn in range(4):
        combat.refresh_from_db()
        names.append((combat.round, combat.current.character.name))
        combat_services.combat_next_turn(combat=combat)
    assert names == [(1, "Matón"), (1, "Camarero"), (1, "Lucía"), (2, "Matón")]


def test_a_character_taken_out_of_the_fight_loses_its_turns(client, gm, combat, barman, thug):
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
    client.force_login(gm)
    thug_row = combat.participants.get(character=thug)
    response = client.post(url("combat_remove", combat, thug_row.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Fuera del combate" in response.content.decode()
    combat.refresh_from_db()
    # It was Matón's turn: it passes on to the next one in the order.
    assert combat.current.character == barman
    combat_services.combat_next_turn(combat=combat)
    combat_services.combat_next_turn(combat=combat)
    combat.refresh_from_db()
    assert combat.round == 2
    assert combat.current.character == barman
    # Brought back, it keeps its initiative.
    combat_services.combat_add_participants(combat=combat, characters=[thug])
    assert combat.participants.get(character=thug).initiative == 2 + 3 + 9


# --- Attacks --------------------------------------------------------------------------------


def test_an_attack_is_rolled_on_the_server_and_waits_for_the_gm(
    client, gm, combat, thug, barman, fixed_dice
):
    client.force_login(gm)
    fixed_dice(8, 8, 1, 1)
    response = attack(client, combat, thug, barman, **PUNCH, dice="99")
    assert response.status_code == 302
    stored = CombatAttack.objects.get()
    assert stored.status == "pending"
    assert stored.hit
    assert stored.damage["amount"] == 2
    assert stored.damage["damage_type"] == "B"
    assert stored.roll.scene == combat.scene
    assert stored.roll.character == thug
    assert stored.roll.label == "Ataque a Camarero"
    # Destreza 3 + Pelea 3 − Defensa 2: four dice.
    assert len(stored.roll.record["dice"]) == 4
    assert stored.roll.record["details"]["target"]["name"] == "Camarero"
    assert not HealthEvent.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert "Aplicar el daño a Camarero" in page


def test_gm_confirms_and_the_damage_is_applied_through_the_health_service(
    client, gm, combat, thug, barman, fixed_dice
):
    client.force_login(gm)
    fixed_dice(8, 8, 1, 1)
    attack(client, combat, thug, barman, **PUNCH)
    stored = CombatAttack.objects.get()
    response = client.post(url("combat_apply", combat, stored.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Daño aplicado a Camarero: 2 B." in response.content.decode()
    stored.refresh_from_db()
    assert stored.status == "applied"
    event = stored.health_event
    assert event.kind == "damage"
    assert event.scene == combat.scene
    assert event.character == barman
    assert event.created_by == gm
    assert barman.__class__.objects.get(pk=barman.pk).health["marks"] == "BB"
    # Applying twice is refused: nothing more is applied.
    again = client.post(url("combat_apply", combat, stored.pk))
    assert again.status_code == 302
    assert HealthEvent.objects.count() == 1


def test_gm_discards_and_nothing_is_applied(client, gm, combat, thug, barman, fixed_dice):
    client.force_login(gm)
    fixed_dice(8, 8, 1, 1)
    attack(client, combat, thug, barman, **PUNCH)
    stored = CombatAttack.objects.get()
    before = health_of(barman)
    assert client.post(url("combat_discard", combat, stored.pk)).status_code == 302
    stored.refresh_from_db()
    assert stored.status == "discarded"
    assert not HealthEvent.objects.exists()
    assert health_of(barman) == before
    with refused("settled"):
        combat_services.combat_attack_apply(attack=stored, user=gm)


def test_a_miss_has_nothing_to_apply(client, gm, combat, thug, barman, fixed_dice):
    client.force_login(gm)
    fixed_dice(1, 2, 3, 4)
    attack(client, combat, thug, barman, **PUNCH)
    stored = CombatAttack.objects.get()
    assert stored.status == "no_damage"
    assert not stored.hit
    assert stored.damage is None
    assert stored.roll is not None


def test_a_target_outside_the_campaign_is_refused_and_nothing_changes(
    client, gm, combat, thug, fixed_dice
):
    elsewhere = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=elsewhere, user=gm, role="gm")
    stranger = make_character(elsewhere, None, name="Forastero", user=gm)
    health_before = stranger.health
    client.force_login(gm)
    fixed_dice(8, 8, 8, 8)
    response = attack(client, combat, thug, stranger, **PUNCH)
    assert response.status_code == 200
    assert "Ese personaje no participa en este combate." in response.content.decode()
    assert not Roll.objects.exists()
    assert not CombatAttack.objects.exists()
    stranger.refresh_from_db()
    assert stranger.health == health_before
    # The services refuse it too, whoever calls them.
    with refused("foreign_character"):
        combat_services.combat_add_participants(combat=combat, characters=[stranger])
    assert not combat.participants.filter(character=stranger).exists()


def test_a_character_not_in_the_fight_cannot_be_attacked(gm, campaign, combat, thug):
    bystander = make_character(campaign, None, name="Cliente", user=gm)
    with refused("not_participant"):
        combat_services.combat_attack_record(
            combat=combat,
            user=gm,
            attacker=thug,
            target=bystander,
            attack=AttackRoll([], True, DamageInput(1, "B"), "1 B"),
        )
    assert not CombatAttack.objects.exists()


def test_a_character_cannot_attack_itself(client, gm, combat, thug):
    client.force_login(gm)
    response = attack(client, combat, thug, thug, **PUNCH)
    assert response.status_code == 200
    assert "Un personaje no puede atacarse a sí mismo." in response.content.decode()
    assert not Roll.objects.exists()


def test_willpower_spent_on_an_attack_leaves_the_pool(client, gm, combat, thug, barman, fixed_dice):
    client.force_login(gm)
    fixed_dice(8, 9, 1, 1, 1, 1)
    attack(client, combat, thug, barman, **KNIFE, willpower="on")
    stored = CombatAttack.objects.get()
    assert len(stored.roll.record["dice"]) == 6
    # Aplomo 1 + Compostura 2 = 3 points; one spent.
    assert Resource.objects.get(character=thug, key="willpower").current == 2
    assert stored.damage_text == "2 L"


def test_the_attack_set_up_shows_the_targets_defensa_and_the_odds(client, gm, combat, thug, barman):
    client.force_login(gm)
    query = {"attacker": thug.pk, "target": barman.pk, **PUNCH}
    response = client.get(url("combat_attack", combat), query, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="combat-attack"' in html
    assert "Turn order" not in html
    assert "Defensa de Camarero" in html
    assert "4 dados" in html


def test_an_attacker_who_cannot_act_is_refused(client, gm, combat, thug, barman):
    character_apply_damage(character=thug, user=gm, damage=DamageInput(7, "B"))
    client.force_login(gm)
    response = attack(client, combat, thug, barman, **PUNCH)
    assert response.status_code == 200
    assert "Matón no puede actuar en este estado." in response.content.decode()
    assert not CombatAttack.objects.exists()


def test_hitos_attack_damage_comes_from_the_same_dice(client, gm, player, fixed_dice):
    campaign = _system_campaign("hitos", gm, player)
    hero = make_character(
        campaign, None, user=gm, name="Héroe", ratings={"reflejos": 4, "combate": 4, "fortaleza": 4}
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Sicario",
        ratings={"reflejos": 1, "combate": 1, "fortaleza": 4},
    )
    scene = services.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    # Dice 7, 8, 9: C 8 + 8 = 16 against Defensa 1 + 1 + 5 = 7. Weapon C+1: 8 + 1 + bonus 2.
    fixed_dice(7, 8, 9)
    response = client.post(
        url("combat_attack", combat),
        {
            "attacker": hero.pk,
            "target": foe.pk,
            "characteristic": "reflejos",
            "skill": "combate",
            "weapon": "central",
            "weapon_constant": 1,
            "attack_range": "melee",
            "target_state": "normal",
        },
    )
    assert response.status_code == 302
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["difficulty"] == 7
    assert stored.damage["amount"] == 8 + 1 + 2
    # 11 ≥ Aguante 4: the massive-damage test, Aguante 4 + C 9 = 13 against 12, passes.
    event = combat_services.combat_attack_apply(attack=stored, user=gm, rng=FixedDice([9, 9, 9]))
    assert health_of(foe).lines[0] == ("Resistencia", "1/12")
    assert event.roll.scene == scene


def ndp_attack(attacker, target) -> dict:
    """A sword thrust at the left arm, the defender dodging."""
    return {
        "attacker": attacker.pk,
        "target": target.pk,
        "skill": "combate_c_a_c",
        "dice": "3",
        "damage": "1d8",
        "damage_type": "cortante",
        "part": "brazo_izquierdo",
        "defence": "esquivar",
    }


def test_ndp_target_rolls_its_defence_and_the_wound_goes_to_the_part_hit(
    client, gm, player, fixed_dice
):
    campaign = _system_campaign("ndp", gm, player)
    knight = make_character(campaign, None, user=gm, name="Caballero", ratings={"combate_c_a_c": 4})
    bandit = make_character(campaign, None, user=gm, name="Bandido", ratings={"esquivar": 1})
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    # Defence 2+2+2 + 1 = 7; attack 5+5+5 + 4 = 19 > 7; damage 1d8 → 5 against RD 0: grave.
    fixed_dice(2, 2, 2, 5, 5, 5, 5)
    response = client.post(url("combat_attack", combat), ndp_attack(knight, bandit))
    assert response.status_code == 302
    stored = CombatAttack.objects.get()
    assert stored.defence_roll.character == bandit
    assert stored.defence_roll.label == "Defensa contra Caballero"
    assert stored.defence_roll.group == stored.roll.group is not None
    assert stored.damage["part"] == "brazo_izquierdo"
    assert "grave" in stored.damage_text
    combat_services.combat_attack_apply(attack=stored, user=gm)
    assert "grave" in HealthEvent.objects.get().summary


def test_ndp_a_fixed_adversity_needs_a_number(client, gm, player):
    campaign = _system_campaign("ndp", gm, player)
    knight = make_character(campaign, None, user=gm, name="Caballero")
    bandit = make_character(campaign, None, user=gm, name="Bandido")
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    response = client.post(
        url("combat_attack", combat),
        {
            "attacker": knight.pk,
            "target": bandit.pk,
            "skill": "pelea",
            "dice": "3",
            "damage": "1d4",
            "damage_type": "contundente",
            "part": "torso",
            "defence": "",
        },
    )
    assert response.status_code == 200
    assert not Roll.objects.exists()


def test_objetivo_attack_against_defensa_with_exploding_damage(client, gm, player, fixed_dice):
    campaign = _system_campaign("objetivo", gm, player)
    fred = make_character(
        campaign, None, user=gm, name="Fred", ratings={"fuerza": 5, "armas_cc": 6}
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Forajido",
        ratings={"destreza": 3, "armas_cc": 2, "resistencia": 8},
    )
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    # Target die 7 + 11 = 18 ≥ Defensa 3 + 2 + 5 = 10; the sword's 1d10 rolls 7.
    fixed_dice(7, 7, 7, 7)
    response = client.post(
        url("combat_attack", combat),
        {"attacker": fred.pk, "target": foe.pk, "weapon": "espada"},
    )
    assert response.status_code == 302
    stored = CombatAttack.objects.get()
    assert stored.roll.record["details"]["defensa"] == 10
    assert stored.damage["amount"] == 7
    combat_services.combat_attack_apply(attack=stored, user=gm)
    assert health_of(foe).lines == (("PV", "9/16"),)


def test_objetivo_a_second_attack_in_the_same_round_is_refused_and_nothing_is_written(
    client, gm, player, fixed_dice
):
    campaign = _system_campaign("objetivo", gm, player)
    fred = make_character(campaign, None, user=gm, name="Fred", ratings={"fuerza": 5})
    foe = make_character(campaign, None, user=gm, name="Forajido", ratings={"resistencia": 8})
    scene = services.scene_create(campaign=campaign, title="Saloon", participants=[fred, foe])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    data = {"attacker": fred.pk, "target": foe.pk, "weapon": "espada"}
    fixed_dice(7, 7, 7, 7)
    assert client.post(url("combat_attack", combat), data).status_code == 302
    rolls = Roll.objects.count()
    fixed_dice(7, 7, 7, 7)
    response = client.post(url("combat_attack", combat), data)
    assert response.status_code == 200
    assert (
        "Fred ya ha hecho 1 ataque en este asalto."
        in parse(response.text).one("div", class_="alert-danger").text()
    )
    assert CombatAttack.objects.count() == 1
    assert Roll.objects.count() == rolls
    # The next round, Fred attacks again.
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([5, 5, 5] * 4))
    combat.refresh_from_db()
    round_now = combat.round
    while combat.round == round_now:
        combat = combat_services.combat_next_turn(combat=combat, user=gm)
    fixed_dice(7, 7, 7, 7)
    assert client.post(url("combat_attack", combat), data).status_code == 302
    assert CombatAttack.objects.count() == 2


def test_ndp_a_third_attack_in_a_round_is_refused(client, gm, player, fixed_dice):
    campaign = _system_campaign("ndp", gm, player)
    knight = make_character(campaign, None, user=gm, name="Caballero", ratings={"combate_c_a_c": 4})
    bandit = make_character(campaign, None, user=gm, name="Bandido", ratings={"esquivar": 1})
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    combat = combat_services.combat_start(scene=scene, user=gm)
    client.force_login(gm)
    data = ndp_attack(knight, bandit)
    for _ in range(2):
        fixed_dice(2, 2, 2, 5, 5, 5, 5)
        assert client.post(url("combat_attack", combat), data).status_code == 302
    fixed_dice(2, 2, 2, 5, 5, 5, 5)
    response = client.post(url("combat_attack", combat), data)
    assert response.status_code == 200
    assert CombatAttack.objects.count() == 2


# --- The end of a combat --------------------------------------------------------------------


def test_the_combat_ends_with_a_summary_in_the_scenes_record(
    client, gm, player, observer, combat, thug, barman, lucia, fixed_dice
):
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=FixedDice([1, 6, 9]))
    client.force_login(gm)
    fixed_dice(8, 8, 1, 1)
    attack(client, combat, thug, barman, **PUNCH)
    client.post(url("combat_apply", combat, CombatAttack.objects.get().pk))
    fixed_dice(8, 8, 8, 1)
    attack(client, combat, thug, lucia, **PUNCH)
    pending = CombatAttack.objects.get(status="pending")
    assert client.post(url("combat_end", combat)).status_code == 302
    combat.refresh_from_db()
    pending.refresh_from_db()
    assert not combat.is_active
    assert combat.ended_at is not None
    assert pending.status == "discarded"
    summary = combat.summary
    assert summary["rounds"] == 1
    assert summary["hits"] == 2
    assert [(a["attacker"], a["target"], a["status"]) for a in summary["attacks"]] == [
        ("Matón", "Camarero", "applied"),
        ("Matón", "Lucía", "discarded"),
    ]
    states = {p["name"]: p for p in summary["participants"]}
    assert states["Camarero"]["state"] == "Lastimado"
    assert states["Camarero"]["track"] == "B B · · · · ·"
    # The scene's timeline keeps it: the GM reads everything.
    page = client.get(scene_url("scene", combat.scene)).content.decode()
    assert f'id="combat-{combat.pk}"' in page
    assert "Lastimado" in page
    assert "B B · · · · ·" in page
    # A player reads who hit whom, but the NPC's wounds only as far as its sheet is theirs.
    client.force_login(player)
    page = client.get(scene_url("scene", combat.scene)).content.decode()
    assert f'id="combat-{combat.pk}"' in page
    assert "Matón → Camarero" in page
    assert "Lastimado" not in page
    # An ended combat takes no more actions.
    client.force_login(gm)
    client.post(url("combat_next", combat))
    with refused("ended"):
        combat_services.combat_next_turn(combat=combat)


# --- Time passes for everyone in a scene ----------------------------------------------------


def test_gm_lets_a_night_pass_for_everyone_in_the_scene(client, gm, scene, barman, lucia):
    character_apply_damage(character=barman, user=gm, damage=DamageInput(5, "B"), scene=scene)
    client.force_login(gm)
    response = client.post(scene_url("scene_time", scene), {"preset": "8", "reason": "Noche"})
    assert response.status_code == 302
    assert response["Location"].endswith("#scene-time")
    events = HealthEvent.objects.filter(kind="time")
    assert events.count() == 3
    assert {e.scene_id for e in events} == {scene.pk}
    assert {e.inputs["hours"] for e in events} == {8}
    assert health_of(barman).state is None
    page = client.get(response["Location"]).content.decode()
    assert "8 horas han pasado para 3 personajes." in page
    assert "El tiempo pasa: 8 horas" in page


@pytest.mark.parametrize(
    ("data", "hours"),
    [
        ({"preset": "24"}, 24),
        ({"preset": "168"}, 168),
        ({"preset": "custom", "amount": 3, "unit": "days"}, 72),
    ],
)
def test_presets_and_custom_amounts_of_time(client, gm, scene, data, hours):
    client.force_login(gm)
    client.post(scene_url("scene_time", scene), data)
    assert {e.inputs["hours"] for e in HealthEvent.objects.all()} == {hours}


@pytest.mark.parametrize(
    "data", [{"preset": "custom"}, {"preset": "custom", "amount": 0}, {"preset": "2"}, {}]
)
def test_a_bad_amount_of_time_changes_nothing(client, gm, scene, data):
    client.force_login(gm)
    response = client.post(scene_url("scene_time", scene), data, follow=True)
    assert response.status_code == 200
    assert not HealthEvent.objects.exists()
    assert "alert-danger" in response.content.decode() or "alert-error" in response.content.decode()


def test_a_refused_amount_of_time_keeps_what_the_gm_typed(client, gm, player, stranger, scene):
    """The card again with the reason, the amount, the unit and the rest box as sent, and
    why, once (it used to redirect to an empty card, and say "mayor o igual a 1. Di
    cuánto tiempo pasa." for a 0)."""
    data = {"preset": "custom", "amount": "0", "unit": "days", "reason": "Viaje a Toledo"}
    client.force_login(gm)
    response = client.post(scene_url("scene_time", scene), data)
    assert response.status_code == 200
    card = parse(response.content.decode()).one("section", id="scene-time")
    assert card.one("input", name="reason").attrs["value"] == "Viaje a Toledo"
    amount = card.one("input", name="amount")
    assert (amount.attrs["value"], amount.attrs["aria-invalid"]) == ("0", "true")
    assert card.one("option", selected=True).attrs["value"] == "days"
    assert "checked" not in card.one("input", name="rested").attrs
    assert card.one(id="scene-time-error").text() == (
        "Asegúrate de que este valor es mayor o igual a 1."
    )
    assert not HealthEvent.objects.exists()
    client.force_login(player)
    assert client.post(scene_url("scene_time", scene), data).status_code == 403
    client.force_login(stranger)
    assert client.post(scene_url("scene_time", scene), data).status_code == 404
    assert not HealthEvent.objects.exists()


# --- The scene's timeline -------------------------------------------------------------------


def test_damage_events_appear_in_the_timeline_for_those_who_may_see_the_sheet(
    client, gm, player, observer, scene, lucia, barman
):
    character_apply_damage(
        character=lucia, user=gm, damage=DamageInput(2, "L"), reason="Navaja", scene=scene
    )
    character_apply_damage(
        character=barman, user=gm, damage=DamageInput(3, "B"), reason="Bate", scene=scene
    )
    client.force_login(gm)
    page = client.get(scene_url("scene", scene)).content.decode()
    assert "Navaja" in page
    assert "Bate" in page
    client.force_login(player)
    page = client.get(scene_url("scene", scene)).content.decode()
    assert "Navaja" in page
    assert "Bate" not in page
    client.force_login(observer)
    page = client.get(scene_url("scene", scene)).content.decode()
    assert "Navaja" not in page
    assert "Bate" not in page
    # A campaign that shares full sheets shows players everyone's wounds.
    scene.campaign.players_see_full_sheets = True
    scene.campaign.save()
    client.force_login(player)
    assert "Bate" in client.get(scene_url("scene", scene)).content.decode()


# --- Speed ----------------------------------------------------------------------------------


def _count(client, target) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(target)
    assert response.status_code == 200
    return len(queries)


def test_the_combat_page_runs_constant_queries(
    client, gm, player, campaign, combat, thug, barman, fixed_dice, django_assert_max_num_queries
):
    fixed_dice(8, 8, 1, 1)
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    client.force_login(gm)
    attack(client, combat, thug, barman, **PUNCH)
    few = _count(client, combat.get_absolute_url())
    for number in range(6):
        extra = make_character(campaign, None, name=f"Extra {number}", user=gm)
        combat_services.combat_add_participants(combat=combat, characters=[extra])
        attack(client, combat, thug, extra, **PUNCH)
        client.post(url("combat_apply", combat, CombatAttack.objects.latest("pk").pk))
    combat_services.combat_roll_initiative(combat=combat, user=gm)
    many = _count(client, combat.get_absolute_url())
    assert few == many
    # Session, user, membership, scene, combat, participants, traits, resources,
    # specialties, pending and recent attacks, candidates (scene, NPCs), earlier combats,
    # and base.html's admin-link check.
    with django_assert_max_num_queries(15):
        client.get(combat.get_absolute_url())
    client.force_login(player)
    with django_assert_max_num_queries(15):
        client.get(combat.get_absolute_url())


def test_a_watchers_poll_gets_nothing_when_nothing_changed(client, player, combat):
    client.force_login(player)
    page = client.get(combat.get_absolute_url()).content.decode()
    version = page.split(f"{combat.get_absolute_url()}?since=", 1)[1].split('"', 1)[0]
    poll = client.get(combat.get_absolute_url(), {"since": version}, HTTP_HX_REQUEST="true")
    assert poll.status_code == 204
    combat.save()
    poll = client.get(combat.get_absolute_url(), {"since": version}, HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    assert 'id="combat-panel"' in poll.content.decode()


def test_the_scene_page_still_runs_one_query_per_timeline_source(
    client, gm, scene, barman, django_assert_max_num_queries
):
    character_apply_damage(character=barman, user=gm, damage=DamageInput(1, "B"), scene=scene)
    client.force_login(gm)
    with django_assert_max_num_queries(9 + len(chronicle._sources) + len(chronicle._pagers)):
        client.get(scene_url("scene", scene))


# --- The bar fight of the seed, through the combat panel ------------------------------------


def test_bar_fight_of_the_seed_through_the_combat_panel(
    client, gm, campaign, barman, thug, fixed_dice
):
    """Punch (2 B), knife with Willpower (2 L), the barman's bat with Willpower (5 B on the
    thug, exceptional), and the thug's lucky knife (3 L): the barman ends L L L L L B B,
    Incapacitado and unconscious, and heals fully in 3 months 1 week 4 days 18 hours."""
    scene = services.scene_create(campaign=campaign, title="El bar", participants=[barman, thug])
    client.force_login(gm)
    client.post(scene_url("combat_start", scene))
    combat = Combat.objects.get()
    fixed_dice(9, 3)  # Camarero 2 + 2 + 9 = 13, Matón 3 + 2 + 3 = 8
    client.post(url("combat_initiative", combat))

    def hit(attacker, target, choices, dice, *, willpower=False, expected):
        fixed_dice(*dice)
        data = dict(choices, willpower="on") if willpower else choices
        response = attack(client, combat, attacker, target, **data)
        assert response.status_code == 302, response.content.decode()[:2000]
        stored = CombatAttack.objects.latest("pk")
        assert stored.damage_text == expected
        applied = client.post(url("combat_apply", combat, stored.pk), HTTP_HX_REQUEST="true")
        assert applied.status_code == 200
        return stored

    # The punch: Destreza 3 + Pelea 3 − Defensa 2 = 4 dice, 2 successes.
    punch = hit(thug, barman, PUNCH, (8, 8, 1, 1), expected="2 B")
    assert len(punch.roll.record["dice"]) == 4
    # The knife: Fuerza 2 + Armamento 2 − Defensa 2 + 1 = 3 dice, +3 for Willpower = 6.
    knife = hit(thug, barman, KNIFE, (8, 9, 1, 1, 1, 1), willpower=True, expected="2 L")
    assert knife.roll.record["details"]["pool"] == 6
    # The bat: Fuerza 4 + Armamento 3 − Defensa 2 + 1 + 3 Willpower = 9 in the seed; the
    # barman is Herido by now and the engine takes his −2 wound penalty: 7 dice. Two 10s
    # that explode, 5 successes in all: éxito excepcional, 5 B on the thug.
    bat = hit(barman, thug, BAT, (10, 10, 8, 8, 1, 1, 1, 9, 1), willpower=True, expected="5 B")
    assert bat.roll.record["details"]["pool"] == 7
    assert bat.roll.outcome == "exceptional"
    # The thug's lucky knife: one die (he is Malherido, −2) that rolls 10, 10 and 8.
    hit(thug, barman, KNIFE, (10, 10, 8), expected="3 L")

    barman.refresh_from_db()
    assert barman.health["marks"] == "LLLLLBB"
    shown = health_of(barman)
    assert shown.state == "Incapacitado"
    assert shown.unconscious
    assert shown.time_to_heal == "3 meses 1 semana 4 días 18 horas"
    page = client.get(combat.get_absolute_url()).content.decode()
    assert "inconsciente" in page
    # Every roll is in the log with the scene; every hit is a health event of the scene.
    assert Roll.objects.filter(scene=scene).count() == 2 + 4
    assert HealthEvent.objects.filter(scene=scene, kind="damage").count() == 4
    client.post(url("combat_end", combat))
    page = client.get(scene_url("scene", scene)).content.decode()
    assert "L L L L L B B" in page
    assert CombatParticipant.objects.filter(combat=combat).count() == 2


def test_ndp_bleeding_fighters_bleed_at_each_new_round(client, gm, player):
    campaign = _system_campaign("ndp", gm, player)
    knight = make_character(campaign, None, user=gm, name="Caballero")
    bandit = make_character(campaign, None, user=gm, name="Bandido")
    for _cut in range(2):  # two grave cortante wounds: Hemorragia leve
        character_apply_damage(
            character=bandit, user=gm, damage=DamageInput(5, "cortante", part="brazo_izquierdo")
        )
    scene = services.scene_create(campaign=campaign, title="Camino", participants=[knight, bandit])
    combat = combat_services.combat_start(scene=scene, user=gm)
    combat_services.combat_roll_initiative(
        combat=combat, user=gm, rng=FixedDice([6, 6, 6, 1, 1, 1])
    )
    client.force_login(gm)
    client.post(url("combat_next", combat))
    assert not HealthEvent.objects.filter(scene=scene).exists()
    response = client.post(url("combat_next", combat), HTTP_HX_REQUEST="true")
    assert "Sangran: Bandido." in response.content.decode()
    bleed = HealthEvent.objects.get(scene=scene)
    assert bleed.character == bandit
    # Besides what was entered, the codes of the texts the site wrote (campaigns/texts.py).
    assert {k: v for k, v in bleed.inputs.items() if k != "texts"} == {"bleed_round": 1}
    assert bleed.reason == "Asalto 2 del combate"


def test_a_specialty_of_the_attackers_skill_adds_a_die(client, gm, campaign, barman, fixed_dice):
    brawler = make_character(
        campaign,
        None,
        name="Boxeador",
        user=gm,
        ratings={"destreza": 3, "pelea": 3},
        specialties=[("pelea", "Boxeo")],
    )
    scene = services.scene_create(campaign=campaign, title="Ring", participants=[brawler, barman])
    combat = combat_services.combat_start(scene=scene, user=gm)
    specialty = brawler.specialties.get()
    client.force_login(gm)
    page = client.get(combat.get_absolute_url()).content.decode()
    assert "Pelea: Boxeo" in page
    fixed_dice(1)
    attack(client, combat, brawler, barman, **PUNCH, specialty=specialty.pk)
    # Destreza 3 + Pelea 3 + Boxeo 1 − Defensa 2.
    assert len(CombatAttack.objects.get().roll.record["dice"]) == 5


@pytest.mark.django_db(transaction=True)
def test_two_gms_confirming_one_attack_at_once_apply_it_once(gm):
    import threading

    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    thug = make_character(campaign, None, name="Matón", user=gm)
    barman = make_character(campaign, None, name="Camarero", user=gm)
    scene = services.scene_create(campaign=campaign, title="Bar", participants=[thug, barman])
    combat = combat_services.combat_start(scene=scene, user=gm)
    pending = CombatAttack.objects.create(
        combat=combat,
        attacker=thug,
        target=barman,
        attacker_name="Matón",
        target_name="Camarero",
        hit=True,
        damage={"amount": 2, "damage_type": "L"},
        damage_text="2 L",
        status="pending",
    )
    barrier = threading.Barrier(2)
    outcomes = []

    def confirm():
        try:
            barrier.wait()
            combat_services.combat_attack_apply(
                attack=CombatAttack.objects.get(pk=pending.pk), user=gm
            )
            outcomes.append("applied")
        except ValidationError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["applied", "settled"]
    barman.refresh_from_db()
    assert barman.health["marks"] == "LL"
    assert HealthEvent.objects.filter(character=barman).count() == 1


# --- A scene closed mid-fight --------------------------------------------------------------


def test_a_scene_with_a_fight_going_on_cannot_be_closed_until_the_fight_ends(scene, combat, gm):
    with refused("combat"):
        services.scene_close(scene=scene, user=gm)
    scene.refresh_from_db()
    assert scene.status == scene.Status.OPEN
    combat_services.combat_end(combat=combat, user=gm)
    assert services.scene_close(scene=scene, user=gm).status == scene.Status.CLOSED


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("who", ["gm", "player", "stranger"])
def test_the_scene_pages_close_button_says_why_the_scene_stays_open_mid_fight(
    request, client, scene, combat, who, htmx
):
    client.force_login(request.getfixturevalue(who))
    close = reverse("campaigns:scene_close", args=[scene.campaign_id, scene.pk])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(close, follow=not htmx, **headers)
    scene.refresh_from_db()
    assert scene.status == scene.Status.OPEN
    if who != "gm":
        assert response.status_code == (404 if who == "stranger" else 403)
        return
    assert response.status_code == 200
    page = parse(response.content.decode())
    # Said in the header htmx swaps in, or among the messages of the page reloaded.
    where = page.one("header", id="scene-header") if htmx else page.one(class_="messages")
    assert "Hay un combate en curso en esta escena" in where.one(class_="alert-danger").text()
    assert "Escena cerrada" not in response.content.decode()


def test_awarding_xp_and_closing_mid_fight_keeps_the_xp_and_the_scene_open(
    client, scene, combat, gm, lucia
):
    client.force_login(gm)
    award = reverse("characters:scene_xp", args=[scene.campaign_id, scene.pk])
    data = {**rubric_post((lucia, SceneAward(interpretacion=2, ideas=1))), "close_scene": "1"}
    response = client.post(award, data, follow=True)
    scene.refresh_from_db()
    assert scene.status == scene.Status.OPEN
    assert "Hay un combate en curso en esta escena" in response.content.decode()
    assert XpEntry.objects.filter(character=lucia).exists()
