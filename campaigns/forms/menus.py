"""The filter menus of the logs and the search: a choice field's <option>s written in one
go, the chosen one selected. A long campaign's scene menu has dozens, and a template loop
asks the field for its value at every one."""

from __future__ import annotations

from django import forms
from django.utils.safestring import SafeString, mark_safe

from campaigns.markup import esc


def option_tags(field: forms.BoundField) -> SafeString:
    value = field.value()
    chosen = "" if value is None else str(value)
    return mark_safe(  # every key and label escaped by esc
        "".join(
            f'<option value="{esc(key)}"{" selected" if str(key) == chosen else ""}>'
            f"{esc(label)}</option>"
            for key, label in field.field.choices
        )
    )
