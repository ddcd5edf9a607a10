"""Forms for importing a sheet and editing a campaign's trait lists.

They check what the user sent; the services check it again and do the writes.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from campaigns.models import Role
from campaigns.texts import LineField, LongTextarea
from characters.models import CampaignTrait
from characters.transfer import MAX_FILE_BYTES


class ImportForm(forms.Form):
    """The file, and for GMs the owner (none for an NPC). Players import for themselves:
    they get no owner field, so a forged `owner` is never read."""

    file = forms.FileField(
        label=_("Character file (JSON)"),
        help_text=_("A file exported from a sheet in Crónica, at most 256 KB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def __init__(self, *args, campaign, access, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.access = access
        if access.is_gm:
            users = (
                get_user_model()
                .objects.filter(
                    memberships__campaign=campaign,
                    memberships__role__in=[Role.GM, Role.PLAYER],
                )
                .order_by("username")
            )
            self.fields["owner"] = forms.ModelChoiceField(
                label=_("Owner"),
                queryset=users,
                required=False,
                empty_label=_("Nobody: an NPC run by the GMs"),
                help_text=_("The member who plays this character."),
            )
            self.initial.setdefault("owner", access.membership.user_id)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("The file is too large: a character file has at most %(size)s KB.")
                % {"size": MAX_FILE_BYTES // 1024}
            )
        return upload

    def owner_for(self, user):
        return self.cleaned_data.get("owner") if self.access.is_gm else user


class TraitAddForm(forms.Form):
    kind = forms.CharField(widget=forms.HiddenInput)
    name = LineField(label=_("Name"), max_length=limit(CampaignTrait, "name"))
    description = forms.CharField(
        label=_("Description"), max_length=limit(CampaignTrait, "description"), required=False
    )


class TraitEditForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=60)
    name = LineField(label=_("Name"), max_length=limit(CampaignTrait, "name"))
    description = forms.CharField(
        label=_("Description"),
        max_length=limit(CampaignTrait, "description"),
        required=False,
        widget=LongTextarea(attrs={"rows": 2}),
    )


class TraitKeyForm(forms.Form):
    """Remove or move: only the trait's key."""

    key = forms.CharField(max_length=60)
