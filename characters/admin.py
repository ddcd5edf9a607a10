"""Character admin for GMs, scoped to the campaigns they run (campaigns/admin.py).

Sheets are created on the site (creation form or import), which gives them every
trait of their system, full pools and a first history entry, so the admin adds none.
A character cannot change campaign: its ratings are keyed to its system. Edits made
here are checked against the system adapter and recorded in the sheet history. The
history and the XP ledger are append-only: shown read-only, never edited here.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.admin import CampaignScopedAdmin
from campaigns.models import Role
from characters.models import (
    Aspect,
    Character,
    Item,
    Merit,
    Resource,
    SheetChange,
    Specialty,
    Trait,
    XpEntry,
)
from characters.services import record_change, trait_set
from mechanics.rules.errors import RuleError
from mechanics.systems.registry import get_system


class _SheetInlineForm(forms.ModelForm):
    """Inline rows know their character (the inline formset sets it, new rows too), so
    they are checked against its system."""

    def sheet(self) -> Character | None:
        return self.instance.character if self.instance.character_id else None


class TraitInlineForm(_SheetInlineForm):
    def clean(self):
        data = super().clean()
        character = self.sheet()
        key, rating = data.get("key", self.instance.key), data.get("rating")
        if character is None or key is None or rating is None:
            return data
        spec = get_system(character.campaign.system).trait_spec(character.campaign, key)
        if spec is None:
            raise ValidationError(_("Unknown trait: %(key)s.") % {"key": key})
        if not spec.minimum <= rating <= spec.maximum:
            raise ValidationError(
                _("%(name)s must be between %(low)s and %(high)s.")
                % {"name": spec.name, "low": spec.minimum, "high": spec.maximum}
            )
        return data


class MeritInlineForm(_SheetInlineForm):
    def clean(self):
        data = super().clean()
        character = self.sheet()
        if character is None or data.get("rating") is None:
            return data
        allowed = get_system(character.campaign.system).merit_ratings(data.get("key") or "")
        if data["rating"] not in allowed:
            raise ValidationError(
                _("%(name)s cannot have %(rating)s dots.")
                % {"name": data.get("name", ""), "rating": data["rating"]}
            )
        return data


class SpecialtyInlineForm(_SheetInlineForm):
    def clean(self):
        data = super().clean()
        character = self.sheet()
        skill = data.get("skill_key")
        if character is None or not skill:
            return data
        if not character.traits.filter(key=skill, kind="skill", rating__gte=1).exists():
            raise ValidationError(_("A specialty needs a skill with at least one dot."))
        return data


class ResourceInlineForm(_SheetInlineForm):
    def clean_current(self) -> int:
        current = self.cleaned_data["current"]
        maximum = self.instance.maximum
        if current < 0 or (maximum is not None and current > maximum):
            raise ValidationError(
                _("Between 0 and %(max)s.") % {"max": maximum if maximum is not None else "∞"}
            )
        return current


class AspectInlineForm(_SheetInlineForm):
    def clean(self):
        data = super().clean()
        character = self.sheet()
        if character is None:
            return data
        if data.get("kind") not in get_system(character.campaign.system).aspect_slots():
            raise ValidationError(_("Unknown kind of aspect."))
        if data.get("duration", "") not in ("", "scene", "session"):
            raise ValidationError(_("The duration is empty, “scene” or “session”."))
        return data


class ItemInlineForm(_SheetInlineForm):
    def clean(self):
        data = super().clean()
        character = self.sheet()
        if character is None or self.errors:
            return data
        system = get_system(character.campaign.system)
        try:
            data["data"] = system.clean_item(
                data.get("kind"), data.get("name"), float(data["weight_kg"]), data.get("data") or {}
            )
        except RuleError as error:
            raise ValidationError(error.translated(_)) from None
        except (TypeError, KeyError):
            raise ValidationError(_("These stats do not fit this kind of item.")) from None
        self.instance.data = data["data"]
        return data


class _SheetInline(admin.TabularInline):
    extra = 0

    # The parent character is already scoped to the user, so its inlines follow the site
    # (as campaigns.admin.MembershipInline does).
    def has_view_permission(self, request, obj=None) -> bool:
        return self.admin_site.has_permission(request)

    has_change_permission = has_add_permission = has_delete_permission = has_view_permission


class TraitInline(_SheetInline):
    """Every sheet has every trait of its system: ratings change, rows stay."""

    model = Trait
    form = TraitInlineForm
    fields = ("key", "kind", "rating", "progress")
    readonly_fields = ("key", "kind")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class SpecialtyInline(_SheetInline):
    model = Specialty
    form = SpecialtyInlineForm
    fields = ("skill_key", "name")


class MeritInline(_SheetInline):
    model = Merit
    form = MeritInlineForm
    fields = ("key", "name", "rating", "notes")


class ResourceInline(_SheetInline):
    model = Resource
    form = ResourceInlineForm
    fields = ("key", "current", "maximum")
    # Maximums derive from traits; pools are added by the services.
    readonly_fields = ("key", "maximum")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class AspectInline(_SheetInline):
    model = Aspect
    form = AspectInlineForm
    fields = ("kind", "text", "exhausted", "duration", "position")


class ItemInline(_SheetInline):
    model = Item
    form = ItemInlineForm
    fields = ("kind", "name", "weight_kg", "data", "position")


@admin.register(Character)
class CharacterAdmin(CampaignScopedAdmin):
    list_display = ("name", "campaign", "owner", "is_npc", "approved_over_budget", "updated_at")
    list_filter = ("is_npc", "approved_over_budget", "campaign__system")
    search_fields = ("name", "concept", "owner__username", "campaign__name")
    list_select_related = ("campaign", "owner")
    raw_id_fields = ("owner",)
    fields = (
        "campaign",
        "owner",
        "is_npc",
        "name",
        "concept",
        "description",
        "notes",
        "details",
        "health",
        "approved_over_budget",
        "approved_by",
        "xp_balance",
        "created_at",
        "updated_at",
    )
    readonly_fields = (
        "campaign",
        "health",
        "approved_by",
        "xp_balance",
        "created_at",
        "updated_at",
    )
    inlines = [TraitInline, SpecialtyInline, MeritInline, ResourceInline, AspectInline, ItemInline]

    def has_add_permission(self, request) -> bool:
        return False

    def get_inline_instances(self, request, obj=None):
        # Merits and aspects only where the system has them.
        system = get_system(obj.campaign.system) if obj is not None else None
        hidden = set()
        if system is not None and not system.merit_ratings(""):
            hidden.add(MeritInline)
        if system is not None and not system.aspect_slots():
            hidden.add(AspectInline)
        return [
            inline
            for inline in super().get_inline_instances(request, obj)
            if type(inline) not in hidden
        ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        character = obj

        class CharacterForm(form):
            def clean_owner(self):
                owner = self.cleaned_data.get("owner")
                members = character.campaign.memberships.filter(role__in=[Role.GM, Role.PLAYER])
                if owner is not None and not members.filter(user=owner).exists():
                    raise ValidationError(_("The owner must be a GM or player of the campaign."))
                return owner

            def clean_details(self):
                details = self.cleaned_data.get("details") or {}
                if not isinstance(details, dict):
                    raise ValidationError(_("The details must be a JSON object."))
                system = get_system(character.campaign.system)
                try:
                    return system.clean_details(details, character.campaign)
                except RuleError as error:
                    raise ValidationError(error.translated(_)) from None

        return CharacterForm

    def save_model(self, request, obj, form, change):
        before = Character.objects.get(pk=obj.pk)
        if "approved_over_budget" in form.changed_data:
            obj.approved_by = request.user if obj.approved_over_budget else None
        for field in form.changed_data:
            if field == "details":
                for key in sorted(set(before.details) | set(obj.details)):
                    old, new = before.details.get(key), obj.details.get(key)
                    record_change(obj, request.user, f"details:{key}", old, new)
            else:
                old, new = getattr(before, field), getattr(obj, field)
                record_change(obj, request.user, field, old, new)
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):
        character, user = form.instance, request.user
        model = formset.model
        label, shown = _RECORDED[model]
        before = {row.pk: row for row in model.objects.filter(character=character)}
        instances = formset.save(commit=False)
        for row in formset.deleted_objects:
            record_change(character, user, label(row), getattr(row, shown), "")
            row.delete()
        for row in instances:
            old = before.get(row.pk)
            if model is Trait:
                # Through the service: pools whose maximum follows the trait follow it.
                trait_set(character=character, user=user, key=row.key, rating=row.rating)
                Trait.objects.filter(pk=row.pk).update(progress=row.progress)
                record_change(character, user, f"pdp:{row.key}", old.progress, row.progress)
                continue
            row.save()
            record_change(
                character,
                user,
                label(row),
                getattr(old, shown) if old else "",
                getattr(row, shown),
            )
        formset.save_m2m()


# Inline rows as the history names them, and the value it shows.
_RECORDED = {
    Trait: (lambda row: f"trait:{row.key}", "rating"),
    Specialty: (lambda row: f"specialty:{row.skill_key}", "name"),
    Merit: (lambda row: f"merit:{row.name}", "rating"),
    Resource: (lambda row: f"resource:{row.key}", "current"),
    Aspect: (lambda row: f"aspect:{row.text}", "text"),
    Item: (lambda row: f"item:{row.kind}", "name"),
}


class _ReadOnlyScopedAdmin(CampaignScopedAdmin):
    """Append-only records: GMs read those of their campaigns, nobody edits them."""

    campaign_field = "character__campaign"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SheetChange)
class SheetChangeAdmin(_ReadOnlyScopedAdmin):
    list_display = ("at", "character", "field", "old_value", "new_value", "user")
    list_select_related = ("character", "user")
    search_fields = ("character__name", "field")
    date_hierarchy = "at"


@admin.register(XpEntry)
class XpEntryAdmin(_ReadOnlyScopedAdmin):
    list_display = ("created_at", "character", "kind", "amount", "reason", "created_by")
    # The entry's own fields first: the ledger's shared ones come first in the model.
    fields = (
        "character", "campaign", "scene", "kind", "amount", "balance_after", "reason",
        "breakdown", "created_by",
    )  # fmt: skip
    list_filter = ("kind",)
    list_select_related = ("character", "created_by")
    search_fields = ("character__name", "reason")
