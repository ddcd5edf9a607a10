"""Texts the site writes into the history by itself (a health event's summary, a roll's
label, an XP entry's reason, a sheet-history line) read in the language of whoever looks,
not of whoever made the change: a Spanish group's entries show in English to a member who
chose English, and the other way round (campaigns/texts.py)."""

from __future__ import annotations

import io
import random

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_noop
from PIL import Image

from campaigns.images import clean_upload
from campaigns.services import chronicle
from campaigns.texts import Message, shown
from characters.advancement import PurchaseSpec
from characters.models import XpEntry
from characters.services import character_set_portrait
from characters.services.xp import xp_adjust, xp_purchase_request
from mechanics.models import Combat, CombatAttack, HealthEvent, Roll
from mechanics.services import combat as combat_services
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from mechanics.systems.tinieblas.health import character_first_aid
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse
from tests.mechanics import rolling

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

# What each generated text reads in each language (the site's own translations).
WORDS = {
    "es": {
        "first_aid_label": "Primeros auxilios a Lucía",
        "first_aid": "Primeros auxilios de Doctora Ruiz:",
        "undone": "Deshecho: Primeros auxilios de Doctora Ruiz:",
        "initiative": "Iniciativa",
        "specialty": "Especialidad de Sigilo: Tejados",
        "portrait": "Retrato nuevo",
    },
    "en": {
        "first_aid_label": "First aid for Lucía",
        "first_aid": "First aid by Doctora Ruiz:",
        "undone": "Undone: First aid by Doctora Ruiz:",
        "initiative": "Initiative",
        "specialty": "Specialty of Sigilo: Tejados",
        "portrait": "New portrait",
    },
}


@pytest.fixture
def table(campaign, gm, player):
    """A Mundo de Tinieblas table: Bob's Lucía, Dora's doctor, a scene they are in."""
    dora = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=dora, role="player")
    lucia = make_character(campaign, player, name="Lucía", ratings={"sigilo": 2})
    doctor = make_character(
        campaign, dora, name="Doctora Ruiz", ratings={"inteligencia": 3, "medicina": 3}
    )
    scene = chronicle.scene_create(
        campaign=campaign, title="El túnel", participants=[lucia, doctor]
    )
    return {"campaign": campaign, "lucia": lucia, "doctor": doctor, "scene": scene}


def write_entries(table, gm, player, language: str) -> None:
    """Play a little with `language` active, as a member who chose it would."""
    lucia, doctor, scene = table["lucia"], table["doctor"], table["scene"]
    rng = random.Random(7)
    with translation.override(language):
        health_services.character_apply_damage(
            character=lucia, user=gm, damage=DamageInput(3, "L"), scene=scene
        )
        character_first_aid(character=lucia, user=gm, healer=doctor, scene=scene, rng=rng)
        health_services.health_event_undo(character=lucia, user=gm)
        combat = combat_services.combat_start(scene=scene, user=gm)
        combat_services.combat_roll_initiative(combat=combat, user=gm, rng=rng)
        xp_adjust(character=lucia, user=gm, amount=10, reason="Escena uno")
        xp_purchase_request(
            character=lucia,
            user=player,
            purchase=PurchaseSpec("specialty", "sigilo", "Tejados"),
            apply_now=True,
        )
        picture = io.BytesIO()
        Image.new("RGB", (64, 64), (150, 30, 40)).save(picture, format="PNG")
        upload = SimpleUploadedFile("yo.png", picture.getvalue(), content_type="image/png")
        character_set_portrait(character=lucia, user=player, image=clean_upload(upload))


def reader(user, language: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def read_everything(client: Client, table) -> dict[str, list[str]]:
    """The elements that hold each generated text, as this reader sees them."""
    campaign, lucia = table["campaign"], table["lucia"]
    args = [campaign.pk, lucia.pk]
    health = parse(client.get(reverse("mechanics:health_history", args=args)).content)
    log = parse(client.get(reverse("mechanics:log", args=[campaign.pk])).content)
    xp = parse(client.get(reverse("characters:xp", args=args)).content)
    history = parse(client.get(reverse("characters:history", args=args)).content)
    chronicle = parse(
        client.get(reverse("campaigns:scene", args=[campaign.pk, table["scene"].pk])).content
    )
    return {
        "summaries": [e.text() for e in health.find_all(class_="health-event-summary")],
        "chronicle": [e.text() for e in chronicle.find_all(class_="health-event-summary")],
        "labels": [e.text() for e in log.find_all(class_="roll-label")],
        "spends": [e.text() for e in xp.find_all("li", data_entry_kind="spend")],
        "history": [
            e.text()
            for item in history.find_all(class_="history-item")
            for e in item.find_all(class_="history-new")
            if "Retrato" in item.text() or "Portrait" in item.text()
        ],
    }


def assert_in_language(seen: dict, language: str) -> None:
    words = WORDS[language]
    assert any(s.startswith(words["first_aid"]) for s in seen["summaries"]), seen["summaries"]
    assert any(s.startswith(words["undone"]) for s in seen["summaries"]), seen["summaries"]
    assert any(s.startswith(words["first_aid"]) for s in seen["chronicle"]), seen["chronicle"]
    assert words["first_aid_label"] in seen["labels"], seen["labels"]
    assert words["initiative"] in seen["labels"], seen["labels"]
    assert any(words["specialty"] in text for text in seen["spends"]), seen["spends"]
    assert seen["history"] == [words["portrait"]]


@pytest.mark.parametrize(("written", "read"), [("es", "en"), ("en", "es")])
def test_generated_entries_show_in_the_readers_language_not_the_writers(
    table, gm, player, written, read
):
    write_entries(table, gm, player, written)
    # The rows keep the words as written (the history hash covers them)...
    first_aid = Roll.objects.get(kind="pool", label__startswith=WORDS[written]["first_aid_label"])
    assert first_aid.label == WORDS[written]["first_aid_label"]
    # ...and each reader gets their own language, the GM and the player alike.
    for user in (gm, player):
        assert_in_language(read_everything(reader(user, read), table), read)
        assert_in_language(read_everything(reader(user, written), table), written)


def test_a_stranger_reads_none_of_the_entries(table, gm, player, stranger):
    write_entries(table, gm, player, "es")
    client = reader(stranger, "en")
    args = [table["campaign"].pk, table["lucia"].pk]
    assert client.get(reverse("mechanics:health_history", args=args)).status_code == 404
    assert client.get(reverse("mechanics:log", args=[table["campaign"].pk])).status_code == 404


def test_the_history_chains_still_verify_with_the_codes_beside_the_words(table, gm, player):
    write_entries(table, gm, player, "es")
    out = io.StringIO()
    call_command("verify_history", stdout=out)
    assert ": OK:" in out.getvalue()


def test_a_row_written_before_the_codes_shows_its_words_as_written(table, gm):
    event = health_services.character_apply_damage(
        character=table["lucia"], user=gm, damage=DamageInput(1, "B")
    )
    assert "texts" not in event.inputs
    with translation.override("en"):
        assert event.summary_text == event.summary


def test_a_translation_that_no_longer_fits_its_values_falls_back_to_the_stored_words():
    code = {"msgid": "Attack by %(name)s", "params": {}}
    with translation.override("en"):
        assert shown("Ataque de Ana", code) == "Ataque de Ana"
        assert shown("x", Message("Attack by %(name)s", name="Ana").as_code()) == "Attack by Ana"


def test_an_xp_entry_and_a_health_event_keep_the_code_of_a_generated_text(table, gm, player):
    write_entries(table, gm, player, "es")
    spend = XpEntry.objects.get(kind="spend")
    assert spend.breakdown["texts"]["reason"]["msgid"] == "Specialty of %(skill)s: %(name)s"
    undo = HealthEvent.objects.get(kind="undo")
    nested = undo.inputs["texts"]["summary"]["params"]["summary"]
    assert nested["msgid"].startswith("First aid by %(healer)s")


def test_a_combat_note_the_site_wrote_shows_in_the_readers_language():
    with translation.override("es"):
        note = Message(gettext_noop("A crítico: the target takes a secuela."))
    attack = CombatAttack(notes=[{"text": str(note), **note.as_code()}, "Nota a mano"])
    with translation.override("en"):
        assert attack.notes_text == ["A crítico: the target takes a secuela.", "Nota a mano"]
    with translation.override("es"):
        assert attack.notes_text == ["Un crítico: el objetivo sufre una secuela.", "Nota a mano"]


# --- A combat's damage wording and its end-of-combat summary (Hitos) --------------------------

FIGHT_WORDS = {
    "es": {"damage": "· sin daño", "secuela": "Secuela de crítico durante la escena"},
    "en": {"damage": "· no damage", "secuela": "Secuela de crítico for the scene"},
}


@pytest.fixture
def fight(gm, player):
    """A Hitos table: the GM's Sicario against Bob's Héroe, in a scene."""
    campaign = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    hero = make_character(
        campaign, player, name="Héroe", ratings={"reflejos": 1, "combate": 1, "fortaleza": 4}
    )
    foe = make_character(
        campaign,
        None,
        user=gm,
        name="Sicario",
        ratings={"reflejos": 4, "combate": 4, "fortaleza": 4},
    )
    scene = chronicle.scene_create(campaign=campaign, title="Azotea", participants=[hero, foe])
    return {"campaign": campaign, "hero": hero, "foe": foe, "scene": scene}


def fight_in(fight, gm, language: str, fixed_dice):
    """The GM, reading in `language`, gives Héroe a scene-long secuela, lands a blow that
    the armour stops (a hit with no damage) and ends the fight: what stays is written in
    `language`."""
    with translation.override(language):
        health_services.character_apply_damage(
            character=fight["hero"], user=gm, damage=DamageInput(1, critical="scene")
        )
        combat = combat_services.combat_start(scene=fight["scene"], user=gm)
    args = [fight["campaign"].pk, fight["scene"].pk, combat.pk]
    client = reader(gm, language)
    # Dice 7, 8, 9: C 8 + 4 + 4 = 16 against Defensa 1 + 1 + 5; RD 50 stops all the damage.
    fixed_dice(7, 8, 9)
    data = {
        "attacker": fight["foe"].pk,
        "target": fight["hero"].pk,
        "characteristic": "reflejos",
        "skill": "combate",
        "weapon": "central",
        "weapon_constant": 1,
        "attack_range": "melee",
        "target_rd": 50,
        "target_state": "normal",
    }
    assert client.post(reverse("mechanics:combat_attack", args=args), data).status_code == 302
    attack = CombatAttack.objects.get()
    assert attack.hit
    assert attack.status == CombatAttack.Status.NO_DAMAGE
    during = client.get(reverse("mechanics:combat_detail", args=args)).content
    assert client.post(reverse("mechanics:combat_end", args=args)).status_code == 302
    return combat, during


def read_the_fight(client: Client, fight, combat) -> dict[str, list[str]]:
    args = [fight["campaign"].pk, fight["scene"].pk, combat.pk]
    ended = parse(client.get(reverse("mechanics:combat_detail", args=args)).content)
    scene = parse(
        client.get(
            reverse("campaigns:scene", args=[fight["campaign"].pk, fight["scene"].pk])
        ).content
    )
    return {
        "log": [e.text() for e in ended.find_all(class_="combat-attack-damage")],
        "attacks": [
            e.text()
            for page in (ended, scene)
            for summary in page.find_all(class_="combat-summary-attacks")
            for e in summary.find_all("li")
        ],
        "states": [
            e.text()
            for page in (ended, scene)
            for summary in page.find_all(class_="combat-summary-states")
            for e in summary.find_all("li")
            if "Héroe" in e.text()
        ],
    }


def assert_fight_in_language(seen: dict, language: str) -> None:
    words = FIGHT_WORDS[language]
    assert seen["log"] == [words["damage"]], seen["log"]
    # The summary, on the combat's page and in the scene's record alike.
    assert len(seen["attacks"]) == 2, seen["attacks"]
    assert all(words["damage"] in a for a in seen["attacks"]), seen["attacks"]
    assert len(seen["states"]) == 2, seen["states"]
    assert all(words["secuela"] in s for s in seen["states"]), seen["states"]


@pytest.mark.parametrize(("written", "read"), [("es", "en"), ("en", "es")])
def test_a_combats_damage_wording_and_summary_show_in_the_readers_language(
    fight, gm, player, fixed_dice, written, read
):
    combat, during = fight_in(fight, gm, written, fixed_dice)
    # While it ran, the GM read the words in the language they were written in...
    while_running = parse(during).find_all(class_="combat-attack-damage")
    assert [e.text() for e in while_running] == [FIGHT_WORDS[written]["damage"]]
    # ...and the rows keep them so.
    assert CombatAttack.objects.get().damage_text == FIGHT_WORDS[written]["damage"][2:]
    combat.refresh_from_db()
    [hero] = [p for p in combat.summary["participants"] if p["name"] == "Héroe"]
    assert FIGHT_WORDS[written]["secuela"] in hero["track"]
    for user in (gm, player):
        assert_fight_in_language(read_the_fight(reader(user, read), fight, combat), read)
        assert_fight_in_language(read_the_fight(reader(user, written), fight, combat), written)


def test_a_stranger_reads_nothing_of_the_fight(fight, gm, stranger, fixed_dice):
    combat, _during = fight_in(fight, gm, "es", fixed_dice)
    client = reader(stranger, "en")
    args = [fight["campaign"].pk, fight["scene"].pk, combat.pk]
    assert client.get(reverse("mechanics:combat_detail", args=args)).status_code == 404
    scene_args = [fight["campaign"].pk, fight["scene"].pk]
    assert client.get(reverse("campaigns:scene", args=scene_args)).status_code == 404


def test_a_fight_stored_before_the_codes_shows_its_words_as_written(fight, gm, fixed_dice):
    combat, _during = fight_in(fight, gm, "es", fixed_dice)
    # What a row written before looked like: the words alone.
    CombatAttack.objects.update(texts={})
    combat.refresh_from_db()
    summary = combat.summary
    for entry in summary["attacks"]:
        entry.pop("texts")
    for entry in summary["participants"]:
        entry.pop("lines", None)
    Combat.objects.filter(pk=combat.pk).update(summary=summary)
    seen = read_the_fight(reader(gm, "en"), fight, combat)
    assert seen["log"] == [FIGHT_WORDS["es"]["damage"]]
    assert all(FIGHT_WORDS["es"]["secuela"] in s for s in seen["states"]), seen["states"]
    assert all(FIGHT_WORDS["es"]["damage"] in a for a in seen["attacks"]), seen["attacks"]
