"""Creating a Hitos character: the traits, and the aspects that have fixed slots."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.limits import limit
from characters.forms.creation import TraitsCreationForm
from characters.models import Aspect
from mechanics.rules.hitos import catalogue

# The Concepto aspect is the character's concept: asked once, by the form's own field.
CONCEPT_ASPECT = "concepto"


class HitosCreationForm(TraitsCreationForm):
    """Free and temporary aspects are added on the sheet during play."""

    extra_template = "systems/hitos/create_aspects.html"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["concept"].help_text = _(
            "A few words: who this character is. It is also the Concepto aspect."
        )
        self.aspect_fields: list[tuple[str, str]] = []
        for kind in catalogue.ASPECT_KINDS:
            if kind.slots is None or kind.key == CONCEPT_ASPECT:
                continue
            for index in range(kind.slots):
                name = f"aspect_{kind.key}_{index}"
                label = kind.name if kind.slots == 1 else f"{kind.name} {index + 1}"
                self.fields[name] = forms.CharField(
                    label=label, max_length=limit(Aspect, "text"), required=False
                )
                self.aspect_fields.append((kind.key, name))

    def aspect_bound_fields(self) -> list[forms.BoundField]:
        return [self[name] for _kind, name in self.aspect_fields]

    def aspects(self) -> list[tuple[str, str]]:
        data = self.cleaned_data
        typed = [(CONCEPT_ASPECT, data["concept"])]
        typed += [(kind, data[name]) for kind, name in self.aspect_fields]
        return [(kind, text.strip()) for kind, text in typed if text.strip()]
