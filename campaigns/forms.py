from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Role, System
from mechanics.rules.settings import SYSTEM_SETTINGS


def house_rule_field_name(system: str, key: str) -> str:
    return f"rule_{system}_{key}"


class CampaignForm(forms.ModelForm):
    """Name, description, system, and the house rules of every system.

    All systems' house rules are rendered (grouped), so the form works without
    JavaScript; only the chosen system's values are stored.
    """

    class Meta:
        model = Campaign
        fields = [
            "name",
            "description",
            "system",
            "max_characters_per_player",
            "players_see_full_sheets",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = System.choices
        self.fields["name"].widget.attrs["autofocus"] = True
        instance_rules = self.instance.rules if self.instance.pk else {}
        for system, defs in SYSTEM_SETTINGS.items():
            for setting in defs:
                initial = (
                    instance_rules.get(setting.key, setting.default)
                    if self.instance.pk and self.instance.system == system
                    else setting.default
                )
                label = gettext(setting.label)
                if setting.is_bool:
                    field = forms.BooleanField(label=label, required=False, initial=initial)
                else:
                    field = forms.IntegerField(
                        label=label,
                        initial=initial,
                        min_value=setting.minimum,
                        max_value=setting.maximum,
                        required=False,
                    )
                field.system = system
                self.fields[house_rule_field_name(system, setting.key)] = field

    def house_rule_groups(self):
        """(system value, label, bound fields) for the template."""
        for value, label in System.choices:
            fields = [self[house_rule_field_name(value, s.key)] for s in SYSTEM_SETTINGS[value]]
            yield value, label, fields

    def clean(self):
        cleaned = super().clean()
        system = cleaned.get("system")
        if system:
            rules = {}
            for setting in SYSTEM_SETTINGS[system]:
                value = cleaned.get(house_rule_field_name(system, setting.key))
                if value is None:
                    value = setting.default
                if value != setting.default:
                    rules[setting.key] = value
            cleaned["house_rules"] = rules
        return cleaned


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)
    expires_in_days = forms.IntegerField(
        label=_("Valid for (days)"), min_value=1, max_value=365, initial=7
    )
    max_uses = forms.IntegerField(
        label=_("Maximum uses"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Leave empty for unlimited uses."),
    )

    def expires_at(self):
        return timezone.now() + timedelta(days=self.cleaned_data["expires_in_days"])


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
