"""Hitos rolls: a sheet and the panel's choices to 3d10 checks and attacks
(docs/rules.md#hitos-rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.fragments import linked_rows
from campaigns.models import Scene
from characters.models import Aspect, Character
from characters.services.sheet import resource_adjust
from mechanics.models import SituationAspect
from mechanics.rules.hitos import odds as engine_odds
from mechanics.rules.hitos import rolls as engine
from mechanics.rules.hitos import traits
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES_BY_KEY
from mechanics.setup import (
    OddsRow,
    OddsView,
    Plan,
    RollSetup,
    Sheet,
    check_can_act,
    single,
    trait_names,
)

DRAMA_POINTS_POOL = "drama_points"
# The aspect field's value for another character's aspect: "other:<aspect id>", and for
# a situation aspect of an open scene: "situation:<id>".
OTHER_PREFIX = "other:"
SITUATION_PREFIX = "situation:"


def others_aspects(sheet: Sheet):
    """The aspects of the campaign's other characters, which this one may use against them."""
    return (
        Aspect.objects.filter(character__campaign_id=sheet.character.campaign_id)
        .exclude(character_id=sheet.character.pk)
        .select_related("character")
        .order_by("character__name", "position", "pk")
    )


def situation_aspects(campaign_id: int):
    """The situation aspects of the campaign's open scenes, which anyone may activate
    until their scene ends (docs/rules.md#hitos-situation-aspects)."""
    return (
        SituationAspect.objects.filter(
            scene__campaign_id=campaign_id, scene__status=Scene.Status.OPEN, ended_at__isnull=True
        )
        .select_related("scene")
        .order_by("scene_id", "pk")
    )


def activation_for(character: Character, own: list[Aspect], drama_points: int, data: Mapping):
    """The activation of the aspect the form names ("", an own aspect's id, "other:<id>"
    or "situation:<id>") paid as it says: (activation or None, the character whose aspect
    it is when used against them, the own aspect to exhaust). The engine refuses what the
    rules forbid (no drama point left, an exhausted own aspect, exhausting another's)."""
    value = str(data.get("aspect") or "")
    pay = data.get("pay") or "drama_point"
    if not value:
        return None, None, None
    if value.startswith((OTHER_PREFIX, SITUATION_PREFIX)):
        if value.startswith(OTHER_PREFIX):
            found = (
                Aspect.objects.filter(character__campaign_id=character.campaign_id)
                .exclude(character_id=character.pk)
                .select_related("character")
                .filter(pk=_id(value.removeprefix(OTHER_PREFIX)))
                .first()
            )
            kind, owner = "ajeno", found.character if found else None
        else:
            found = (
                situation_aspects(character.campaign_id)
                .filter(pk=_id(value.removeprefix(SITUATION_PREFIX)))
                .first()
            )
            kind, owner = "de_situacion", None
        if found is None:
            raise ValidationError(_("Choose one of the aspects offered."), code="aspect")
        if pay == "exhaust":
            raise ValidationError(
                _("Only your own aspects can be exhausted: pay with a drama point."),
                code="aspect",
            )
        activation = engine.AspectActivation(
            aspect=found.text, aspect_type=kind, pay="drama_point", drama_points=drama_points
        )
        return activation, owner, None
    aspect = next((a for a in own if str(a.pk) == value), None)
    if aspect is None:
        raise ValidationError(_("Choose one of this character's aspects."), code="aspect")
    activation = engine.AspectActivation(
        aspect=aspect.text,
        aspect_type="propio",
        pay=pay,
        drama_points=drama_points,
        exhausted=aspect.exhausted,
    )
    return activation, None, aspect


def _id(text: str) -> int:
    """An id from a form value; 0 (no row) when it is not a short number."""
    return int(text) if text.isdigit() and len(text) <= 18 else 0


def _with_owner(record, owner):
    """The record names whose aspect was used, so the drama point reaches them."""
    if owner is None:
        return record
    details = {**record.details, "aspect_owner": owner.pk, "aspect_owner_name": owner.name}
    return replace(record, details=details)


class HitosSetup(RollSetup):
    sheet_extras = ("aspects",)

    def panel_rows(self, character: int, campaign: int) -> list[QuerySet]:
        # The aspects offered against the others (with their characters' names) and the
        # situation aspects of the campaign's scenes.
        others = Aspect.objects.filter(character__campaign_id=campaign).exclude(
            character_id=character
        )
        return [
            others,
            *linked_rows(others, "character"),
            SituationAspect.objects.filter(scene__campaign_id=campaign),
        ]

    def spec(self, sheet: Sheet, data: Mapping) -> engine.HitosSpec:
        return self._spec(sheet, data)[0]

    def _spec(self, sheet: Sheet, data: Mapping):
        """The spec, and the character whose aspect is used against them (or None)."""
        check_can_act(sheet)
        activation, owner, _own = activation_for(
            sheet.character, sheet.aspects, sheet.pool_current(DRAMA_POINTS_POOL), data
        )
        skill = data.get("skill") or ""
        return engine.HitosSpec(
            characteristic=sheet.rating(data["characteristic"]),
            skill=sheet.rating(skill) if skill else 0,
            difficulty=data["difficulty"],
            modifier=data.get("modifier") or 0,
            wound_penalty=sheet.health.penalty,
            improve=activation is not None,
            hinder=bool(data.get("hinder")),
            equal_succeeds=bool(sheet.rules.get("equal_succeeds")),
            activation=activation,
        ), owner

    def odds(self, spec: engine.HitosSpec, *, attack: bool = False, names=None) -> OddsView:
        result = engine_odds.odds(spec)
        kept = engine.DIE_NAMES[1 + spec.shift]
        names = names or {}
        steps = [(names.get("characteristic") or _("Characteristic"), spec.characteristic)]
        steps.append((names.get("skill") or _("Skill"), spec.skill))
        if spec.modifier:
            steps.append((_("Modifier"), spec.modifier))
        if spec.wound_penalty:
            steps.append((_("Wound penalty"), spec.wound_penalty))
        # Double 10 and double 1 come whatever the total: the labels say they are dice.
        rows = (
            OddsRow("success", _("Hit") if attack else _("Success"), result.p_success),
            OddsRow("exceptional", pgettext("hitos", "Crítico (double 10)"), result.p_exceptional),
            OddsRow(
                "dramatic_failure", pgettext("hitos", "Pifia (double 1)"), result.p_dramatic_failure
            ),
        )
        summary = _("%(die)s + %(bonus)s against %(difficulty)s") % {
            "die": kept,
            "bonus": spec.bonus,
            "difficulty": spec.difficulty,
        }
        notes = ()
        if not result.p_success:
            notes = (
                _("At most %(best)s: the difficulty %(difficulty)s is out of reach.")
                % {"best": 10 + spec.bonus, "difficulty": spec.difficulty},
            )
        return OddsView(rows=rows, summary=summary, steps=tuple(steps), notes=notes)

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        spec, owner = self._spec(sheet, data)
        if data["kind"] != "attack":
            return Plan(
                kind="check",
                odds=self.odds(spec, names=trait_names(sheet, data)),
                roll=single(
                    sheet, lambda rng: _with_owner(engine.roll_check(spec, rng), owner), data
                ),
            )
        category = DAMAGE_CATEGORIES_BY_KEY[data["weapon"]]
        fortaleza, combate = sheet.rating("fortaleza"), sheet.rating("combate")
        if data.get("attack_range") == "ranged":
            bonus = traits.ranged_damage_bonus(max(combate, 0))
        else:
            bonus = traits.melee_damage_bonus(max(fortaleza, 1), max(combate, 0))
        constant = data.get("weapon_constant") or 0
        rd = data.get("target_rd") or 0
        shift = data.get("damage_shift") or 0
        odds = self.odds(spec, attack=True, names=trait_names(sheet, data))
        weapon = category.name + (f"{constant:+d}" if constant else "")
        note = _(
            "Damage if it hits: %(weapon)s + %(bonus)s (damage bonus) − RD %(rd)s, "
            "from the same dice"
        ) % {"weapon": weapon, "bonus": bonus, "rd": rd}
        return Plan(
            kind="attack",
            odds=replace(odds, notes=(*odds.notes, note)),
            roll=single(
                sheet,
                lambda rng: _with_owner(
                    engine.roll_attack(
                        spec,
                        category,
                        weapon_constant=constant,
                        damage_bonus=bonus,
                        target_rd=rd,
                        damage_shift=shift,
                        rng=rng,
                    ),
                    owner,
                ),
                data,
            ),
        )


def hand_drama_point_to_owner(system, character, user, record) -> list[dict]:
    """Another character's aspect used against them gives them the drama point paid."""
    owner_id = record.details.get("aspect_owner")
    if not record.details.get("drama_point_to_owner") or owner_id is None:
        return []
    owner = Character.objects.filter(pk=owner_id, campaign_id=character.campaign_id).first()
    if owner is None:
        return []
    pool = resource_adjust(
        character=owner, user=user, key=DRAMA_POINTS_POOL, delta=1, may_raise_open=True
    )
    return [
        {
            "what": "drama_point_to_owner",
            "label": owner.name,
            "old": pool.current - 1,
            "new": pool.current,
        }
    ]
