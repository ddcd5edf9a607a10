"""Creating a Hitos character: the traits, and the aspects that have fixed slots."""

from __future__ import annotations

from django import forms

from campaigns.limits import limit
from characters.forms.creation import TraitsCreationForm
from characters.models import Aspect
from mechanics.rules.hitos import catalogue


class HitosCreationForm(TraitsCreationForm):
    """Free and temporary aspects are added on the sheet during play."""

    extra_template = "systems/hitos/create_aspects.html"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.aspect_fields: list[tuple[str, str]] = []
        for kind in catalogue.ASPECT_KINDS:
            if kind.slots is None:
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
        return [
            (kind, data[name].strip()) for kind, name in self.aspect_fields if data[name].strip()
        ]
