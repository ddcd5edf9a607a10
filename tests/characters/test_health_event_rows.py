"""The health events a sheet lists are cached row by row (`mechanics.health_panel`): after
a wound only the new event's row is rendered, and each row still shows what changed since
it was stored: its undoing, a renamed author or scene, the state it left."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.fragments import CSRF_PLACEHOLDER
from campaigns.models import Scene
from characters.models import Character, Trait
from mechanics import health_panel
from mechanics.services import health as health_services
from mechanics.systems.base import DamageInput
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def sheet_url(character):
    return reverse("characters:sheet", args=[character.campaign_id, character.pk])


def wound(character, user, amount=1, **extra):
    return health_services.character_apply_damage(
        character=character, user=user, damage=DamageInput(amount, "B"), **extra
    )


def event_rows(response):
    return parse(response.text).one(id="sheet-health").find_all("li", class_="health-event")


@pytest.fixture
def rendered(monkeypatch):
    """The events whose row was rendered, in order."""
    events = []
    real = health_panel.event_html

    def counting(row):
        events.append(row.event.pk)
        return real(row)

    monkeypatch.setattr(health_panel, "event_html", counting)
    return events


@pytest.mark.parametrize("who", ["gm", "player"])
def test_after_a_wound_the_sheet_renders_only_the_rows_that_changed(
    client, request, lucia, gm, who, rendered
):
    first, second = wound(lucia, gm), wound(lucia, gm)
    client.force_login(request.getfixturevalue(who))
    assert len(event_rows(client.get(sheet_url(lucia)))) == 2
    # The GM's Undo target (the newest event) is drawn with its form, never cached.
    assert rendered == ([first.pk] if who == "gm" else [second.pk, first.pk])
    rendered.clear()
    third = wound(lucia, gm)
    assert len(event_rows(client.get(sheet_url(lucia)))) == 3
    # For the GM the second event is no longer the target: its row without the form.
    assert rendered == ([second.pk] if who == "gm" else [third.pk])


def test_a_stranger_sees_no_health_events(client, lucia, gm, stranger):
    wound(lucia, gm)
    client.force_login(stranger)
    assert client.get(sheet_url(lucia)).status_code == 404


def test_the_undo_target_row_carries_the_requests_own_token(client, lucia, gm):
    wound(lucia, gm)
    wound(lucia, gm)
    client.force_login(gm)
    page = client.get(sheet_url(lucia))
    assert CSRF_PLACEHOLDER not in page.text
    forms = parse(page.text).one(id="sheet-health").find_all("form", class_="health-undo")
    assert len(forms) == 1
    token = forms[0].one("input", name="csrfmiddlewaretoken").attrs["value"]
    assert token
    assert token != CSRF_PLACEHOLDER


def test_an_undone_event_reads_undone_in_its_cached_row(client, lucia, gm, player):
    first, second = wound(lucia, gm), wound(lucia, gm, amount=2)
    client.force_login(player)
    client.get(sheet_url(lucia))
    health_services.health_event_undo(character=lucia, user=gm)
    rows = {row.attrs["id"]: row.text() for row in event_rows(client.get(sheet_url(lucia)))}
    assert "deshecho" in rows[f"health-event-{second.pk}"]
    assert "deshecho" not in rows[f"health-event-{first.pk}"]


def test_a_renamed_author_reads_right_in_the_cached_rows(client, lucia, gm, player):
    wound(lucia, gm)
    client.force_login(player)
    assert gm.username in event_rows(client.get(sheet_url(lucia)))[0].text()
    get_user_model().objects.filter(pk=gm.pk).update(username="laura")
    assert "laura" in event_rows(client.get(sheet_url(lucia)))[0].text()


def test_a_renamed_scene_reads_right_in_the_cached_rows(client, campaign, lucia, gm, player):
    scene = campaign_services.scene_create(campaign=campaign, title="La cripta", participants=[])
    wound(lucia, gm, scene=scene)
    client.force_login(player)
    assert "La cripta" in event_rows(client.get(sheet_url(lucia)))[0].text()
    Scene.objects.filter(pk=scene.pk).update(title="El osario")
    assert "El osario" in event_rows(client.get(sheet_url(lucia)))[0].text()


def _state_left(client, character) -> str:
    return event_rows(client.get(sheet_url(character)))[0].one(class_="health-event-after").text()


def _five_wounds_on_a_short_track(client, campaign, lucia, gm, player) -> str:
    """Health from Resistencia + Tamaño: at Resistencia 1, six boxes, and five bashing
    wounds reach the named boxes at the end of the track. The state the player reads."""
    campaign.house_rules = {**campaign.house_rules, "health_from_stamina": True}
    campaign.save(update_fields=["house_rules"])
    Trait.objects.filter(character=lucia, key="resistencia").update(rating=1)
    wound(lucia, gm, amount=5)
    client.force_login(player)
    return _state_left(client, lucia)


def test_the_state_an_event_left_follows_the_ratings_it_is_read_with(
    client, campaign, lucia, gm, player
):
    before = _five_wounds_on_a_short_track(client, campaign, lucia, gm, player)
    # At Resistencia 5, ten boxes: the same wounds leave the character barely touched.
    Trait.objects.filter(character=lucia, key="resistencia").update(rating=5)
    assert _state_left(client, lucia) != before


def test_the_state_an_event_left_follows_the_campaigns_rules(client, campaign, lucia, gm, player):
    # Seven boxes by default; Resistencia 1 + Tamaño 5, six, with the house rule.
    Trait.objects.filter(character=lucia, key="resistencia").update(rating=1)
    wound(lucia, gm, amount=5)
    client.force_login(player)
    before = _state_left(client, lucia)
    campaign.house_rules = {**campaign.house_rules, "health_from_stamina": True}
    campaign.save(update_fields=["house_rules"])
    assert _state_left(client, lucia) != before


def test_the_state_an_event_left_follows_the_characters_details(
    client, campaign, lucia, gm, player
):
    before = _five_wounds_on_a_short_track(client, campaign, lucia, gm, player)
    # Tamaño 9: ten boxes, and the same wounds leave the character barely touched.
    Character.objects.filter(pk=lucia.pk).update(details={**lucia.details, "tamano": 9})
    assert _state_left(client, lucia) != before
