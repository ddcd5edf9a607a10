from __future__ import annotations

from datetime import timedelta
from functools import partial

from django import forms
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.images import CleanImage, ImageUploadField
from campaigns.models import Campaign, Role, system_options
from campaigns.services import upload_allowance_take
from campaigns.texts import LineField, LongTextarea
from mechanics.systems.registry import all_systems, get_system, system_choices


def house_rule_field_name(system: str, key: str) -> str:
    return f"rule_{system}_{key}"


# Campaign settings stored as model fields (the services take them as `options`), besides
# those only one system reads (`GameSystem.campaign_options`).
OPTION_FIELDS = (
    "max_characters_per_player",
    "players_see_full_sheets",
    "xp_rubric",
    "xp_purchases_need_approval",
    "owner_applies_damage",
)


# How many characters a player may have in one campaign (the site and the admin).
CHARACTERS_PER_PLAYER = (1, 20)


class CampaignForm(forms.ModelForm):
    """Name, description, system, the settings, and the house rules of every system.

    All systems' house rules and settings are rendered (house rules grouped), so the
    form works without JavaScript; only the chosen system's house rules are stored.
    """

    max_characters_per_player = forms.IntegerField(
        label=capfirst(Campaign._meta.get_field("max_characters_per_player").verbose_name),
        min_value=CHARACTERS_PER_PLAYER[0],
        max_value=CHARACTERS_PER_PLAYER[1],
        initial=1,
        help_text=_("From 1 to 20. GMs may create any number."),
    )
    image = ImageUploadField(label=_("Campaign image"))
    remove_image = forms.BooleanField(label=_("Remove the image"), required=False)

    class Meta:
        model = Campaign
        fields = [
            "name",
            "description",
            "system",
            "max_characters_per_player",
            "players_see_full_sheets",
            *OPTION_FIELDS[2:],
        ]
        field_classes = {"name": LineField}
        widgets = {"description": LongTextarea(attrs={"rows": 4})}
        help_texts = {"description": _("Markdown: **bold**, *italics*, lists, links.")}

    def __init__(self, *args, uploader=None, **kwargs):
        super().__init__(*args, **kwargs)
        if uploader is not None:
            self.fields["image"].allowance = partial(upload_allowance_take, user=uploader)
        self.fields["system"].choices = system_choices()
        self.fields["name"].widget.attrs["autofocus"] = True
        rubric = self.fields["xp_rubric"]
        rubric.widget = forms.NullBooleanSelect()
        # "unknown" is the stored None: the system decides (`GameSystem.xp_rubric_default`).
        on_by_default = ", ".join(s.name for s in all_systems() if s.xp_rubric_default)
        rubric.widget.choices = [
            ("unknown", _("As the system says")),
            ("true", _("On: Interpretación, Ideas, Diario…")),
            ("false", _("Off: a plain XP amount per character")),
        ]
        # Which systems say "on" goes below the list: in it, a phone cut it off.
        rubric.help_text = gettext(
            "How the GM awards XP at the end of each scene. As the system says: on for "
            "%(systems)s, off for the others."
        ) % {"systems": on_by_default}
        for name, help_text in system_options().items():
            field = Campaign._meta.get_field(name).formfield(help_text=help_text)
            field.initial = getattr(self.instance, name)
            self.fields[name] = field
        self.fields["owner_applies_damage"].help_text = _(
            "Off: only GMs apply damage, healing and treatments. On: each player may also do "
            "it on their own characters' sheets."
        )
        instance_rules = self.instance.rules if self.instance.pk else {}
        for game_system in all_systems():
            system = game_system.key
            for setting in game_system.house_rules:
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

    def image_change(self) -> tuple[bool, CleanImage | None]:
        """(whether the image changes, the new one or None to remove it)."""
        image = self.cleaned_data["image"]
        return image is not None or self.cleaned_data["remove_image"], image

    def options(self) -> dict:
        """The settings the campaign services store as they are."""
        return {field: self.cleaned_data[field] for field in (*OPTION_FIELDS, *system_options())}

    def system_option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in system_options()]

    def house_rule_groups(self):
        """(system value, label, bound fields) for the template."""
        for game_system in all_systems():
            fields = [
                self[house_rule_field_name(game_system.key, s.key)] for s in game_system.house_rules
            ]
            yield game_system.key, game_system.name, fields

    def clean(self):
        cleaned = super().clean()
        system = cleaned.get("system")
        if system:
            rules = {}
            for setting in get_system(system).house_rules:
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
