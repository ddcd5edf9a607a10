from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from campaigns.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """Render Markdown, sanitised: `{{ entry.body|markdown }}`."""
    return render_markdown(text)
