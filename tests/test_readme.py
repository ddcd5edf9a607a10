"""The README renders as written: its configuration table is one table, said once."""

from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _configuration_section() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Configuration (environment)", 1)[1].split("\n## ", 1)[0]
    return section.strip().splitlines()


def test_every_configuration_row_sits_inside_the_one_table():
    lines = _configuration_section()
    rows = [number for number, line in enumerate(lines) if line.startswith("|")]
    # A paragraph between rows ends the table in Markdown: the rows after it show as text.
    assert rows == list(range(rows[0], rows[0] + len(rows)))
    assert any("`DJANGO_MEDIA_STORAGE`" in lines[number] for number in rows)


def test_the_production_paragraph_appears_once():
    assert README.read_text(encoding="utf-8").count("In production:") == 1
