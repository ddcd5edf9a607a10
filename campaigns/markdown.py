"""Markdown for diaries, scene summaries and GM notes: rendered, then sanitised.

markdown-it-py parses CommonMark in linear time, so a hostile diary (50,000 `[` or `*`)
cannot stall a worker. It passes raw HTML through, so its output is never trusted: nh3
keeps a short list of formatting tags, drops scripts with their content, every
event-handler attribute and style, and any link whose scheme is not http(s) or mailto.
"""

from __future__ import annotations

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

# `breaks`: a single newline is a line break, as players type at the table.
OPTIONS = {"breaks": True}
# Inline, the nesting limit only bounds how deep `[` inside a link text is followed; each
# level costs a pass over the text, so a run of `[` is parsed in a few passes, not twenty.
# Blocks keep the CommonMark default, so deeply nested lists lose nothing.
INLINE_NESTING = 5

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


def _parser(**options) -> MarkdownIt:
    parser = MarkdownIt("commonmark", {**OPTIONS, **options}).enable("table")
    # nh3 alone decides which link schemes survive: a `javascript:` link becomes a link
    # without href rather than the raw source text.
    parser.validateLink = lambda url: True
    return parser


_inline_parser = _parser(maxNesting=INLINE_NESTING)


def _parse_inline(state: StateCore) -> None:
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            _inline_parser.inline.parse(token.content, _inline_parser, state.env, token.children)


_markdown = _parser()
_markdown.core.ruler.at("inline", _parse_inline)


def render_markdown(text: str) -> SafeString:
    """Markdown → sanitised HTML, safe to put in a page."""
    if not text:
        return mark_safe("")
    html = _markdown.render(text)
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)
