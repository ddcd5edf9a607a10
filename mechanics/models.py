from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.append_only import AppendOnlyModel
from campaigns.texts import TEXTS, kept_shown, shown
from characters.models import CharacterLedgerEntry


class Roll(AppendOnlyModel):
    """One roll as the engine recorded it. Never updated or deleted (append-only log)."""

    HISTORY_FIELDS = (
        "group", "system", "kind", "label", "record", "result", "outcome", "secret", "created_at"
    )  # fmt: skip
    HISTORY_LINKS = ("character", "scene", "user")

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
    # Set when the row is made (not by the INSERT): the history hash covers it.
    created_at = models.DateTimeField(
        _("when"), default=timezone.now, editable=False, db_index=True
    )

    class Meta:
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The roll log and the feed: a campaign's rolls newest first, a page found by
            # the last (created_at, id) shown (campaigns.keyset).
            models.Index(fields=["campaign", "-created_at", "-id"], name="roll_campaign_newest"),
            # The scene page: a scene's rolls oldest first, a page at a time.
            models.Index(fields=["scene", "created_at", "id"], name="roll_scene_oldest"),
            # The scene list's roll counts for a player (secret rolls left out), read from
            # the index alone.
            models.Index(fields=["scene", "secret", "id"], name="roll_scene_secret"),
            # Extended actions in progress, looked up on every change of the roll panel:
            # a few rows of the character's, not all their rolls.
            models.Index(
                fields=["character", "-created_at", "-id"],
                condition=Q(kind="extended", group__isnull=False),
                name="roll_extended_actions",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "chain_seq"], name="roll_chain_position"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.result} ({self.outcome})"

    @property
    def label_text(self) -> str:
        """The label in the reader's language, when the site wrote it (campaigns/texts.py)."""
        texts = (self.record or {}).get(TEXTS) or {}
        return shown(self.label, texts.get("label"))


class Combat(models.Model):
    """A fight in a scene: its participants in turn order, the round, and its attacks.

    One active combat per scene at a time. When it ends, `summary` keeps what happened
    (rounds, who hit whom, damage applied, final states) and the scene's timeline shows it.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("In progress")
        ENDED = "ended", _("Ended")

    scene = models.ForeignKey(
        "campaigns.Scene", verbose_name=_("scene"), on_delete=models.CASCADE, related_name="combats"
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
        db_table = "campaigns_combat"
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
            "mechanics:combat_detail", args=[self.scene.campaign_id, self.scene_id, self.pk]
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
    # How far the character has moved in round `moved_round` (a system with movement
    # rules: an attack after a long move is refused).
    moved_round = models.PositiveIntegerField(_("round of the last move"), default=0)
    moved_m = models.PositiveSmallIntegerField(_("metres moved that round"), default=0)

    class Meta:
        db_table = "campaigns_combatparticipant"
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
    # The codes of the texts the site wrote ({"damage_text": code}, campaigns/texts.py).
    texts = models.JSONField(_("texts"), default=dict, blank=True)
    notes = models.JSONField(_("notes"), default=list, blank=True)
    # What the system writes on the sheets with the damage (`AttackRoll.with_damage`): only
    # when the GM applies it, never when it is discarded.
    with_damage = models.JSONField(_("written with the damage"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    health_event = models.ForeignKey(
        "HealthEvent",
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
        db_table = "campaigns_combatattack"
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
    def damage_words(self) -> str:
        """The damage in the reader's language ("no damage" written in Spanish reads in
        English to an English reader); older rows show their words as written."""
        return shown(self.damage_text, (self.texts or {}).get("damage_text"))

    @property
    def notes_text(self) -> list[str]:
        """The notes in the reader's language: a note the site wrote is stored with its
        code ({"text", "msgid", "params"}), older ones as plain words."""
        return [kept_shown(note) for note in self.notes or ()]

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class HealthEvent(CharacterLedgerEntry):
    """One change to a character's health: damage, time passing, a treatment, or the
    undo of an earlier event (a new, compensating event). Never changed afterwards."""

    HISTORY_FIELDS = (
        "character", "kind", "inputs", "summary", "reason", "health_before", "health_after",
        "undoes", "created_at",
    )  # fmt: skip
    HISTORY_LINKS = ("scene", "roll", "created_by")

    class Kind(models.TextChoices):
        DAMAGE = "damage", _("Damage")
        TIME = "time", _("Time passes")
        TREATMENT = "treatment", _("Treatment")
        UNDO = "undo", _("Undo")

    # A character's history goes only with its campaign: deleting the character alone is
    # refused while it has any.
    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.RESTRICT,
        related_name="health_events",
    )
    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="health_events",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # The inputs as entered (amount, type, part, hours...), for the record.
    inputs = models.JSONField(_("inputs"), default=dict, blank=True)
    summary = models.CharField(_("summary"), max_length=200)
    health_before = models.JSONField(_("health before"))
    health_after = models.JSONField(_("health after"))
    # A roll the event made (Hitos massive-damage test, a first-aid roll...).
    roll = models.ForeignKey(
        "mechanics.Roll",
        verbose_name=_("roll"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # RESTRICT, not PROTECT: a campaign's deletion takes both events.
    undoes = models.OneToOneField(
        "self",
        verbose_name=_("undoes"),
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="undone_by",
    )

    class Meta:
        db_table = "characters_healthevent"
        verbose_name = _("health event")
        verbose_name_plural = _("health events")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["character", "-created_at"]),
            models.Index(fields=["scene", "-created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["damage", "time", "treatment", "undo"]),
                name="health_event_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="undo", undoes__isnull=False) | ~Q(kind="undo"),
                name="health_event_undo_has_target",
            ),
            models.UniqueConstraint(
                fields=["campaign", "chain_seq"], name="health_event_chain_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.summary}"

    @property
    def texts(self) -> dict:
        """The codes of the texts the site wrote for this event (campaigns/texts.py)."""
        return (self.inputs or {}).get(TEXTS) or {}

    @property
    def summary_text(self) -> str:
        """The summary in the reader's language."""
        return shown(self.summary, self.texts.get("summary"))

    @property
    def reason_text(self) -> str:
        return shown(self.reason, self.texts.get("reason"))


class SituationAspect(models.Model):
    """An aspect of the situation in one scene (Hitos *de situación*): the GM writes it,
    any character may activate it while the scene is open, and it ends with the scene
    (docs/rules.md#hitos-situation-aspects)."""

    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.CASCADE,
        related_name="situation_aspects",
    )
    text = models.CharField(_("text"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # When its scene closed (or the GM took it away); None while it can be activated.
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("situation aspect")
        verbose_name_plural = _("situation aspects")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.text


class NarrativeFact(models.Model):
    """A narrative fact a character declared by activating an aspect (Hitos), logged in
    its scene (docs/rules.md#hitos-narrative-facts). Never changed once written."""

    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.CASCADE,
        related_name="narrative_facts",
    )
    # RESTRICT as for health events: a character's history goes only with its campaign.
    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.RESTRICT,
        related_name="narrative_facts",
    )
    text = models.TextField(_("fact"), max_length=2000)
    # The aspect activated, as it read then, and whose it was (propio, ajeno, de_situacion).
    aspect = models.CharField(_("aspect"), max_length=200)
    aspect_type = models.CharField(_("aspect type"), max_length=20)
    # "drama_point" or "exhaust".
    paid = models.CharField(_("paid with"), max_length=20)
    # Whose pool the drama point went to (another character's aspect), if anyone's.
    drama_point_to = models.ForeignKey(
        "characters.Character",
        verbose_name=_("drama point to"),
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("narrative fact")
        verbose_name_plural = _("narrative facts")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.text[:60]


class SavedRoll(models.Model):
    """A roll set-up kept under a name ("Disparar con la escopeta"), rolled again in one tap
    from the top of the sheet. It belongs to the character: its owner and the GMs use it."""

    character = models.ForeignKey(
        "characters.Character",
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="saved_rolls",
    )
    name = models.CharField(_("name"), max_length=80)
    # The roll panel's choices as posted ({field: [values]}), without the one-off spends,
    # the secret flag and the scene: what the panel form validates again at each use.
    setup = models.JSONField(_("set-up"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("saved by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("saved roll")
        verbose_name_plural = _("saved rolls")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="saved_roll_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name
