"""Writes of the accounts app."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import DeviceFailures, RequestCount


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


def requests_take(*, limits: dict[str, int], window: timedelta) -> bool:
    """One more request for every key, if none of them has reached its limit in its window.

    Either every key counts this request or none does; the rows are locked, so two requests
    at once never both take the last place.
    """
    now = timezone.now()
    with transaction.atomic():
        RequestCount.objects.filter(since__lte=now - window).delete()
        rows = []
        for key in sorted(limits):
            row, _created = RequestCount.objects.select_for_update().get_or_create(
                key=key, defaults={"since": now}
            )
            rows.append(row)
        if any(row.count >= limits[row.key] for row in rows):
            # A refused request writes nothing, not even the rows it created.
            transaction.set_rollback(True)
            return False
        RequestCount.objects.filter(pk__in=[row.pk for row in rows]).update(count=F("count") + 1)
        return True
