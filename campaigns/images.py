"""Portraits and campaign images: checked, cleaned and stored in two sizes.

An upload is decoded with Pillow, whatever its name or declared type says: only JPEG,
PNG and WebP pass, up to `MAX_BYTES` and `MAX_SIDE` pixels. What is stored is a new
picture drawn from the decoded pixels (turned upright first), so no metadata (EXIF,
GPS, XMP, ICC, comments) of the upload survives: a resized copy and a square thumbnail,
both WebP. Files go to the default storage (MEDIA_ROOT, or object storage when
configured) and are served only through views that ask `campaigns.permissions`.
"""

from __future__ import annotations

import io
import secrets
import warnings
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
MAX_SIDE = 4000
FULL_SIDE = 800
THUMB_SIDE = 160
FORMATS = {"JPEG", "PNG", "WEBP"}
SIZES = ("full", "thumb")


@dataclass(frozen=True)
class CleanImage:
    full: bytes
    thumb: bytes


def clean_upload(upload) -> CleanImage:
    """The upload redrawn in two sizes, or a ValidationError that says why not."""
    if upload.size > MAX_BYTES:
        raise ValidationError(
            _("The image is larger than 5 MB. Choose a smaller file."), code="too_large"
        )
    upload.seek(0)
    try:
        with warnings.catch_warnings():
            # Pillow warns before it refuses a decompression bomb; the size check below
            # refuses it first.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            picture = Image.open(upload)
            if picture.format not in FORMATS:
                raise _not_an_image()
            if max(picture.size) > MAX_SIDE:
                raise ValidationError(
                    _("The image is larger than 4,000 pixels on a side. Choose a smaller one."),
                    code="too_wide",
                )
            picture.load()
            picture = ImageOps.exif_transpose(picture)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError):
        raise _not_an_image() from None
    pixels = _pixels_only(picture)
    full = pixels.copy()
    full.thumbnail((FULL_SIDE, FULL_SIDE), Image.Resampling.LANCZOS)
    thumb = ImageOps.fit(pixels, (THUMB_SIDE, THUMB_SIDE), Image.Resampling.LANCZOS)
    return CleanImage(full=_webp(full), thumb=_webp(thumb))


def _not_an_image() -> ValidationError:
    return ValidationError(
        _("This file is not a JPEG, PNG or WebP image."),
        code="not_an_image",
    )


def _pixels_only(picture: Image.Image) -> Image.Image:
    """A new image holding the pixels and nothing else: no info, no palette tricks."""
    has_alpha = picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info
    mode = "RGBA" if has_alpha else "RGB"
    converted = picture.convert(mode)
    return Image.frombytes(mode, converted.size, converted.tobytes())


def _webp(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="WEBP", quality=85, method=4)
    return out.getvalue()


class ImageUploadField(forms.FileField):
    """A file input whose cleaned value is a `CleanImage` (or None when empty)."""

    widget = forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"})

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", _("JPEG, PNG or WebP, up to 5 MB and 4,000 pixels."))
        super().__init__(**kwargs)

    def clean(self, data, initial=None) -> CleanImage | None:
        upload = super().clean(data, None)
        return clean_upload(upload) if upload else None


def store_image(
    instance: models.Model, clean: CleanImage | None, *, full: str, thumb: str
) -> list[str]:
    """Put `clean` (None: remove) in the fields named `full` and `thumb` of `instance`,
    saving the new files; returns the names of the files it replaced, for
    `delete_after_commit` once the row is saved."""
    old = [getattr(instance, name).name for name in (full, thumb) if getattr(instance, name)]
    if clean is None:
        setattr(instance, full, "")
        setattr(instance, thumb, "")
        return old
    # A new random name each time: a cached old picture is never shown for a new one.
    stem = secrets.token_urlsafe(12)
    getattr(instance, full).save(f"{stem}.webp", ContentFile(clean.full), save=False)
    getattr(instance, thumb).save(f"{stem}-thumb.webp", ContentFile(clean.thumb), save=False)
    return old


def delete_after_commit(field: models.FileField, names: list[str]) -> None:
    """Remove stored files once the transaction that stopped using them commits."""
    if names:
        transaction.on_commit(lambda: [field.storage.delete(name) for name in names])


def image_files(instance: models.Model, field: str) -> list[FieldFile]:
    """The stored files of the picture kept in `field` and `<field>_thumb`."""
    return [f for f in (getattr(instance, field), getattr(instance, f"{field}_thumb")) if f]


def image_url(file: FieldFile, url_name: str, *args) -> str:
    """The serving view's address, versioned by the file's random name; "" without one."""
    if not file:
        return ""
    version = file.name.rsplit("/", 1)[-1].split(".", 1)[0]
    return f"{reverse(url_name, args=args)}?v={version}"


def image_response(file: FieldFile) -> FileResponse:
    """The stored picture, for a view that has checked the permissions."""
    if not file:
        raise Http404
    try:
        handle = file.storage.open(file.name, "rb")
    except FileNotFoundError:
        raise Http404 from None
    response = FileResponse(handle, content_type="image/webp")
    # Private: a shared cache must not hand it to someone who may not see it. The name
    # changes with every new picture, so the browser may keep it.
    response["Cache-Control"] = "private, max-age=86400"
    return response
