"""Template helpers of the roll panel."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.utils.formats import number_format

from campaigns.fragments import cached_value, fragment_key
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
def signed(value: int) -> str:
    """+3 / −2 / 0, with a real minus sign."""
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
