"""`{% trait_row trait character … %}`: one row of a sheet's traits block.

A sheet shows 30 to 60 traits, and a GM's sheet a form of five or six dot buttons per
trait, each with its own label: about 300 elements. As a template loop with a
`{% blocktranslate %}` per dot, the traits block was most of a cold sheet's time (about
half of a GM's); built here as plain strings, a row costs tens of microseconds. Every
text from outside (names, descriptions, labels) goes through `escape`.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters.templatetags.sheet_controls import csrf_input

register = template.Library()

# The gap after the fifth dot, as on paper sheets.
GAP = 6
# Where a request keeps what the rows of its sheets share (`_shared`), and the key that
# stands for a trait's in the address that sets its rating (a slug, as keys are).
SHARED = "trait_rows_shared"
KEY = "trait-key"


def _shared(context, character) -> dict:
    """What every row of a sheet shares, worked out once per request rather than once per
    row or dot: its texts in the active language, escaped (the names put in them are
    escaped too), and the address that sets a rating, its trait's key to put in. Kept on
    the request: each row is a partial, rendered with a render context of its own."""
    wanted = (get_language(), character.campaign_id, character.pk)
    request = getattr(context, "request", None)
    known = getattr(request, SHARED, {})
    if wanted not in known:
        args = [character.campaign_id, character.pk, KEY]
        known[wanted] = {
            "set": escape(_("Set %(name)s to %(rating)s")),
            "of": escape(_("%(name)s %(rating)s of %(maximum)s")),
            "set_url": reverse("characters:trait_set", args=args),
        }
        if request is not None:
            setattr(request, SHARED, known)
    return known[wanted]


def _set_label(shared: dict, name: str, rating: int) -> str:
    """`name` escaped already."""
    return shared["set"] % {"name": name, "rating": rating}


def _form(context, url: str, key: str, body: str, classes: str = "") -> str:
    """A GM's form that sets the trait and swaps its row in place."""
    csrf = csrf_input(context)
    css = f' class="{classes}"' if classes else ""
    url = escape(url)
    return (
        f'<form{css} method="post" action="{url}" hx-post="{url}" hx-target="#trait-{key}" '
        f'hx-swap="outerHTML">{csrf}{body}</form>'
    )


def _dots(context, shared: dict, trait, name: str, url: str) -> str:
    """`name` escaped already."""
    key = escape(trait.spec.key)
    label = shared["of"] % {"name": name, "rating": trait.rating, "maximum": trait.spec.maximum}
    if not url:
        marks = "".join(
            f"<span{' class="dot-gap"' if dot.position == GAP else ''}>"
            f"{'●' if dot.filled else '○'}</span>"
            for dot in trait.dots
        )
        return f'<span class="dots" role="img" aria-label="{label}">{marks}</span>'
    buttons = "".join(
        f'<button type="submit" class="dot-btn{" filled" if dot.filled else ""}'
        f'{" dot-gap" if dot.position == GAP else ""}" name="rating" value="{dot.target}" '
        f'id="trait-{key}-{dot.position}" aria-label="{_set_label(shared, name, dot.target)}">'
        f"{'●' if dot.filled else '○'}</button>"
        for dot in trait.dots
    )
    group = f'<div class="dot-buttons" role="group" aria-label="{label}">{buttons}</div>'
    return _form(context, url, key, group)


def _number(context, shared: dict, trait, name: str, url: str, rating_name: str) -> str:
    """`name` as it is (the stepper's labels escape it)."""
    key, rating = escape(trait.spec.key), trait.rating
    named = escape(f"{name}: {rating_name}" if rating_name else name)
    value = (
        f'<span class="trait-value"><span class="visually-hidden">{named} </span>{rating}</span>'
    )
    if not url:
        return f'<div class="trait-number">{value}</div>'

    escaped = escape(name)

    def step(target: int, which: str, allowed: bool, sign: str) -> str:
        return (
            '<button type="submit" class="btn btn-sm btn-outline-secondary step-btn '
            f'sheet-control" name="rating" value="{target}" id="trait-{key}-{which}"'
            f'{"" if allowed else " disabled"} aria-label="{_set_label(shared, escaped, target)}">'
            f"{sign}</button>"
        )

    down = step(rating - 1, "down", trait.can_lower, "−")
    up = step(rating + 1, "up", trait.can_raise, "+")
    stepper = _form(context, url, key, f"{down}{value}{up}", "number-stepper")
    return f'<div class="trait-number">{stepper}</div>'


def _name(trait, name: str, roll_url: str) -> str:
    """The trait's name (a link that rolls it, when `roll_url`), its label, specialties."""
    spec = trait.spec
    title = f' title="{escape(str(spec.description))}"' if spec.description else ""
    if roll_url:
        query = urlencode({"trait": spec.key})
        shown = (
            f'<a class="trait-roll" href="{escape(roll_url)}?{escape(query)}" '
            f'data-roll-trait="{escape(spec.key)}"{title}>'
            f'<span class="visually-hidden">{escape(_("Roll"))} </span>{escape(name)}</a>'
        )
    else:
        shown = f"<span{title}>{escape(name)}</span>"
    parts = [shown]
    if trait.is_specialization:
        parts.append(
            '<abbr class="badge text-bg-info text-decoration-none" '
            f'title="{escape(_("Specialization"))}">E</abbr>'
        )
    label = escape(str(trait.label))
    if trait.as_dots:
        if label:
            parts.append(f'<span class="trait-label">{label}</span>')
    else:
        progress = (
            f'<span class="text-nowrap"><abbr title="{escape(_("Progress points"))}">PdP</abbr> '
            f"{trait.progress}</span>"
        )
        parts.append(f'<span class="trait-label">{label + " · " if label else ""}{progress}</span>')
    if trait.specialties:
        shown = escape(", ".join(str(specialty) for specialty in trait.specialties))
        parts.append(f'<span class="trait-specialties">{shown}</span>')
    return f'<div class="trait-name">{"".join(parts)}</div>'


@register.simple_tag(takes_context=True)
def trait_row(
    context,
    trait,
    character,
    system,
    *,
    roll_url: str = "",
    editable: bool = False,
    error: str = "",
) -> SafeString:
    """A trait's row: its name (a link to roll it when `roll_url`, the roll panel), then
    its rating, dots up to ten and a number above, with the controls that set it when
    `editable` (a GM's sheet)."""
    spec = trait.spec
    name = str(spec.name)
    rolled = roll_url if roll_url and system.trait_roll(spec) is not None else ""
    shared = _shared(context, character)
    set_url = shared["set_url"].replace(KEY, spec.key) if editable else ""
    if trait.as_dots:
        rating = _dots(context, shared, trait, escape(name), set_url)
    else:
        rating = _number(context, shared, trait, name, set_url, str(system.rating_name))
    untrained = " data-untrained" if system.folds_untrained_skills and trait.untrained else ""
    alert = (
        '<div class="trait-error alert alert-warning py-1 px-2 small mb-0" role="alert">'
        f"{escape(str(error))}</div>"
        if error
        else ""
    )
    html = (
        f'<div class="trait-row" id="trait-{escape(spec.key)}"{untrained}>'
        f"{_name(trait, name, rolled)}{rating}{alert}</div>"
    )
    return mark_safe(html)  # every outside text above went through escape()
