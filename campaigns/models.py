from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mechanics.rules.settings import SYSTEM_SETTINGS, resolve_settings


class System(models.TextChoices):
    TINIEBLAS = "tinieblas", "Mundo de Tinieblas"
    HITOS = "hitos", "Hitos"
    NDP = "ndp", "3d6 + NdP"
    OBJETIVO = "objetivo", "Dado objetivo (1o3d10)"


class Role(models.TextChoices):
    GM = "gm", _("Game master")
    PLAYER = "player", _("Player")
    OBSERVER = "observer", _("Observer")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    system = models.CharField(_("rule system"), max_length=20, choices=System.choices)
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
    hitos_drama_sacrifice = models.BooleanField(
        _("Players may sacrifice a drama point to raise a skill"), default=False
    )
    # Off: only GMs apply damage and healing; on: a player may also do it to their own sheet.
    owner_applies_damage = models.BooleanField(
        _("Players apply damage and healing to their own characters"), default=False
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

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(system__in=System.values), name="campaign_system_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:detail", args=[self.pk])

    @property
    def rules(self) -> dict[str, bool | int]:
        """House rules with defaults filled in."""
        return resolve_settings(self.system, self.house_rules)

    @property
    def house_rule_defs(self):
        return SYSTEM_SETTINGS[self.system]

    @property
    def uses_xp_rubric(self) -> bool:
        """The stored choice, or the system's default (only Mundo de Tinieblas has one)."""
        if self.xp_rubric is None:
            return self.system == System.TINIEBLAS
        return self.xp_rubric


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


class Story(models.Model):
    """A story arc (historia): a run of scenes."""

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="stories"
    )
    title = models.CharField(_("title"), max_length=160)
    summary = models.TextField(_("summary"), blank=True)
    position = models.PositiveIntegerField(_("position"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("story")
        verbose_name_plural = _("stories")
        ordering = ["campaign", "position", "pk"]

    def __str__(self) -> str:
        return self.title


class Scene(models.Model):
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
    title = models.CharField(_("title"), max_length=160)
    date = models.DateField(_("date"), null=True, blank=True)
    session_number = models.PositiveIntegerField(_("session"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=160, blank=True)
    summary = models.TextField(_("summary"), blank=True)
    participants = models.ManyToManyField(
        "characters.Character",
        verbose_name=_("participants"),
        related_name="scenes",
        blank=True,
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "closed"]), name="scene_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("campaigns:scene", args=[self.campaign_id, self.pk])


class DiaryEntry(models.Model):
    """A player's diary (diario) for one scene and one of their characters."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    class Visibility(models.TextChoices):
        GROUP = "group", _("Shared with the group")
        GM_ONLY = "gm_only", _("Only the GM")

    scene = models.ForeignKey(
        Scene, verbose_name=_("scene"), on_delete=models.CASCADE, related_name="diary_entries"
    )
    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="diary_entries",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    body = models.TextField(_("text"), help_text=_("Markdown."))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    visibility = models.CharField(
        _("visible to"), max_length=10, choices=Visibility.choices, default=Visibility.GROUP
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # First publication: where the entry sits in the scene's timeline.
    published_at = models.DateTimeField(_("published"), null=True, blank=True)

    class Meta:
        verbose_name = _("diary entry")
        verbose_name_plural = _("diary entries")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["scene", "character"], name="diary_one_per_scene"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published"]), name="diary_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(visibility__in=["group", "gm_only"]), name="diary_visibility_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} · {self.scene}"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @property
    def is_gm_only(self) -> bool:
        return self.visibility == self.Visibility.GM_ONLY


class SceneNote(models.Model):
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
    body = models.TextField(_("text"), help_text=_("Markdown."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("GM note")
        verbose_name_plural = _("GM notes")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.scene} · {self.created_at:%Y-%m-%d}"


class Combat(models.Model):
    """A fight in a scene: its participants in turn order, the round, and its attacks.

    One active combat per scene at a time. When it ends, `summary` keeps what happened
    (rounds, who hit whom, damage applied, final states) and the scene's timeline shows it.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("In progress")
        ENDED = "ended", _("Ended")

    scene = models.ForeignKey(
        Scene, verbose_name=_("scene"), on_delete=models.CASCADE, related_name="combats"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    # 0 until initiative is rolled, then the round being played.
    round = models.PositiveIntegerField(_("round"), default=0)
    current = models.ForeignKey(
        "CombatParticipant",
        verbose_name=_("whose turn"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # Moves on every change: watchers' pages poll it to know when to refresh.
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("combat")
        verbose_name_plural = _("combats")
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["active", "ended"]), name="combat_status_valid"
            ),
            models.UniqueConstraint(
                fields=["scene"], condition=Q(status="active"), name="combat_one_active_per_scene"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scene} · {self.started_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse(
            "campaigns:combat_detail", args=[self.scene.campaign_id, self.scene_id, self.pk]
        )

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class CombatParticipant(models.Model):
    """A character in a combat, with its initiative (None until rolled)."""

    combat = models.ForeignKey(
        Combat, verbose_name=_("combat"), on_delete=models.CASCADE, related_name="participants"
    )
    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="combat_participations",
    )
    # 3d6 + NdP acts by phases (lowest first); the other systems leave it at 0.
    phase = models.PositiveSmallIntegerField(_("phase"), default=0)
    initiative = models.IntegerField(_("initiative"), null=True, blank=True)
    initiative_base = models.IntegerField(_("initiative before the die"), default=0)
    # A roll-off value, only for characters who tied (kept so the order never reshuffles).
    tiebreak = models.IntegerField(_("tie-break"), null=True, blank=True)
    initiative_roll = models.ForeignKey(
        "mechanics.Roll",
        verbose_name=_("initiative roll"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # False once the GM takes the character out of the fight (its turn is skipped).
    active = models.BooleanField(_("in the fight"), default=True)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("combat participant")
        verbose_name_plural = _("combat participants")
        ordering = ["combat", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["combat", "character"], name="combat_participant_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} ({self.initiative})"


class CombatAttack(models.Model):
    """One attack in a combat: the stored roll(s), and the damage waiting for the GM.

    A hit that deals damage waits as pending until the GM applies it (through
    `characters.services.character_apply_damage`, which records a HealthEvent) or
    discards it. A miss, or a hit that deals nothing, has nothing to settle.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the GM")
        APPLIED = "applied", _("Damage applied")
        DISCARDED = "discarded", _("Discarded")
        NO_DAMAGE = "no_damage", _("No damage")

    combat = models.ForeignKey(
        Combat, verbose_name=_("combat"), on_delete=models.CASCADE, related_name="attacks"
    )
    round = models.PositiveIntegerField(_("round"), default=0)
    attacker = models.ForeignKey(
        "characters.Character",
        verbose_name=_("attacker"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    target = models.ForeignKey(
        "characters.Character",
        verbose_name=_("target"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    # The names as they were, so the record reads right if a character is deleted.
    attacker_name = models.CharField(_("attacker"), max_length=120)
    target_name = models.CharField(_("target"), max_length=120)
    roll = models.ForeignKey(
        "mechanics.Roll",
        verbose_name=_("attack roll"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    # 3d6 + NdP: the target's defence roll (Esquivar, Interceptar) the attack had to beat.
    defence_roll = models.ForeignKey(
        "mechanics.Roll",
        verbose_name=_("defence roll"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    hit = models.BooleanField(_("hit"), default=False)
    # The DamageInput fields the engine worked out; null when there is nothing to apply.
    damage = models.JSONField(_("damage"), null=True, blank=True)
    damage_text = models.CharField(_("damage"), max_length=120, blank=True)
    notes = models.JSONField(_("notes"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    health_event = models.ForeignKey(
        "characters.HealthEvent",
        verbose_name=_("health event"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("rolled by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("combat attack")
        verbose_name_plural = _("combat attacks")
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "applied", "discarded", "no_damage"]),
                name="combat_attack_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status="pending") | Q(damage__isnull=False),
                name="combat_attack_pending_has_damage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attacker_name} → {self.target_name} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING
