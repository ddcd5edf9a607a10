"""What an upload may cost the site (issue 25): a picture is decoded at a bounded size, one
user may send so many an hour, a file over 5 MB is not kept, and a body over the
request limit is refused before it is read."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image, ImageFile

from campaigns import images
from campaigns.images import FULL_SIDE, MAX_BYTES, MAX_SIDE, TooLargeUpload
from campaigns.models import Campaign, UploadAllowance
from characters.models import Character
from tests.campaigns.test_views import valid_campaign_data
from tests.factories import make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

TOO_MANY_ES = "Has enviado demasiadas imágenes en esta hora"
TOO_MANY_EN = "You have sent too many pictures this hour"


def picture(side=MAX_SIDE, fmt="JPEG") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.linear_gradient("L").resize((side, side)).convert("RGB").save(out, format=fmt)
    return SimpleUploadedFile(f"retrato.{fmt.lower()}", out.getvalue(), f"image/{fmt.lower()}")


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def send_portrait(client, character: Character, file=None, notes="Mis notas"):
    url = reverse("characters:edit", args=[character.campaign_id, character.pk])
    data = {"story-name": character.name, "story-notes": notes}
    data["story-portrait"] = file or picture(side=200)
    return client.post(url, data)


# --- Decoding -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_4000_pixel_picture_is_never_resampled_at_full_size(monkeypatch, fmt):
    decoded, resampled = [], []
    load, resize = ImageFile.ImageFile.load, Image.Image.resize

    def spy_load(self, *args, **kwargs):
        decoded.append((self.format, self.size))
        return load(self, *args, **kwargs)

    def spy_resize(self, size, *args, **kwargs):
        resampled.append(self.size)
        return resize(self, size, *args, **kwargs)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy_load)
    monkeypatch.setattr(Image.Image, "resize", spy_resize)

    clean = images.clean_upload(picture(fmt=fmt))

    assert Image.open(io.BytesIO(clean.full)).size == (FULL_SIDE, FULL_SIDE)
    assert resampled
    assert max(max(size) for size in resampled) <= MAX_SIDE // 2
    if fmt == "JPEG":  # decoded straight at half size: no 16-megapixel bitmap at all
        assert {size for format_, size in decoded if format_ == "JPEG"} == {(2000, 2000)}


def test_a_picture_over_4000_pixels_is_refused_from_its_header_without_decoding(monkeypatch):
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: pytest.fail("decoded"))
    with pytest.raises(images.ValidationError) as refused:
        images.clean_upload(picture(side=MAX_SIDE + 1, fmt="PNG"))
    assert [error.code for error in refused.value.error_list] == ["too_wide"]


def test_a_palette_picture_keeps_its_colours_when_reduced():
    out = io.BytesIO()
    Image.new("RGB", (MAX_SIDE, MAX_SIDE), (200, 30, 40)).convert("P").save(out, format="PNG")
    clean = images.clean_upload(SimpleUploadedFile("p.png", out.getvalue(), "image/png"))
    red, green, blue = Image.open(io.BytesIO(clean.thumb)).convert("RGB").getpixel((80, 80))
    assert (abs(red - 200), abs(green - 30), abs(blue - 40)) < (6, 6, 6)


# --- One user's allowance -----------------------------------------------------------------


def test_a_player_sending_too_many_portraits_is_told_to_wait_and_keeps_the_form(
    client, settings, monkeypatch, player, lucia
):
    settings.CRONICA_UPLOADS_PER_HOUR = 2
    client.force_login(player)
    assert send_portrait(client, lucia).status_code == 302
    assert send_portrait(client, lucia).status_code == 302
    portrait = Character.objects.get(pk=lucia.pk).portrait.name
    # Refused before it is decoded: the work the limit saves.
    monkeypatch.setattr(images, "clean_upload", lambda upload: pytest.fail("decoded"))

    response = send_portrait(client, lucia, notes="Lo que escribí")

    assert response.status_code == 200
    text = parse(response.content).text()
    assert f"{TOO_MANY_ES}. Vuelve a intentarlo dentro de 60 minutos" in text
    assert "Lo que escribí" in response.text
    assert Character.objects.get(pk=lucia.pk).portrait.name == portrait
    client.cookies["django_language"] = "en"
    assert TOO_MANY_EN in send_portrait(client, lucia).text


def test_the_allowance_comes_back_after_an_hour(client, settings, player, lucia):
    settings.CRONICA_UPLOADS_PER_HOUR = 1
    client.force_login(player)
    assert send_portrait(client, lucia).status_code == 302
    assert send_portrait(client, lucia).status_code == 200
    UploadAllowance.objects.filter(user=player).update(
        window_start=UploadAllowance.objects.get(user=player).window_start - timedelta(hours=1)
    )
    assert send_portrait(client, lucia).status_code == 302


@pytest.mark.parametrize(("who", "status"), [("gm", 200), ("player", 403), ("stranger", 404)])
def test_campaign_images_spend_the_same_allowance_and_only_the_gms_count(
    client, settings, campaign, request, who, status
):
    settings.CRONICA_UPLOADS_PER_HOUR = 1
    user = request.getfixturevalue(who)
    client.force_login(user)
    url = reverse("campaigns:edit", args=[campaign.pk])
    client.post(url, valid_campaign_data(image=picture(side=300)))

    response = client.post(url, valid_campaign_data(name="Otro", image=picture(side=300)))

    assert response.status_code == status
    if status == 200:
        assert TOO_MANY_ES in parse(response.content).text()
    assert UploadAllowance.objects.filter(user=user).exists() == (who == "gm")
    assert Campaign.objects.get(pk=campaign.pk).name != "Otro"


# --- Sizes --------------------------------------------------------------------------------


def test_a_file_over_5_mb_is_counted_but_not_kept(client, player, lucia, monkeypatch):
    kept = []

    def keep(upload):
        kept.append((type(upload), upload.size, upload.read()))

    monkeypatch.setattr(images, "clean_upload", keep)
    big = SimpleUploadedFile("grande.jpg", b"\xff" * (MAX_BYTES + 1), "image/jpeg")
    client.force_login(player)

    send_portrait(client, lucia, file=big)

    assert kept == [(TooLargeUpload, MAX_BYTES + 1, b"")]


def test_a_body_over_the_request_limit_is_refused_before_it_is_read(
    client, settings, player, lucia
):
    settings.REQUEST_MAX_BYTES = 64 * 1024
    client.force_login(player)
    url = reverse("characters:edit", args=[lucia.campaign_id, lucia.pk])

    response = client.post(url, {"story-name": "Lucía", "story-notes": "n" * 70_000})

    assert response.status_code == 413
    assert "La petición ocupa más de 64,0" in parse(response.content).text()
    assert Character.objects.get(pk=lucia.pk).notes == ""
