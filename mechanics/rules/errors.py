"""The one error type the engine raises for invalid input."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it here.

    The engine cannot import Django; `makemessages` still collects these msgids and
    the Django side translates them with `RuleError.translated()`.
    """
    return message


class RuleError(ValueError):
    """Invalid roll spec, health operation or purchase.

    `template` is an English msgid with %(name)s placeholders; `params` fill it.
    `str(error)` is the English message, readable by a user.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)

    def translated(self, gettext) -> str:
        """Render with a translation function (Django's gettext on the web side).

        String parameters are translated too: callers pass names such as
        gettext_noop("wound penalty") so the whole sentence reads in one language.
        """
        text = gettext(self.template)
        if not self.params:
            return text
        params = {
            key: gettext(value) if isinstance(value, str) and value else value
            for key, value in self.params.items()
        }
        return text % params
