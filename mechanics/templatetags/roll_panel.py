"""Template helpers of the roll panel."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.forms import BoundField
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.fragments import cached_value, fragment_key
from campaigns.markup import esc
from characters.templatetags.sheet_controls import csrf_input
from mechanics.models import SavedRoll

register = template.Library()


@register.filter
def percent(p: float) -> str:
    """A probability as a localised percentage rounded to a tenth: 0.91765 → "91,8 %".
    Never "0 %" for a possible outcome nor "100 %" for an uncertain one: under 0.1 % shows
    "< 0,1 %", over 99.9 % "> 99,9 %"."""
    if p is None:
        return ""
    if 0 < p < 0.001:
        return "< " + number_format(Decimal("0.1"), 1) + " %"
    if 0.999 < p < 1:
        return "> " + number_format(Decimal("99.9"), 1) + " %"
    # Through the decimal the float prints as (repr), so 0.91765 is 91.765 and rounds up,
    # where the float's binary value (91.76499…) would round down; formats truncate.
    tenths = (Decimal(repr(p)) * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return number_format(tenths, 1) + " %"


@register.filter
def signed(value: int | str) -> str:
    """+3 / −2 / 0, with a real minus sign; words (a step of dice, "−1d4") as they are."""
    if isinstance(value, str):
        return value
    if not value:
        return "0"
    return f"{value:+d}".replace("-", "−")


@register.simple_tag
def saved_rolls_of(character) -> list[SavedRoll]:
    """The character's saved rolls, in one query however many there are, kept under the
    character's grid version (a saved roll links to its character: `campaigns.versions`),
    which its wounds and awards leave."""
    rolls = SavedRoll.objects.filter(character=character).only("pk", "name", "character_id")
    key = fragment_key("saved-rolls", character.pk, character.grid_version)
    return cached_value(key, lambda: list(rolls))


@register.simple_tag(takes_context=True)
def saved_rolls_bar(context, campaign, character) -> SafeString:
    """`{% saved_rolls_bar campaign character %}`: the bar of the character's saved rolls
    at the top of its sheet, each a one-tap form, built as a string (the sheet draws it at
    every request)."""
    saved_rolls = saved_rolls_of(character)
    pk = character.pk
    roll_url = esc(reverse("mechanics:roll", args=[campaign.pk, pk]))
    list_url = esc(reverse("mechanics:saved_rolls", args=[campaign.pk, pk]))
    csrf = csrf_input(context)
    forms = "".join(
        f'\n      <form method="post" action="{roll_url}" class="d-inline" data-roll-saved>\n'
        f'        {csrf}<input type="hidden" name="saved" value="{saved.pk}">\n'
        '        <button type="submit" class="btn btn-outline-primary btn-sm btn-touch '
        f'saved-roll-button">{esc(saved.name)}</button>\n      </form>\n    '
        for saved in saved_rolls
    )
    if not saved_rolls:
        none = esc(_("None yet: set up a roll in the roll panel and save it with a name."))
        forms = f'\n      <span class="small text-body-secondary">{none}</span>\n    '
    link = (
        f'<a class="small ms-auto" href="{list_url}">{esc(_("Rename or delete"))}</a>'
        if saved_rolls
        else ""
    )
    return mark_safe(  # every outside text went through esc()
        f'<section class="saved-rolls d-print-none mb-3" id="saved-rolls-{pk}" '
        f'aria-labelledby="saved-rolls-title-{pk}"\n         hx-get="{list_url}?part=bar" '
        'hx-trigger="cronica:saved-rolls from:body" hx-swap="outerHTML" hx-disinherit="*">\n'
        '  <div class="d-flex flex-wrap align-items-center gap-2">\n'
        f'    <h2 class="h6 mb-0 me-1" id="saved-rolls-title-{pk}">{esc(_("Saved rolls"))}</h2>\n'
        f"    {forms}\n    {link}\n  </div>\n</section>"
    )


@register.simple_tag
def roll_field(field: BoundField) -> SafeString:
    """`{% roll_field field %}`: one field of a roll set-up with its label, help and
    errors, as a checkbox, a row of radios or a labelled input. Built as a string: a panel
    draws dozens of them, where a template's lookups cost more than the widgets."""
    auto_id = esc(field.auto_id)
    kind = field.widget_type
    help_text = (
        f'<div class="form-text" id="{auto_id}_helptext">{esc(field.help_text)}</div>'
        if field.help_text
        else ""
    )
    errors = "".join(
        f'<div class="invalid-feedback d-block">{esc(error)}</div>' for error in field.errors
    )
    label = esc(field.label)
    if kind == "checkbox":
        html = (
            f'\n  <div class="form-check roll-check">\n    {field.__html__()}\n'
            f'    <label class="form-check-label" for="{esc(field.id_for_label)}">{label}'
            f"</label>\n    {help_text}\n    {errors}\n  </div>\n"
        )
    elif kind == "radioselect":
        radios = "".join(
            '\n        <div class="form-check form-check-inline me-0">\n'
            f"          {radio.tag()}\n"
            f'          <label class="form-check-label" for="{esc(radio.id_for_label)}">'
            f"{esc(radio.choice_label)}</label>\n        </div>\n      "
            for radio in field
        )
        html = (
            f'\n  <div class="roll-radios" role="radiogroup" aria-labelledby="{auto_id}_label">'
            f'\n    <div class="form-label" id="{auto_id}_label">{label}</div>\n'
            f'    <div class="d-flex flex-wrap gap-2">\n      {radios}\n    </div>\n'
            f"    {help_text}\n    {errors}\n  </div>\n"
        )
    else:
        html = (
            f'\n  <label class="form-label" for="{esc(field.id_for_label)}">{label}</label>'
            f"\n  {field.__html__()}\n  {help_text}\n  {errors}\n"
        )
    return mark_safe(f"\n{html}\n\n")  # every part escaped above, or a widget's own HTML


@register.simple_tag
def roll_fieldsets(fieldsets) -> SafeString:
    """`{% roll_fieldsets form.fieldsets %}`: the groups of a roll set-up, each
    (legend, the kinds it is for, [(bound field, column classes)]) as a fieldset of
    `roll_field`s. Built as a string too: an include per group cost more than its fields."""
    parts = []
    for legend, kinds, cells in fieldsets:
        kind_css = " for-kind" + "".join(f" k-{esc(kind)}" for kind in kinds) if kinds else ""
        shown = f'<legend class="h6 mb-2">{esc(legend)}</legend>' if legend else ""
        parts.append(
            f'\n<fieldset class="mb-3{kind_css}">\n  {shown}\n  <div class="roll-fields">\n    '
        )
        parts.extend(
            f'\n      <div class="{esc(css)}">{roll_field(field)}</div>\n    '
            for field, css in cells
        )
        parts.append("\n  </div>\n</fieldset>\n")
    return mark_safe("".join(parts))  # every part escaped above, or roll_field's own HTML
