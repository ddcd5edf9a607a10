from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from campaigns.texts import LongTextarea
from characters.models import DiaryEntry


class DiaryForm(forms.Form):
    """What a player writes; draft or published comes from the button pressed."""

    ACTIONS = {"draft": DiaryEntry.Status.DRAFT, "publish": DiaryEntry.Status.PUBLISHED}

    body = forms.CharField(
        label=_("Diary entry"),
        widget=LongTextarea(attrs={"rows": 14}),
        max_length=limit(DiaryEntry, "body"),
        strip=False,
        help_text=_("Markdown: **bold**, *italics*, lists starting with “-”, > quotes."),
    )
    visibility = forms.ChoiceField(
        label=_("Who can read it once published"),
        choices=DiaryEntry.Visibility.choices,
        initial=DiaryEntry.Visibility.GROUP,
        widget=forms.RadioSelect,
    )

    def clean_body(self) -> str:
        body = self.cleaned_data["body"]
        if not body.strip():
            raise forms.ValidationError(_("Write something before saving."), code="empty")
        return body
