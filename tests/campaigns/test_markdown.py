"""Markdown rendering: the formatting players use, sanitised, in linear time."""

import time

import pytest

from campaigns.markdown import MAX_DEPTH, render_markdown

SIZE = 50_000  # the diary length limit

PATHOLOGICAL = {
    "brackets": "[" * SIZE,
    "image brackets": "![" * (SIZE // 2),
    "brackets and emphasis": "[*" * (SIZE // 2),
    "brackets closed once at the end": "[" * (SIZE - 2) + "](",
    "unclosed links": "[a](" * (SIZE // 4),
    "emphasis and brackets": "_a_[" * (SIZE // 4),
    "stars": "*" * SIZE,
    "strong openers": "**a" * (SIZE // 3),
    "quotes": ">" * SIZE,
    "quoted lists": "> - " * (SIZE // 4),
    "backticks": "`" * SIZE,
    "backtick runs": "`a``" * (SIZE // 4),
    "nested lists": "".join("  " * depth + "- x\n" for depth in range(400))[:SIZE],
    "list markers": "- " * (SIZE // 2),
    "angle brackets": "<" * SIZE,
    "tag openers": "<a " * (SIZE // 3),
    "entities": "&#" * (SIZE // 2),
    "line breaks": "a\n" * (SIZE // 2),
    "table rows": "|a|b|\n|-|-|\n" + "|x|y|\n" * ((SIZE - 12) // 6),
    "nested emphasis": "*" * (SIZE // 2 - 1) + "a" + "*" * (SIZE // 2),
    "unclosed inline tags": "<b>" * (SIZE // 3),
    "nested quote markers": "> " * (SIZE // 2),
    "nested ordered lists": "1. " * (SIZE // 3),
}
# The issue asks for each in under a second. This process's CPU time measures the
# renderer's own work: wall time on a shared machine also counts the time the scheduler
# gave to other processes. The best of three tries is kept.
BOUND_SECONDS = 1.0


def render_seconds(text: str) -> float:
    best = float("inf")
    for _attempt in range(3):
        start = time.process_time()
        render_markdown(text)
        best = min(best, time.process_time() - start)
        if best < BOUND_SECONDS:
            break
    return best


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_a_pathological_diary_of_the_maximum_length_renders_in_under_a_second(text):
    assert len(text) <= SIZE
    assert render_seconds(text) < BOUND_SECONDS


def test_text_nested_deeper_than_the_limit_shows_as_escaped_plain_paragraphs():
    html = render_markdown("> " * (MAX_DEPTH + 1) + "<b>hondo</b>\n\nfin")
    assert "blockquote" not in html
    assert "&lt;b&gt;hondo&lt;/b&gt;" in html
    assert html.endswith("<p>fin</p>")


def test_nesting_up_to_the_limit_keeps_its_formatting():
    html = render_markdown("> " * (MAX_DEPTH // 2 - 1) + "**hondo**")
    assert html.count("<blockquote>") == MAX_DEPTH // 2 - 1
    assert "<strong>hondo</strong>" in html


def test_emphasis_strong_and_links_render():
    html = render_markdown('Aquí *una* _dos_ **tres** [web](https://example.org "Título")')
    assert "<em>una</em>" in html
    assert "<em>dos</em>" in html
    assert "<strong>tres</strong>" in html
    assert '<a href="https://example.org" title="Título" rel="noopener noreferrer nofollow">' in (
        html
    )


def test_a_link_text_may_hold_brackets():
    html = render_markdown("[el [viejo] molino](https://example.org)")
    assert '<a href="https://example.org"' in html
    assert ">el [viejo] molino</a>" in html


def test_bullet_and_numbered_lists_keep_their_start():
    html = render_markdown("- uno\n- dos\n\n3. tres\n4. cuatro")
    assert "<ul>\n<li>uno</li>\n<li>dos</li>\n</ul>" in html
    assert '<ol start="3">' in html
    assert "<li>cuatro</li>" in html


def test_nested_lists_lose_nothing():
    text = "".join("  " * depth + f"- nivel {depth}\n" for depth in range(8))
    html = render_markdown(text)
    assert html.count("<ul>") == 8
    assert "nivel 7" in html


def test_a_single_newline_is_a_line_break():
    assert render_markdown("línea uno\nlínea dos") == "<p>línea uno<br>\nlínea dos</p>\n"


def test_tables_quotes_headings_and_fenced_code_render():
    html = render_markdown(
        "# Título\n\n> cita\n\n| Tirada | Éxitos |\n|---|---|\n| Fuerza | 2 |\n\n```\nx < y\n```"
    )
    assert "<h1>Título</h1>" in html
    assert "<blockquote>" in html
    assert "<th>Tirada</th>" in html
    assert "<td>2</td>" in html
    assert "<pre><code>x &lt; y\n</code></pre>" in html


def test_allowed_inline_html_is_kept_and_the_rest_removed():
    html = render_markdown(
        '<u>subrayado</u> <abbr title="Punto de Voluntad">PV</abbr> <b onclick="x()">b</b>'
    )
    assert "<u>subrayado</u>" in html
    assert '<abbr title="Punto de Voluntad">PV</abbr>' in html
    assert "<b>b</b>" in html


def test_raw_script_is_removed_with_its_content_and_text_is_escaped():
    html = render_markdown("a < b & c\n\n<script>alert('x')</script>\n\nfin")
    assert "a &lt; b &amp; c" in html
    assert "script" not in html
    assert "alert" not in html
    assert "fin" in html


def test_images_are_dropped():
    assert "img" not in render_markdown("![píxel](https://evil.example/pixel.png)")
