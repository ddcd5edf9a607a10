"""The search form: what to look for and where (GET, so a search has an address)."""

from __future__ import annotations

from django import forms
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from campaigns.forms.menus import option_tags
from campaigns.scene_menu import scene_menu
from search.models import SearchEntry
from search.text import MAX_QUERY


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, strip=True)
    kind = forms.ChoiceField(label=_("Kind"), required=False)
    story = forms.TypedChoiceField(label=_("Story"), required=False, coerce=int, empty_value=None)
    scene = forms.TypedChoiceField(label=_("Scene"), required=False, coerce=int, empty_value=None)
    character = forms.TypedChoiceField(
        label=_("Character"), required=False, coerce=int, empty_value=None
    )
    page = forms.IntegerField(required=False, min_value=1, max_value=10_000)

    def __init__(self, data, *, campaign, kinds: list[str]):
        super().__init__(data)
        everything = [("", _("All"))]
        names = dict(SearchEntry.Kind.choices)
        self.fields["kind"].choices = everything + [(kind, names[kind]) for kind in kinds]
        self.fields["story"].choices = everything + list(
            campaign.stories.order_by("position", "pk").values_list("pk", "title")
        )
        # The latest scenes and the one chosen, as the logs' filters offer them.
        self.scene_menu = scene_menu(campaign, (data or {}).get("scene"))
        self.fields["scene"].choices = everything + self.scene_menu.scenes
        self.fields["character"].choices = everything + list(
            campaign.characters.order_by("name", "pk").values_list("pk", "name")
        )
        # Longer queries get the parser's message, not a form error.
        self.fields["q"].widget.attrs.update(maxlength=MAX_QUERY, type="search")

    def menus(self) -> list[tuple[forms.BoundField, SafeString]]:
        """Each filter's field and its options, the chosen one selected."""
        return [
            (self[name], option_tags(self[name]))
            for name in ("kind", "story", "scene", "character")
        ]
