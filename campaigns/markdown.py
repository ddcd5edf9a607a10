"""Markdown for diaries, scene summaries and GM notes: rendered, then sanitised.

Python-Markdown passes raw HTML through, so its output is never trusted: nh3 keeps a
short list of formatting tags, drops scripts with their content, every event-handler
attribute and style, and any link whose scheme is not http(s) or mailto.
"""

from __future__ import annotations

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

EXTENSIONS = ["fenced_code", "tables", "sane_lists", "nl2br"]

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "b", "i", "u", "s", "del", "ins", "mark", "sub", "sup",
    "small", "blockquote", "q", "cite", "code", "pre", "kbd", "abbr",
    "ul", "ol", "li", "dl", "dt", "dd",
    "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td",
    "a",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}


def render_markdown(text: str) -> SafeString:
    """Markdown → sanitised HTML, safe to put in a page."""
    if not text:
        return mark_safe("")
    html = markdown_lib.markdown(text, extensions=EXTENSIONS, output_format="html")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)
