"""The site says tú to everyone, Django's own messages included (locale overrides)."""

import gettext
import re
from pathlib import Path

import django
from django import forms
from django.conf import settings
from django.contrib.auth.password_validation import (
    password_validators_help_texts,
    validate_password,
)
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils import translation

# Words of usted: its imperatives (Django's catalogue also has the typo "Introduza") and
# its possessives. Each of Django's Spanish messages below uses at least one.
USTED = re.compile(
    r"\b(su|sus|usted|introduzca|introduza|ingrese|escoja|elija|seleccione|asegúrese|"
    r"escriba|compruebe|corrija|envíe|marque|vuelva|utilice|elimínelos|indique)\b",
    re.I,
)

DJANGO = Path(django.__file__).resolve().parent
# The catalogues of Django's forms, validators, model fields and CSRF page, and of its auth
# forms and password rules: the ones whose messages the site's pages show.
DJANGO_LOCALES = [DJANGO / "conf" / "locale", DJANGO / "contrib" / "auth" / "locale"]
# Django's messages in usted that no page of the site shows, by their beginning.
NOT_SHOWN = (
    "Please submit at ",  # formsets: the site's only ones are the admin's inlines
    "Upload a valid image.",  # forms.ImageField: pictures go through campaigns.images
    "You are seeing this page because",  # the DEBUG page
    "The groups this user belongs to.",  # a help text of the admin's user page
)


def _errors(field: forms.Field, value: str) -> list[str]:
    try:
        field.clean(value)
    except ValidationError as error:
        return error.messages
    raise AssertionError(f"{value!r} passed")


def _spanish(localedir: Path) -> dict:
    """A compiled Spanish catalogue: msgid (or msgid and plural form) to its text."""
    return gettext.translation("django", localedir=str(localedir), languages=["es"])._catalog


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
        texts += _errors(forms.ChoiceField(choices=[("a", "A")]), "z")
        texts += _errors(forms.CharField(validators=[UnicodeUsernameValidator()]), "a b")
    assert texts[0] == "Introduce un número entero."
    assert "Elige una opción válida. z no es una de las opciones disponibles." in texts
    assert [text for text in texts if USTED.search(text)] == []


def test_every_message_of_django_the_site_shows_is_said_in_tu_by_the_sites_catalogue():
    """Each of Django's messages in usted has a tú translation in the site's compiled
    catalogue, which Django reads first (LOCALE_PATHS)."""
    usted = {}
    for localedir in DJANGO_LOCALES:
        usted |= {key: text for key, text in _spanish(localedir).items() if USTED.search(text)}
    msgids = {key: key if isinstance(key, str) else key[0] for key in usted}
    assert all(any(m.startswith(prefix) for m in msgids.values()) for prefix in NOT_SHOWN)
    shown = [key for key, msgid in msgids.items() if not msgid.startswith(NOT_SHOWN)]
    assert len(shown) > 60
    site = _spanish(settings.LOCALE_PATHS[0])
    assert [key for key in shown if key not in site or USTED.search(site[key])] == []
