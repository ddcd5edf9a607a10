"""The filter menus of the logs and the search: a choice field's <option>s written in one
go, the chosen one selected. A long campaign's scene menu has dozens, and a template loop
asks the field for its value at every one."""

from __future__ import annotations

from django import forms
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe


def option_tags(field: forms.BoundField) -> SafeString:
    value = field.value()
    chosen = "" if value is None else str(value)
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        (
            (key, mark_safe(" selected") if str(key) == chosen else "", label)
            for key, label in field.field.choices
        ),
    )
