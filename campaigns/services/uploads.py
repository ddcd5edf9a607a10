"""The per-user allowance of picture uploads (portraits, campaign images)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaigns.models import UploadAllowance

WINDOW = timedelta(hours=1)


@transaction.atomic
def upload_allowance_take(*, user) -> timedelta | None:
    """Spend one of `user`'s uploads of this hour: None when it was spent, or how long
    until the next one may be sent when none is left."""
    now = timezone.now()
    allowance, _ = UploadAllowance.objects.select_for_update().get_or_create(
        user=user, defaults={"window_start": now}
    )
    if now - allowance.window_start >= WINDOW:
        allowance.window_start, allowance.count = now, 0
    if allowance.count >= settings.CRONICA_UPLOADS_PER_HOUR:
        return allowance.window_start + WINDOW - now
    allowance.count += 1
    allowance.save(update_fields=["window_start", "count"])
    return None
