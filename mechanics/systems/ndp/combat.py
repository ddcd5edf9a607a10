"""Combat in 3d6 + NdP: fighters act by phases, then by an Alerta roll; the target rolls a
defence (or the GM gives an adversity); a hit rolls the weapon's damage against the armour
of the part hit; bleeding fighters bleed at each new round."""

from __future__ import annotations

import uuid
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.combat import AttackPlan, AttackRoll, CombatRules, Defence, Initiative, stamp_target
from mechanics.rules.ndp import catalogue, rolls
from mechanics.rules.ndp import combat as engine
from mechanics.setup import Sheet, SideRecord
from mechanics.systems.base import DamageInput
from mechanics.systems.ndp import combat_forms
from mechanics.systems.ndp.combat_forms import DEFENCES
from mechanics.systems.ndp.health import character_bleed_round
from mechanics.systems.registry import get_system


def _alerta(sheet: Sheet) -> rolls.NdpSpec:
    return rolls.NdpSpec(level=sheet.rating(engine.INITIATIVE_SKILL), skill=engine.INITIATIVE_SKILL)


def _rolls_defence(target: Sheet, data) -> bool:
    return (data.get("defence") or "") in DEFENCES and not target.cannot_act


def _attack_data(data, adversity: int) -> dict:
    return {
        "kind": "attack",
        "skill": data["skill"],
        "dice": int(data.get("dice") or 3),
        "gracias": data.get("gracias") or 0,
        "desgracias": data.get("desgracias") or 0,
        "adversity": adversity,
        "damage_count": data["damage_count"],
        "damage_sides": data["damage_sides"],
        "damage_fixed": data.get("damage_fixed") or 0,
        "damage_type": data["damage_type"],
        "target_rd": data.get("target_rd") or 0,
    }


def _defence_data(data) -> dict:
    return {
        "kind": "check",
        "skill": data["defence"],
        "dice": 3,
        "desgracias": data.get("defence_desgracias") or 0,
    }


def _adversity(target: Sheet, data) -> int | None:
    """The fixed adversity when the target does not roll a defence."""
    if _rolls_defence(target, data):
        return None
    adversity = data.get("adversity")
    if adversity is None:
        raise ValidationError(
            _("Give the adversity to exceed, or let %(name)s roll a defence.")
            % {"name": target.character.name},
            code="adversity",
        )
    return adversity


class NdpCombat(CombatRules):
    # At most two attacks per turn (RULES 6).
    attacks_per_round = 2
    phases = engine.PHASES
    default_phase = engine.DEFAULT_PHASE
    attack_fields = staticmethod(combat_forms.attack_fields)
    clean_attack = staticmethod(combat_forms.clean_attack)

    def initiative_rule(self) -> str:
        return _(
            "By phase (melee threatening shooters, shooters, melee, spellcasters), then "
            "an Alerta roll, highest first. Ties roll Alerta again."
        )

    def roll_initiative(self, sheet, rng) -> Initiative:
        # An Alerta check; the base plays no part (ties roll Alerta again).
        record = rolls.roll_check(_alerta(sheet), rng)
        traits = {"skill": sheet.name(engine.INITIATIVE_SKILL)}
        record = replace(record, kind="initiative", details={**record.details, "traits": traits})
        return Initiative(record, record.result, 0)

    def roll_off(self, sheet, rng) -> int:
        return rolls.roll_check(_alerta(sheet), rng).result

    def computed_defence(self, attacker, target, data) -> Defence:
        if _rolls_defence(target, data):
            return Defence(
                None,
                _("%(name)s rolls %(skill)s")
                % {"name": target.character.name, "skill": target.name(data["defence"])},
            )
        return Defence(None, _("Fixed adversity"))

    def plan_attack(self, attacker, target, data, defence) -> AttackPlan:
        setup = attacker.system.roll_setup
        adversity = _adversity(target, data)
        if adversity is not None:
            plan = setup.plan(attacker, _attack_data(data, adversity))
            return AttackPlan(plan.odds, (), defence)
        # The target rolls its defence: the odds are those of the opposed roll.
        attack_side = {"skill": data["skill"], "dice": int(data.get("dice") or 3)}
        attack_side.update(gracias=data.get("gracias") or 0, desgracias=data.get("desgracias") or 0)
        plan = setup.opposed(attacker, attack_side, target, _defence_data(data))
        return AttackPlan(plan.odds, (), defence)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        setup = attacker.system.roll_setup
        sides: list[SideRecord] = []
        adversity = _adversity(target, data)
        group = None
        if adversity is None:
            [defence_side] = setup.plan(target, _defence_data(data)).roll(rng)
            adversity = defence_side.record.result
            details = {**defence_side.record.details, "role": "defender"}
            sides.append(SideRecord(target, replace(defence_side.record, details=details)))
            group = uuid.uuid4()
        [side] = setup.plan(attacker, _attack_data(data, adversity)).roll(rng)
        sides.append(stamp_target(side, target, None))
        details = side.record.details
        if not details.get("hit"):
            return AttackRoll(sides, False, None, "", group=group)
        result = details["damage_roll"]
        notes = ()
        if result.get("attacker_wound"):
            notes = (
                _("The blow did not get through the armour: %(name)s takes a leve wound (Pelea).")
                % {"name": attacker.character.name},
            )
        part = data.get("part") or "torso"
        part_name = catalogue.body_part(part).name
        if not result.get("tier"):
            return AttackRoll(sides, True, None, _("no wound"), notes, group)
        damage = DamageInput(
            result["raw"], data["damage_type"], rd=data.get("target_rd") or 0, part=part
        )
        text = f"{part_name}: {result['net']} → {result['tier']}"
        return AttackRoll(sides, True, damage, text, notes, group)

    def new_round(self, combat, participants, user) -> list[str]:
        """Hemorragia: everyone in the fight who is bleeding takes a wound per round."""
        system = get_system("ndp")
        bled = []
        for participant in participants:
            character = participant.character
            state = system.state(character.health)
            if state.bleeding_parts and not state.dead:
                character_bleed_round(
                    character=character,
                    user=user,
                    reason=_("Round %(round)s of the combat") % {"round": combat.round},
                    scene=combat.scene,
                )
                bled.append(character.name)
        return bled
