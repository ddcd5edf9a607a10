"""The roll pages ask the campaign's rule system what to show: its panel's health line, its
words for a stored roll, or nothing at all for a system that cannot roll; a new system
rolls with only a set-up and a panel form."""

from html.parser import HTMLParser

import pytest
from django import forms
from django.urls import reverse

from characters.models import Character
from mechanics.forms.roll import RollForm
from mechanics.models import Roll
from mechanics.presentation import roll_display
from mechanics.rules.dice import Die, RollRecord, default_rng, roll_die
from mechanics.setup import OddsRow, OddsView, Plan, RollSetup, single
from mechanics.systems.base import DamageInput, GameSystem, HealthView, TraitSpec
from mechanics.systems.registry import get_system, register, unregister
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.mechanics.rolling import roll_url

pytestmark = pytest.mark.django_db


class Silent(GameSystem):
    """A system with one attribute, no health to speak of and no rolls at all."""

    key = "silent"
    name = "Silent"

    def trait_specs(self, campaign):
        return (TraitSpec("fuerza", "Fuerza", "attribute", "Atributos", 1, 5),)

    def health_view(self, health, ratings, details, rules):
        return HealthView(state=None, penalty=0)


class D6Setup(RollSetup):
    """A pool of d6, one per point of the attribute; each 5 or 6 is a hit."""

    def plan(self, sheet, data, *, open_actions=None):
        pool = sheet.rating(data["attribute"])

        def throw(rng):
            values = [roll_die(rng or default_rng(), 6) for _ in range(pool)]
            hits = sum(value >= 5 for value in values)
            return RollRecord(
                system="d6",
                kind="pool",
                spec={"dice": pool},
                dice=tuple(Die(6, value, ("success",) if value >= 5 else ()) for value in values),
                kept=tuple(range(pool)),
                result=hits,
                outcome="success" if hits else "failure",
            )

        odds = OddsView(rows=(OddsRow("success", "Hit", 1 - (2 / 3) ** pool),), summary=f"{pool}d6")
        return Plan(kind="pool", odds=odds, roll=single(sheet, throw, data))


class D6Form(RollForm):
    kinds = (("pool", "Pool"),)
    layout = ((None, None, ["attribute", "label", "secret"]),)
    attribute = forms.ChoiceField()

    def setup_fields(self):
        self.fields["attribute"].choices = self.sheet.trait_choices("attribute")


class D6(Silent):
    """The same system, rolling: a set-up and a panel form are all it declares."""

    key = "d6"
    roll_setup = D6Setup()
    roll_form = D6Form


@pytest.fixture
def d6():
    system = register(D6())
    yield system
    unregister(system.key)


@pytest.fixture
def silent():
    system = register(Silent())
    yield system
    unregister(system.key)


def table(system_key, gm, player):
    campaign = CampaignFactory(created_by=gm, system=system_key)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign


def hurt(character, damage: DamageInput) -> None:
    """Store the health the system's own engine gives after `damage`."""
    system = character.campaign.game_system
    ratings = {t.key: t.rating for t in character.traits.all()}
    change = system.apply_damage(
        character.health, ratings, character.details, character.campaign.rules, damage
    )
    Character.objects.filter(pk=character.pk).update(health=change.health)
    character.refresh_from_db()


def health_lines(html: str) -> list[str]:
    """The text of each health line (`p.roll-health`) of a roll panel."""
    lines: list[str] = []

    class Lines(HTMLParser):
        inside = 0

        def handle_starttag(self, tag, attrs):
            if tag == "p" and "roll-health" in (dict(attrs).get("class") or ""):
                self.inside = 1
                lines.append("")
            elif self.inside:
                self.inside += 1

        def handle_endtag(self, tag):
            if self.inside:
                self.inside -= 1

        def handle_data(self, data):
            if self.inside:
                lines[-1] += data

    Lines().feed(html)
    return [" ".join(line.split()) for line in lines]


def test_a_wound_penalty_reads_as_a_number_taken_off_every_roll(client, gm, player):
    campaign = table("tinieblas", gm, player)
    lucia = make_character(campaign, player, name="Lucía")
    Character.objects.filter(pk=lucia.pk).update(health={"boxes": 7, "marks": "LLLB"})
    client.force_login(player)
    lines = health_lines(client.get(roll_url(lucia)).text)
    assert lines == ["Salud: Herido · −2 a todas las tiradas, aplicado automáticamente"]


def test_an_objetivo_wound_reads_as_one_level_down_on_every_roll(client, gm, player):
    campaign = table("objetivo", gm, player)
    fred = make_character(campaign, player, name="Fred", ratings={"resistencia": 8})
    hurt(fred, DamageInput(7))
    client.force_login(player)
    [line] = health_lines(client.get(roll_url(fred)).text)
    assert line.startswith("Salud: Incapacitado")
    assert line.endswith("· un nivel abajo en todas las tiradas, aplicado automáticamente")


def test_the_ndp_panel_lists_every_state_the_wounds_cause(client, gm, player):
    campaign = table("ndp", gm, player)
    aldo = make_character(campaign, player, name="Aldo")
    for part in ("brazo_izquierdo", "brazo_izquierdo", "pierna_derecha", "pierna_derecha"):
        hurt(aldo, DamageInput(8, damage_type="cortante", rd=4, part=part))
    shown = get_system("ndp").health_view(aldo.health, {}, aldo.details, campaign.rules)
    client.force_login(player)
    lines = health_lines(client.get(roll_url(aldo)).text)
    assert len(shown.states) > 1
    assert lines[0].startswith(f"Salud: {shown.state}")
    assert lines[1:] == list(shown.states)


def test_a_system_without_rolls_has_no_roll_panel(client, gm, player, silent):
    campaign = table(silent.key, gm, player)
    hero = make_character(campaign, player, name="Hero")
    client.force_login(player)
    assert client.get(roll_url(hero)).status_code == 404
    assert client.post(roll_url(hero), {"kind": "pool"}).status_code == 404
    assert not Roll.objects.exists()


def test_a_system_without_rolls_has_no_two_sided_rolls_for_the_gm(client, gm, player, silent):
    campaign = table(silent.key, gm, player)
    client.force_login(gm)
    response = client.get(reverse("mechanics:gm_roll", args=[campaign.pk]), {"kind": "opposed"})
    assert response.status_code == 200
    assert "Este sistema no tiene tiradas enfrentadas ni apoyadas" in response.text


def test_a_roll_of_a_system_no_longer_installed_still_reads_in_plain_words(campaign, player):
    record = RollRecord(
        system="gone",
        kind="check",
        spec={},
        dice=(Die(6, 4, ("kept",)),),
        kept=(0,),
        result=9,
        outcome="success",
    )
    roll = Roll.objects.create(
        campaign=campaign,
        user=player,
        system=record.system,
        kind=record.kind,
        record=record.to_dict(),
        result=record.result,
        outcome=record.outcome,
    )
    shown = roll_display(roll)
    assert (shown.result, shown.outcome, shown.tone) == ("Total 9", "Éxito", "success")
    assert [die.text for die in shown.dice] == ["4"]


def test_the_sheet_of_a_system_without_rolls_offers_no_roll_panel(client, gm, player, silent):
    campaign = table(silent.key, gm, player)
    hero = make_character(campaign, player, name="Hero")
    client.force_login(player)
    response = client.get(reverse("characters:sheet", args=[campaign.pk, hero.pk]))
    assert response.status_code == 200
    assert roll_url(hero) not in response.text


def test_the_sheet_of_a_system_that_rolls_loads_its_roll_panel(client, gm, player):
    campaign = table("hitos", gm, player)
    hero = make_character(campaign, player, name="Hero")
    client.force_login(player)
    response = client.get(reverse("characters:sheet", args=[campaign.pk, hero.pk]))
    assert f'hx-get="{roll_url(hero)}" hx-trigger="load"' in response.text


def test_a_new_system_rolls_with_only_its_set_up_and_its_form(client, gm, player, d6):
    campaign = table(d6.key, gm, player)
    hero = make_character(campaign, player, name="Hero", ratings={"fuerza": 3})
    client.force_login(player)
    odds = client.get(roll_url(hero), {"kind": "pool", "attribute": "fuerza", "part": "odds"})
    assert "3d6" in odds.text
    assert f'value="{1 - (2 / 3) ** 3!r}"' in odds.text
    response = client.post(roll_url(hero), {"kind": "pool", "attribute": "fuerza"})
    roll = Roll.objects.get()
    assert response.status_code == 302
    assert (roll.system, roll.character, len(roll.record["dice"])) == ("d6", hero, 3)
    log = client.get(reverse("mechanics:log", args=[campaign.pk])).text
    assert f"Total {roll.result}" in log
