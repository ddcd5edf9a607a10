"""Names and titles are one line (issue 25): a browser's text input cannot send a line
break or a control character, but a crafted multipart body can, and the name would then
break the lines of every page, mail and log that shows it. The forms refuse it and keep
what was typed."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.texts import LineField
from characters.models import Character
from tests.campaigns.test_views import valid_campaign_data
from tests.factories import make_character

pytestmark = pytest.mark.django_db

CONTROLS = ["\r\n", "\n", "\r", "\t", "\x1b[31m", "\x7f", "\x85", "\u2028", "\u2029"]
REFUSAL_ES = "Escríbelo en una sola línea, sin saltos de línea ni caracteres de control."
REFUSAL_EN = "Write it on one line, without line breaks or control characters."


@pytest.mark.parametrize("control", CONTROLS, ids=repr)
def test_a_line_field_refuses_every_control_character(control):
    with pytest.raises(ValidationError) as refused:
        LineField().clean(f"La Casa{control}Usher")
    assert [error.code for error in refused.value.error_list] == ["control_character"]


def test_a_line_field_keeps_any_printable_name_and_trims_its_ends():
    assert LineField().clean("  Lucía «la Ñandú» ✓ 🐉  ") == "Lucía «la Ñandú» ✓ 🐉"


def test_a_campaign_name_with_a_line_break_is_refused_keeping_what_was_typed(client, stranger):
    client.force_login(stranger)
    response = client.post(
        reverse("campaigns:create"),
        valid_campaign_data(name="La Casa\r\nSet-Cookie: x=1", description="Mi texto"),
    )
    assert response.status_code == 200
    assert REFUSAL_ES in response.text
    assert "Mi texto" in response.text
    assert not Campaign.objects.exists()
    client.cookies["django_language"] = "en"
    response = client.post(reverse("campaigns:create"), valid_campaign_data(name="A\nB"))
    assert REFUSAL_EN in response.text


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 403), ("stranger", 404)], ids=lambda v: str(v)
)
def test_renaming_a_campaign_with_a_control_character_changes_nothing(
    client, campaign, request, who, status
):
    client.force_login(request.getfixturevalue(who))
    name = campaign.name
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]), valid_campaign_data(name="Nueva\x1b[2J")
    )
    assert response.status_code == status
    if status == 200:
        assert REFUSAL_ES in response.text
    assert Campaign.objects.get(pk=campaign.pk).name == name


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 200), ("stranger", 404)], ids=lambda v: str(v)
)
def test_a_character_name_with_a_line_break_is_refused(
    client, campaign, player, request, who, status
):
    lucia = make_character(campaign, player, name="Lucía")
    client.force_login(request.getfixturevalue(who))
    response = client.post(
        reverse("characters:edit", args=[campaign.pk, lucia.pk]),
        {"story-name": "Lucía\nGM: ", "story-notes": "Mis notas"},
    )
    assert response.status_code == status
    if status == 200:
        assert REFUSAL_ES in response.text
        assert "Mis notas" in response.text
    assert Character.objects.get(pk=lucia.pk).name == "Lucía"


def test_a_scene_title_with_a_control_character_is_refused(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        {"title": "La cripta\r\n", "place": "Sótano\t2", "session_number": 1},
    )
    assert response.status_code == 200
    assert response.text.count(REFUSAL_ES) == 1  # the place; the title's ends are trimmed
    assert not campaign.scenes.exists()
