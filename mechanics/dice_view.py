"""One die as the pages draw it: its shape, value, marks and the words a screen reader says."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from html import escape

from django.utils.html import html_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

# What each die tag says, in the order the words are read out.
TAG_WORDS = {
    "chance": gettext_lazy("chance die"),
    "success": gettext_lazy("success"),
    "exploded": gettext_lazy("explodes"),
    "explosion": gettext_lazy("added by an explosion"),
    "reroll": gettext_lazy("rerolled"),
    "kept": gettext_lazy("kept"),
    "dropped": gettext_lazy("not counted"),
    "gracia": "Gracia",
    "desgracia": "Desgracia",
}
# The visible mark beside a die's value for each tag (the words above say the same).
TAG_MARKS = {
    "success": "✓",
    "exploded": "✶",
    "explosion": "+",
    "reroll": "↻",
}
SHAPED_SIDES = {4, 6, 8, 10, 12, 20}


@html_safe
@dataclass(frozen=True)
class DieView:
    sides: int
    text: str
    classes: str
    marks: str
    description: str

    @cached_property
    def html(self) -> str:
        """The die as every card and result draws it (`{{ die }}`): one string, rather
        than a template's lookups for each of the dozens of dice of a page of cards (its
        parts are plain text, escaped here as `format_html` would, without its lazy-text
        checks)."""
        marks = (
            f'<span class="die-marks" aria-hidden="true">{escape(self.marks)}</span>'
            if self.marks
            else ""
        )
        description = escape(self.description)
        return (
            f'<li class="{escape(self.classes)}" title="{description}"><span class="die-value" '
            f'aria-hidden="true">{escape(self.text)}</span>{marks}'
            f'<span class="visually-hidden">{description}</span></li>'
        )

    def __str__(self) -> str:
        return self.html


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def die_view(die: dict, *, mark_kept: bool) -> DieView:
    sides = _int(die.get("sides"), 0)
    value = _int(die.get("value"), 0)
    tags = tuple(tag for tag in die.get("tags") or () if isinstance(tag, str))
    return _die_view(sides, value, tags, mark_kept, get_language())


# A page of cards draws hundreds of dice of a few dozen kinds: each kind is worked out once
# per process and language (a die is a pure function of these).
@lru_cache(maxsize=4096)
def _die_view(sides: int, value: int, tags: tuple, mark_kept: bool, language: str) -> DieView:
    negative = "negative" in tags or "desgracia" in tags
    shape = f"d{sides}" if sides in SHAPED_SIDES else "dx"
    classes = ["die", f"die-{shape}"]
    words = []
    for tag in TAG_WORDS:
        if tag not in tags or (tag == "kept" and not mark_kept):
            continue
        classes.append(f"die-{tag}")
        words.append(str(TAG_WORDS[tag]))
    if negative:
        classes.append("die-negative")
    text = f"−{value}" if negative else str(value)
    name = f"d{sides}" if sides else _("die")
    description = f"{name}: {text}" + (f", {', '.join(words)}" if words else "")
    marks = "".join(mark for tag, mark in TAG_MARKS.items() if tag in tags)
    return DieView(
        sides=sides, text=text, classes=" ".join(classes), marks=marks, description=description
    )
