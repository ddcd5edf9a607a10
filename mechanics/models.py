from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.append_only import AppendOnlyModel


class Roll(AppendOnlyModel):
    """One roll as the engine recorded it. Never updated or deleted (append-only log)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign",
        verbose_name=_("campaign"),
        on_delete=models.CASCADE,
        related_name="rolls",
    )
    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
    )
    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("rolled by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    # Rolls made together (opposed, teamwork) share a group id.
    group = models.UUIDField(_("group"), null=True, blank=True, db_index=True)
    system = models.CharField(_("system"), max_length=20)
    kind = models.CharField(_("kind"), max_length=30)
    label = models.CharField(_("label"), max_length=200, blank=True)
    # The engine's RollRecord.to_dict(): inputs, every die, kept dice, outcome, effects.
    record = models.JSONField(_("record"))
    result = models.IntegerField(_("result"))
    outcome = models.CharField(_("outcome"), max_length=30)
    secret = models.BooleanField(_("secret"), default=False)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.result} ({self.outcome})"
