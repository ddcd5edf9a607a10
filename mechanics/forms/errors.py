"""The message of a refused plan or roll, for a form's error list."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from mechanics.rules.errors import RuleError


def error_text(error: Exception) -> str:
    """A rules engine refusal in the reader's language, or a validation error's messages."""
    if isinstance(error, RuleError):
        return error.translated(gettext)
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)
