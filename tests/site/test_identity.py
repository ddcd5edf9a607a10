"""The site's own look: one stylesheet over Bootstrap, an accent per rule system, icons."""

import re
import struct
from pathlib import Path

import pytest
from django.urls import reverse

from mechanics.rules import SYSTEMS
from tests.factories import make_character

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"


def system_sheet(key: str) -> Path:
    return ROOT / "mechanics" / "systems" / key / "static" / "css" / "systems" / f"{key}.css"


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_rule_system_has_a_stylesheet_setting_its_accent(key):
    text = system_sheet(key).read_text(encoding="utf-8")
    assert f'[data-system="{key}"]' in text
    assert "--cronica-system:" in text
    assert "--cronica-system-glyph:" in text


def test_no_shared_stylesheet_or_template_names_a_system_in_a_selector():
    """A system's look lives in its own file; shared files only know `[data-system]`."""
    literal = re.compile(r"data-system=[\"']?(%s)\b" % "|".join(SYSTEMS))
    offenders = []
    for path in [*STATIC.rglob("*.css"), *TEMPLATES.rglob("*.html")]:
        found = literal.findall(path.read_text(encoding="utf-8"))
        if path.parent.name == "systems":
            found = [key for key in found if key != path.stem]
        offenders += [(path.relative_to(ROOT).as_posix(), key) for key in found]
    assert offenders == []


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_app_icons_are_pngs_of_their_stated_sizes():
    assert png_size(STATIC / "icons" / "icon-192.png") == (192, 192)
    assert png_size(STATIC / "icons" / "icon-512.png") == (512, 512)
    assert (STATIC / "icons" / "favicon.svg").read_text().startswith("<svg")


def test_every_page_links_the_favicon_the_manifest_and_a_description(client, db):
    response = client.get(reverse("login"))
    assert 'rel="icon" href="/static/icons/favicon.svg"' in response.text
    assert 'rel="manifest" href="/static/site.webmanifest"' in response.text
    assert '<meta name="description" content="' in response.text


@pytest.mark.parametrize("who", ["gm", "player"])
def test_a_sheet_wears_its_systems_accent(client, campaign, player, who, request):
    character = make_character(campaign, player)
    client.force_login(request.getfixturevalue(who))
    response = client.get(character.get_absolute_url())
    assert response.status_code == 200
    key = campaign.system
    assert f'href="/static/css/systems/{key}.css"' in response.text
    assert re.search(rf'<body [^>]*data-system="{key}"', response.text)
    assert 'class="system-chip' in response.text


def test_a_page_outside_any_campaign_has_no_system_accent(client, player):
    client.force_login(player)
    response = client.get(reverse("campaigns:create"))
    assert "css/systems/" not in response.text
    assert "data-system" not in response.text


def test_my_campaigns_links_every_systems_accent(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("campaigns:list"))
    for key in SYSTEMS:
        assert f'href="/static/css/systems/{key}.css"' in response.text
    assert f'data-system="{campaign.system}"' in response.text


def test_a_stranger_gets_no_sheet_and_no_accent(client, campaign, player, stranger):
    character = make_character(campaign, player)
    client.force_login(stranger)
    assert client.get(character.get_absolute_url()).status_code == 404
