"""Writes of the accounts app."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import DeviceFailures


def _window_start():
    return timezone.now() - settings.AXES_COOLOFF_TIME


def device_failures_count(*, device: str) -> int:
    """Wrong passwords on this device since the cool-off began."""
    found = DeviceFailures.objects.filter(device=device, last_failure__gt=_window_start())
    return found.values_list("failures", flat=True).first() or 0


def device_failure_record(*, device: str, username: str) -> int:
    """Count one more wrong password on a trusted device; returns the count in the window.

    As with addresses, the window runs from the last failure: guessing on a locked device
    keeps it locked.
    """
    now = timezone.now()
    with transaction.atomic():
        DeviceFailures.objects.filter(last_failure__lte=_window_start()).delete()
        row, created = DeviceFailures.objects.select_for_update().get_or_create(
            device=device, defaults={"username": username, "failures": 1, "last_failure": now}
        )
        if not created:
            DeviceFailures.objects.filter(pk=row.pk).update(
                failures=F("failures") + 1, last_failure=now
            )
            row.refresh_from_db(fields=["failures"])
        return row.failures
