"""The shape every form-backed write shares: validate, call the service, and turn the
service's refusal into a form error the page shows beside what was typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError


def call_service(form: forms.Form, write: Callable[[dict[str, Any]], object]) -> bool:
    """Call `write(form.cleaned_data)` when the form is valid; a ValidationError it raises
    becomes a form error. True when the write went through."""
    if not form.is_valid():
        return False
    try:
        write(form.cleaned_data)
    except ValidationError as error:
        form.add_error(None, error)
        return False
    return True
