"""The site's look: per-system stylesheets and what the menu offers."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from campaigns.models import System
from campaigns.permissions import may_use_admin

register = template.Library()

LINK = '<link rel="stylesheet" href="{}">'


@register.simple_tag
def system_stylesheet(key: str) -> SafeString:
    """The accent of one rule system (static/css/systems/<key>.css); nothing for no system."""
    if key not in System.values:
        return SafeString("")
    return format_html(LINK, static(f"css/systems/{key}.css"))


@register.simple_tag
def system_stylesheets() -> SafeString:
    """Every system's accent, for pages that list campaigns of several systems."""
    return format_html_join(
        "", LINK, ((static(f"css/systems/{key}.css"),) for key in System.values)
    )


@register.filter
def may_administer(user) -> bool:
    """Whether the menu offers the admin: GMs and superusers, never a plain player."""
    return may_use_admin(user)
