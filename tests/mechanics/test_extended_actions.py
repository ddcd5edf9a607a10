"""Mundo de Tinieblas extended actions on the roll panel: successes add up without choosing
the action again, the cap on rolls holds, and the panel shows no error before anything is
typed (docs/rules.md#tinieblas-extended-actions)."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError

from campaigns.services.chronicle import scene_create, scene_update
from characters.services import specialty_add, specialty_remove
from mechanics.models import Roll
from mechanics.rules.tinieblas.odds import extended_completion, spec_for_pool
from mechanics.services.rolls import RollSide, roll_perform
from mechanics.setup import load_sheet
from tests.factories import make_character
from tests.mechanics import rolling
from tests.mechanics.rolling import odds_values, roll_url

fixed_dice = rolling.fixed_dice

pytestmark = pytest.mark.django_db

START = {
    "kind": "extended",
    "attribute": "inteligencia",
    "skill": "investigacion",
    "again": "10",
    "target": "5",
    "max_rolls": "2",
    "label": "Descifrar el diario",
}


@pytest.fixture
def lucia(campaign, player):
    ratings = {"inteligencia": 3, "investigacion": 3}
    return make_character(campaign, player, name="Lucía", ratings=ratings)


def test_successes_add_up_across_rolls_without_choosing_the_action_again(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    fixed_dice(8, 8, 1)
    response = client.post(roll_url(lucia), {**START, "max_rolls": ""}, HTTP_HX_REQUEST="true")
    first = Roll.objects.get()
    # The panel after the roll goes on with the same action.
    assert f'<option value="{first.group}" selected>' in response.text
    assert "Progreso: 2 de 5 éxitos" in response.text
    # What the panel sends next goes on with it; the redirect without htmx keeps it too.
    again = {**START, "max_rolls": "", "action": str(first.group)}
    fixed_dice(1)
    redirect = client.post(roll_url(lucia), again)
    assert f"action={first.group}" in redirect["Location"]
    fixed_dice(8, 8, 8, 1)
    redirect = client.post(roll_url(lucia), again)
    last = Roll.objects.order_by("-pk").first()
    assert last.group == first.group
    assert (last.record["details"]["progress"], last.record["details"]["rolls_made"]) == (5, 3)
    assert last.record["details"]["done"]
    # Once over, the panel offers a new action again.
    assert "action=&" in redirect["Location"]
    page = client.get(redirect["Location"]).text
    assert f'<option value="{first.group}"' not in page


def test_the_same_choices_sent_twice_go_on_with_the_action_the_panel_kept(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    fixed_dice(1)
    response = client.post(roll_url(lucia), START, HTTP_HX_REQUEST="true")
    group = str(Roll.objects.get().group)
    assert f'<option value="{group}" selected>' in response.text
    client.post(roll_url(lucia), {**START, "action": group})
    assert Roll.objects.filter(group=group).count() == 2


def test_a_roll_past_the_cap_is_refused_with_a_clear_message_and_nothing_stored(
    client, player, gm, lucia, fixed_dice
):
    client.force_login(player)
    fixed_dice(1)
    client.post(roll_url(lucia), START)
    group = str(Roll.objects.get().group)
    client.post(roll_url(lucia), {**START, "action": group})
    assert Roll.objects.count() == 2
    for user in (player, gm):
        client.force_login(user)
        response = client.post(roll_url(lucia), {**START, "action": group})
        assert response.status_code == 200
        assert "No quedan tiradas: esa acción extendida ya usó sus 2 tiradas." in response.text
    assert Roll.objects.count() == 2


def test_a_stranger_cannot_roll_an_extended_action(client, stranger, lucia):
    client.force_login(stranger)
    assert client.post(roll_url(lucia), START).status_code == 404
    assert not Roll.objects.exists()


def test_two_rolls_from_the_same_page_cannot_go_past_the_cap(campaign, player, lucia):
    """Two tabs show roll 1 of 2: both send; the second finds the action moved on."""
    client_data = {
        "kind": "extended",
        "attribute": "inteligencia",
        "skill": "investigacion",
        "again": 10,
        "target": 20,
        "max_rolls": 2,
    }
    setup = campaign.game_system.roll_setup
    sheet = load_sheet(lucia, campaign)
    plan = setup.plan(sheet, client_data, open_actions={})
    [side] = plan.roll(None)
    roll_perform(
        campaign=campaign,
        user=player,
        sides=[RollSide(record=side.record, character=lucia)],
        group=plan.group,
    )
    open_actions = setup.open_actions(lucia)
    action = {**client_data, "action": str(plan.group)}
    plans = [setup.plan(sheet, action, open_actions=open_actions) for _tab in range(2)]
    rolled = [p.roll(None)[0] for p in plans]
    roll_perform(
        campaign=campaign,
        user=player,
        sides=[RollSide(record=rolled[0].record, character=lucia)],
        group=plan.group,
    )
    with pytest.raises(ValidationError, match="ha avanzado entretanto"):
        roll_perform(
            campaign=campaign,
            user=player,
            sides=[RollSide(record=rolled[1].record, character=lucia)],
            group=plan.group,
        )
    assert Roll.objects.count() == 2


def test_choosing_an_extended_action_shows_the_odds_and_no_error_before_anything_is_typed(
    client, player, lucia
):
    client.force_login(player)
    data = {**START, "target": "", "max_rolls": "", "label": "", "part": "odds"}
    response = client.get(roll_url(lucia), data, HTTP_HX_REQUEST="true")
    assert "text-danger" not in response.text
    assert "Escribe cuántos éxitos necesita la acción extendida." in response.text
    assert odds_values(response.text)["success"] > 0
    # Rolling without the target is refused, saying what is missing.
    response = client.post(roll_url(lucia), {**START, "target": ""})
    assert "Indica cuántos éxitos necesita la acción extendida." in response.text
    assert not Roll.objects.exists()


def test_the_panel_after_each_roll_shows_the_actions_progress_so_far(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    fixed_dice(8, 8, 1)
    client.post(roll_url(lucia), {**START, "max_rolls": ""}, HTTP_HX_REQUEST="true")
    group = Roll.objects.get().group
    fixed_dice(8, 9, 1)
    again = {**START, "max_rolls": "", "action": str(group)}
    response = client.post(roll_url(lucia), again, HTTP_HX_REQUEST="true")
    assert "Progreso: 4 de 5 éxitos" in response.text
    assert f'<option value="{group}" selected>Descifrar el diario (4/5)</option>' in response.text


@pytest.mark.parametrize("who", ["gm", "player"])
def test_an_extended_action_throws_the_pool_of_its_first_roll_whatever_the_panel_sends(
    request, client, who, lucia, fixed_dice
):
    """docs/rules.md#tinieblas-extended-pool: choosing the action again on a panel that
    opened with its defaults (Inteligencia, no skill) once rolled 3 dice instead of 6."""
    client.force_login(request.getfixturevalue(who))
    fixed_dice(1, 1, 1, 1, 1, 1)
    client.post(roll_url(lucia), START)
    first = Roll.objects.get()
    assert first.record["details"]["chosen"] == {
        "attribute": "inteligencia",
        "skill": "investigacion",
        "specialty": "",
    }
    defaults = {**START, "skill": "", "target": "", "max_rolls": "", "action": str(first.group)}
    odds = client.get(roll_url(lucia), {**defaults, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert "6 dados" in odds.text
    fixed_dice(1, 1, 1, 1, 1, 1)
    client.post(roll_url(lucia), defaults)
    second = Roll.objects.order_by("-pk").first()
    assert second.group == first.group
    assert second.record["details"]["pool"] == 6
    assert second.record["details"]["traits"] == {
        "attribute": "Inteligencia",
        "skill": "Investigación",
    }


def test_an_action_stored_before_its_choices_were_goes_on_with_its_attribute_and_skill(
    campaign, player, lucia, fixed_dice
):
    """Rolls stored before `chosen` was: the attribute from its key, the skill by name."""
    fixed_dice(1)  # no success: the action stays open
    setup = campaign.game_system.roll_setup
    sheet = load_sheet(lucia, campaign)
    plan = setup.plan(sheet, {**START, "again": 10, "target": 5, "max_rolls": 3}, open_actions={})
    [side] = plan.roll(None)
    details = {k: v for k, v in side.record.details.items() if k != "chosen"}
    roll_perform(
        campaign=campaign,
        user=player,
        sides=[RollSide(record=replace(side.record, details=details), character=lucia)],
        group=plan.group,
    )
    sent = {"kind": "extended", "attribute": "fuerza", "again": 10, "action": str(plan.group)}
    again = setup.plan(sheet, sent, open_actions=setup.open_actions(lucia))
    [side] = again.roll(None)
    assert side.record.details["chosen"]["skill"] == "investigacion"
    assert side.record.details["pool"] == 6


def test_the_panel_hides_what_an_action_in_progress_sets_itself(client, player, lucia):
    """Its pool and target hide while an action in progress is chosen (static/css/dice.css)."""
    client.force_login(player)
    page = client.get(roll_url(lucia), HTTP_HX_REQUEST="true").text

    def cell(name: str) -> str:
        """The classes of the cell that holds the field `name`."""
        before = page.split(f'name="{name}"')[0]
        return before.rsplit('<div class="roll-cell', 1)[1].split('"', 1)[0]

    for name in ("attribute", "skill", "target", "max_rolls"):
        assert "roll-cell-new-action" in cell(name), name
    for name in ("modifier_1", "willpower", "action"):
        assert "roll-cell-new-action" not in cell(name), name


def test_willpower_on_a_resistance_attribute_counts_the_attribute_the_action_throws(
    client, player, lucia, fixed_dice
):
    client.force_login(player)
    start = {**START, "attribute": "compostura", "skill": "", "max_rolls": ""}
    fixed_dice(1, 1)
    client.post(roll_url(lucia), start)
    group = str(Roll.objects.get().group)
    sent = {**start, "attribute": "inteligencia", "willpower": "resistance", "action": group}
    fixed_dice(*[1] * 10)
    response = client.post(roll_url(lucia), sent, HTTP_HX_REQUEST="true")
    assert "Aplomo, Resistencia o Compostura" not in response.text
    second = Roll.objects.order_by("-pk").first()
    assert Roll.objects.filter(group=group).count() == 2
    assert (second.record["spec"]["attribute_key"], second.record["spec"]["willpower"]) == (
        "compostura",
        "resistance",
    )


def test_actions_of_one_name_are_told_apart_by_their_scene_which_may_be_renamed(
    client, campaign, player, lucia, fixed_dice
):
    """A lock to open in each of two scenes: one name, two actions in progress."""
    setup = campaign.game_system.roll_setup
    sheet = load_sheet(lucia, campaign)
    cellar, tower = (
        scene_create(campaign=campaign, title=title, participants=[lucia])
        for title in ("El sótano", "La torre")
    )
    fixed_dice(*[1] * 12)
    for scene in (cellar, tower):
        data = {**START, "again": 10, "target": 6, "max_rolls": None}
        plan = setup.plan(sheet, data, open_actions={})
        [side] = plan.roll(None)
        roll_perform(
            campaign=campaign,
            user=player,
            sides=[RollSide(record=side.record, character=lucia, scene=scene, label="Reja")],
            group=plan.group,
        )
    client.force_login(player)
    page = client.get(roll_url(lucia), HTTP_HX_REQUEST="true").text
    assert "Reja (0/6) · El sótano</option>" in page
    assert "Reja (0/6) · La torre</option>" in page
    scene_update(scene=tower, title="La torre norte", participants=[lucia])
    page = client.get(roll_url(lucia), HTTP_HX_REQUEST="true").text
    assert "Reja (0/6) · La torre norte</option>" in page


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_odds_say_the_chance_of_completing_the_action_in_the_rolls_left(
    request, client, who, lucia, fixed_dice
):
    """Six dice (Inteligencia 3 + Investigación 3), 5 successes within 2 rolls."""
    client.force_login(request.getfixturevalue(who))
    odds = client.get(roll_url(lucia), {**START, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert "Completarla en las 2 tiradas que quedan" in odds.text
    expected = extended_completion(spec_for_pool(6), 5, 2)
    assert odds_values(odds.text)["complete"] == pytest.approx(expected, abs=1e-6)
    fixed_dice(8, 8, 1, 1, 1, 1)
    client.post(roll_url(lucia), START)
    rolled = Roll.objects.get()
    assert rolled.label == "Descifrar el diario"  # the odds' line is not the action's name
    odds = client.get(
        roll_url(lucia),
        {**START, "action": str(rolled.group), "part": "odds"},
        HTTP_HX_REQUEST="true",
    )
    assert "Completarla en la tirada que queda" in odds.text
    expected = extended_completion(spec_for_pool(6), 3, 1)
    assert odds_values(odds.text)["complete"] == pytest.approx(expected, abs=1e-6)
    # With no cap on rolls, no such line.
    odds = client.get(
        roll_url(lucia), {**START, "max_rolls": "", "part": "odds"}, HTTP_HX_REQUEST="true"
    )
    assert "complete" not in odds_values(odds.text)


def test_an_action_goes_on_without_a_specialty_taken_off_the_sheet(
    client, gm, player, lucia, fixed_dice
):
    specialty = specialty_add(character=lucia, skill_key="investigacion", name="Archivos", user=gm)
    client.force_login(player)
    fixed_dice(*[1] * 7)
    client.post(roll_url(lucia), {**START, "specialty": str(specialty.pk)})
    first = Roll.objects.get()
    assert first.record["details"]["pool"] == 7
    specialty_remove(specialty=specialty, user=gm)
    fixed_dice(*[1] * 7)
    response = client.post(roll_url(lucia), {**START, "action": str(first.group)})
    assert response.status_code == 302
    last = Roll.objects.order_by("-pk").first()
    assert (last.group, last.record["details"]["pool"]) == (first.group, 6)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_simple_roll_ignores_what_the_hidden_extended_fields_hold(
    request, client, who, lucia, fixed_dice
):
    """Successes needed and the maximum of rolls are hidden on a simple roll: a wrong value
    left there from the extended action (−1, 0) neither blocks the odds nor the roll."""
    client.force_login(request.getfixturevalue(who))
    simple = {**START, "kind": "pool", "target": "-1", "max_rolls": "0"}
    odds = client.get(roll_url(lucia), {**simple, "part": "odds"}, HTTP_HX_REQUEST="true")
    assert "text-danger" not in odds.text
    assert odds_values(odds.text)["success"] > 0
    fixed_dice(8, 8, 1, 1, 1, 1)
    response = client.post(roll_url(lucia), simple, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert (roll.kind, roll.result) == ("pool", 2)
    # The panel keeps what was typed there, for when the player goes back to it.
    assert 'name="target" value="-1"' in response.text


def test_a_stranger_cannot_make_a_simple_roll_with_wrong_hidden_extended_fields(
    client, stranger, lucia
):
    client.force_login(stranger)
    simple = {**START, "kind": "pool", "target": "-1", "max_rolls": "0"}
    assert client.post(roll_url(lucia), simple).status_code == 404
    assert not Roll.objects.exists()
