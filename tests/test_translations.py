"""Spanish is the default language: every message has a Spanish translation."""

import re
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def entries(po_text: str):
    for block in po_text.split("\n\n"):
        msgid = re.search(r'^msgid "(.*)"', block, re.M)
        if not msgid or (msgid.group(1) == "" and 'msgid ""\nmsgstr ""\n"Project' in block):
            continue
        yield block


def test_every_message_has_a_spanish_translation():
    text = (LOCALE / "es" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    missing = []
    for block in entries(text):
        if block.startswith("#~"):
            continue
        strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"((?:\n".*")*)', block, re.M)
        fuzzy = re.search(r"^#,.*\bfuzzy\b", block, re.M)
        if fuzzy or any(not (first + rest.replace('"', "").strip()) for first, rest in strings):
            missing.append(block.split("\n")[-len(strings) - 1 :][0])
    assert missing == []


def test_compiled_catalogue_matches_the_po_file():
    """The .mo Django loads says what the .po says (compilemessages was run)."""
    import gettext

    from django.conf import settings

    catalogue = gettext.translation(
        "django", localedir=str(settings.LOCALE_PATHS[0]), languages=["es"]
    )
    text = (LOCALE / "es" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    checked = 0
    for block in entries(text):
        if "msgid_plural" in block or "msgctxt" in block or '\nmsgid ""\n"' in block:
            continue
        single = re.search(r'^msgid "(.+)"\nmsgstr "(.+)"$', block, re.M)
        if single:
            msgid, msgstr = (
                bytes(x, "utf-8").decode("unicode_escape").encode("latin-1").decode()
                for x in single.groups()
            )
            assert catalogue.gettext(msgid) == msgstr
            checked += 1
    assert checked > 100


def test_every_plural_message_has_each_spanish_plural_form():
    """Spanish has three plural forms (1; millions; the rest): a message with only two is
    left in English for every other number (gettext finds no form 2)."""
    text = (LOCALE / "es" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    forms = int(re.search(r"nplurals=(\d+)", text).group(1))
    short = [
        re.search(r'^msgid "(.*)"', block, re.M).group(1)
        for block in entries(text)
        if "\nmsgid_plural " in block
        and not block.startswith("#~")
        and len(re.findall(r"^msgstr\[\d\]", block, re.M)) != forms
    ]
    assert forms == 3
    assert short == []
