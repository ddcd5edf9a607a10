"""Character sheets for every rule system in one generic shape.

Ratings, resources and items reference the engine's catalogue keys, so a fifth system
brings its catalogue and an adapter in `characters/systems/`, and no migration of
these tables. What is specific to one system but not a list (a Virtue, the health
state, a specialization) lives in the `details` and `health` JSON fields.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns import limits
from campaigns.append_only import AppendOnlyModel, AppendOnlyQuerySet
from campaigns.images import delete_after_commit, image_files, image_url
from campaigns.rendered import RenderedMarkdownField, RendersMarkdown
from campaigns.texts import TEXTS, shown


class Character(models.Model):
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
        help_text=_("The player who plays this character; empty for NPCs the GMs run."),
    )
    is_npc = models.BooleanField(_("NPC"), default=False)
    name = models.CharField(_("name"), max_length=limits.NAME)
    concept = models.CharField(_("concept"), max_length=limits.SHORT_TEXT, blank=True)
    description = models.TextField(_("description"), blank=True, max_length=limits.SHEET_TEXT)
    notes = models.TextField(_("notes"), blank=True, max_length=limits.SHEET_TEXT)
    # System-specific single values: virtue/vice, tamaño, moralidad, specialization...
    details = models.JSONField(_("details"), default=dict, blank=True)
    # The engine's immutable health state, serialised with its to_dict().
    health = models.JSONField(_("health"), default=dict, blank=True)
    approved_over_budget = models.BooleanField(_("approved over budget"), default=False)
    # Counted by the database itself (campaigns.versions): the sheet's cache keys.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    # Like `version`, but health and XP writes leave it (`campaigns.versions.APART`): the
    # sheet's grid, whose health and XP parts are cached apart, is keyed by it.
    grid_version = models.PositiveBigIntegerField(default=1, editable=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The sum of the XP ledger, kept in step by the services in the same transaction as
    # each entry; the database refuses a negative balance.
    xp_balance = models.IntegerField(_("XP balance"), default=0, editable=False)
    # Written by `campaigns.images.store_image` only; served by the `portrait` view.
    portrait = models.FileField(
        _("portrait"), upload_to="portraits/characters/", max_length=200, blank=True, editable=False
    )
    portrait_thumb = models.FileField(
        _("thumbnail"),
        upload_to="portraits/characters/",
        max_length=200,
        blank=True,
        editable=False,
    )
    # Declared here so that campaigns never depends on characters; the table keeps the
    # name it had when the field lived on Scene.
    scenes = models.ManyToManyField(
        "campaigns.Scene",
        verbose_name=_("scenes"),
        related_name="participants",
        blank=True,
        db_table="campaigns_scene_participants",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["name", "pk"]
        indexes = [models.Index(fields=["campaign", "owner"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(xp_balance__gte=0), name="character_xp_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("characters:sheet", args=[self.campaign_id, self.pk])

    @property
    def portrait_full_url(self) -> str:
        return image_url(self.portrait, "characters:portrait", self.campaign_id, self.pk, "full")

    @property
    def portrait_thumb_url(self) -> str:
        return image_url(
            self.portrait_thumb, "characters:portrait", self.campaign_id, self.pk, "thumb"
        )

    @property
    def system(self) -> str:
        return self.campaign.system


@receiver(post_delete, sender=Character, dispatch_uid="character_portrait_deleted")
def _character_portrait_deleted(sender, instance: Character, **kwargs) -> None:
    files = image_files(instance, "portrait")
    delete_after_commit(Character.portrait.field, [f.name for f in files])


class Trait(models.Model):
    """A rated trait: attribute, characteristic or skill, by catalogue key."""

    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="traits"
    )
    key = models.CharField(_("key"), max_length=60)
    kind = models.CharField(_("kind"), max_length=20)
    # Only for traits outside the catalogue (custom Hitos skills, campaign lists).
    name = models.CharField(_("name"), max_length=80, blank=True)
    rating = models.SmallIntegerField(_("rating"), default=0)
    # Progress toward the next rating: PdP in 3d6 + NdP.
    progress = models.SmallIntegerField(_("progress"), default=0)

    class Meta:
        verbose_name = _("trait")
        verbose_name_plural = _("traits")
        ordering = ["character", "kind", "key"]
        constraints = [
            models.UniqueConstraint(fields=["character", "key"], name="trait_unique_key"),
            models.CheckConstraint(condition=Q(rating__gte=0), name="trait_rating_not_negative"),
            models.CheckConstraint(
                condition=Q(progress__gte=0), name="trait_progress_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.rating}"


class Specialty(models.Model):
    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="specialties",
    )
    skill_key = models.CharField(_("skill"), max_length=60)
    name = models.CharField(_("specialty"), max_length=80)

    class Meta:
        verbose_name = _("specialty")
        verbose_name_plural = _("specialties")
        ordering = ["skill_key", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "skill_key", "name"], name="specialty_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.skill_key}: {self.name}"


class Merit(models.Model):
    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="merits"
    )
    # Catalogue key, or empty for a custom merit.
    key = models.CharField(_("key"), max_length=60, blank=True)
    name = models.CharField(_("name"), max_length=80)
    rating = models.SmallIntegerField(_("rating"), default=1)
    notes = models.CharField(_("notes"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("merit")
        verbose_name_plural = _("merits")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(rating__gte=1), name="merit_rating_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.rating}"


class Resource(models.Model):
    """A spendable pool: willpower, drama or destiny points, Prana, faith per deity."""

    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="resources",
    )
    key = models.CharField(_("key"), max_length=60)
    current = models.SmallIntegerField(_("current"), default=0)
    # Null for pools with no fixed maximum (drama points).
    maximum = models.SmallIntegerField(_("maximum"), null=True, blank=True)

    class Meta:
        verbose_name = _("resource")
        verbose_name_plural = _("resources")
        ordering = ["character", "key"]
        constraints = [
            models.UniqueConstraint(fields=["character", "key"], name="resource_unique_key"),
            models.CheckConstraint(
                condition=Q(current__gte=0)
                & (Q(maximum__isnull=True) | Q(current__lte=F("maximum"))),
                name="resource_within_bounds",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.current}/{self.maximum}"


class Aspect(models.Model):
    """A Hitos aspect: Concepto, Cita, Hito, Complicación, free or temporary."""

    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="aspects"
    )
    kind = models.CharField(_("kind"), max_length=20)
    text = models.CharField(_("text"), max_length=200)
    exhausted = models.BooleanField(_("exhausted"), default=False)
    # "scene" or "session" for temporary aspects.
    duration = models.CharField(_("duration"), max_length=10, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("aspect")
        verbose_name_plural = _("aspects")
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return self.text


class Item(models.Model):
    """Equipment: plain items, armour, weapons and shields (their stats in `data`)."""

    class Kind(models.TextChoices):
        ITEM = "item", _("Item")
        ARMOUR = "armour", _("Armour")
        WEAPON = "weapon", _("Weapon")
        SHIELD = "shield", _("Shield")

    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="items"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.ITEM)
    name = models.CharField(_("name"), max_length=80)
    weight_kg = models.DecimalField(_("weight (kg)"), max_digits=6, decimal_places=2, default=0)
    data = models.JSONField(_("data"), default=dict, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("item")
        verbose_name_plural = _("items")
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(weight_kg__gte=0), name="item_weight_not_negative"),
        ]

    def __str__(self) -> str:
        return self.name


class SheetChange(models.Model):
    """One recorded change to a sheet: who, when, which field, old and new value."""

    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.CASCADE, related_name="changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    field = models.CharField(_("field"), max_length=120)
    old_value = models.TextField(_("old value"), blank=True)
    new_value = models.TextField(_("new value"), blank=True)

    class Meta:
        verbose_name = _("sheet change")
        verbose_name_plural = _("sheet changes")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["character", "-at"])]

    def __str__(self) -> str:
        return f"{self.field}: {self.old_value} → {self.new_value}"


class CampaignTrait(models.Model):
    """A campaign's own attribute or skill list (Dado objetivo: GM-defined)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign",
        verbose_name=_("campaign"),
        on_delete=models.CASCADE,
        related_name="trait_lists",
    )
    kind = models.CharField(_("kind"), max_length=20)
    key = models.CharField(_("key"), max_length=60)
    name = models.CharField(_("name"), max_length=80)
    description = models.CharField(_("description"), max_length=300, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("campaign trait")
        verbose_name_plural = _("campaign traits")
        ordering = ["kind", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="campaign_trait_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class CharacterLedgerEntry(AppendOnlyModel):
    """A line of a character's append-only history (`XpEntry`, `mechanics.HealthEvent`):
    the character's campaign copied in, why, by whom and when. Each subclass declares its
    `character` and `scene` (their reverse names are its own) and its `kind`."""

    # The character's campaign, copied in when the row is written: the history chain and
    # the campaign's lists read it without a join.
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        verbose_name=_("campaign"),
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    # Set when the row is made (not by the INSERT): the history hash covers it.
    created_at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.campaign_id is None and self.character_id is not None:
            self.campaign_id = self.character.campaign_id
        super().save(*args, **kwargs)


class XpEntryQuerySet(AppendOnlyQuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Entries without their campaign get their character's (one query)."""
        objs = list(objs)
        missing = {entry.character_id for entry in objs if entry.campaign_id is None}
        if missing:
            campaigns = dict(
                Character.objects.filter(pk__in=missing).values_list("pk", "campaign_id")
            )
            for entry in objs:
                if entry.campaign_id is None:
                    entry.campaign_id = campaigns[entry.character_id]
        return super().bulk_create(objs, *args, **kwargs)


class XpEntry(CharacterLedgerEntry):
    """The XP ledger: awards, spends and corrections; append-only, the balance is the sum.

    Each entry stores the balance it left (`balance_after`), written in the same
    transaction that moves `Character.xp_balance`, so the ledger can be checked line by
    line and the chart of XP over time needs no running sums.
    """

    HISTORY_FIELDS = (
        "character", "kind", "amount", "balance_after", "reason", "breakdown", "created_at"
    )  # fmt: skip
    HISTORY_LINKS = ("scene", "created_by")

    class Kind(models.TextChoices):
        AWARD = "award", _("Award")
        SPEND = "spend", _("Spend")
        CORRECTION = "correction", _("Correction")

    # The ledger goes only with the campaign: deleting the character alone is refused
    # while it has entries.
    character = models.ForeignKey(
        Character, verbose_name=_("character"), on_delete=models.RESTRICT, related_name="xp_entries"
    )
    # The scene an award (or its correction) is for; the title is also kept in the
    # breakdown, so the entry still reads right if the scene is deleted.
    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="xp_entries",
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    amount = models.IntegerField(_("amount"))
    balance_after = models.IntegerField(_("balance after"), default=0)
    breakdown = models.JSONField(_("breakdown"), default=dict, blank=True)

    objects = XpEntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("XP entry")
        verbose_name_plural = _("XP entries")
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["character", "created_at"]),
            models.Index(fields=["scene", "character"]),
            models.Index(
                fields=["campaign", "-created_at", "-id"], name="xp_entry_campaign_newest"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance_after__gte=0), name="xp_entry_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(kind="award", amount__gte=0)
                | Q(kind="spend", amount__lt=0)
                | Q(kind="correction"),
                name="xp_entry_sign_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["campaign", "chain_seq"], name="xp_entry_chain_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.amount:+d}"


def reason_text(reason: str, breakdown: dict | None) -> str:
    """An XP entry's reason in the reader's language, when the site wrote it
    (campaigns/texts.py)."""
    texts = (breakdown or {}).get(TEXTS) or {}
    return shown(reason, texts.get("reason"))


class XpSummary(models.Model):
    """The XP ledger summed per character and span of time, for each span the chart may
    group by (characters/xp_buckets.py): what it draws without reading every entry.

    Derived data, never written by the app: a database trigger adds each new XpEntry to
    its rows in the same statement, whatever the path (characters/xp_summary.py). Entries
    are deleted only with their campaign, which takes these rows along."""

    # The unique constraint's first column: no index of its own.
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    span = models.PositiveIntegerField()  # seconds
    bucket = models.BigIntegerField()  # which span since 1970
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()
    total = models.IntegerField()  # every amount: the balance moves by this
    earned = models.IntegerField()  # awards and corrections
    entries = models.PositiveIntegerField()
    # The lowest and highest balance its entries left (their balance_after): what the
    # chart draws of a span holding several, which its total alone would hide.
    low = models.IntegerField()
    peak = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "span", "character", "bucket"], name="xp_summary_bucket"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character_id} {self.span}s #{self.bucket}: {self.total:+d}"


class WillpowerGrant(models.Model):
    """The point of Willpower a GM grants at a scene's end for acting by Virtue or Vice.

    One per character and scene, so re-submitting the award panel never grants twice.
    `points` is 0 when the pool was already full.
    """

    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="willpower_grants",
    )
    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.CASCADE,
        related_name="willpower_grants",
    )
    points = models.SmallIntegerField(_("points"), default=1)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("Willpower grant")
        verbose_name_plural = _("Willpower grants")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "scene"], name="willpower_grant_once_per_scene"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} · {self.scene} +{self.points}"


class XpPurchaseQuerySet(models.QuerySet):
    def held(self, character: Character, *, drama: bool) -> int:
        """What the character's purchases waiting for a GM hold: XP, or drama points
        (`drama`). A request reserves its cost until it is decided."""
        waiting = self.filter(character=character, status=XpPurchase.Status.PENDING)
        kind = Q(kind=XpPurchase.Kind.DRAMA)
        waiting = waiting.filter(kind) if drama else waiting.exclude(kind)
        return waiting.aggregate(total=models.Sum("cost"))["total"] or 0


class XpPurchase(models.Model):
    """A purchase with XP (or, in Hitos, a sacrificed drama point), from request to applied.

    When the campaign asks for approval it waits as pending until a GM approves
    (it is then applied at once) or rejects it; otherwise it is applied on request.
    """

    class Kind(models.TextChoices):
        ATTRIBUTE = "attribute", _("Attribute")
        SKILL = "skill", _("Skill")
        SPECIALTY = "specialty", _("Specialty")
        MERIT = "merit", _("Merit")
        MORALITY = "morality", "Moralidad"
        WILLPOWER = "willpower", "Fuerza de Voluntad"
        DRAMA = "drama", _("Skill for a drama point")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPLIED = "applied", _("Applied")
        REJECTED = "rejected", _("Rejected")
        CANCELLED = "cancelled", _("Cancelled")

    character = models.ForeignKey(
        Character,
        verbose_name=_("character"),
        on_delete=models.CASCADE,
        related_name="xp_purchases",
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    # Trait key; for a specialty the skill's key; for a merit the catalogue key ("" custom).
    key = models.CharField(_("key"), max_length=60, blank=True)
    # What the sheet shows: the specialty's text, the merit's name, the trait's name.
    name = models.CharField(_("name"), max_length=80, blank=True)
    current = models.SmallIntegerField(_("current rating"), default=0)
    target = models.SmallIntegerField(_("new rating"), default=0)
    cost = models.PositiveSmallIntegerField(_("cost"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    entry = models.OneToOneField(
        XpEntry,
        verbose_name=_("ledger entry"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="purchase",
    )

    objects = XpPurchaseQuerySet.as_manager()

    class Meta:
        verbose_name = _("XP purchase")
        verbose_name_plural = _("XP purchases")
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "applied", "rejected", "cancelled"]),
                name="xp_purchase_status_valid",
            ),
            models.UniqueConstraint(
                fields=["character", "kind", "key", "name"],
                condition=Q(status="pending"),
                name="xp_purchase_one_pending_per_trait",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} · {self.name} {self.current}→{self.target} ({self.cost})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def uses_drama_points(self) -> bool:
        return self.kind == self.Kind.DRAMA


class DiaryEntry(RendersMarkdown):
    """A player's diary (diario) for one scene and one of their characters."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    class Visibility(models.TextChoices):
        GROUP = "group", _("Shared with the group")
        GM_ONLY = "gm_only", _("Only the GM")

    scene = models.ForeignKey(
        "campaigns.Scene",
        verbose_name=_("scene"),
        on_delete=models.CASCADE,
        related_name="diary_entries",
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
    body = models.TextField(_("text"), help_text=_("Markdown."), max_length=limits.DIARY)
    body_html = RenderedMarkdownField(source="body")
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
    # A GM hid the entry: only GMs and its author still read it; the text stays.
    hidden_at = models.DateTimeField(_("hidden by the GM"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("hidden by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        db_table = "campaigns_diaryentry"
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

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None
