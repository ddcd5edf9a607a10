"""Dado objetivo rolls: a sheet and the panel's choices to skill, attribute, attack and
opposed rolls (docs/rules.md#objetivo-rolls)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mechanics.combat import aimed
from mechanics.rules.dice import RollRecord
from mechanics.rules.objetivo import catalogue
from mechanics.rules.objetivo import odds as engine_odds
from mechanics.rules.objetivo import rolls as engine
from mechanics.services.combat import attack_target
from mechanics.setup import (
    OddsRow,
    OddsView,
    Plan,
    RollSetup,
    Sheet,
    SideRecord,
    check_can_act,
    effects_from,
    named_sides,
    opponent,
    opposed_rows,
    side_record,
    single,
    won,
)

# The weapon choice that means "type the damage": the roll panel and the combat panel.
CUSTOM_WEAPON = "custom"

DESTINY_POOL = "destiny_points"

# The panel's kinds that are skill rolls: with "No skill" chosen they are rolled as a skill
# the character has no points in, the lowest die (docs/rules.md#objetivo-no-skill).
SKILL_KINDS = ("skill", "attack")


def specialization_used(sheet: Sheet) -> bool:
    """Once per scene: used if it was marked for the scene the character is in now."""
    details = sheet.character.details
    if "specialization_used_scene" not in details:
        return False
    scene_id = sheet.scene.pk if sheet.scene is not None else None
    return details["specialization_used_scene"] == scene_id


class ObjetivoSetup(RollSetup):
    opposed_kinds = ("opposed",)
    # The specialization is once per scene; an attack aimed at a character joins the
    # fight of its scene.
    reads_scene = True
    # An attack aimed at a character reads its sheet and the fight, not this one's rows.
    panel_follows_campaign = True

    def spec(
        self, sheet: Sheet, data: Mapping, *, difficulty=None, extra: int = 0
    ) -> tuple[engine.ObjetivoSpec, list]:
        check_can_act(sheet)
        attribute = data["attribute"]
        skill = data.get("skill") or ""
        modifier = (data.get("modifier") or 0) + extra
        details = sheet.character.details
        specialization = bool(data.get("specialization"))
        destiny_point = bool(data.get("destiny_point"))
        if destiny_point and sheet.pool_current(DESTINY_POOL) < 1:
            raise ValidationError(
                _("%(name)s has no destiny points left.") % {"name": sheet.character.name},
                code="empty",
            )
        if specialization and skill != details.get("specialization"):
            raise ValidationError(
                _("The specialization only applies to a roll of its own skill."),
                code="specialization",
            )
        flags = {
            "destiny_point": destiny_point,
            "destiny_points": sheet.pool_current(DESTINY_POOL),
            "destiny_returned": bool(details.get("destiny_returned")),
            "incapacitated": sheet.health.penalty < 0,
        }
        steps = []
        # No skill is an attribute roll only where the roll is not a skill roll (an
        # opposed side's "No skill (attribute roll)").
        if not skill and data.get("kind") not in SKILL_KINDS:
            steps.append((f"2 × {sheet.name(attribute)}", 2 * sheet.rating(attribute)))
            if modifier:
                steps.append((_("Modifier"), modifier))
            spec = engine.attribute_roll_spec(
                sheet.rating(attribute), difficulty, modifier, **flags
            )
            return spec, steps
        steps.append((sheet.name(attribute), sheet.rating(attribute)))
        steps.append((sheet.name(skill), sheet.rating(skill)) if skill else (_("No skill"), 0))
        if modifier:
            steps.append((_("Modifier"), modifier))
        spec = engine.ObjetivoSpec(
            bonus=sheet.rating(attribute) + sheet.rating(skill) + modifier,
            difficulty=difficulty,
            specialization=specialization,
            specialization_used_this_scene=specialization and specialization_used(sheet),
            unskilled=sheet.rating(skill) == 0,
            **flags,
        )
        return spec, steps

    def odds(self, spec: engine.ObjetivoSpec, steps, *, attack: bool = False) -> OddsView:
        result = engine_odds.odds(spec)
        die = {-1: _("lowest die"), 0: _("median die"), 1: _("highest die")}[spec.level]
        rows = []
        if spec.difficulty is not None or not spec.attribute_roll:
            rows.append(OddsRow("success", _("Hit") if attack else _("Success"), result.p_success))
        rows += [
            OddsRow("exceptional", pgettext("objetivo", "Crítico"), result.p_exceptional),
            OddsRow("dramatic_failure", pgettext("objetivo", "Pifia"), result.p_dramatic_failure),
        ]
        summary = f"{die} + {spec.bonus}"
        if spec.difficulty is not None:
            summary = _("%(roll)s against %(difficulty)s") % {
                "roll": summary,
                "difficulty": spec.difficulty,
            }
        notes = []
        if spec.unskilled:
            notes.append(_("No points in the skill: one level down."))
        if spec.incapacitated:
            notes.append(_("Incapacitado: one level down."))
        if spec.destiny_returned:
            notes.append(_("A destiny point was handed back: one level down."))
        return OddsView(rows=tuple(rows), summary=summary, steps=tuple(steps), notes=tuple(notes))

    def weapon(self, data: Mapping) -> tuple[catalogue.DamageDice, int]:
        key = data.get("weapon") or CUSTOM_WEAPON
        if key == CUSTOM_WEAPON:
            return (
                catalogue.DamageDice(
                    data["damage_count"], data["damage_sides"], data.get("damage_fixed") or 0
                ),
                0,
            )
        weapon = catalogue.WEAPON_BY_KEY[key]
        return weapon.damage, weapon.precision

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        kind = data["kind"]
        if kind == "attribute":
            data = {**data, "skill": ""}
        if kind != "attack":
            spec, steps = self.spec(sheet, data, difficulty=data.get("difficulty"))
            return Plan(
                kind=kind,
                odds=self.odds(spec, steps),
                roll=single(sheet, lambda rng: engine.roll_check(spec, rng), data),
            )
        # Aimed at a character: the difficulty is the combat panel's, the damage waits
        # for the GM in the scene's fight (docs/rules.md#objetivo-roll-panel-attacks).
        target = attack_target(sheet, data)
        notes = ()
        if target is not None:
            defence, data = sheet.system.combat.aimed_data(sheet, target, data)
            words = {"defence": defence.label, "value": defence.value}
            if data["shot"] is not None:
                # The target of a shot has no Defensa: the range is its difficulty.
                words["defence"] = _("Shot at %(name)s, %(range)s") % {
                    "name": target.character.name,
                    "range": defence.label,
                }
            notes = (
                _("%(defence)s: %(value)s, the difficulty.") % words,
                _("A hit's damage waits for the GM in the combat panel."),
            )
        defensa = data.get("defensa")
        if not defensa:
            raise ValidationError(_("An attack needs the target's Defensa."), code="defensa")
        damage, precision = self.weapon(data)
        spec, steps = self.spec(sheet, data, difficulty=defensa, extra=precision)
        odds = self.odds(spec, steps, attack=True)
        note = _(
            "Damage if it hits: %(damage)s, each die exploding on its maximum; ×2 on a crítico"
        ) % {"damage": str(damage)}
        added = {}
        shot = data.get("shot")
        if shot is not None:
            # A shot's difficulty comes from its range (and cover), not from a Defensa: the
            # card says so (docs/rules.md#objetivo-shot-card).
            added["shot"] = dict(shot)
        if target is not None:
            # The weapon fired, for a later shot's reload check in the fight.
            added["weapon"] = data.get("weapon") or CUSTOM_WEAPON

        def roll(rng=None) -> RollRecord:
            record = engine.roll_attack(spec, defensa, damage, rng)
            return replace(record, details={**record.details, **added}) if added else record

        plan_roll = single(sheet, roll, data)
        if target is not None:
            plan_roll = aimed(plan_roll, target, None)
        return Plan(
            kind="attack",
            odds=replace(odds, notes=(*odds.notes, note, *notes)),
            roll=plan_roll,
            extra={"target": target.character} if target is not None else {},
        )

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        spec_a, steps_a = self.spec(a, data_a)
        spec_b, _steps = self.spec(b, data_b)
        result = engine_odds.opposed_odds(spec_a, spec_b)
        rows = opposed_rows(
            result.p_actor, result.p_tie, result.p_opponent, a.character.name, b.character.name
        )
        summary = (
            f"{a.character.name}: {self.odds(spec_a, ()).summary} · "
            f"{b.character.name}: {self.odds(spec_b, ()).summary}"
        )

        def roll(rng=None) -> list[SideRecord]:
            record = engine.roll_opposed(spec_a, spec_b, rng)
            winner = {"success": "a", "failure": "b", "tie": "tie"}[record.outcome]
            sides = []
            for side, sheet, other, key, other_key in (
                ("a", a, b, "actor", "opponent"),
                ("b", b, a, "opponent", "actor"),
            ):
                own = record.details[key]
                is_b = side == "b"
                dice = tuple(d for d in record.dice if ("opponent" in d.tags) == is_b)
                sides.append(
                    SideRecord(
                        sheet,
                        side_record(
                            record,
                            kind="opposed",
                            outcome=won(winner, side),
                            result=own["total"],
                            dice=dice,
                            kept=tuple(own["target_dice"]),
                            spec=own["spec"],
                            effects=effects_from(own["effects"]),
                            flags=tuple(own["flags"]),
                            details={
                                **{k: v for k, v in own.items() if k not in ("spec", "effects")},
                                "opponent": opponent(other, record.details[other_key]["total"]),
                            },
                        ),
                    )
                )
            return named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        return Plan(
            kind="opposed",
            odds=OddsView(
                rows=rows,
                summary=summary,
                steps=tuple(steps_a),
                notes=tuple(
                    _("%(name)s spends a destiny point: highest die.")
                    % {"name": sheet.character.name}
                    for sheet, spec in ((a, spec_a), (b, spec_b))
                    if spec.destiny_point
                ),
            ),
            roll=roll,
            group=uuid.uuid4(),
        )
