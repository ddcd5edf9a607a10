"""Pure text helpers of the search: no Django model, no database.

Both engines see one reading of what the user typed (`parse`): words, "quoted phrases"
and -excluded words, anything else dropped. Each query word is cut to its stem here
(`stem`, a light Spanish suffix stripper) and matched as a prefix: on SQLite, whose FTS5
has no Spanish stemmer, of the indexed words ("prometió" -> promet* finds "prometer");
on PostgreSQL of the lexemes its `spanish` Snowball dictionary made. The same prefixes
mark the hits in snippets.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# What the user may type at most: a longer query is refused with a message.
MAX_QUERY = 200
# Letters and digits, as FTS5's unicode61 tokenizer and PostgreSQL's parser split words.
WORD = re.compile(r"[^\W_]+")
# Inverted suffixes, longest first; a stem keeps at least MIN_STEM letters.
SUFFIXES = sorted(
    str.split(
        # nouns and adjectives
        "amientos imientos amiento imiento aciones uciones acion ucion adoras adores "
        "adora ador idades idad ancias encias ancia encia mente ables ibles able ible "
        "istas ista osos osas oso osa ivos ivas ivo iva "
        # verbs: infinitive, gerund, participles, the common tenses
        "aramos eramos iramos aremos eremos iremos ariamos eriamos iriamos abamos "
        "ieramos iesemos asemos aseis ieseis arais ierais aran eran iran aras eras iras "
        "arian erian irian aria eria iria aron ieron ando iendo aban abas aba ados adas "
        "ado ada idos idas ido ida amos emos imos ais eis ase iese ara iera ar er ir "
        "an en as es io a e o os i"
    ),
    key=len,
    reverse=True,
)
MIN_STEM = 4
# Words that say nothing on their own: left out of SQLite queries (PostgreSQL's
# dictionary has its own list) and never marked.
STOPWORDS = frozenset(
    str.split(
        "a al algo como con de del el ella ellas ellos en era es esa ese eso esta este esto "
        "ha hay la las le les lo los mas me mi muy ni no nos o os para pero por que se si "
        "sin su sus te tu un una uno unos unas y ya yo"
    )
)


def fold(text: str) -> str:
    """Lower case without accents ("Pérez" -> "perez", "ñ" -> "n"), as both indexes fold."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def stem(word: str) -> str:
    """The stem of a folded Spanish word: the longest known suffix cut off while at
    least MIN_STEM letters remain; short words lose only a final vowel or "s"."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            return word[: -len(suffix)]
    if len(word) >= 4 and word[-1] in "aeiosn":
        return word[:-1]
    return word


def clean(text: str) -> str:
    """The text without control characters (NUL among them), which no index stores."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text  # the usual text, decided in one pass in C rather than per character
    return "".join(char for char in text if char.isprintable() or char in "\n\t")


# Elements whose words run on into their neighbours' ("<b>hie</b>rro" is one word); any
# other tag (a paragraph, a line break, a cell) parts the words on either side.
INLINE_TAGS = frozenset(
    str.split("a abbr b cite code del em i ins kbd mark q s small span strong sub sup u")
)
# Elements whose content no reader sees.
HIDDEN_TAGS = frozenset({"script", "style"})


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        # The parser reads a script's or a style's content as one run of text up to its
        # end tag, so they never nest.
        self.hidden = False

    def handle_starttag(self, tag: str, attrs) -> None:
        self.hidden = tag in HIDDEN_TAGS
        if tag not in INLINE_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.hidden = False
        if tag not in INLINE_TAGS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """What a reader sees of an HTML text, as one line: tags gone, scripts and styles
    dropped, entities decoded. Meant for campaigns.markdown's sanitised output: on raw
    HTML, thousands of unclosed comments cost CPython's parser a second."""
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return " ".join("".join(parser.parts).split())


@dataclass(frozen=True)
class Query:
    """What a search asks for: words to find, phrases (lists of words) and words to
    leave out, all folded."""

    words: tuple[str, ...] = ()
    phrases: tuple[tuple[str, ...], ...] = ()
    excluded: tuple[str, ...] = ()
    problem: str = field(default="", compare=False)

    @property
    def is_empty(self) -> bool:
        return not (self.words or self.phrases)

    def fts5(self) -> str:
        """The query in FTS5 syntax: each word a quoted string (no operator survives),
        matched by its stem as a prefix; phrases word after word."""
        found = [_fts5_word(word) for word in self.words if word not in STOPWORDS]
        found += [" + ".join(_fts5_word(word) for word in phrase) for phrase in self.phrases]
        if not found:
            # Only stopwords: match them exactly rather than every word they begin.
            found = [f'"{word}"' for word in self.words]
        query = " AND ".join(found)
        for word in self.excluded:
            query = f"({query}) NOT {_fts5_word(word)}"
        return query

    def tsquery(self) -> str:
        """The query in PostgreSQL's to_tsquery syntax, each word's stem (cut here, then
        by the Snowball dictionary) as a prefix: unaccent runs before the Spanish stemmer,
        which then no longer knows "prometio" as a verb form, so exact stems would miss
        "prometer"."""
        found = [_ts_word(word) for word in self.words if word not in STOPWORDS]
        found += ["(" + " <-> ".join(_ts_word(word) for word in p) + ")" for p in self.phrases]
        if not found:
            found = [f"'{word}'" for word in self.words]
        return " & ".join([*found, *(f"!{_ts_word(word)}" for word in self.excluded)])

    def prefixes(self) -> tuple[str, ...]:
        """The stems a snippet marks."""
        words = [*self.words, *(word for phrase in self.phrases for word in phrase)]
        return tuple(dict.fromkeys(_prefix(w) for w in words if w not in STOPWORDS))


def _prefix(word: str) -> str:
    return stem(word) if len(word) > 2 else word


def _ts_word(word: str) -> str:
    # Words are letters and digits only (WORD): nothing to escape inside the quotes.
    return f"'{_prefix(word)}':*" if len(word) > 2 else f"'{word}'"


def _fts5_word(word: str) -> str:
    # Words of one or two letters match exactly: as a prefix they would match most words.
    return f'"{_prefix(word)}"*' if len(word) > 2 else f'"{word}"'


def parse(typed: str) -> Query:
    """Read what the user typed: never raises; `problem` says why nothing can be searched."""
    typed = clean(typed or "")
    if len(typed) > MAX_QUERY:
        return Query(problem=_("Search for %(max)d characters at most.") % {"max": MAX_QUERY})
    words, phrases, excluded = [], [], []
    # Quoted phrases first (an unclosed quote runs to the end), then the rest word by word.
    pieces = re.split(r'"([^"]*)"?', typed)
    for index, piece in enumerate(pieces):
        if index % 2:
            phrase = tuple(WORD.findall(fold(piece)))
            if len(phrase) > 1:
                phrases.append(phrase)
            else:
                words.extend(phrase)
            continue
        for token in piece.split():
            found = WORD.findall(fold(token))
            if token.startswith("-") and len(token) > 1:
                excluded.extend(found)
            else:
                words.extend(found)
    query = Query(tuple(dict.fromkeys(words)), tuple(phrases), tuple(dict.fromkeys(excluded)))
    if query.is_empty:
        if excluded:
            problem = _("Add a word to look for: a search cannot only leave words out.")
        else:
            problem = _("Type a word to look for.")
        return Query(problem=problem)
    return query


def _marked(pieces: list[tuple[str, bool]]) -> SafeString:
    return mark_safe(
        "".join(f"<mark>{escape(text)}</mark>" if hit else escape(text) for text, hit in pieces)
    )


def _pieces(text: str, prefixes: tuple[str, ...]) -> list[tuple[str, bool]]:
    """The text cut into runs, each word marked when it begins with one of the stems."""
    pieces, last = [], 0
    for match in WORD.finditer(text):
        folded = fold(match.group())
        if folded not in STOPWORDS and any(folded.startswith(p) for p in prefixes):
            pieces.append((text[last : match.start()], False))
            pieces.append((match.group(), True))
            last = match.end()
    pieces.append((text[last:], False))
    return [piece for piece in pieces if piece[0]]


def highlight(text: str, prefixes: tuple[str, ...]) -> SafeString:
    """The whole text (a title), escaped, its hits in <mark>."""
    return _marked(_pieces(text, prefixes))


def snippet(text: str, prefixes: tuple[str, ...], *, words: int = 30) -> SafeString:
    """About `words` words of the text around its first hit, escaped, hits in <mark>;
    lines joined. The text is what the reader sees (search.index stores Markdown's
    visible text, not its source)."""
    plain = " ".join(text.split())
    tokens = plain.split(" ")
    first = 0
    for index, token in enumerate(tokens):
        folded = fold(token)
        if any(f.startswith(p) for f in WORD.findall(folded) for p in prefixes):
            first = index
            break
    start = max(0, first - words // 3)
    shown = " ".join(tokens[start : start + words])
    before = "… " if start else ""
    after = " …" if start + words < len(tokens) else ""
    return mark_safe(before + highlight(shown, prefixes) + after)
