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
import math
import secrets
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django import forms
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
MAX_SIDE = 4000
FULL_SIDE = 800
THUMB_SIDE = 160
# The size a picture is decoded or reduced to before resampling: twice the stored one,
# so the resampling still has detail to average.
WORK_SIDE = 2 * FULL_SIDE
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
    pixels = _pixels_only(_decoded(upload))
    full = pixels.copy()
    full.thumbnail((FULL_SIDE, FULL_SIDE), Image.Resampling.LANCZOS)
    thumb = ImageOps.fit(pixels, (THUMB_SIDE, THUMB_SIDE), Image.Resampling.LANCZOS)
    return CleanImage(full=_webp(full), thumb=_webp(thumb))


def _decoded(upload) -> Image.Image:
    """The upload's pixels, upright, at most about `WORK_SIDE` on its longer side.

    The size comes from the header, read before any pixel: a picture over `MAX_SIDE` is
    refused without decoding it. A JPEG is then decoded at 1/2, 1/4 or 1/8 scale (its DCT
    gives that for free) and other formats are box-reduced right after decoding, so the
    resampling and the copies after it work on a few megapixels, not sixteen.
    """
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
            picture.draft(None, (WORK_SIDE, WORK_SIDE))  # JPEG only; others ignore it
            picture.load()
            mode = _pixel_mode(picture)
            if picture.mode != mode:  # before reducing: averaging palette indices is noise
                picture = picture.convert(mode)
            factor = min(max(picture.size) // WORK_SIDE, min(picture.size) // THUMB_SIDE)
            if factor > 1:
                picture = picture.reduce(factor)
            return ImageOps.exif_transpose(picture)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError):
        raise _not_an_image() from None


def _not_an_image() -> ValidationError:
    return ValidationError(
        _("This file is not a JPEG, PNG or WebP image."),
        code="not_an_image",
    )


def _pixel_mode(picture: Image.Image) -> str:
    has_alpha = picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info
    return "RGBA" if has_alpha else "RGB"


def _pixels_only(picture: Image.Image) -> Image.Image:
    """A new image holding the pixels and nothing else: no info, no palette tricks."""
    mode = _pixel_mode(picture)
    converted = picture.convert(mode)
    return Image.frombytes(mode, converted.size, converted.tobytes())


def _webp(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="WEBP", quality=85, method=4)
    return out.getvalue()


class BoundedUploadHandler(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS: a file larger than `MAX_BYTES` is read to its end
    but not kept, neither in memory nor on disk; the form gets an empty file of its size,
    which every upload field refuses with its "too large" message, the rest of the form
    kept."""

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self.too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > MAX_BYTES:
            self.too_large = True
        # None: the handlers after this one (memory, then a temporary file) get nothing.
        return None if self.too_large else raw_data

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if not self.too_large:
            return None  # the next handler has the whole file
        return TooLargeUpload(self.file_name, self.content_type, file_size)


class TooLargeUpload(UploadedFile):
    """A file left unread for its size: only its name and size are known."""

    def __init__(self, name: str, content_type: str, size: int):
        super().__init__(io.BytesIO(), name, content_type, size)


class ImageUploadField(forms.FileField):
    """A file input whose cleaned value is a `CleanImage` (or None when empty).

    Each upload spends one of its sender's allowance before it is decoded: the form sets
    `allowance` to `services.upload_allowance_take` for the user sending it (None when
    it was spent, else how long to wait); a form that does not takes no picture.
    """

    widget = forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"})
    allowance: Callable[[], timedelta | None] | None = None

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", _("JPEG, PNG or WebP, up to 5 MB and 4,000 pixels."))
        super().__init__(**kwargs)

    def clean(self, data, initial=None) -> CleanImage | None:
        upload = super().clean(data, None)
        if not upload:
            return None
        if self.allowance is None:
            raise ImproperlyConfigured("Set the form's ImageUploadField.allowance.")
        wait = self.allowance()
        if wait is not None:
            minutes = max(1, math.ceil(wait.total_seconds() / 60))
            raise ValidationError(
                ngettext_lazy(
                    "You have sent too many pictures this hour. Try again in %(minutes)d "
                    "minute; the rest of the form is kept.",
                    "You have sent too many pictures this hour. Try again in %(minutes)d "
                    "minutes; the rest of the form is kept.",
                    "minutes",
                ),
                code="too_many_uploads",
                params={"minutes": minutes},
            )
        return clean_upload(upload)


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
