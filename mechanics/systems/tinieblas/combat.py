"""Combat in Mundo de Tinieblas: Iniciativa + 1d10, the target's Defensa taken off the
attack pool, and each success a level of damage of the weapon's type."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from mechanics.combat import AttackPlan, AttackRoll, CombatRules, Defence, Initiative, stamp_target
from mechanics.rules.tinieblas import combat as engine
from mechanics.rules.tinieblas import traits
from mechanics.setup import Sheet
from mechanics.systems.base import DamageInput
from mechanics.systems.tinieblas import combat_forms


def _at_least_one(sheet: Sheet, key: str) -> int:
    return max(sheet.rating(key), 1)


def _pool_data(data: Mapping, defence: Defence) -> tuple[dict, list]:
    """The attack as a dice pool (the Defensa taken off), and the steps that make it."""
    value = defence.value or 0
    bonus = data.get("weapon_bonus") or 0
    modifier = data.get("modifier") or 0
    modifiers = tuple(m for m in (bonus, modifier) if m)
    plan_data = {
        "kind": "pool",
        "attribute": data["attribute"],
        "skill": data.get("skill") or "",
        "specialty": data.get("specialty") or "",
        "modifiers": modifiers,
        "extra_dice": -value,
        "willpower": "dice" if data.get("willpower") else None,
        "again": 10,
    }
    steps = [(_("Weapon"), bonus)] if bonus else []
    if modifier:
        steps.append((_("Modifier"), modifier))
    steps.append((defence.label, -value))
    return plan_data, steps


class TinieblasCombat(CombatRules):
    spends = ("willpower",)
    attack_fields = staticmethod(combat_forms.attack_fields)

    def initiative_rule(self) -> str:
        return _(
            "Iniciativa (Destreza + Compostura) + 1d10, highest first. Ties: the higher "
            "Iniciativa, then a roll-off of 1d10."
        )

    def roll_initiative(self, sheet, rng) -> Initiative:
        record = engine.roll_initiative(
            _at_least_one(sheet, "destreza"), _at_least_one(sheet, "compostura"), rng
        )
        return Initiative(record, record.result, record.details["base"])

    def roll_off(self, sheet, rng) -> int:
        return engine.roll_off(rng)

    def computed_defence(self, attacker, target, data) -> Defence:
        value = traits.defensa(_at_least_one(target, "astucia"), _at_least_one(target, "destreza"))
        return Defence(value, _("Defensa of %(name)s") % {"name": target.character.name})

    def plan_attack(self, attacker, target, data, defence) -> AttackPlan:
        plan_data, steps = _pool_data(data, defence)
        plan = attacker.system.roll_setup.plan(attacker, plan_data)
        return AttackPlan(plan.odds, tuple(steps), defence)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        plan_data, _steps = _pool_data(data, defence)
        [side] = attacker.system.roll_setup.plan(attacker, plan_data).roll(rng)
        side = stamp_target(side, target, defence.value)
        successes = side.record.result if side.record.outcome != "dramatic_failure" else 0
        damage_type = data.get("damage_type") or "B"
        if successes <= 0:
            return AttackRoll([side], False, None, "")
        return AttackRoll(
            [side], True, DamageInput(successes, damage_type), f"{successes} {damage_type}"
        )
