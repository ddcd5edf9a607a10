"""Combat in Hitos: initiative with the central die, the target's Defensa as the attack's
difficulty, and the damage from the same dice as the attack."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.texts import Message
from mechanics.combat import AttackPlan, AttackRoll, CombatRules, Defence, Initiative, stamp_target
from mechanics.rules.hitos import rolls, traits
from mechanics.setup import Sheet
from mechanics.systems.base import DamageInput
from mechanics.systems.hitos import combat_forms


def _penalty(sheet: Sheet) -> int:
    return max(sheet.health.penalty, -5)


def _attack_data(data, defence: Defence) -> dict:
    return {
        "kind": "attack",
        "characteristic": data["characteristic"],
        "skill": data.get("skill") or "",
        "difficulty": defence.value,
        "modifier": data.get("modifier") or 0,
        "weapon": data.get("weapon") or "central",
        "weapon_constant": data.get("weapon_constant") or 0,
        "attack_range": data.get("attack_range") or "melee",
        "target_rd": data.get("target_rd") or 0,
        "damage_shift": data.get("damage_shift") or 0,
    }


class HitosCombat(CombatRules):
    attack_fields = staticmethod(combat_forms.attack_fields)

    def initiative_rule(self) -> str:
        return _(
            "Reflejos + Intelecto/2 + the central die (with the wound penalty), highest "
            "first. Ties: the higher base, then a roll-off of 1d10."
        )

    def roll_initiative(self, sheet, rng) -> Initiative:
        record = rolls.roll_initiative(
            sheet.rating("reflejos"), sheet.rating("intelecto"), _penalty(sheet), rng
        )
        return Initiative(record, record.result, record.details["base"])

    def computed_defence(self, attacker, target, data) -> Defence:
        state = data.get("target_state") or "normal"
        value = traits.defensa(
            target.rating("reflejos"),
            target.rating("combate"),
            _penalty(target),
            unaware=state == "unaware",
            total_defence=state == "total_defence",
            defenceless=state == "defenceless",
        )
        return Defence(value, _("Defensa of %(name)s") % {"name": target.character.name})

    def plan_attack(self, attacker, target, data, defence) -> AttackPlan:
        plan = attacker.system.roll_setup.plan(attacker, _attack_data(data, defence))
        return AttackPlan(plan.odds, (), defence, plan.odds.notes)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        plan = attacker.system.roll_setup.plan(attacker, _attack_data(data, defence))
        [side] = plan.roll(rng)
        side = stamp_target(side, target, None)
        dealt = side.record.effects.damage
        notes = ()
        if side.record.details.get("secuela"):
            notes = (Message(gettext_noop("A crítico: the target takes a secuela.")),)
        if dealt is None:
            return AttackRoll([side], False, None, "", notes)
        if dealt <= 0:
            return AttackRoll([side], True, None, Message(gettext_noop("no damage")), notes)
        critical = side.record.details.get("secuela") or ""
        return AttackRoll([side], True, DamageInput(dealt, critical=critical), str(dealt), notes)
