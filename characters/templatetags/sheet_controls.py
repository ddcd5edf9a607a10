"""Small controls a sheet repeats per row, built as strings rather than template includes
(a GM's sheet draws dozens of them at every re-render): the CSRF input of a row's form and
`{% remove_button %}`. Every text from outside goes through `escape`."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()


def csrf_input(context) -> str:
    """What `{% csrf_token %}` writes: the context's token (a cached fragment's
    placeholder, which each response replaces with its own)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(str(token))}">'


@register.simple_tag(takes_context=True)
def remove_button(context, url: str, target: str, name, classes: str = "") -> SafeString:
    """The ✕ that removes `name` (an item, a merit, an aspect...) from the sheet of the
    context's character, after asking; htmx swaps `target` with the answer."""
    name = str(name)
    question = _("Remove %(name)s from the sheet of %(character)s?") % {
        "name": name,
        "character": context["character"].name,
    }
    url, css = escape(url), f' class="{escape(classes)}"' if classes else ""
    return mark_safe(  # every outside text went through escape()
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="{escape(target)}" '
        f'hx-swap="outerHTML"{css} data-confirm="{escape(question)}" '
        f'data-confirm-button="{escape(_("Remove it"))}">{csrf_input(context)}'
        '<button class="btn btn-sm btn-link text-danger btn-touch" type="submit" '
        f'aria-label="{escape(_("Remove %(name)s") % {"name": name})}">✕</button></form>'
    )
