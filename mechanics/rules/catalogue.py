"""Shared shapes for the catalogues every system ships as data."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


def slug(name: str) -> str:
    """Stable ASCII key for a Spanish name: "Política y leyes" -> "politica_y_leyes"."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = "".join(c if c.isalnum() else " " for c in ascii_name.lower()).split()
    return "_".join(words)


@dataclass(frozen=True)
class TraitDef:
    """An attribute, characteristic or skill as the seed describes it."""

    key: str
    name: str
    category: str
    description: str = ""
    minimum: int = 0
    maximum: int = 5
