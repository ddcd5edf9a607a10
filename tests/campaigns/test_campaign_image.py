"""A campaign's image: the GM sets it in the campaign form; members see it, nobody else."""

from __future__ import annotations

import io

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from campaigns.models import Campaign
from tests.campaigns.test_views import valid_campaign_data
from tests.html import parse

pytestmark = pytest.mark.django_db


def picture(name="portada.png", size=(1200, 600)) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", size, (20, 60, 90)).save(out, format="PNG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")


def edit(client, campaign, **data):
    return client.post(reverse("campaigns:edit", args=[campaign.pk]), valid_campaign_data(**data))


def test_the_gm_sets_the_campaign_image_and_the_campaign_pages_show_it(client, campaign, gm):
    client.force_login(gm)
    assert edit(client, campaign, image=picture()).status_code == 302
    campaign.refresh_from_db()
    with default_storage.open(campaign.image.name, "rb") as handle:
        assert Image.open(handle).size == (800, 400)
    detail = parse(client.get(campaign.get_absolute_url()).content)
    assert detail.find_all("img", src=campaign.image_full_url)
    listing = parse(client.get(reverse("campaigns:list")).content)
    assert listing.find_all("img", src=campaign.image_thumb_url)


def test_a_new_campaign_may_start_with_an_image(client, gm):
    client.force_login(gm)
    response = client.post(reverse("campaigns:create"), valid_campaign_data(image=picture()))
    assert response.status_code == 302
    assert Campaign.objects.get(name="La Casa Usher").image


def test_a_bad_image_is_refused_and_the_campaign_form_keeps_what_was_typed(client, campaign, gm):
    client.force_login(gm)
    fake = SimpleUploadedFile("portada.png", b"GIF89a but not really", content_type="image/png")
    response = edit(client, campaign, name="Nombre nuevo", image=fake)
    assert response.status_code == 200
    page = parse(response.content)
    assert "Este archivo no es una imagen JPEG, PNG o WebP." in page.text()
    assert page.one("input", name="name").attrs["value"] == "Nombre nuevo"
    campaign.refresh_from_db()
    assert campaign.name != "Nombre nuevo"
    assert not campaign.image


def test_members_get_the_campaign_image_and_a_stranger_gets_404(
    client, campaign, gm, player, observer, stranger
):
    client.force_login(gm)
    edit(client, campaign, image=picture())
    campaign.refresh_from_db()
    urls = [campaign.image_full_url, campaign.image_thumb_url]
    for user in (gm, player, observer):
        client.force_login(user)
        assert [client.get(url).status_code for url in urls] == [200, 200], user.username
    client.force_login(stranger)
    assert [client.get(url).status_code for url in urls] == [404, 404]
    client.logout()
    assert [client.get(url).status_code for url in urls] == [404, 404]


def test_a_player_cannot_set_the_campaign_image(client, campaign, player):
    client.force_login(player)
    assert edit(client, campaign, image=picture()).status_code == 403
    campaign.refresh_from_db()
    assert not campaign.image


def test_the_gm_removes_the_image_and_its_files_go(
    client, campaign, gm, django_capture_on_commit_callbacks
):
    client.force_login(gm)
    with django_capture_on_commit_callbacks(execute=True):
        edit(client, campaign, image=picture())
    campaign.refresh_from_db()
    names = [campaign.image.name, campaign.image_thumb.name]
    with django_capture_on_commit_callbacks(execute=True):
        edit(client, campaign, remove_image="on")
    campaign.refresh_from_db()
    assert not campaign.image
    assert not any(default_storage.exists(name) for name in names)
