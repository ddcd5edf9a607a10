"""The filter menus of the logs and the search: a choice field's <option>s written in one
go, the chosen one selected. A long campaign's scene menu has dozens, and a template loop
asks the field for its value at every one."""

from __future__ import annotations

from html import escape

from django import forms
from django.utils.safestring import SafeString, mark_safe


def _text(value: object) -> str:
    """What format_html writes of a value (conditional_escape), without its lazy-string
    wrappers: a menu writes dozens."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def option_tags(field: forms.BoundField) -> SafeString:
    value = field.value()
    chosen = "" if value is None else str(value)
    return mark_safe(  # every key and label escaped by _text
        "".join(
            f'<option value="{_text(key)}"{" selected" if str(key) == chosen else ""}>'
            f"{_text(label)}</option>"
            for key, label in field.field.choices
        )
    )
