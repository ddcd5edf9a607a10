"""Helpers for the roll tests: stored rolls, a second player, a Hitos fight, a Dado
objetivo fight."""

import random

from campaigns import services
from campaigns.models import Scene
from characters.services import item_add
from mechanics.rules.hitos.rolls import HitosSpec, roll_check
from mechanics.rules.tinieblas.rolls import roll_dice
from mechanics.services import combat as combat_services
from mechanics.services.rolls import roll_store
from tests.factories import make_character

# A label that must never reach anyone but a GM.
CANARY = "CANARIO-SECRETO-7731"


def store_roll(campaign, user, *, label="", secret=False, character=None, scene=None, seed=1,
               dice=5, record=None):  # fmt: skip
    """A stored Tinieblas roll, as the roll endpoint would store it."""
    record = record or roll_dice(dice, rng=random.Random(seed))
    return roll_store(
        campaign=campaign,
        user=user,
        record=record,
        character=character,
        scene=scene,
        label=label,
        secret=secret,
    )


def hitos_record(seed=3):
    return roll_check(HitosSpec(characteristic=3, skill=2, difficulty=15), random.Random(seed))


def make_scene(campaign, title="La cripta", **kwargs):
    return Scene.objects.create(campaign=campaign, title=title, **kwargs)


def hitos_rooftop_fight(campaign, gm, player, *, armours=(("Chaleco", 2),)):
    """A fight on a rooftop in a Hitos campaign: the player's Héroe (Reflejos, Combate and
    Fortaleza 4) against the GM's Sicario, wearing `armours` (name, RD). The Sicario's
    Defensa is 1 + 1 + 5 = 7, its Aguante 5 + 4/2 = 7 and its Resistencia 21.
    Returns (combat, hero, foe)."""
    hero = make_character(
        campaign, player, name="Héroe", ratings={"reflejos": 4, "combate": 4, "fortaleza": 4}
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Sicario",
        ratings={"reflejos": 1, "combate": 1, "fortaleza": 5, "voluntad": 4},
    )
    for name, rd in armours:
        item_add(character=foe, user=gm, kind="armour", name=name, weight_kg=2, data={"rd": rd})
    scene = services.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    return combat_services.combat_start(scene=scene, user=gm), hero, foe


def objetivo_tavern_fight(campaign, gm, player):
    """A fight in a tavern in a Dado objetivo campaign: the player's Fred (Fuerza 6,
    Armas CC 3, Destreza 5, Armas Dist 4) against the GM's Matón, whose Defensa against a
    sword is Destreza 3 + Armas CC 2 + 5 = 10 (12 against Pelea), with 16 PV. Returns (combat, fred,
    maton)."""
    fred = make_character(
        campaign,
        player,
        name="Fred",
        ratings={"fuerza": 6, "armas_cc": 3, "destreza": 5, "armas_dist": 4},
    )
    maton = make_character(
        campaign,
        None,
        user=gm,
        name="Matón",
        ratings={"destreza": 3, "armas_cc": 2, "pelea": 4, "fuerza": 5, "resistencia": 8},
    )
    scene = services.scene_create(campaign=campaign, title="Taberna", participants=[fred, maton])
    return combat_services.combat_start(scene=scene, user=gm), fred, maton
