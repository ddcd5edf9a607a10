"""The demo's texts read as written: titles are plain text (no Markdown shows through) and
the usual slips ("tí", "?.") are mended, in the demo data and the XP captions it awards."""

import re

import pytest

from mechanics.rules.tinieblas.catalogue import XP_IDEAS, XP_INTERPRETACION
from mechanics.systems.registry import all_systems

SLIPS = re.compile(r"\btí\b|\?\.|!\.")
MARKDOWN = re.compile(r"[*_`#]")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("system", all_systems(), ids=lambda system: system.key)
def test_demo_titles_are_plain_text(system):
    chronicle = system.demo_chronicle or {}
    titles = [system.demo_campaign[0], chronicle.get("story", ("",))[0]]
    titles += [scene[0] for scene in chronicle.get("scenes", ())]
    assert [title for title in titles if MARKDOWN.search(title)] == []


@pytest.mark.parametrize("system", all_systems(), ids=lambda system: system.key)
def test_demo_texts_have_no_slips(system):
    texts = list(_strings([system.demo_campaign, system.demo_characters, system.demo_chronicle]))
    assert len(texts) > 10
    assert [text for text in texts if SLIPS.search(text)] == []


def test_the_xp_captions_the_demo_awards_have_no_slips():
    captions = [
        level.caption for rubric in (XP_IDEAS, XP_INTERPRETACION) for level in rubric.levels
    ]
    assert [caption for caption in captions if SLIPS.search(caption)] == []
