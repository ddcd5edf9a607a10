"""Citations of the rules reference (docs/rules.md) point at anchors that exist."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
SKIPPED_DIRS = {
    ".git",
    ".venv",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    "__pycache__",
    "node_modules",
    "staticfiles",
    "test-results",
}
TEXT_SUFFIXES = {".py", ".html", ".css", ".js", ".md", ".txt", ".toml", ".cfg", ".ini"}
CODE_SUFFIXES = {".py", ".html", ".css", ".js"}
CITATION = re.compile(r"docs/rules\.md#([A-Za-z0-9_-]+)")
ANCHOR = re.compile(r"""<a\s+id=["']([^"']+)["']""")
INTERNAL_LINK = re.compile(r"\]\(#([^)\s]+)\)")
# The working spec outside the repository, which comments used to cite (split so that this
# file does not cite it).
OLD_SPEC = "RULES" + ".md"


def _files(suffixes: set[str]) -> list[Path]:
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [name for name in dirs if name not in SKIPPED_DIRS]
        found += [Path(folder, name) for name in names if Path(name).suffix in suffixes]
    return sorted(found)


def _anchors() -> list[str]:
    return ANCHOR.findall(RULES_DOC.read_text(encoding="utf-8"))


def _citations() -> dict[str, list[str]]:
    """{anchor: ["path:line", ...]} for every citation in the repository's text files."""
    cited: dict[str, list[str]] = {}
    for path in _files(TEXT_SUFFIXES):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, start=1):
            for anchor in CITATION.findall(line):
                place = f"{path.relative_to(ROOT)}:{number}"
                cited.setdefault(anchor, []).append(place)
    return cited


def test_every_cited_rules_anchor_exists():
    anchors = set(_anchors())
    cited = _citations()
    # The sweep replaced every citation of the old spec: far more than a handful exist.
    assert sum(len(places) for places in cited.values()) >= 30
    missing = {anchor: places for anchor, places in cited.items() if anchor not in anchors}
    assert missing == {}


def test_rules_anchors_are_unique():
    anchors = _anchors()
    assert len(anchors) > 50
    assert sorted({a for a in anchors if anchors.count(a) > 1}) == []


def test_links_inside_the_rules_reference_resolve():
    anchors = set(_anchors())
    links = INTERNAL_LINK.findall(RULES_DOC.read_text(encoding="utf-8"))
    assert links
    assert sorted(set(links) - anchors) == []


def test_no_code_cites_the_spec_outside_the_repository():
    citing = []
    for path in _files(CODE_SUFFIXES):
        text = path.read_text(encoding="utf-8", errors="replace")
        citing += [
            f"{path.relative_to(ROOT)}:{number}"
            for number, line in enumerate(text.splitlines(), start=1)
            if OLD_SPEC in line
        ]
    assert citing == []
