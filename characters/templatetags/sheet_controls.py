"""Small controls a sheet repeats per row, built as strings rather than template includes
(a GM's sheet draws dozens of them at every re-render): the CSRF input of a row's form and
`{% remove_button %}`. Every text from outside goes through `escape`."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.addresses import addresses

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


def row_addresses(name: str, character) -> Callable[[object], str]:
    """`reverse(name, args=[campaign, character, row])` for any row, reversed once."""
    return addresses(name, character.campaign_id, character.pk)


def _address(context, name: str, pk: int) -> str:
    """The address `name` of the context's character for the row `pk`, reversed once per
    request and name."""
    character = context["character"]
    request = getattr(context, "request", None)
    known = getattr(request, "sheet_addresses", {})
    wanted = (name, character.campaign_id, character.pk)
    if wanted not in known:
        known[wanted] = row_addresses(name, character)
        if request is not None:
            request.sheet_addresses = known
    return known[wanted](pk)


@register.simple_tag(takes_context=True)
def row_address(context, name: str, pk: int) -> str:
    """`{% row_address "characters:merit_remove" merit.pk as url %}`: what `{% url name
    campaign.pk character.pk pk %}` gives, without reversing it again for every row."""
    return _address(context, name, pk)


@register.simple_tag(takes_context=True)
def aspect_row(context, aspect, kind_name) -> SafeString:
    """A Hitos aspect's row: its kind (and how long it lasts), its text, whether it is
    exhausted, the owner's toggle and the GM's ✕ (what `#aspect` drew as a template, its
    blanks made one)."""
    pk = aspect.pk
    duration = {"scene": _("for the scene"), "session": _("for the session")}.get(aspect.duration)
    kind = escape(str(kind_name)) + (f" · {escape(duration)}" if duration else "")
    badge = (
        f' <span class="badge text-bg-secondary">{escape(_("exhausted"))}</span>'
        if aspect.exhausted
        else ""
    )
    html = [
        f'<li class="aspect{" exhausted" if aspect.exhausted else ""}" id="aspect-{pk}"> '
        f'<div class="aspect-text"> <span class="aspect-kind">{kind}</span> '
        f"<span>{escape(str(aspect.text))}</span>{badge} </div> "
        '<div class="d-flex align-items-center d-print-none"> '
    ]
    if context.get("can_edit_story"):
        url = escape(_address(context, "characters:aspect_exhausted", pk))
        if aspect.exhausted:
            button = ("btn-outline-success", "0", _("Recover"))
        else:
            button = ("btn-outline-secondary", "1", _("Exhaust"))
        html.append(
            f'<form method="post" action="{url}" hx-post="{url}" hx-target="#aspect-{pk}" '
            f'hx-swap="outerHTML"> {csrf_input(context)} <button class="btn btn-sm '
            f'{button[0]} btn-touch" type="submit" name="exhausted" value="{button[1]}" '
            f'id="aspect-{pk}-toggle">{escape(button[2])}</button> </form> '
        )
    if context.get("can_edit_traits"):
        url = _address(context, "characters:aspect_remove", pk)
        html.append(f"{remove_button(context, url, '#sheet-aspects', aspect.text)} ")
    html.append("</div> </li>")
    return mark_safe("".join(html))  # every outside text went through escape()
