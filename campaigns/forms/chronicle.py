"""Forms for the chronicle: stories, scenes, diary entries and GM notes."""

from __future__ import annotations

from django import forms
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from campaigns.models import Campaign, Scene, SceneNote, Story
from campaigns.texts import LineField, LongTextarea


class StoryForm(forms.ModelForm):
    class Meta:
        model = Story
        fields = ["title", "summary"]
        field_classes = {"title": LineField}
        widgets = {"summary": LongTextarea(attrs={"rows": 4})}
        help_texts = {"summary": _("Markdown.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].widget.attrs["autofocus"] = True


class ParticipantsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        if obj.owner_id is None:
            return _("%(name)s (NPC)") % {"name": obj.name}
        return f"{obj.name} · {obj.owner.username}"


class SceneForm(forms.ModelForm):
    """A scene's details. Story and participants are limited to the scene's campaign,
    so a forged id from another campaign fails validation."""

    participants = ParticipantsField(
        label=_("Participating characters"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Scene
        fields = ["title", "story", "date", "session_number", "place", "summary", "participants"]
        field_classes = {"title": LineField, "place": LineField}
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "summary": LongTextarea(attrs={"rows": 5}),
        }
        help_texts = {"summary": _("Markdown.")}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].widget.attrs["autofocus"] = True
        self.fields["story"].queryset = campaign.stories.all()
        self.fields["story"].empty_label = _("(no story)")
        self.fields["participants"].queryset = campaign.characters.select_related("owner").order_by(
            "is_npc", "name", "pk"
        )
        self.fields["session_number"].min_value = 1
        self.fields["session_number"].widget.attrs["min"] = 1
        if not self.instance.pk and not self.is_bound:
            last = campaign.scenes.aggregate(last=Max("session_number"))["last"]
            self.initial.setdefault("session_number", last or 1)
            self.initial.setdefault("date", timezone.localdate())


class SceneNoteForm(forms.Form):
    body = forms.CharField(
        label=_("GM note"),
        widget=LongTextarea(attrs={"rows": 4}),
        max_length=limit(SceneNote, "body"),
        strip=False,
        help_text=_("Only GMs see these notes. Markdown."),
    )

    def clean_body(self) -> str:
        body = self.cleaned_data["body"]
        if not body.strip():
            raise forms.ValidationError(_("Write something before saving."), code="empty")
        return body
