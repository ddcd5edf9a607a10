from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import post_delete, pre_delete
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns import limits
from campaigns.images import delete_after_commit, image_files, image_url
from campaigns.rendered import RenderedMarkdownField, RendersMarkdown
from mechanics.rules.settings import resolve_values
from mechanics.systems.base import GameSystem, SceneRubric
from mechanics.systems.registry import (
    all_systems,
    get_system,
    scene_rubric_for,
    system_choices,
    validate_system_key,
)


class Role(models.TextChoices):
    GM = "gm", _("Game master")
    PLAYER = "player", _("Player")
    OBSERVER = "observer", _("Observer")


class Campaign(RendersMarkdown):
    name = models.CharField(_("name"), max_length=limits.NAME)
    description = models.TextField(_("description"), blank=True, max_length=limits.MARKDOWN)
    description_html = RenderedMarkdownField(source="description")
    # Checked against the registry, not a fixed list: a new system needs no migration.
    system = models.CharField(
        _("rule system"),
        max_length=20,
        choices=system_choices,
        validators=[validate_system_key],
    )
    # Only the house rules a GM changed; defaults live in mechanics.rules.settings.
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    max_characters_per_player = models.PositiveSmallIntegerField(
        _("characters per player"), default=1
    )
    players_see_full_sheets = models.BooleanField(
        _("players see each other's full sheets"), default=False
    )
    # Per-scene XP rubric (Interpretación, Ideas, Diario…). None follows the system: on for
    # Mundo de Tinieblas, whose seed defines it, off for the others (a plain XP amount).
    xp_rubric = models.BooleanField(_("XP award rubric"), null=True, blank=True, default=None)
    xp_purchases_need_approval = models.BooleanField(
        _("XP purchases wait for a GM's approval"), default=False
    )
    # A setting only one system reads (its `GameSystem.campaign_options` gives the help).
    hitos_drama_sacrifice = models.BooleanField(
        _("Players may sacrifice a drama point to raise a skill"), default=False
    )
    # Off: only GMs apply damage and healing; on: a player may also do it to their own sheet.
    owner_applies_damage = models.BooleanField(
        _("Players apply damage and healing to their own characters"), default=False
    )
    # Counted by the database itself (campaigns.versions): the fragments' cache keys.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    change_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # The changes that players and observers may see (all but secret rolls, GM notes and
    # diaries not shared): what their pages and live streams follow, so that not even
    # the moment of a secret roll reaches them.
    public_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # The changes but rolls (shown as cards cached by id): what a list of everything else
    # follows, so that a roll re-renders its own card and not the rest of a scene's timeline.
    nonroll_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # New XP entries (the ledger is append-only): what the XP chart follows, so that a
    # wound or a roll leaves it cached.
    xp_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # New rolls (append-only too): what a scene's page of roll cards follows, so that any
    # other write leaves it cached.
    roll_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # New rolls players may see (not secret ones): the version of their live roll feed,
    # which a poll compares with no query of the rolls, and which a secret roll leaves.
    public_roll_seq = models.PositiveBigIntegerField(default=1, editable=False)
    # Written by `campaigns.images.store_image` only; served by the `image` view.
    image = models.FileField(
        _("image"), upload_to="portraits/campaigns/", max_length=200, blank=True, editable=False
    )
    image_thumb = models.FileField(
        _("thumbnail"), upload_to="portraits/campaigns/", max_length=200, blank=True, editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # Set in the transaction that deletes the campaign, before its rows go: the database
    # triggers let rolls, XP entries and health events be deleted only then.
    deleting = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:detail", args=[self.pk])

    @property
    def image_full_url(self) -> str:
        return image_url(self.image, "campaigns:image", self.pk, "full")

    @property
    def image_thumb_url(self) -> str:
        return image_url(self.image_thumb, "campaigns:image", self.pk, "thumb")

    @property
    def rules(self) -> dict[str, bool | int]:
        """House rules with defaults filled in."""
        return resolve_values(self.game_system.house_rules, self.house_rules)

    @property
    def house_rule_defs(self):
        return self.game_system.house_rules

    @property
    def game_system(self) -> GameSystem:
        return get_system(self.system)

    @property
    def uses_xp_rubric(self) -> bool:
        """The stored choice, or the system's default (a seed that defines a rubric)."""
        if self.xp_rubric is None:
            return self.game_system.xp_rubric_default
        return self.xp_rubric

    @property
    def scene_rubric(self) -> SceneRubric | None:
        """The rubric its GM grades scenes with; None: a plain amount of XP."""
        return scene_rubric_for(self.game_system) if self.uses_xp_rubric else None


class CampaignDeletion(models.Model):
    """A campaign being deleted: the one thing that lets the database mark it `deleting`
    (campaigns.history.DELETING_GUARD_SQL), which lets its history rows go.

    The row cannot outlive its transaction: `unfinished` points at a row that never
    exists (id 0), and the foreign key, checked at commit, fails any commit that leaves
    the row behind. The campaign's post_delete signal removes it once the campaign row
    is gone, so only a transaction that deletes the campaign commits with the mark set.
    """

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    unfinished = models.ForeignKey(
        "self", on_delete=models.DO_NOTHING, default=0, editable=False, related_name="+"
    )

    def __str__(self) -> str:
        return f"deleting {self.campaign_id}"


@receiver(pre_delete, sender=Campaign, dispatch_uid="campaign_marked_deleting")
def _campaign_marked_deleting(sender, instance: Campaign, using: str, **kwargs) -> None:
    """Django's collector sends this in its transaction before it deletes any row, so the
    campaign is marked while its rolls, XP entries and health events go (the database
    triggers check the mark, and the mark needs the CampaignDeletion row)."""
    CampaignDeletion.objects.using(using).create(campaign_id=instance.pk)
    Campaign._base_manager.using(using).filter(pk=instance.pk).update(deleting=True)


@receiver(post_delete, sender=Campaign, dispatch_uid="campaign_deletion_done")
def _campaign_deletion_done(sender, instance: Campaign, using: str, **kwargs) -> None:
    CampaignDeletion.objects.using(using).filter(campaign_id=instance.pk).delete()


@receiver(post_delete, sender=Campaign, dispatch_uid="campaign_image_deleted")
def _campaign_image_deleted(sender, instance: Campaign, **kwargs) -> None:
    delete_after_commit(Campaign.image.field, [f.name for f in image_files(instance, "image")])


def all_characters() -> models.QuerySet:
    """Every character sheet of every campaign: the one way code in campaigns queries them.

    campaigns sits below characters (tests/test_architecture.py), so it may not import
    characters.models.Character; the model is reached through the reverse relation that
    Character.campaign adds to Campaign, and only here."""
    return Campaign.characters.field.model._default_manager.all()


def system_options() -> dict[str, str]:
    """The campaign settings only some system reads (model fields), with their help text."""
    return {
        name: help_text
        for game_system in all_systems()
        for name, help_text in game_system.campaign_options.items()
    }


class Membership(models.Model):
    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_unique"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.campaign} ({self.get_role_display()})"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


def default_invitation_expiry():
    return timezone.now() + timedelta(days=7)


class InvitationQuerySet(models.QuerySet):
    def usable(self):
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now()).filter(
            Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses"))
        )


class Invitation(models.Model):
    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="invitations"
    )
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    expires_at = models.DateTimeField(_("expires"), default=default_invitation_expiry)
    max_uses = models.PositiveIntegerField(_("maximum uses"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("uses"), default=0)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(role__in=Role.values), name="invitation_role_valid"),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=F("max_uses")),
                name="invitation_uses_within_max",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} · {self.get_role_display()} · {self.token[:6]}…"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:invitation", args=[self.token])

    @property
    def status(self) -> str:
        """ "active", "revoked", "expired" or "used_up": why a link does or doesn't work."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "used_up"
        return "active"


class Removal(models.Model):
    """A GM removed this user from the campaign: invitations made before it no longer let
    them back in (a GM who wants them back sends a new one). Leaving is not recorded."""

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="removals"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("removed by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    removed_at = models.DateTimeField(_("removed"), auto_now_add=True)

    class Meta:
        verbose_name = _("removal")
        verbose_name_plural = _("removals")
        indexes = [models.Index(fields=["campaign", "user"], name="removal_campaign_user")]

    def __str__(self) -> str:
        return f"{self.user} · {self.campaign}"


class Story(RendersMarkdown):
    """A story arc (historia): a run of scenes."""

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="stories"
    )
    title = models.CharField(_("title"), max_length=limits.TITLE)
    summary = models.TextField(_("summary"), blank=True, max_length=limits.MARKDOWN)
    summary_html = RenderedMarkdownField(source="summary")
    position = models.PositiveIntegerField(_("position"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("story")
        verbose_name_plural = _("stories")
        ordering = ["campaign", "position", "pk"]

    def __str__(self) -> str:
        return self.title


class Scene(RendersMarkdown):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="scenes"
    )
    story = models.ForeignKey(
        Story,
        verbose_name=_("story"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scenes",
    )
    title = models.CharField(_("title"), max_length=limits.TITLE)
    date = models.DateField(_("date"), null=True, blank=True)
    session_number = models.PositiveIntegerField(_("session"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=limits.TITLE, blank=True)
    summary = models.TextField(_("summary"), blank=True, max_length=limits.MARKDOWN)
    summary_html = RenderedMarkdownField(source="summary")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["campaign", "status"]),
            # A campaign's scenes newest first, as listed (the menus take the latest 31):
            # read in order, where sorting them all took a temporary tree.
            models.Index(fields=["campaign", "-created_at", "-id"], name="scene_campaign_newest"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "closed"]), name="scene_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("campaigns:scene", args=[self.campaign_id, self.pk])


class SceneNote(RendersMarkdown):
    """A GM's private note on a scene; players and observers never see it."""

    scene = models.ForeignKey(
        Scene, verbose_name=_("scene"), on_delete=models.CASCADE, related_name="gm_notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    body = models.TextField(_("text"), help_text=_("Markdown."), max_length=limits.MARKDOWN)
    body_html = RenderedMarkdownField(source="body")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("GM note")
        verbose_name_plural = _("GM notes")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.scene} · {self.created_at:%Y-%m-%d}"


class PlaySession(models.Model):
    """A play session the GM has ended: what ran out with it (RULES 6, "Sessions").

    A session is the play since the previous one ended; ending it lets each system expire
    what lasts a session (`GameSystem.end_session`), and `notes` keep what that did."""

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="sessions"
    )
    number = models.PositiveIntegerField(_("number"))
    ended_at = models.DateTimeField(_("ended"), default=timezone.now)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("ended by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    notes = models.JSONField(_("notes"), default=list, blank=True)

    class Meta:
        verbose_name = _("play session")
        verbose_name_plural = _("play sessions")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="session_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} · {self.number}"


class UploadAllowance(models.Model):
    """The pictures a user has sent in the current hour (`services.upload_allowance_take`):
    decoding one costs a worker a fraction of a second, so one user cannot keep them all
    busy."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    window_start = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.count} since {self.window_start:%H:%M}"
