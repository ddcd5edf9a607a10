"""A click on a trait of the sheet opens the roll panel with that trait chosen: each system
says how its traits map to a roll (`GameSystem.trait_roll`), the sheet links each rolled
trait to the panel, and the panel reads the trait (and any field) from the query."""

import pytest
from django.urls import reverse

from mechanics.systems.registry import get_system, register, unregister
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse
from tests.toy_system.system import ToySystem

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def roll_url(character, **query):
    url = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return url


def sheet_url(character):
    return reverse("characters:sheet", args=[character.campaign_id, character.pk])


def chosen(page, name: str) -> str:
    """The value the panel's form has for a field (a select's selected option, a checked
    radio)."""
    for select in page.find_all("select"):
        if select.attrs.get("name") == name:
            return next(
                (o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs), ""
            )
    for radio in page.find_all("input", type="radio"):
        if radio.attrs.get("name") == name and "checked" in radio.attrs:
            return radio.attrs["value"]
    return ""


def game(system: str, gm, player):
    campaign = CampaignFactory(created_by=gm, system=system)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return campaign, make_character(campaign, player, name="Pepa")


def rolled_specs(system, campaign):
    """The last trait of each kind the system rolls (not a form's default first choice)."""
    seen = {}
    for spec in system.trait_specs(campaign):
        if system.trait_roll(spec) is not None:
            seen[spec.kind] = spec
    return list(seen.values())


@pytest.mark.parametrize("system_key", ["tinieblas", "hitos", "ndp", "objetivo"])
def test_a_trait_opens_the_panel_with_it_chosen_and_its_odds_shown(client, gm, player, system_key):
    campaign, pepa = game(system_key, gm, player)
    system = get_system(system_key)
    specs = rolled_specs(system, campaign)
    assert specs, "every system rolls some of its traits"
    client.force_login(player)
    for spec in specs:
        response = client.get(roll_url(pepa, trait=spec.key), **HTMX)
        assert response.status_code == 200
        page = parse(response.content)
        trait = system.trait_roll(spec)
        for name, value in trait.choices.items():
            assert chosen(page, name) == value, (spec.key, name)
        odds = page.one(id=f"roll-odds-{pepa.pk}")
        assert odds.find_all(class_="odds-value"), f"{spec.key}: {odds.text()}"
        # The focus goes to the field still to pick, or to the roll button.
        panel = page.one("section", class_="roll-panel")
        focused = page.one(id=panel.attrs["data-focus"])
        if trait.ask:
            assert focused.attrs["name"] == trait.ask
        else:
            assert focused.attrs["type"] == "submit"


def test_a_skill_keeps_the_attribute_the_panel_had_and_asks_for_it(client, gm, player):
    _campaign, pepa = game("tinieblas", gm, player)
    client.force_login(player)
    query = {"kind": "pool", "attribute": "astucia", "skill": "", "again": "10"}
    page = parse(client.get(roll_url(pepa, **query, trait="pelea"), **HTMX).content)
    assert (chosen(page, "attribute"), chosen(page, "skill")) == ("astucia", "pelea")
    panel = page.one("section", class_="roll-panel")
    assert page.one(id=panel.attrs["data-focus"]).attrs["name"] == "attribute"


def test_an_objetivo_attribute_click_makes_an_attribute_roll(client, gm, player):
    _campaign, pepa = game("objetivo", gm, player)
    client.force_login(player)
    query = {"kind": "skill", "attribute": "fuerza", "skill": "pelea", "modifier": "0"}
    page = parse(client.get(roll_url(pepa, **query, trait="destreza"), **HTMX).content)
    assert (chosen(page, "kind"), chosen(page, "attribute")) == ("attribute", "destreza")


def test_query_fields_without_a_kind_are_initial_values_over_the_defaults(client, gm, player):
    _campaign, pepa = game("hitos", gm, player)
    client.force_login(player)
    response = client.get(roll_url(pepa, skill="cultura"))
    page = parse(response.content)
    assert chosen(page, "skill") == "cultura"
    # The defaults fill the rest: the set-up is complete and its odds show.
    assert page.one(id=f"roll-odds-{pepa.pk}").find_all(class_="odds-value")


def test_an_unknown_trait_leaves_the_panel_as_it_was(client, gm, player):
    _campaign, pepa = game("tinieblas", gm, player)
    client.force_login(player)
    plain = parse(client.get(roll_url(pepa), **HTMX).content)
    odd = parse(client.get(roll_url(pepa, trait="nope"), **HTMX).content)
    assert chosen(odd, "attribute") == chosen(plain, "attribute")
    assert chosen(odd, "skill") == chosen(plain, "skill")


def test_the_owner_and_the_gm_see_each_rolled_trait_as_a_link_to_the_panel(client, gm, player):
    _campaign, pepa = game("tinieblas", gm, player)
    for user in (player, gm):
        client.force_login(user)
        page = parse(client.get(sheet_url(pepa)).content)
        links = {a.attrs["data-roll-trait"]: a for a in page.find_all("a", data_roll_trait=True)}
        assert links["fuerza"].attrs["href"] == roll_url(pepa, trait="fuerza")
        assert "pelea" in links
        assert links["fuerza"].text() == "Tirar Fuerza"
        # Willpower and Morality are not rolled by a click.
        assert "fuerza_de_voluntad" not in links
        assert "moralidad" not in links


def test_an_observer_sees_no_roll_links_and_a_stranger_no_sheet(
    client, campaign, player, observer, stranger
):
    pepa = make_character(campaign, player, name="Pepa")
    client.force_login(observer)
    response = client.get(sheet_url(pepa))
    assert response.status_code == 200
    assert not parse(response.content).find_all("a", data_roll_trait=True)
    assert client.get(roll_url(pepa, trait="fuerza")).status_code == 403
    client.force_login(stranger)
    assert client.get(sheet_url(pepa)).status_code == 404
    assert client.get(roll_url(pepa, trait="fuerza")).status_code == 404


def test_the_toy_system_maps_its_attribute_to_a_roll(client, gm, player):
    toy = register(ToySystem())
    try:
        _campaign, hero = game(toy.key, gm, player)
        client.force_login(player)
        page = parse(client.get(sheet_url(hero)).content)
        link = page.one("a", data_roll_trait="cuerpo")
        panel = parse(client.get(link.attrs["href"]).content)
        assert chosen(panel, "attribute") == "cuerpo"
        assert panel.one(id=f"roll-odds-{hero.pk}").find_all(class_="odds-value")
    finally:
        unregister(toy.key)


def test_the_last_result_stays_when_the_panel_reloads_until_the_next_roll(client, gm, player):
    _campaign, pepa = game("tinieblas", gm, player)
    client.force_login(player)
    pool = {"kind": "pool", "attribute": "fuerza", "skill": "", "again": "10"}
    rolled = parse(client.post(roll_url(pepa), pool, **HTMX).content)
    [first] = rolled.find_all("article", class_="roll-card")
    # What the panel's form sends when it reloads (a trait clicked, a health change).
    sent = {
        i.attrs["name"]: i.attrs.get("value", "")
        for i in rolled.find_all("input", type="hidden")
        if i.attrs.get("name") != "csrfmiddlewaretoken"
    }
    reloaded = parse(client.get(roll_url(pepa, **pool, **sent, trait="astucia"), **HTMX).content)
    assert [c.attrs["data-roll"] for c in reloaded.find_all("article", class_="roll-card")] == [
        first.attrs["data-roll"]
    ]
    # The odds alone do not read the roll again.
    odds = client.get(roll_url(pepa, **pool, **sent, part="odds"), **HTMX)
    assert "roll-card" not in odds.text
    # The next roll replaces it.
    again = parse(client.post(roll_url(pepa), {**pool, **sent}, **HTMX).content)
    [second] = again.find_all("article", class_="roll-card")
    assert second.attrs["data-roll"] != first.attrs["data-roll"]
