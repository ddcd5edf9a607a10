"""The live roll log shows each roll once, with its dice drawn as on the panel: a player
rolls three times from the sheet's panel while the GM watches the campaign page; after
more polls than rolls, each roll is in both feeds exactly once, its dice in the panel's
markup with the stored values."""

import pytest
from playwright.sync_api import expect

from mechanics.models import Roll
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The skill the player rolls in each system, and the sheet's ratings.
SKILLS = {
    "tinieblas": ("investigacion", {"inteligencia": 3, "investigacion": 3}),
    "hitos": ("combate", {"reflejos": 5, "combate": 4}),
    "ndp": ("pelea", {"pelea": 4}),
    "objetivo": ("armas_cc", {"fuerza": 7, "armas_cc": 5}),
}
FEED = "/rolls/feed/"
# Each die as drawn: its classes and the value it shows.
DICE = """card => [...card.querySelectorAll(".dice > li")]
  .map((die) => [die.className, die.querySelector(".die-value").textContent])"""


def stored_dice(roll: Roll) -> list[str]:
    """The values of the stored roll's dice, as a die shows them (a Desgracia subtracts)."""
    values = []
    for die in roll.record["dice"]:
        negative = {"negative", "desgracia"} & set(die.get("tags", ()))
        values.append(f"−{die['value']}" if negative else str(die["value"]))
    return values


def polled(page, times: int = 2) -> None:
    """The feed asks the server `times` more times, as a change heard makes it."""
    for _ in range(times):
        with page.expect_response(lambda response: FEED in response.url):
            page.evaluate("htmx.trigger(document.body, 'cronica:poll')")


@pytest.mark.parametrize("system", list(SKILLS))
def test_three_rolls_reach_the_gms_feed_once_each_with_the_panels_dice(open_as, screenshot, system):
    key, ratings = SKILLS[system]
    gm = UserFactory(username="narradora")
    player = UserFactory(username="jugadora")
    campaign = campaign_with(system, gm, players=[player], name="Prueba")
    character = make_character(campaign, player, name="Rufo", ratings=ratings)

    gm_page = open_as(gm)
    gm_page.goto(f"/campaigns/{campaign.pk}/")
    gm_feed = gm_page.locator("#roll-feed")
    expect(gm_feed).to_contain_text("Aún no hay tiradas")
    page = open_as(player)
    page.goto(f"/campaigns/{campaign.pk}/characters/{character.pk}/")
    expect(page.locator(f"#roll-panel-{character.pk}")).to_be_attached()
    page.locator(f'a[data-roll-trait="{key}"]').click()
    expect(page.locator(f"#roll-dock-{character.pk}")).to_have_attribute("role", "dialog")
    panel = page.locator(f"#roll-panel-{character.pk}")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value(key)

    # Three rolls; the panel's result card of each, as the player saw it.
    on_panel = {}
    result = page.locator(f"#roll-result-{character.pk} .roll-card")
    previous = None
    for _ in range(3):
        panel.get_by_role("button", name="Tirar los dados").click()
        if previous is None:
            expect(result).to_be_visible()
        else:
            expect(result).not_to_have_attribute("data-roll", previous)
        previous = result.get_attribute("data-roll")
        on_panel[int(previous)] = result.evaluate(DICE)
    rolls = {roll.pk: roll for roll in Roll.objects.filter(character=character)}
    assert sorted(rolls) == sorted(on_panel)

    # The GM's feed and the player's own show each roll, then poll on without adding any.
    player_feed = page.locator("#roll-feed")
    for feed_page, feed in ((gm_page, gm_feed), (page, player_feed)):
        for pk in rolls:
            expect(feed.locator(f'[data-roll="{pk}"]')).to_have_count(1)
        polled(feed_page)
        entries = feed.locator("[data-roll]")
        expect(entries).to_have_count(3)
        assert sorted(
            int(pk) for pk in entries.evaluate_all("es => es.map(e => e.dataset.roll)")
        ) == sorted(rolls)

    # Each entry's dice: the panel's markup (classes) and the stored values, never plain text.
    for pk, roll in rolls.items():
        entry = gm_feed.locator(f'[data-roll="{pk}"]')
        drawn = entry.evaluate(DICE)
        assert drawn, f"roll {pk} has no dice drawn in the feed"
        assert drawn == on_panel[pk]
        assert [value for _classes, value in drawn] == stored_dice(roll)
        assert all(classes.split()[0] == "die" for classes, _value in drawn)
    screenshot(gm_page, f"{system}-gm-feed")
