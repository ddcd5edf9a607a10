"""Portraits of characters and NPCs, and campaign images: what an upload must be, what is
stored (two sizes, no metadata), who gets the picture back, and what happens to old files."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from PIL import ExifTags, Image

from campaigns.images import FULL_SIDE, THUMB_SIDE, clean_upload
from characters.models import Character, SheetChange
from tests.factories import MembershipFactory, UserFactory, campaign_with, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

SPY_CAMERA = "Spy camera 3000"


def photo(size=(1600, 1200), *, fmt="JPEG", name="retrato.jpg", exif=True) -> SimpleUploadedFile:
    """A real picture, by default a JPEG carrying a camera name and a GPS position."""
    picture = Image.new("RGB", size, (150, 30, 40))
    extra = {}
    if exif:
        data = Image.Exif()
        data[ExifTags.Base.Make] = SPY_CAMERA
        data[ExifTags.IFD.GPSInfo] = {
            ExifTags.GPS.GPSLatitudeRef: "N",
            ExifTags.GPS.GPSLatitude: (40.0, 25.0, 1.0),
        }
        extra["exif"] = data.tobytes()
    out = io.BytesIO()
    picture.save(out, format=fmt, **extra)
    return SimpleUploadedFile(name, out.getvalue(), content_type=f"image/{fmt.lower()}")


def stored(name: str) -> Image.Image:
    with default_storage.open(name, "rb") as handle:
        picture = Image.open(io.BytesIO(handle.read()))
        picture.load()
    return picture


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", concept="Periodista")


def edit_url(character: Character) -> str:
    return reverse("characters:edit", args=[character.campaign_id, character.pk])


def upload(client, character: Character, file, **fields):
    data = {
        "story-name": character.name,
        "story-concept": character.concept,
        "story-description": character.description,
        "story-notes": character.notes,
        **fields,
    }
    if file is not None:
        data["story-portrait"] = file
    return client.post(edit_url(character), data)


def test_the_owner_uploads_a_photo_and_gets_a_resized_copy_and_a_thumbnail(client, player, lucia):
    original = photo()
    assert Image.open(io.BytesIO(original.read())).getexif()[ExifTags.Base.Make] == SPY_CAMERA
    original.seek(0)
    client.force_login(player)

    response = upload(client, lucia, original)

    assert response.status_code == 302
    lucia.refresh_from_db()
    full, thumb = stored(lucia.portrait.name), stored(lucia.portrait_thumb.name)
    assert full.format == thumb.format == "WEBP"
    assert full.size == (FULL_SIDE, FULL_SIDE * 3 // 4)  # 1600x1200 kept in proportion
    assert thumb.size == (THUMB_SIDE, THUMB_SIDE)
    assert SheetChange.objects.filter(character=lucia, field="portrait").count() == 1


def test_a_stored_portrait_keeps_no_metadata_of_the_upload(client, player, lucia):
    client.force_login(player)
    upload(client, lucia, photo())
    lucia.refresh_from_db()
    for name in (lucia.portrait.name, lucia.portrait_thumb.name):
        picture = stored(name)
        assert not picture.getexif()
        assert not {"exif", "xmp", "icc_profile", "comment"} & set(picture.info)
        with default_storage.open(name, "rb") as handle:
            raw = handle.read()
        assert SPY_CAMERA.encode() not in raw
        assert b"Exif" not in raw


def test_a_photo_taken_sideways_is_stored_upright(client, player, lucia):
    # A camera held sideways stores a landscape picture and an orientation tag.
    picture = Image.new("RGB", (400, 200), (10, 10, 10))
    data = Image.Exif()
    data[ExifTags.Base.Orientation] = 6  # rotate 90° clockwise to view
    out = io.BytesIO()
    picture.save(out, format="JPEG", exif=data.tobytes())
    client.force_login(player)
    upload(client, lucia, SimpleUploadedFile("lado.jpg", out.getvalue(), "image/jpeg"))
    lucia.refresh_from_db()
    assert stored(lucia.portrait.name).size == (200, 400)


@pytest.mark.parametrize(("fmt", "name"), [("PNG", "r.png"), ("WEBP", "r.webp")])
def test_png_and_webp_portraits_are_accepted(client, player, lucia, fmt, name):
    client.force_login(player)
    response = upload(client, lucia, photo((300, 500), fmt=fmt, name=name, exif=False))
    assert response.status_code == 302
    lucia.refresh_from_db()
    assert stored(lucia.portrait.name).size == (300, 500)  # smaller than 800: not enlarged


@pytest.mark.parametrize(
    ("file", "message"),
    [
        (
            SimpleUploadedFile("retrato.png", b"#!/bin/sh\nrm -rf /\n" * 50, "image/png"),
            "Este archivo no es una imagen JPEG, PNG o WebP.",
        ),
        (photo((40, 40), fmt="GIF", name="retrato.gif", exif=False), "no es una imagen JPEG"),
        (photo((4001, 10), fmt="PNG", name="ancho.png", exif=False), "más de 4000 píxeles"),
    ],
    ids=["text-renamed-png", "gif", "4001-pixels"],
)
def test_a_file_that_is_not_an_allowed_image_is_refused_and_the_form_keeps_what_was_typed(
    client, player, lucia, file, message
):
    client.force_login(player)
    response = upload(client, lucia, file, **{"story-concept": "Reportera en apuros"})

    assert response.status_code == 200
    page = parse(response.content)
    assert message in page.text()
    assert page.one("input", name="story-concept").attrs["value"] == "Reportera en apuros"
    lucia.refresh_from_db()
    assert not lucia.portrait
    assert lucia.concept == "Periodista"


def test_an_image_of_6_mb_is_refused_before_it_is_decoded(client, player, lucia):
    # A real PNG, stored without compression: 1,500 x 1,400 RGB pixels are 6.3 MB.
    out = io.BytesIO()
    Image.new("RGB", (1500, 1400), (1, 2, 3)).save(out, format="PNG", compress_level=0)
    assert out.tell() > 6 * 1024 * 1024
    client.force_login(player)

    response = upload(client, lucia, SimpleUploadedFile("grande.png", out.getvalue(), "image/png"))

    assert response.status_code == 200
    assert "La imagen ocupa más de 5 MB" in parse(response.content).text()
    lucia.refresh_from_db()
    assert not lucia.portrait


def test_the_refusals_speak_english_too():
    fake = SimpleUploadedFile("retrato.png", b"not a picture", "image/png")
    with translation.override("en"):
        with pytest.raises(ValidationError) as refused:
            clean_upload(fake)
        assert refused.value.messages == ["This file is not a JPEG, PNG or WebP image."]


@pytest.fixture
def old_portrait(client, player, lucia, django_capture_on_commit_callbacks) -> list[str]:
    """Lucía's owner, logged in, has uploaded a portrait: the names of its two stored files."""
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        upload(client, lucia, photo())
    lucia.refresh_from_db()
    return [lucia.portrait.name, lucia.portrait_thumb.name]


def test_replacing_a_portrait_removes_the_old_files(
    client, lucia, old_portrait, django_capture_on_commit_callbacks
):
    assert all(default_storage.exists(name) for name in old_portrait)

    with django_capture_on_commit_callbacks(execute=True):
        upload(client, lucia, photo((500, 500), fmt="PNG", name="nuevo.png", exif=False))

    lucia.refresh_from_db()
    assert lucia.portrait.name not in old_portrait
    assert default_storage.exists(lucia.portrait.name)
    assert not any(default_storage.exists(name) for name in old_portrait)


def test_removing_a_portrait_removes_its_files(
    client, lucia, old_portrait, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload(client, lucia, None, **{"story-remove_portrait": "on"})

    lucia.refresh_from_db()
    assert not lucia.portrait
    assert not any(default_storage.exists(name) for name in old_portrait)


def test_deleting_a_character_removes_its_portrait_files(
    lucia, old_portrait, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        lucia.delete()
    assert not any(default_storage.exists(name) for name in old_portrait)


def portrait_urls(character: Character) -> list[str]:
    character.refresh_from_db()
    return [character.portrait_full_url, character.portrait_thumb_url]


@pytest.mark.parametrize("full_sheets", [False, True], ids=["public-part", "full-sheets"])
def test_every_member_who_may_open_the_sheet_gets_its_portrait_and_a_stranger_gets_404(
    client, gm, player, other_player, observer, stranger, lucia, full_sheets
):
    # The portrait is in the sheet's header, which every member sees; the campaign's
    # full-sheet setting hides health and XP, not the face.
    lucia.campaign.players_see_full_sheets = full_sheets
    lucia.campaign.save()
    client.force_login(player)
    upload(client, lucia, photo())
    urls = portrait_urls(lucia)
    for user in (gm, player, other_player, observer):
        client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (user.username, url)
            assert response["Content-Type"] == "image/webp"
            assert "private" in response["Cache-Control"]
            assert Image.open(io.BytesIO(b"".join(response.streaming_content))).format == "WEBP"
    client.force_login(stranger)
    assert [client.get(url).status_code for url in urls] == [404, 404]
    client.logout()
    assert [client.get(url).status_code for url in urls] == [404, 404]


def test_a_member_of_another_campaign_cannot_reach_a_portrait_through_their_own_campaign(
    client, player, lucia, stranger
):
    client.force_login(player)
    upload(client, lucia, photo())
    theirs = make_character(
        campaign_with("tinieblas", stranger),
        None,
        name="Otro",
    )
    url = reverse("characters:portrait", args=[theirs.campaign_id, lucia.pk, "full"])
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_a_sheet_without_a_portrait_or_an_unknown_size_is_404(client, player, lucia):
    client.force_login(player)
    base = [lucia.campaign_id, lucia.pk]
    assert client.get(reverse("characters:portrait", args=[*base, "full"])).status_code == 404
    upload(client, lucia, photo())
    assert client.get(reverse("characters:portrait", args=[*base, "huge"])).status_code == 404


def test_the_gm_gives_an_npc_a_portrait_and_a_player_may_not(client, gm, player, campaign):
    npc = make_character(campaign, None, name="El Conde")
    client.force_login(player)
    assert upload(client, npc, photo()).status_code == 403
    npc.refresh_from_db()
    assert not npc.portrait
    client.force_login(gm)
    assert upload(client, npc, photo()).status_code == 302
    npc.refresh_from_db()
    assert npc.portrait
    client.force_login(player)
    assert client.get(npc.portrait_thumb_url).status_code == 200


def test_an_observer_cannot_upload_to_their_own_old_sheet(client, observer, campaign):
    # An observer who once played keeps the sheet but no longer writes (acts_for_character).
    sheet = make_character(campaign, observer, name="Antigua")
    client.force_login(observer)
    assert upload(client, sheet, photo()).status_code == 403


def test_the_sheet_header_shows_the_thumbnail_linking_to_the_full_portrait(
    client, player, other_player, lucia
):
    client.force_login(player)
    upload(client, lucia, photo())
    lucia.refresh_from_db()
    client.force_login(other_player)
    page = parse(client.get(lucia.get_absolute_url()).content)
    image = page.one("img", src=lucia.portrait_thumb_url)
    assert image.attrs["alt"] == "Retrato de Lucía"
    assert page.find_all("a", href=lucia.portrait_full_url)


def test_the_campaign_page_lists_characters_with_their_thumbnails(client, gm, player, lucia):
    client.force_login(player)
    upload(client, lucia, photo())
    lucia.refresh_from_db()
    client.force_login(gm)
    page = parse(client.get(lucia.campaign.get_absolute_url()).content)
    assert page.one("img", src=lucia.portrait_thumb_url) is not None


def test_the_htmx_edit_form_uploads_as_multipart(client, player, lucia):
    client.force_login(player)
    page = parse(client.get(edit_url(lucia), HTTP_HX_REQUEST="true").content)
    form = page.one("form")
    assert form.attrs["enctype"] == "multipart/form-data"
    assert page.one("input", name="story-portrait").attrs["type"] == "file"
