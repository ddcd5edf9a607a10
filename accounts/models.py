from django.db import models
from django.utils.translation import gettext_lazy as _


class DeviceFailures(models.Model):
    """Wrong passwords typed on one trusted device (accounts.devices): its own lock.

    A device that signed in before is judged only by these, not by the lock on its
    username that anyone can fill from anywhere (README, "Login throttling").
    """

    device = models.CharField(_("device"), max_length=64, unique=True)
    username = models.CharField(_("username"), max_length=150)
    failures = models.PositiveIntegerField(_("failures"), default=0)
    last_failure = models.DateTimeField(_("last failure"))

    class Meta:
        verbose_name = _("failures on a trusted device")
        verbose_name_plural = _("failures on trusted devices")

    def __str__(self) -> str:
        return f"{self.username}: {self.failures}"


class RequestCount(models.Model):
    """Requests for one key (an address, an email) since `since`: a rate limit's window."""

    key = models.CharField(_("key"), max_length=300, unique=True)
    count = models.PositiveIntegerField(_("requests"), default=0)
    since = models.DateTimeField(_("since"))

    class Meta:
        verbose_name = _("request count")
        verbose_name_plural = _("request counts")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
