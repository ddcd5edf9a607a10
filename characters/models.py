from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Character(models.Model):
    """A player character or NPC in one campaign. Sheets extend this (issue: sheets)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign",
        verbose_name=_("campaign"),
        on_delete=models.CASCADE,
        related_name="characters",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    name = models.CharField(_("name"), max_length=120)
    is_npc = models.BooleanField(_("NPC"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name
