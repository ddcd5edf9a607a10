"""Saving a sheet's name, concept and notes in place says so, in the reader's language, in
the sheet's live region beside the story (swapped out of band: the page's live refresh of
the story's section leaves it); who may not edit gets no notice."""

import pytest

from tests.characters.test_sheet_views import story_data, tinieblas_sheet, url
from tests.factories import MembershipFactory, UserFactory
from tests.html import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(campaign, player):
    return tinieblas_sheet(campaign, player)


def _inline_save(client, sheet):
    return client.post(
        url(sheet, "edit"),
        story_data(),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{url(sheet)}",
    )


@pytest.mark.parametrize("who", ["gm", "player"])
def test_an_inline_save_says_it_was_saved(client, sheet, request, who):
    client.force_login(request.getfixturevalue(who))
    response = _inline_save(client, sheet)
    assert response.status_code == 200
    page = parse(response.text)
    region = page.one(id="sheet-story-status")
    assert region.attrs["hx-swap-oob"] == "innerHTML"
    assert region.text() == "Ficha guardada."
    assert page.one(id="sheet-story").one("h1").text() == "Lucía V."


def test_the_sheet_has_the_empty_live_region_and_editing_again_empties_it(client, sheet, player):
    client.force_login(player)
    region = parse(client.get(url(sheet)).text).one(id="sheet-story-status")
    assert (region.attrs["role"], region.attrs["aria-live"], region.text()) == (
        "status",
        "polite",
        "",
    )
    form = parse(client.get(url(sheet, "edit"), HTTP_HX_REQUEST="true").text)
    cleared = form.one(id="sheet-story-status")
    assert (cleared.attrs["hx-swap-oob"], cleared.text()) == ("innerHTML", "")


def test_the_notice_is_in_english_for_an_english_reader(client, sheet, player):
    client.force_login(player)
    client.cookies["django_language"] = "en"
    response = _inline_save(client, sheet)
    assert parse(response.text).one(id="sheet-story-status").text() == "Sheet saved."


def test_the_sheet_shown_later_has_no_notice(client, sheet, player):
    client.force_login(player)
    _inline_save(client, sheet)
    assert parse(client.get(url(sheet)).text).one(id="sheet-story-status").text() == ""


def test_another_player_and_a_stranger_save_nothing_and_see_no_notice(
    client, sheet, campaign, stranger
):
    other = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=other, role="player")
    for user, status in ((other, 403), (stranger, 404)):
        client.force_login(user)
        response = _inline_save(client, sheet)
        assert response.status_code == status
        assert "story-notice" not in response.text
    sheet.refresh_from_db()
    assert sheet.name == "Lucía Vidal"
