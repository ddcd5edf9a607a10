"""The per-scene XP rubric of the Mundo de Tinieblas seed ("Ganar Experiencia") on the
award panel: its scales as form fields, the panel's defaults, and the stored award read
back (docs/rules.md#tinieblas-scene-award). The engine checks and totals it
(`mechanics/rules/tinieblas/advancement.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from mechanics.rules.tinieblas.advancement import SceneAward, award_breakdown
from mechanics.rules.tinieblas.catalogue import (
    XP_DIARIO,
    XP_IDEAS,
    XP_INTERPRETACION,
    XP_OTHERS,
    XpRubric,
)
from mechanics.systems.base import RubricLine, SceneRubric

_OTHERS = {other.key: other for other in XP_OTHERS}
_LABELS = {
    "interpretacion": XP_INTERPRETACION.name,
    "ideas": XP_IDEAS.name,
    "diario": XP_DIARIO.name,
    "universo": "Universo",
    "constancia": "Constancia",
    "sobornos": "Sobornos",
}
# Interpretación and Ideas start at "Normal", the seed's usual level.
DEFAULT_LEVEL = 2
# What a published diary entry pre-marks on the Diario scale (0–4): its middle.
DIARY_PREMARK = 2


def _level_field(rubric: XpRubric) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=rubric.name,
        choices=[(level.points, level.caption) for level in rubric.levels],
        coerce=int,
        widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
        required=False,
    )


class TinieblasRubric(SceneRubric):
    template = "systems/tinieblas/xp_award_rubric.html"
    graded = ("interpretacion", "ideas", "diario")
    # The line every award has, shown ticked on the panel.
    universe_caption = _OTHERS["universo"].caption
    demo_grades = (
        {"interpretacion": 3, "ideas": 2, "diario": 2, "constancia": 1},
        {"interpretacion": 2, "ideas": 3, "diario": 1},
    )

    def fields(self) -> dict[str, forms.Field]:
        diario = _level_field(XP_DIARIO)
        diario.widget.attrs["class"] = "btn-check"
        sobornos = _OTHERS["sobornos"]
        return {
            "interpretacion": _level_field(XP_INTERPRETACION),
            "ideas": _level_field(XP_IDEAS),
            "diario": diario,
            "constancia": forms.BooleanField(
                label=_OTHERS["constancia"].caption,
                required=False,
                widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
            ),
            "sobornos": forms.TypedChoiceField(
                label=sobornos.caption,
                choices=[(n, str(n)) for n in range(0, sobornos.maximum + 1)],
                coerce=int,
                required=False,
            ),
        }

    def initial(self, *, has_diary: bool, stored: Mapping | None = None) -> dict[str, Any]:
        initial = {
            "interpretacion": DEFAULT_LEVEL,
            "ideas": DEFAULT_LEVEL,
            "diario": DIARY_PREMARK if has_diary else 0,
            "constancia": False,
            "sobornos": 0,
        }
        if stored:
            initial.update({key: stored.get(key, value) for key, value in initial.items()})
            # A checkbox reads 0 as ticked: the stored 0/1 becomes a bool.
            initial["constancia"] = bool(stored.get("constancia"))
        return initial

    def award(self, grades: Mapping[str, Any]) -> SceneAward:
        return SceneAward(
            interpretacion=grades["interpretacion"],
            ideas=grades["ideas"],
            diario=grades.get("diario", 0),
            constancia=grades.get("constancia", 0),
            # The panel's menu sends nothing when left alone.
            sobornos=grades.get("sobornos") or 0,
        )

    def lines(self, award: SceneAward) -> list[RubricLine]:
        return [
            RubricLine(key, _LABELS[key], points, caption, _first_sentence(caption))
            if key in self.graded
            else RubricLine(key, _LABELS[key], points, caption)
            for key, caption, points in award_breakdown(award)
        ]


def _first_sentence(caption: str) -> str:
    """A level's caption as the ledger shows it beside the points: "Chupi", "Normal"."""
    head, sep, _rest = caption.partition(". ")
    return head if sep else caption.rstrip(".")
