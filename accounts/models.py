from importlib import import_module

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession, BaseSessionManager
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


class SessionManager(BaseSessionManager):
    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().select_related("user")


class Session(AbstractBaseSession):
    """Django's session row, with the user it is signed in as (none: signed out), written
    from its data at every save: a request reads both in one query (accounts.sessions)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )

    objects = SessionManager()

    @classmethod
    def get_session_store_class(cls):
        return import_module(settings.SESSION_ENGINE).SessionStore
