"""Words the site writes into its history by itself (a health event's summary, a roll's
label, an XP entry's reason) are read later by members who may use another language.

A `Message` is such a text: a `str` in the writer's language, which is what the row's own
column keeps (the history hash covers it, and older rows have only that), and beside it the
untranslated msgid and its values (`as_code`), which the row keeps in its JSON field. A page
puts the code into words in the reader's language (`shown`); a row without a code, or whose
code no longer fits its translation, shows the text as it was written. The rows themselves
are never changed (append-only tables refuse UPDATE).

Call sites mark the msgid with `gettext_noop` so `makemessages` keeps finding it:
`Message(gettext_noop("Attack by %(name)s"), name=attacker.name)`.

Names and titles are one line: `LineField` refuses control characters in them. Longer
texts are written in a `LongTextarea`, which the browser never cuts short.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

# The key of the codes inside a row's JSON field ({"summary": code, "reason": code}).
TEXTS = "texts"

# C0 and C1 controls (CR, LF, tab, escape...), DEL, and Unicode's line and paragraph
# separators. A browser's one-line input cannot send them; a crafted request can, and a
# name holding them breaks lines in the pages, mail and logs that show it.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def has_control(value: str) -> bool:
    """Whether a text holds a control character or a line break."""
    return _CONTROL.search(value) is not None


def single_line(value: str) -> None:
    """Validator: refuse a text with a control character or a line break."""
    if has_control(value):
        raise ValidationError(
            gettext_lazy("Write it on one line, without line breaks or control characters."),
            code="control_character",
        )


class LineField(forms.CharField):
    """A one-line text (a name, a title): surrounding spaces trimmed, controls refused."""

    default_validators = [single_line]


class LongTextarea(forms.Textarea):
    """A textarea without `maxlength`, which Django's CharField sets from its max_length:
    a browser cuts a longer paste without a word, whereas the form refuses it with a
    message and shows the whole text again. The limit goes to static/js/app.js instead,
    which counts the characters under the field.

    app.js also keeps what is typed in the browser until the form's send goes through (an
    expired session or a stale CSRF token must not lose a long diary) and offers it back;
    its words come from here, in the page's language."""

    def build_attrs(self, base_attrs, extra_attrs=None):
        attrs = super().build_attrs(base_attrs, extra_attrs)
        if (limit := attrs.pop("maxlength", None)) is not None:
            attrs["data-limit"] = limit
            attrs["data-limit-text"] = gettext_lazy("{count} of {limit} characters")
        attrs["data-unsent-text"] = gettext_lazy("You have unsent text, written here on {time}.")
        attrs["data-unsent-restore"] = gettext_lazy("Restore the text")
        attrs["data-unsent-discard"] = gettext_lazy("Discard it")
        return attrs


def _value(value):
    """A value as the stored code keeps it: JSON plain, a nested message as its code."""
    if isinstance(value, Message):
        return value.as_code()
    if isinstance(value, Mapping) and "msgid" in value:
        return dict(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)


def _render(msgid: str, params: Mapping) -> str:
    text = gettext(msgid)
    if not params and "%(" not in text:
        return text
    return text % {key: _shown_value(value) for key, value in params.items()}


def _shown_value(value):
    if isinstance(value, Mapping) and "msgid" in value:
        return _render(value["msgid"], value.get("params") or {})
    return value


class Message(str):
    """A generated text in the current language that remembers its msgid and values."""

    msgid: str
    params: dict

    def __new__(cls, msgid: str, /, **params) -> Message:
        kept = {key: _value(value) for key, value in params.items()}
        text = super().__new__(cls, _render(msgid, kept))
        text.msgid = msgid
        text.params = kept
        return text

    def as_code(self) -> dict:
        return {"msgid": self.msgid, "params": dict(self.params)}


def codes(**texts) -> dict:
    """The codes of the texts that are messages, by field name ({} when none is)."""
    return {name: text.as_code() for name, text in texts.items() if isinstance(text, Message)}


def shown(text: str, code) -> str:
    """The stored `text` in the reader's language when its `code` says how."""
    if not isinstance(code, Mapping) or not isinstance(code.get("msgid"), str):
        return text
    try:
        return _render(code["msgid"], code.get("params") or {})
    except (KeyError, TypeError, ValueError):
        # A translation whose placeholders do not fit: the words as written are still right.
        return text


def stored_message(text: str, code) -> Message | str:
    """A row's text again as a message, to be quoted inside another one ("Undone: …")."""
    if not isinstance(code, Mapping) or not isinstance(code.get("msgid"), str):
        return text
    try:
        return Message(code["msgid"], **(code.get("params") or {}))
    except (KeyError, TypeError, ValueError):
        return text


def kept(text: str) -> str | dict:
    """A text as a JSON list or value keeps it: a message as its words and code together
    ({"text", "msgid", "params"}), other words as they are."""
    if isinstance(text, Message):
        return {"text": str(text), **text.as_code()}
    return text


def kept_shown(item) -> str:
    """A `kept` text in the reader's language (plain words stay as they were written)."""
    if isinstance(item, Mapping):
        return shown(str(item.get("text", "")), item)
    return item
