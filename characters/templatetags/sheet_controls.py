"""Small controls a sheet repeats per row, built as strings rather than template includes
(a GM's sheet draws dozens of them at every re-render): the CSRF input of a row's form,
`{% remove_button %}`, a GM's closed form (`{% gm_form %}`) and the rows of some sections.
Every text from outside goes through `escape`."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.addresses import addresses

register = template.Library()

# Draws a GM's form of the sheet shown open (`gm_form`).
GM_FORM = "characters/sheet.html#gm_add_form"


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


@register.simple_tag(takes_context=True)
def gm_form(context, url: str, target: str, form, summary, submit) -> SafeString:
    """`{% gm_form url target form summary submit %}`: a GM's form of the sheet. Shown open
    (refused, or asked for without JavaScript: `gm_open` is its address), `#gm_add_form`
    draws it; closed, as on every plain sheet, the panel that loads it when first opened
    (what `components/lazy_form.html` draws there), built here as a string."""
    if getattr(form, "is_bound", False) or (form and context.get("gm_open") == url):
        shown = {"url": url, "target": target, "form": form, "summary": summary, "submit": submit}
        with context.push(**shown):
            return context.template.engine.get_template(GM_FORM).render(context)
    url, summary = escape(str(url)), conditional_escape(summary)
    return mark_safe(  # every outside text went through escape()
        f'\n\n\n<details class="gm-form d-print-none" hx-get="{url}" hx-trigger="toggle once" '
        f'hx-select="form[action=\'{url}\']" hx-target="find .lazy-form-body" '
        f'hx-swap="outerHTML" hx-disinherit="*">\n  <summary>{summary}</summary>\n  '
        f'<div class="lazy-form-body"><a href="{url}">{escape(_("Open the form"))}</a></div>\n'
        "</details>\n\n\n"
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


def _remove(context, name: str, pk: int, target: str, shown, indent: str) -> str:
    """A row's ✕ for a GM (as the sections' templates placed it), or nothing."""
    if not context.get("can_edit_traits"):
        return ""
    url = _address(context, name, pk)
    button = remove_button(context, url, target, shown, "d-print-none")
    return f"\n{indent}  \n{indent}  {button}\n{indent}"


@register.simple_tag(takes_context=True)
def merit_row(context, row: dict) -> SafeString:
    """A merit's row (a row of the merits section's context): its name, the dots it may
    have, its notes, its dots and the GM's ✕."""
    merit, dots = row["merit"], row["dots"]
    name = escape(str(merit.name))
    title = f' title="{escape(str(row["description"]))}"' if row["description"] else ""
    notes = (
        f'<span class="d-block small text-body-secondary">{escape(str(merit.notes))}</span>'
        if merit.notes
        else ""
    )
    label = _("%(name)s %(rating)s of %(maximum)s") % {
        "name": name,
        "rating": merit.rating,
        "maximum": len(dots),
    }
    marks = "".join("●" if filled else "○" for filled in dots)
    remove = _remove(context, "characters:merit_remove", merit.pk, "#merits", merit.name, " " * 12)
    return mark_safe(  # every outside text went through escape()
        f'<li>\n          <span class="merit-name">\n            <span{title}>{name}</span>\n'
        f'            <span class="text-body-secondary small">({escape(str(row["ratings_text"]))})'
        f"</span>\n            {notes}\n          </span>\n"
        '          <span class="d-flex align-items-center gap-1">\n'
        f'            <span class="dots" role="img" aria-label="{label}">{marks}</span>\n'
        f"            {remove}\n          </span>\n        </li>"
    )


@register.simple_tag(takes_context=True)
def specialty_row(context, specialty, skill_name) -> SafeString:
    """A specialty's row: its skill (by name, or by key when the sheet has no such skill),
    its name and the GM's ✕."""
    skill = escape(str(skill_name or specialty.skill_key))
    remove = _remove(
        context,
        "characters:specialty_remove",
        specialty.pk,
        "#specialties",
        specialty.name,
        " " * 10,
    )
    return mark_safe(  # every outside text went through escape()
        f'<li>\n          <span><span class="text-body-secondary">{skill}:</span> '
        f"{escape(str(specialty.name))}</span>\n          {remove}\n        </li>"
    )


def _aspect_toggle(context, aspect) -> str:
    """The toggle of whoever acts for the character: anyone of them exhausts an aspect, a
    GM alone recovers it, marking the next session or story (docs/rules.md#hitos-sessions);
    the owner is told who will."""
    pk = aspect.pk
    if aspect.exhausted and not context.get("can_recover_aspects"):
        waiting = escape(_("until the GM recovers it"))
        return f'<span class="small text-body-secondary">{waiting}</span> '
    url = escape(_address(context, "characters:aspect_exhausted", pk))
    if aspect.exhausted:
        button = ("btn-outline-success", "0", _("Recover"))
    else:
        button = ("btn-outline-secondary", "1", _("Exhaust"))
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#aspect-{pk}" '
        f'hx-swap="outerHTML"> {csrf_input(context)} <button class="btn btn-sm '
        f'{button[0]} btn-touch" type="submit" name="exhausted" value="{button[1]}" '
        f'id="aspect-{pk}-toggle">{escape(button[2])}</button> </form> '
    )


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
        html.append(_aspect_toggle(context, aspect))
    if context.get("can_edit_traits"):
        url = _address(context, "characters:aspect_remove", pk)
        html.append(f"{remove_button(context, url, '#sheet-aspects', aspect.text)} ")
    html.append("</div> </li>")
    return mark_safe("".join(html))  # every outside text went through escape()
