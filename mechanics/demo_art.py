"""Pictures for the demo, drawn here with Pillow (nothing is downloaded): a portrait for
each demo character and an image for each demo campaign, stored through the same
services as an upload (`campaigns.images.clean_upload`), so the demo shows faces the way
a group's own pictures would be shown."""

from __future__ import annotations

import hashlib
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw, ImageFont

from campaigns.images import CleanImage, clean_upload
from campaigns.models import Campaign
from campaigns.services import campaign_set_image
from characters.services import character_set_portrait

SIDE = 320
# Dusk colours: the background's top and bottom, picked from a name so a picture stays
# the same from one seed to the next.
PALETTES = (
    ((64, 36, 58), (190, 120, 90)),
    ((24, 52, 72), (120, 170, 170)),
    ((46, 60, 32), (200, 180, 110)),
    ((70, 30, 30), (220, 150, 100)),
    ((36, 36, 70), (150, 140, 200)),
)


def _palette(name: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    digest = hashlib.blake2b(name.encode(), digest_size=2).digest()
    return PALETTES[int.from_bytes(digest) % len(PALETTES)]


def _gradient(size: tuple[int, int], top: tuple, bottom: tuple) -> Image.Image:
    picture = Image.new("RGB", size)
    draw = ImageDraw.Draw(picture)
    width, height = size
    for y in range(height):
        mix = y / max(height - 1, 1)
        colour = tuple(round(a + (b - a) * mix) for a, b in zip(top, bottom, strict=True))
        draw.line([(0, y), (width, y)], fill=colour)
    return picture


def _initials(name: str) -> str:
    return "".join(word[0] for word in name.split()[:2]).upper()


def _clean(picture: Image.Image, name: str) -> CleanImage:
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return clean_upload(SimpleUploadedFile(f"{name}.png", buffer.getvalue(), "image/png"))


def portrait(name: str) -> CleanImage:
    """A head and shoulders against a dusk sky, with the character's initials."""
    top, bottom = _palette(name)
    picture = _gradient((SIDE, SIDE), top, bottom)
    draw = ImageDraw.Draw(picture)
    shade = tuple(max(channel - 40, 0) for channel in top)
    draw.ellipse((40, 210, 280, 420), fill=shade)  # shoulders
    draw.ellipse((105, 70, 215, 190), fill=shade)  # head
    font = ImageFont.load_default(size=56)
    draw.text((SIDE / 2, 275), _initials(name), fill=bottom, font=font, anchor="mm")
    return _clean(picture, name)


def banner(name: str) -> CleanImage:
    """A horizon under a moon: the campaign's picture."""
    top, bottom = _palette(name)
    picture = _gradient((SIDE * 2, SIDE), top, bottom)
    draw = ImageDraw.Draw(picture)
    draw.ellipse((350, 60, 430, 140), fill=(240, 230, 200))  # moon, inside the square thumbnail
    hills = tuple(max(channel - 50, 0) for channel in top)
    draw.polygon([(0, 250), (160, 190), (320, 240), (480, 180), (640, 230), (640, 320), (0, 320)],
                 fill=hills)  # fmt: skip
    return _clean(picture, name)


def seed_pictures(campaign: Campaign) -> None:
    """The campaign's image and a portrait for each character that has none yet."""
    if not campaign.image:
        campaign_set_image(campaign=campaign, image=banner(campaign.name))
    for character in campaign.characters.select_related("owner").filter(portrait=""):
        character_set_portrait(
            character=character,
            user=character.owner or campaign.created_by,
            image=portrait(character.name),
        )
