"""The site's look: per-system stylesheets and what the menu offers."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from campaigns.permissions import CampaignAccess, CharacterAccess, may_use_admin
from mechanics.systems.registry import all_systems, get_system

register = template.Library()

LINK = '<link rel="stylesheet" href="{}">'


@register.simple_tag
def system_stylesheet(key: str) -> SafeString:
    """The stylesheet of one rule system (its accent, its sheet's sections); nothing for a
    system without one."""
    try:
        stylesheet = get_system(key).stylesheet
    except LookupError:
        return SafeString("")
    return format_html(LINK, static(stylesheet)) if stylesheet else SafeString("")


@register.simple_tag
def system_stylesheets() -> SafeString:
    """Every system's accent, for pages that list campaigns of several systems."""
    return format_html_join(
        "", LINK, ((static(system.stylesheet),) for system in all_systems() if system.stylesheet)
    )


@register.simple_tag(takes_context=True)
def may_administer(context) -> bool:
    """Whether the menu offers the admin: GMs and superusers, never a plain player; a page
    of a campaign its reader runs knows without asking (a sheet's access holds it)."""
    access = context.get("access")
    if isinstance(access, CharacterAccess):
        access = access.access
    return may_use_admin(context["user"], access if isinstance(access, CampaignAccess) else None)
