"""One way to write a date and one to write a moment, on every page and in both languages."""

import datetime
import re
from pathlib import Path

import pytest
from django.utils import formats, translation

ROOT = Path(__file__).resolve().parents[2]
# `|date:` with a literal format; machine-read attributes may use ISO forms.
LITERAL = re.compile(r"""\|date:["']([^"']+)["']""")
MACHINE = {"c", "Y-m-d"}
NAMED = {"DATE_FORMAT", "SHORT_DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATETIME_FORMAT"}


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_short_and_long_formats_are_the_same(language):
    with translation.override(language):
        assert formats.get_format("SHORT_DATETIME_FORMAT") == formats.get_format("DATETIME_FORMAT")
        assert formats.get_format("SHORT_DATE_FORMAT") == formats.get_format("DATE_FORMAT")


def test_a_moment_reads_the_same_in_spanish_as_a_day_and_a_time():
    moment = datetime.datetime(2026, 12, 4, 21, 5)
    with translation.override("es"):
        assert formats.date_format(moment, "DATETIME_FORMAT") == "4 Dic 2026, 21:05"
        assert formats.date_format(moment.date(), "DATE_FORMAT") == "4 Dic 2026"


def test_no_template_writes_a_date_in_a_format_of_its_own():
    own = []
    for path in sorted(ROOT.glob("**/templates/**/*.html")):
        if ".venv" in path.parts:
            continue
        for found in LITERAL.findall(path.read_text(encoding="utf-8")):
            if found not in MACHINE | NAMED:
                own.append(f"{path.relative_to(ROOT)}: {found}")
    assert own == []
