from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from campaigns.forms.campaign import CHARACTERS_PER_PLAYER
from campaigns.models import Campaign, Invitation, Membership
from campaigns.permissions import campaigns_run_by, may_administer_campaign
from campaigns.services.campaign import membership_record_removal


class CampaignScopedAdmin(admin.ModelAdmin):
    """Shows and edits only objects of campaigns the user runs (superusers: all).

    `campaign_field` is the path from the model to its campaign ("" for Campaign).
    Access follows campaigns.permissions, not Django's model permissions, so a GM
    needs no staff flag or permission rows.
    """

    campaign_field = "campaign"

    def _campaign_id(self, obj) -> int | None:
        if obj is None:
            return None
        if not self.campaign_field:
            return obj.pk
        target = obj
        for part in self.campaign_field.split("__"):
            target = getattr(target, part, None)
        return target.pk if target is not None else None

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        lookup = f"{self.campaign_field}__in" if self.campaign_field else "pk__in"
        return queryset.filter(**{lookup: campaigns_run_by(request.user).values("pk")})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "campaign" and not request.user.is_superuser:
            kwargs["queryset"] = campaigns_run_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request) -> bool:
        return self.admin_site.has_permission(request)

    def has_view_permission(self, request, obj=None) -> bool:
        return self._allowed(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return self._allowed(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self._allowed(request, obj)

    def has_add_permission(self, request) -> bool:
        return self.admin_site.has_permission(request)

    def _allowed(self, request, obj) -> bool:
        if not self.admin_site.has_permission(request):
            return False
        return obj is None or may_administer_campaign(request.user, self._campaign_id(obj))

    def response_action(self, request, queryset, **kwargs):
        # Django filters on the ticked ids as posted: one that is not an id at all
        # ("1e309") was a server error. Refused like an empty selection.
        try:
            for value in request.POST.getlist(ACTION_CHECKBOX_NAME):
                self.model._meta.pk.to_python(value)
        except ValidationError:
            self.message_user(
                request, _("Choose items from the list; nothing was changed."), messages.WARNING
            )
            return None
        return super().response_action(request, queryset, **kwargs)

    def save_model(self, request, obj, form, change):
        # The campaign choices are already scoped; this guards forged POSTs.
        if not may_administer_campaign(request.user, self._campaign_id(obj)):
            raise PermissionDenied
        super().save_model(request, obj, form, change)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)

    # The parent campaign is already scoped to the user, so its inlines follow the site.
    def has_view_permission(self, request, obj=None) -> bool:
        return self.admin_site.has_permission(request)

    has_change_permission = has_add_permission = has_delete_permission = has_view_permission


@admin.register(Campaign)
class CampaignAdmin(CampaignScopedAdmin):
    campaign_field = ""
    list_display = ("name", "system", "created_at")
    list_filter = ("system",)
    search_fields = ("name",)
    readonly_fields = ("created_by", "created_at", "updated_at")
    inlines = [MembershipInline]

    def has_add_permission(self, request) -> bool:
        # New campaigns go through the site so their creator becomes GM.
        return request.user.is_superuser

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "max_characters_per_player":
            kwargs["min_value"], kwargs["max_value"] = CHARACTERS_PER_PLAYER
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Membership:
            for membership in formset.deleted_objects:
                membership_record_removal(membership=membership, removed_by=request.user)


@admin.register(Membership)
class MembershipAdmin(CampaignScopedAdmin):
    list_display = ("user", "campaign", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("user__username", "campaign__name")
    autocomplete_fields = ("user",)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        membership_record_removal(membership=obj, removed_by=request.user)

    def delete_queryset(self, request, queryset):
        removed = list(queryset)
        super().delete_queryset(request, queryset)
        for membership in removed:
            membership_record_removal(membership=membership, removed_by=request.user)


@admin.register(Invitation)
class InvitationAdmin(CampaignScopedAdmin):
    list_display = ("campaign", "role", "expires_at", "uses", "max_uses", "revoked_at")
    list_filter = ("role",)
    readonly_fields = ("token", "uses", "created_by")
