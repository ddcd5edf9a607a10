"""Markdown for diaries, scene summaries and GM notes: rendered, then sanitised.

cmark-gfm (GitHub's C CommonMark parser) parses in linear time and is tested against
pathological input, so a hostile diary (50,000 `[` or `*`) cannot stall a worker; it is
also 30-50x faster than the pure-Python parsers, which took a second on such input. It
passes raw HTML through, so its output is never trusted: nh3 keeps a short list of
formatting tags, drops scripts with their content, every event-handler attribute and
style, and any link whose scheme is not http(s) or mailto.
"""

from __future__ import annotations

import re

import cmarkgfm
import nh3
from cmarkgfm.cmark import Options
from django.utils.html import escape, linebreaks
from django.utils.safestring import SafeString, mark_safe

# HARDBREAKS: a single newline is a line break, as players type at the table. UNSAFE keeps
# raw HTML and every link as written, so nh3 alone decides what survives: `<u>` stays, and
# a `javascript:` link becomes a link without href rather than an empty one.
OPTIONS = Options.CMARK_OPT_HARDBREAKS | Options.CMARK_OPT_UNSAFE
# GitHub's tag filter is left out: it turns `<script>` into visible text, where nh3 drops
# the element with its content.
EXTENSIONS = ["table", "strikethrough", "autolink"]
# The sanitiser's HTML parser checks the stack of open elements at every tag, so 25,000
# nested quotes (`> > > …`) or unclosed `<b>` cost it minutes. Deeper than this, the text
# is shown as plain paragraphs.
MAX_DEPTH = 64
VOID_TAGS = frozenset({"br", "hr", "img", "input", "wbr", "col", "area", "source", "meta"})
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(/?)>")

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
    html = cmarkgfm.markdown_to_html_with_extensions(text, OPTIONS, extensions=EXTENSIONS)
    if _nesting_depth(html) > MAX_DEPTH:
        return mark_safe(linebreaks(escape(text)))
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)


def _nesting_depth(html: str) -> int:
    """How deep elements nest in `html`, counting unclosed raw tags as open."""
    depth = deepest = 0
    for closing, name, self_closing in _TAG.findall(html):
        if self_closing or name.lower() in VOID_TAGS:
            continue
        if closing:
            depth = max(depth - 1, 0)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest
