"""Combat in Hitos: initiative with the central die, the target's Defensa as the attack's
difficulty, and the damage from the same dice as the attack."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.texts import Message
from mechanics.combat import AttackPlan, AttackRoll, CombatRules, Defence, Initiative, stamp_target
from mechanics.rules.hitos import rolls, traits
from mechanics.rules.hitos.rolls import highest_rd
from mechanics.setup import Sheet, SideRecord
from mechanics.systems.base import DamageInput
from mechanics.systems.hitos import combat_forms
from mechanics.systems.hitos.rolls import opposing_activation, pay_activation
from mechanics.systems.hitos.sheet import armour_rds


def _penalty(sheet: Sheet) -> int:
    return max(sheet.health.penalty, -5)


def _aspects(attacker: Sheet, target: Sheet, data) -> dict:
    """Both sides' activations (each refused with the reason if it cannot be paid)."""
    mine, mine_owner, _row = opposing_activation(
        attacker, target, data.get("aspect"), data.get("pay")
    )
    theirs, theirs_owner, theirs_row = opposing_activation(
        target, attacker, data.get("target_aspect"), data.get("target_pay")
    )
    for_damage = (data.get("aspect_use") or "roll") == "damage"
    against_damage = (data.get("target_aspect_use") or "roll") == "damage"
    return {
        "activation": None if for_damage else mine,
        "damage_activation": mine if for_damage else None,
        "aspect_owner": mine_owner,
        "hinder": theirs is not None and not against_damage,
        "damage_shift": -1 if theirs is not None and against_damage else 0,
        "target_activation": theirs,
        "target_owner": theirs_owner,
        "target_aspect_row": theirs_row,
        "target_use": "damage" if against_damage else "roll",
    }


def _attack_data(data, target: Sheet, defence: Defence, aspects: dict) -> dict:
    typed_rd = data.get("target_rd")
    return {
        "kind": "attack",
        "difficulty": defence.value,
        "modifier": data.get("modifier") or 0,
        "weapon": data.get("weapon") or "central",
        "weapon_constant": data.get("weapon_constant") or 0,
        "attack_range": data.get("attack_range") or "melee",
        "target_rd": highest_rd(armour_rds(target.items)) if typed_rd is None else typed_rd,
        "activation": aspects["activation"],
        "damage_activation": aspects["damage_activation"],
        "aspect_owner": aspects["aspect_owner"],
        "hinder": aspects["hinder"],
        "damage_shift": aspects["damage_shift"],
    }


def _aspect_notes(attacker: Sheet, target: Sheet, aspects: dict) -> tuple[str, ...]:
    notes = []
    mine = aspects["activation"] or aspects["damage_activation"]
    words = {
        ("attacker", "roll"): gettext_noop("%(name)s activates «%(aspect)s»: the attack keeps M."),
        ("attacker", "damage"): gettext_noop(
            "%(name)s activates «%(aspect)s»: the damage goes one category up."
        ),
        ("target", "roll"): gettext_noop("%(name)s activates «%(aspect)s»: the attack keeps m."),
        ("target", "damage"): gettext_noop(
            "%(name)s activates «%(aspect)s»: the damage goes one category down."
        ),
    }
    if mine is not None:
        use = "damage" if aspects["damage_activation"] else "roll"
        notes.append(
            Message(words["attacker", use], name=attacker.character.name, aspect=mine.aspect)
        )
    theirs = aspects["target_activation"]
    if theirs is not None:
        notes.append(
            Message(
                words["target", aspects["target_use"]],
                name=target.character.name,
                aspect=theirs.aspect,
            )
        )
    return tuple(notes)


def _outcome(side: SideRecord, notes: tuple, writes: tuple) -> AttackRoll:
    """A rolled attack: a miss, a hit without damage, or the damage for the GM to apply
    (with the secuela of a crítico)."""
    dealt = side.record.effects.damage
    if side.record.details.get("secuela"):
        notes += (Message(gettext_noop("A crítico: the target takes a secuela.")),)
    rest = (notes, None, writes)
    if dealt is None:
        return AttackRoll([side], False, None, "", *rest)
    if dealt <= 0:
        return AttackRoll([side], True, None, Message(gettext_noop("no damage")), *rest)
    critical = side.record.details.get("secuela") or ""
    damage = DamageInput(dealt, critical=critical)
    return AttackRoll([side], True, damage, str(dealt), *rest)


class HitosCombat(CombatRules):
    attack_fields = staticmethod(combat_forms.attack_fields)
    spends = ("aspect", "target_aspect")

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
        aspects = _aspects(attacker, target, data)
        plan = attacker.system.roll_setup.plan(
            attacker, _attack_data(data, target, defence, aspects)
        )
        notes = (*plan.odds.notes, *(str(n) for n in _aspect_notes(attacker, target, aspects)))
        return AttackPlan(plan.odds, (), defence, notes)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        aspects = _aspects(attacker, target, data)
        plan = attacker.system.roll_setup.plan(
            attacker, _attack_data(data, target, defence, aspects)
        )
        [side] = plan.roll(rng)
        side = stamp_target(side, target, None)
        writes = ()
        theirs = aspects["target_activation"]
        if theirs is not None:
            # The target pays for its own aspect when the attack is stored (`write_back`).
            row = aspects["target_aspect_row"]
            owner = aspects["target_owner"]
            writes = (
                {
                    "kind": "activation",
                    "character": target.character.pk,
                    "pay": theirs.pay,
                    "aspect": row.pk if theirs.pay == "exhaust" else None,
                    "owner": owner.pk if owner is not None and theirs.hands_drama_point else None,
                },
            )
            details = {
                **side.record.details,
                "target_activation": {**theirs.to_dict(), "use": aspects["target_use"]},
            }
            side = SideRecord(side.sheet, replace(side.record, details=details))
        return _outcome(side, _aspect_notes(attacker, target, aspects), writes)

    def attack_from_roll(self, side) -> AttackRoll:
        # The roll panel's aspects and hindering are paid when its roll is stored.
        return _outcome(side, (), ())

    def write_back(self, writes, user, scene) -> list[str]:
        """The target pays for the aspect it activated against the attack: a drama point
        (handed to the attacker when the aspect was theirs) or exhausting its own."""
        for write in writes:
            pay_activation(
                payer_id=write["character"],
                user=user,
                pay=write["pay"],
                aspect_id=write["aspect"],
                owner_id=write["owner"],
            )
        return []
