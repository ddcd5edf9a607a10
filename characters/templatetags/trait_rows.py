"""`{% trait_block %}`: a sheet's traits section; `{% trait_row trait … %}`: one row of it.

A sheet shows 30 to 60 traits, and a GM's sheet a form of five or six dot buttons per
trait, each with its own label: about 300 elements. As a template loop with a
`{% blocktranslate %}` per dot, the traits block was most of a cold sheet's time (about
half of a GM's); built here as plain strings, a row costs tens of microseconds, and the
section is one loop in Python rather than a template node per row. Every text from
outside (names, descriptions, labels) goes through `escape`.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote_plus

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.fragments import cached_fragment, fragment_key
from characters.templatetags.sheet_controls import csrf_input, row_addresses

register = template.Library()

# The gap after the fifth dot, as on paper sheets.
GAP = 6


def _shared(character) -> dict:
    """What every row of a sheet shares, worked out once per block rather than once per
    row or dot: its texts in the active language, escaped (the names put in them are
    escaped too), and the address that sets a trait's rating, given its key."""
    return {
        "set": escape(_("Set %(name)s to %(rating)s")),
        "of": escape(_("%(name)s %(rating)s of %(maximum)s")),
        "set_url": row_addresses("characters:trait_set", character),
        "roll": escape(_("Roll")),
        "specialization": escape(_("Specialization")),
        "progress": escape(_("Progress points")),
    }


def _set_label(shared: dict, name: str, rating: int) -> str:
    """`name` escaped already."""
    return shared["set"] % {"name": name, "rating": rating}


def _form(csrf: str, url: str, key: str, body: str, classes: str = "") -> str:
    """A GM's form that sets the trait and swaps its row in place."""
    css = f' class="{classes}"' if classes else ""
    url = escape(url)
    return (
        f'<form{css} method="post" action="{url}" hx-post="{url}" hx-target="#trait-{key}" '
        f'hx-swap="outerHTML">{csrf}{body}</form>'
    )


def _dots(csrf: str, shared: dict, trait, name: str, url: str) -> str:
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
    return _form(csrf, url, key, group)


def _number(csrf: str, shared: dict, trait, name: str, url: str, rating_name: str) -> str:
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
    stepper = _form(csrf, url, key, f"{down}{value}{up}", "number-stepper")
    return f'<div class="trait-number">{stepper}</div>'


def _name(shared: dict, trait, name: str, roll_url: str) -> str:
    """The trait's name (a link that rolls it, when `roll_url`, escaped already), its
    label, specialties."""
    spec = trait.spec
    title = f' title="{escape(str(spec.description))}"' if spec.description else ""
    if roll_url:
        key = escape(spec.key)
        shown = (
            f'<a class="trait-roll" href="{roll_url}?trait={escape(quote_plus(spec.key))}" '
            f'data-roll-trait="{key}"{title}>'
            f'<span class="visually-hidden">{shared["roll"]} </span>{escape(name)}</a>'
        )
    else:
        shown = f"<span{title}>{escape(name)}</span>"
    parts = [shown]
    if trait.is_specialization:
        parts.append(
            '<abbr class="badge text-bg-info text-decoration-none" '
            f'title="{shared["specialization"]}">E</abbr>'
        )
    label = escape(str(trait.label))
    if trait.as_dots:
        if label:
            parts.append(f'<span class="trait-label">{label}</span>')
    else:
        progress = (
            f'<span class="text-nowrap"><abbr title="{shared["progress"]}">PdP</abbr> '
            f"{trait.progress}</span>"
        )
        parts.append(f'<span class="trait-label">{label + " · " if label else ""}{progress}</span>')
    if trait.specialties:
        shown = escape(", ".join(str(specialty) for specialty in trait.specialties))
        parts.append(f'<span class="trait-specialties">{shown}</span>')
    return f'<div class="trait-name">{"".join(parts)}</div>'


def _row(
    shared: dict, csrf: str, trait, system, *, roll_url: str, editable: bool, error: str
) -> str:
    """A trait's row (`trait_row`), with what the rows share and the CSRF input given;
    `roll_url` escaped already."""
    spec = trait.spec
    name = str(spec.name)
    rolled = roll_url if roll_url and system.trait_roll(spec) is not None else ""
    set_url = shared["set_url"](spec.key) if editable else ""
    if trait.as_dots:
        rating = _dots(csrf, shared, trait, escape(name), set_url)
    else:
        rating = _number(csrf, shared, trait, name, set_url, str(system.rating_name))
    untrained = " data-untrained" if system.folds_untrained_skills and trait.untrained else ""
    alert = (
        '<div class="trait-error alert alert-warning py-1 px-2 small mb-0" role="alert">'
        f"{escape(str(error))}</div>"
        if error
        else ""
    )
    return (
        f'<div class="trait-row" id="trait-{escape(spec.key)}"{untrained}>'
        f"{_name(shared, trait, name, rolled)}{rating}{alert}</div>"
    )


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
    html = _row(
        _shared(character),
        csrf_input(context),
        trait,
        system,
        roll_url=escape(roll_url),
        editable=editable,
        error=error,
    )
    return mark_safe(html)  # every outside text went through escape()


def _row_state(trait) -> tuple:
    """Everything a row shows, as plain values: its spec (the system's, or the campaign's
    list), its rating, progress, label, specialties and whether it is the specialization
    (its dots follow from the rating and the spec)."""
    spec = trait.spec
    return (
        spec.key,
        str(spec.name),
        spec.kind,
        str(spec.category),
        spec.minimum,
        spec.maximum,
        str(spec.description),
        spec.custom,
        trait.rating,
        trait.progress,
        str(trait.label),
        tuple(str(specialty) for specialty in trait.specialties),
        trait.is_specialization,
    )


def _block(sections, shared: dict, csrf: str, system, row: dict) -> str:
    """The traits section: a heading per section of groups ("Atributos"), a subheading
    per group, its rows."""
    html = [
        '<section class="sheet-section" id="sheet-traits" aria-labelledby="sheet-traits-title">'
        f'<h2 class="visually-hidden" id="sheet-traits-title">{escape(_("Traits"))}</h2>'
    ]
    if system.folds_untrained_skills:
        html.append(
            '<div class="form-check form-switch d-print-none mb-2"><input class="form-check-input'
            ' fold-untrained" type="checkbox" role="switch" id="fold-untrained" checked><label'
            f' class="form-check-label" for="fold-untrained">{escape(_("Hide untrained skills"))}'
            "</label></div>"
        )
    for heading, groups in sections:
        if heading:
            html.append(f'<h3 class="sheet-heading">{conditional_escape(heading)}</h3>')
        html.append('<div class="trait-groups">')
        tag = "h4" if heading else "h3"
        for label, rows in groups:
            html.append(
                f'<div class="trait-group"><{tag} class="sheet-subheading">'
                f"{conditional_escape(label)}</{tag}>"
            )
            html += [_row(shared, csrf, trait, system, **row) for trait in rows]
            html.append("</div>")
        html.append("</div>")
    html.append("</section>")
    return "".join(html)


@register.simple_tag(takes_context=True)
def trait_block(context) -> SafeString:
    """The sheet's traits section (`trait_sections`, with `trait_roll_base`,
    `can_edit_traits` and `trait_error`), cached under what it shows (`_row_state` of each
    row, the headings, the system, who may set or roll, the addresses' ids): a write that
    leaves the traits as they were (a pool spent, a merit) finds it cached."""
    sections, character, system = context["trait_sections"], context["character"], context["system"]
    row = {
        "roll_url": escape(context.get("trait_roll_base") or ""),
        "editable": bool(context.get("can_edit_traits")),
        "error": str(context.get("trait_error") or ""),
    }
    state = tuple(
        (str(heading), tuple((str(label), tuple(map(_row_state, rows))) for label, rows in groups))
        for heading, groups in sections
    )
    key = fragment_key("sheet-traits", character.campaign_id, character.pk, system.key, row, state)

    def render(extra: dict) -> str:
        csrf = csrf_input(extra) if row["editable"] else ""
        return _block(sections, _shared(character), csrf, system, row)

    return cached_fragment(context.request, key, render)
