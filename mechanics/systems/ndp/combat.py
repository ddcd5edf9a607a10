"""Combat in 3d6 + NdP: fighters act by phases, then by an Alerta roll; the target rolls a
defence (or the GM gives an adversity); a hit rolls the weapon's damage against the armour
of the part hit; bleeding fighters bleed at each new round."""

from __future__ import annotations

import uuid
from dataclasses import replace
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.texts import Message
from characters.models import Character, Item
from characters.services.sheet import item_wear, ratings_of
from mechanics.combat import (
    AttackPlan,
    AttackRoll,
    CombatRules,
    Defence,
    Initiative,
    Move,
    stamp_target,
)
from mechanics.rules.ndp import catalogue, equipment, rolls
from mechanics.rules.ndp import combat as engine
from mechanics.rules.ndp import odds as engine_odds
from mechanics.rules.ndp.equipment import ArmourPiece, Weapon
from mechanics.setup import OddsRow, Sheet, SideRecord
from mechanics.systems.base import DamageInput
from mechanics.systems.ndp import combat_forms, wounds
from mechanics.systems.ndp.combat_forms import DEFENCES
from mechanics.systems.ndp.gear import intercepting, interceptor, items
from mechanics.systems.ndp.health import (
    character_bleed_round,
    character_overload_turn,
    character_wound,
)
from mechanics.systems.ndp.magic import bound_creatures
from mechanics.systems.ndp.magic_sheet import creatures_strain_leash
from mechanics.systems.ndp.rolls import step_words
from mechanics.systems.registry import get_system


def _alerta(sheet: Sheet) -> rolls.NdpSpec:
    return rolls.NdpSpec(level=sheet.rating(engine.INITIATIVE_SKILL), skill=engine.INITIATIVE_SKILL)


def _rolls_defence(target: Sheet, data) -> bool:
    return (data.get("defence") or "") in DEFENCES and not target.cannot_act


def _weapon(attacker: Sheet, data):
    """The sheet weapon the attack uses, (item, Weapon), or None for typed damage."""
    key = str(data.get("weapon") or "")
    if not key:
        return None
    found = next(
        (pair for pair in items(attacker, "weapon", Weapon) if str(pair[0].pk) == key), None
    )
    if found is None:
        raise ValidationError(
            _("That weapon is not on %(name)s's sheet.") % {"name": attacker.character.name},
            code="weapon",
        )
    return found


def _armour(target: Sheet, part: str):
    """The armour worn on the part hit, (item, ArmourPiece): the piece with the highest
    RD when several cover it (docs/rules.md#ndp-armour-worn); None when bare."""
    pieces = [pair for pair in items(target, "armour", ArmourPiece) if pair[1].part == part]
    return max(pieces, key=lambda pair: pair[1].current_rd, default=None)


def _attack_data(attacker: Sheet, target: Sheet, data, adversity: int | None) -> dict:
    weapon = _weapon(attacker, data)
    armour = _armour(target, data.get("part") or "torso")
    second = rolls.attack_desgracias(data.get("attacks_made", 0) + 1)
    attack = {
        "kind": "attack",
        "skill": weapon[1].skill if weapon else data["skill"],
        "dice": int(data.get("dice") or 3),
        "gracias": data.get("gracias") or 0,
        "desgracias": data.get("desgracias") or 0,
        "added_desgracias": [(_("Second attack this turn"), second)],
        "limb": data.get("limb") or "",
        "adversity": adversity,
        "target_rd": armour[1].rd if armour else 0,
        "armour_integrity": armour[1].integrity if armour else None,
    }
    if weapon:
        stats = weapon[1]
        attack.update(
            damage_count=stats.count,
            damage_sides=stats.sides,
            damage_fixed=stats.fixed,
            damage_type=stats.damage_type,
        )
    else:
        attack.update(
            damage_count=data["damage_count"],
            damage_sides=data["damage_sides"],
            damage_fixed=data.get("damage_fixed") or 0,
            damage_type=data["damage_type"],
        )
    return attack


def _defence_data(target: Sheet, data) -> dict:
    """The defence roll: a quick action, with a Desgracia for each earlier defence this
    round and one after a feint; Interceptar adds a shield's GdC bonus."""
    added = [
        (
            _("Earlier defences this round"),
            rolls.defence_desgracias(data.get("defences_made", 0) + 1),
        )
    ]
    if data.get("feint"):
        added.append((_("Feint"), rolls.FEINT_DESGRACIAS))
    defence = {
        "kind": "check",
        "skill": data["defence"],
        "dice": 3,
        "desgracias": data.get("defence_desgracias") or 0,
        "added_desgracias": added,
        "quick": True,
    }
    return intercepting(target, defence)[0]


def _damage_spec(attack: dict) -> rolls.DamageSpec:
    return rolls.DamageSpec(
        sides=attack["damage_sides"],
        count=attack["damage_count"] if attack["damage_sides"] else 0,
        fixed=attack["damage_fixed"],
        damage_type=attack["damage_type"],
        rd=attack["target_rd"],
        pelea=attack["skill"] == "pelea",
        armour_integrity=attack["armour_integrity"],
    )


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


def _wear(item, owner: Sheet) -> dict:
    return {"kind": "wear", "item": item.pk, "character": owner.character.pk}


def _wear_note(item, left: int) -> str:
    return Message(
        gettext_noop("%(item)s loses 1 integrity (%(left)s left)."), item=item.name, left=left
    )


def _speed_factor(sheet: Sheet) -> float:
    """1, or ½ when overloaded, or 0 at twice the maximum load."""
    weight = float(sum((item.weight_kg for item in sheet.items), Decimal(0)))
    return equipment.load_state(weight, sheet.rating("fortitud")).speed_factor


class NdpCombat(CombatRules):
    # At most two attacks per turn (RULES 6).
    attacks_per_round = 2
    # Seed: "Moverse | Correr | 1m gratis / 6m sin atacar / 18m con tirada".
    moves = True
    # The second attack and each extra defence take a Desgracia.
    counts_actions = True
    phases = engine.PHASES
    default_phase = engine.DEFAULT_PHASE
    attack_fields = staticmethod(combat_forms.attack_fields)
    clean_attack = staticmethod(combat_forms.clean_attack)
    follow_attack_choices = staticmethod(combat_forms.follow_attack_choices)

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
        self.refuse_attack_after_move(attacker, data.get("moved", 0))
        setup = attacker.system.roll_setup
        adversity = _adversity(target, data)
        attack = _attack_data(attacker, target, data, adversity)
        if adversity is not None:
            plan = setup.plan(attacker, attack)
            return AttackPlan(plan.odds, (), defence, _armour_notes(target, data))
        # The target rolls its defence: the odds are those of the opposed roll, and of
        # each wound once it wins (the damage roll is independent of the rest).
        defence_data = _defence_data(target, data)
        plan = setup.opposed(attacker, attack, target, defence_data)
        p_win = plan.odds.p("win") or 0.0
        tiers = engine_odds.damage_odds(_damage_spec(attack))
        rows = plan.odds.rows + tuple(
            OddsRow(f"tier_{tier}", label, p_win * tiers[tier])
            for tier, label in (
                ("leve", _("Hit: leve wound")),
                ("grave", _("Hit: grave wound")),
                ("letal", _("Hit: letal wound")),
            )
        )
        _spec, steps = setup.spec(target, defence_data)
        notes = (f"{target.character.name}: {step_words(steps)}", *_armour_notes(target, data))
        return AttackPlan(replace(plan.odds, rows=rows), (), defence, notes)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        setup = attacker.system.roll_setup
        sides: list[SideRecord] = []
        adversity = _adversity(target, data)
        attack = _attack_data(attacker, target, data, adversity)
        counted = (data.get("attacks_made", 0), data.get("defences_made", 0))
        group = None
        if adversity is None:
            [defence_side] = setup.plan(target, _defence_data(target, data)).roll(rng)
            adversity = defence_side.record.result
            details = {**defence_side.record.details, "role": "defender"}
            sides.append(SideRecord(target, replace(defence_side.record, details=details)))
            group = uuid.uuid4()
        [side] = setup.plan(attacker, {**attack, "adversity": adversity}).roll(rng)
        sides.append(stamp_target(side, target, None))
        details = side.record.details
        if not details.get("hit"):
            writes = ()
            used = interceptor(target) if group and data.get("defence") == "interceptar" else None
            if used:
                # Interceptar: the object used to defend takes the blow (`write_back` says so).
                writes = (_wear(used[0], target),)
            return AttackRoll(sides, False, None, "", (), group, writes, counted)
        result = details["damage_roll"]
        notes, writes, with_damage = [], [], []
        weapon = _weapon(attacker, data)
        armour = _armour(target, data.get("part") or "torso")
        if result.get("weapon_integrity_loss"):
            if weapon:
                writes.append(_wear(weapon[0], attacker))
            else:
                notes.append(
                    Message(
                        gettext_noop(
                            "The blow did not get through the armour: the weapon loses 1 integrity."
                        )
                    )
                )
        if result.get("armour_integrity_loss") and armour:
            # The armour is worn by a blow that gets through it: with the wound, when the
            # GM applies it (docs/rules.md#ndp-write-back-when).
            with_damage.append(_wear(armour[0], target))
        if result.get("attacker_wound"):
            limb = (wounds.limbs(data.get("limb") or "") or ("brazo_derecho",))[0]
            notes.append(
                Message(
                    gettext_noop(
                        "The blow did not get through the armour: %(name)s takes a leve wound "
                        "(Pelea)."
                    ),
                    name=attacker.character.name,
                )
            )
            writes.append({"kind": "wound", "character": attacker.character.pk, "part": limb})
        part = data.get("part") or "torso"
        part_name = catalogue.body_part(part).name
        rest = (tuple(notes), group, tuple(writes), counted, tuple(with_damage))
        if not result.get("tier"):
            return AttackRoll(sides, True, None, Message(gettext_noop("no wound")), *rest)
        damage = DamageInput(
            result["raw"],
            attack["damage_type"],
            rd=attack["target_rd"],
            part=part,
            armour_integrity=attack["armour_integrity"],
        )
        text = f"{part_name}: {result['net']} → {result['tier']}"
        return AttackRoll(sides, True, damage, text, *rest)

    def move(self, sheet, metres, attacked, adversity, rng) -> Move:
        """Up to 1 m free, up to 6 m giving up the attack, up to 18 m with a Correr roll
        against the adversity the GM gives; a failed roll still covers 6 m (half of each
        when overloaded) (docs/rules.md#ndp-movement)."""
        name = sheet.character.name
        if sheet.cannot_act:
            raise ValidationError(
                _("%(name)s cannot act in this state.") % {"name": name}, code="cannot_act"
            )
        factor = _speed_factor(sheet)
        kind = engine.movement(metres, factor)
        if attacked and kind != engine.MOVE_FREE:
            raise ValidationError(
                _("%(name)s has attacked this round: only 1 m more (6 m is without attacking).")
                % {"name": name},
                code="attacked",
            )
        words = {"name": name, "metres": metres}
        if kind == engine.MOVE_FREE:
            return Move(metres, None, _("%(name)s moves: %(metres)s m this round.") % words)
        if kind == engine.MOVE_NO_ATTACK:
            text = _("%(name)s moves: %(metres)s m this round, and cannot attack.") % words
            return Move(metres, None, text)
        if adversity is None:
            raise ValidationError(
                _("A move of more than 6 m takes a Correr roll: give its adversity."),
                code="adversity",
            )
        plan = sheet.system.roll_setup.plan(
            sheet, {"kind": "check", "skill": "correr", "adversity": adversity}
        )
        [side] = plan.roll(rng)
        if side.record.outcome == "success":
            text = _("%(name)s runs: %(metres)s m this round, and cannot attack.") % words
            return Move(metres, side, text)
        reached = min(metres, engine.reach_after_failed_run(factor))
        text = _("%(name)s fails the Correr roll: %(reached)s m this round, and cannot attack.") % {
            **words,
            "reached": reached,
        }
        return Move(reached, side, text)

    def refuse_attack_after_move(self, sheet, moved) -> None:
        if moved and engine.movement(moved, _speed_factor(sheet)) != engine.MOVE_FREE:
            raise ValidationError(
                _("%(name)s moved %(metres)s m this round: more than 1 m leaves no attack.")
                % {"name": sheet.character.name, "metres": moved},
                code="moved",
            )

    def write_back(self, writes, user, scene) -> list[str]:
        """Worn weapons, armour and intercepting objects lose their integrity, and a Pelea
        attacker takes its own wound (docs/rules.md#ndp-write-back); the notes give the
        integrity left as written."""
        notes = []
        for write in writes:
            character = Character.objects.filter(pk=write["character"]).first()
            if write["kind"] == "wear":
                item = Item.objects.filter(pk=write["item"], character=character).first()
                if item is not None:  # removed from the sheet meanwhile: nothing to wear
                    notes.append(_wear_note(item, item_wear(item=item, user=user)))
            elif character is not None:
                character_wound(
                    character=character,
                    user=user,
                    part=write["part"],
                    tier="leve",
                    damage_type="contundente",
                    reason=Message(gettext_noop("Pelea blow against armour")),
                    scene=scene,
                )
        return notes

    def pending_notes(self, writes, sheets) -> list[str]:
        """The wear a waiting attack brings with its damage, with the integrity that
        applying it now would leave (earlier attacks applied meanwhile count)."""
        notes = []
        for write in writes:
            sheet = sheets.get(write["character"])
            item = next((i for i in sheet.items if i.pk == write["item"]), None) if sheet else None
            if item is not None and isinstance(item.data.get("integrity"), int):
                notes.append(
                    _("%(item)s loses 1 integrity when the damage is applied (%(left)s left).")
                    % {"item": item.name, "left": max(0, item.data["integrity"] - 1)}
                )
        return notes

    def new_round(self, combat, participants, user) -> list[str]:
        """Hemorragia: everyone in the fight who is bleeding takes a wound per round; who
        carries twice the maximum load takes a grave wound on each leg; a creature bound
        to a fighter and beyond its anchor's 50 m takes a leve wound."""
        system = get_system("ndp")
        bled = []
        for participant in participants:
            character = participant.character
            state = system.state(character.health)
            if state.bleeding_parts and not state.dead:
                character_bleed_round(
                    character=character,
                    user=user,
                    reason=Message(
                        gettext_noop("Round %(round)s of the combat"), round=combat.round
                    ),
                    scene=combat.scene,
                )
                bled.append(character.name)
            strained = bound_creatures(character) and creatures_strain_leash(
                character=character, user=user
            )
            for creature in strained or ():
                bled.append(
                    _("%(creature)s, bound to %(name)s (beyond its anchor)")
                    % {"creature": creature, "name": character.name}
                )
            if _overloaded(character) and not state.dead:
                character_overload_turn(
                    character=character,
                    user=user,
                    reason=Message(
                        gettext_noop("Round %(round)s of the combat"), round=combat.round
                    ),
                    scene=combat.scene,
                )
                bled.append(_("%(name)s (overloaded)") % {"name": character.name})
        return bled


def _overloaded(character) -> bool:
    """Carrying twice the maximum load or more: a grave wound on each leg per turn."""
    weight = float(sum((item.weight_kg for item in character.items.all()), Decimal(0)))
    fortitud = ratings_of(character).get("fortitud", 0)
    return equipment.load_state(weight, fortitud).immobile


def _armour_notes(target: Sheet, data) -> tuple[str, ...]:
    part = data.get("part") or "torso"
    armour = _armour(target, part)
    if armour is None:
        return (_("No armour on %(part)s: RD 0.") % {"part": catalogue.body_part(part).name},)
    item, stats = armour
    return (
        _("Armour on %(part)s: %(item)s, RD %(rd)s, integrity %(integrity)s.")
        % {
            "part": catalogue.body_part(part).name,
            "item": item.name,
            "rd": stats.rd,
            "integrity": stats.integrity,
        },
    )
