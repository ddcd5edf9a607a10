"""The site says tú to everyone, Django's own messages included (locale overrides)."""

import re

from django import forms
from django.contrib.auth.password_validation import (
    password_validators_help_texts,
    validate_password,
)
from django.core.exceptions import ValidationError
from django.utils import translation

USTED = re.compile(
    r"\b(su|sus|usted|introduzca|ingrese|asegúrese|escriba|compruebe|corrija|vuelva)\b", re.I
)


def _errors(field: forms.Field, value: str) -> list[str]:
    try:
        field.clean(value)
    except ValidationError as error:
        return error.messages
    raise AssertionError(f"{value!r} passed")


def test_the_password_rules_and_their_complaints_say_tu():
    with translation.override("es"):
        texts = [str(text) for text in password_validators_help_texts()]
        try:
            validate_password("12345")
        except ValidationError as error:
            texts += error.messages
    assert len(texts) >= 6
    assert [text for text in texts if USTED.search(text)] == []
    assert "Tu contraseña no puede ser solo números." in texts


def test_form_errors_say_tu():
    with translation.override("es"):
        texts = _errors(forms.IntegerField(), "x")
        texts += _errors(forms.DateField(), "x")
        texts += _errors(forms.EmailField(), "x")
        texts += _errors(forms.IntegerField(max_value=3), "4")
        texts += _errors(forms.CharField(min_length=3), "ab")
    assert texts[0] == "Introduce un número entero."
    assert [text for text in texts if USTED.search(text)] == []
