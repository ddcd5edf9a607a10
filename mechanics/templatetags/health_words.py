"""`condition_word` for templates: the "dead" or "unconscious" badge beside a health
state, unless the state already says it."""

from __future__ import annotations

from django import template

from mechanics.health_panel import condition_word

register = template.Library()

register.filter("condition_word", condition_word)
