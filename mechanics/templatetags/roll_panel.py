"""Template helpers of the roll panel."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def percent(p: float) -> str:
    """A probability as a localised percentage: 0.6234 → "62,3 %" (never "0 %" for a
    possible outcome nor "100 %" for an uncertain one)."""
    if p is None:
        return ""
    if 0 < p < 0.0005:
        return "< " + number_format(0.1, 1) + " %"
    if 0.9995 < p < 1:
        return "> " + number_format(99.9, 1) + " %"
    return number_format(p * 100, 1) + " %"


@register.filter
def signed(value: int) -> str:
    """+3 / −2 / 0, with a real minus sign."""
    if not value:
        return "0"
    return f"{value:+d}".replace("-", "−")
