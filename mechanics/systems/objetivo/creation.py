"""Creating a Dado objetivo character: the traits and the specialization."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.forms.creation import TraitsCreationForm


class ObjetivoCreationForm(TraitsCreationForm):
    extra_template = "systems/objetivo/create_specialization.html"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        skills = [
            (spec.key, spec.name)
            for spec in self.system.trait_specs(self.campaign)
            if spec.kind == "skill"
        ]
        self.fields["specialization"] = forms.ChoiceField(
            label=_("Skill"),
            choices=[("", "—"), *skills],
            required=False,
            help_text=_("Once per scene, a roll of this skill keeps the highest die."),
        )

    def details(self) -> dict:
        chosen = self.cleaned_data.get("specialization")
        return {"specialization": chosen} if chosen else {}
