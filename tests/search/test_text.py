"""The text a reader sees of stored HTML, which the search indexes and its snippets show
(search.text.visible_text): pure, no database."""

from __future__ import annotations

from campaigns.markdown import render_markdown
from search.text import clean, visible_text


def test_scripts_and_styles_are_dropped_with_their_content():
    html = "<p>Antes<script>alert('x')</script> <style>p { color: red }</style>después</p>"
    assert visible_text(html) == "Antes después"


def test_tags_are_gone_and_link_text_is_kept_without_its_address():
    html = '<p>Ver <a href="https://example.com/mapa">el <em>mapa</em></a> <img src=x></p>'
    assert visible_text(html) == "Ver el mapa"


def test_entities_are_decoded_and_spanish_accents_kept():
    html = "<p>Peñíscola &amp; Ávila: &lt;nadie&gt; &quot;huyó&quot;&nbsp;¿por qué? &#241;</p>"
    assert visible_text(html) == 'Peñíscola & Ávila: <nadie> "huyó" ¿por qué? ñ'


def test_blocks_and_line_breaks_part_words_and_inline_tags_do_not():
    html = "<h1>Título</h1><p>uno<br>dos <b>hie</b>rro</p><ul><li>a</li><li>b</li></ul>"
    assert visible_text(html) == "Título uno dos hierro a b"


def test_a_hostile_diary_reads_as_its_rendered_page_shows_it():
    source = (
        "Forjaron el **hierro** <script>alert(1)</script> <img src=x onerror=alert(1)> "
        "[link](javascript:alert(1))\n\n| Lugar | Año |\n|---|---|\n| Toledo | 1492 |"
    )
    assert visible_text(render_markdown(source)) == (
        "Forjaron el hierro link Lugar Año Toledo 1492"
    )


def test_no_text_gives_no_text():
    assert visible_text("") == ""
    assert visible_text(render_markdown("")) == ""


def test_clean_drops_control_characters_and_keeps_lines_tabs_and_accents():
    assert clean("Lucía\tPérez\n\nañora 🎲") == "Lucía\tPérez\n\nañora 🎲"
    assert clean("ab\x00c\x07d\re\u200bf\u2028g") == "abcdefg"
