"""The combat panel's rules glue: initiative, the target's defence, and attacks.

Like `mechanics.setup` (which it reuses for every attack roll), this is the only place
that turns two characters' sheets and the GM's choices into engine calls for a fight.
Views and services never compute a Defensa, an initiative or a damage themselves.

- `roll_initiative(sheet, rng)`: each system's initiative roll (see the engines:
  `tinieblas.combat`, `hitos.rolls.roll_initiative`, `objetivo.rolls.roll_initiative`;
  3d6 + NdP rolls Alerta, see `ndp.combat`), with `roll_off` for ties.
- `defence(attacker, target, data)`: what the attack roll has to beat, in words.
- `roll_attack(attacker, target, data, rng)`: the attack (and in 3d6 + NdP the target's
  defence roll first), with the damage the engine computed, ready to confirm.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.rules.dice import RandomSource, RollRecord
from mechanics.rules.hitos import rolls as hitos_rolls
from mechanics.rules.hitos import traits as hitos_traits
from mechanics.rules.initiative import Entry, order
from mechanics.rules.ndp import catalogue as ndp_catalogue
from mechanics.rules.ndp import combat as ndp_combat
from mechanics.rules.ndp import rolls as ndp_rolls
from mechanics.rules.objetivo import catalogue as objetivo_catalogue
from mechanics.rules.objetivo import rolls as objetivo_rolls
from mechanics.rules.objetivo import traits as objetivo_traits
from mechanics.rules.tinieblas import combat as tinieblas_combat
from mechanics.rules.tinieblas import traits as tinieblas_traits
from mechanics.setup import CUSTOM_WEAPON, OddsView, Sheet, SideRecord, get_setup
from mechanics.systems.base import DamageInput

# --- Initiative -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Initiative:
    record: RollRecord
    total: int
    base: int


def _at_least_one(sheet: Sheet, key: str) -> int:
    return max(sheet.rating(key), 1)


def roll_initiative(sheet: Sheet, rng: RandomSource | None = None) -> Initiative:
    """One character's initiative by its system's rules."""
    system = sheet.system.key
    if system == "tinieblas":
        record = tinieblas_combat.roll_initiative(
            _at_least_one(sheet, "destreza"), _at_least_one(sheet, "compostura"), rng
        )
        return Initiative(record, record.result, record.details["base"])
    if system == "hitos":
        penalty = max(sheet.health.penalty, -5)
        record = hitos_rolls.roll_initiative(
            sheet.rating("reflejos"), sheet.rating("intelecto"), penalty, rng
        )
        return Initiative(record, record.result, record.details["base"])
    if system == "objetivo":
        base = objetivo_traits.initiative_base(
            _at_least_one(sheet, "destreza"), _at_least_one(sheet, "percepcion")
        )
        spec = objetivo_rolls.ObjetivoSpec(bonus=base, incapacitated=sheet.health.penalty < 0)
        record = objetivo_rolls.roll_initiative(spec, rng)
        return Initiative(record, record.result, base)
    # 3d6 + NdP: an Alerta check; the base plays no part (ties roll Alerta again).
    record = ndp_rolls.roll_check(_alerta(sheet), rng)
    traits = {"skill": sheet.name(ndp_combat.INITIATIVE_SKILL)}
    record = replace(record, kind="initiative", details={**record.details, "traits": traits})
    return Initiative(record, record.result, 0)


def _alerta(sheet: Sheet) -> ndp_rolls.NdpSpec:
    return ndp_rolls.NdpSpec(
        level=sheet.rating(ndp_combat.INITIATIVE_SKILL), skill=ndp_combat.INITIATIVE_SKILL
    )


def roll_off(sheet: Sheet, rng: RandomSource | None = None) -> int:
    """A roll to break a tie in the turn order: Alerta again in 3d6 + NdP, 1d10 elsewhere."""
    if sheet.system.key == "ndp":
        return ndp_rolls.roll_check(_alerta(sheet), rng).result
    return tinieblas_combat.roll_off(rng)


def phases(system: str) -> tuple[tuple[int, str], ...]:
    """The combat phases a system acts by (3d6 + NdP); () when it has none."""
    return ndp_combat.PHASES if system == "ndp" else ()


def default_phase(system: str) -> int:
    return ndp_combat.DEFAULT_PHASE if system == "ndp" else 0


def turn_order(participants: Iterable) -> list:
    """Combat participants in turn order (`mechanics.rules.initiative`); those who have
    not rolled yet come last, in the order they joined."""
    participants = list(participants)
    rolled = {p.pk: p for p in participants if p.initiative is not None}
    entries = [
        Entry(p.pk, p.initiative, p.initiative_base, p.phase, p.tiebreak) for p in rolled.values()
    ]
    waiting = [p for p in participants if p.initiative is None]
    return [rolled[entry.key] for entry in order(entries)] + sorted(waiting, key=lambda p: p.pk)


def initiative_rule(system: str) -> str:
    """How initiative works in this system, in words (the panel says it)."""
    return {
        "tinieblas": _(
            "Iniciativa (Destreza + Compostura) + 1d10, highest first. Ties: the higher "
            "Iniciativa, then a roll-off of 1d10."
        ),
        "hitos": _(
            "Reflejos + Intelecto/2 + the central die (with the wound penalty), highest "
            "first. Ties: the higher base, then a roll-off of 1d10."
        ),
        "ndp": _(
            "By phase (melee threatening shooters, shooters, melee, spellcasters), then "
            "an Alerta roll, highest first. Ties roll Alerta again."
        ),
        "objetivo": _(
            "Destreza + Percepción + 1o3d10, highest first. Ties: the higher Destreza + "
            "Percepción, then a roll-off of 1d10."
        ),
    }[system]


# --- Defence --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    """What the attack has to beat: a number (None when the target rolls) and its words."""

    value: int | None
    label: str


HITOS_TARGET_STATES = ("normal", "unaware", "total_defence", "defenceless")
NDP_DEFENCES = ("esquivar", "interceptar")


def _objetivo_weapon(data: Mapping) -> objetivo_catalogue.Weapon | None:
    key = data.get("weapon") or CUSTOM_WEAPON
    return None if key == CUSTOM_WEAPON else objetivo_catalogue.WEAPON_BY_KEY[key]


def _objetivo_skill(data: Mapping) -> str:
    weapon = _objetivo_weapon(data)
    return data.get("skill") or (weapon.skill if weapon else "armas_cc")


def computed_defence(attacker: Sheet, target: Sheet, data: Mapping) -> Defence:
    """The target's defence from its sheet (before any number the GM types instead)."""
    system = target.system.key
    name = target.character.name
    if system == "tinieblas":
        value = tinieblas_traits.defensa(
            _at_least_one(target, "astucia"), _at_least_one(target, "destreza")
        )
        return Defence(value, _("Defensa of %(name)s") % {"name": name})
    if system == "hitos":
        state = data.get("target_state") or "normal"
        value = hitos_traits.defensa(
            target.rating("reflejos"),
            target.rating("combate"),
            max(target.health.penalty, -5),
            unaware=state == "unaware",
            total_defence=state == "total_defence",
            defenceless=state == "defenceless",
        )
        return Defence(value, _("Defensa of %(name)s") % {"name": name})
    if system == "objetivo":
        if _objetivo_skill(data) == "armas_dist":
            # Ranged: the range sets the difficulty; short range unless the GM says more.
            return Defence(15, _("Short range"))
        skill = _objetivo_skill(data)
        if skill not in ("armas_cc", "pelea"):
            skill = max(("armas_cc", "pelea"), key=target.rating)
        value = objetivo_traits.defensa(
            _at_least_one(target, "destreza"),
            target.rating(skill),
            int(target.rules.get("defense_base", objetivo_traits.DEFAULT_DEFENSE_BASE)),
        )
        return Defence(value, _("Defensa of %(name)s") % {"name": name})
    defence = data.get("defence") or ""
    if defence in NDP_DEFENCES and not target.cannot_act:
        return Defence(
            None,
            _("%(name)s rolls %(skill)s") % {"name": name, "skill": target.name(defence)},
        )
    return Defence(None, _("Fixed adversity"))


def defence(attacker: Sheet, target: Sheet, data: Mapping) -> Defence:
    """The defence the attack uses: the GM's number if typed, else the computed one."""
    computed = computed_defence(attacker, target, data)
    typed = data.get("defensa")
    if typed is not None and computed.value is not None:
        return Defence(typed, _("Defensa set by the GM"))
    return computed


# --- Attacks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackRoll:
    """An attack as rolled: the records to store (defence first, then the attack), whether
    it hit, and the damage to apply once the GM confirms (None: nothing to apply)."""

    sides: list[SideRecord]
    hit: bool
    damage: DamageInput | None
    damage_text: str
    notes: tuple[str, ...] = ()
    group: uuid.UUID | None = None


@dataclass(frozen=True)
class AttackPlan:
    """Odds and steps to show before rolling, and the roll itself."""

    odds: OddsView | None
    steps: tuple[tuple[str, int], ...]
    defence: Defence
    notes: tuple[str, ...] = field(default_factory=tuple)


def _tinieblas_data(attacker: Sheet, target: Sheet, data: Mapping) -> tuple[dict, list]:
    value = defence(attacker, target, data).value or 0
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
    steps.append((defence(attacker, target, data).label, -value))
    return plan_data, steps


def _hitos_data(attacker: Sheet, target: Sheet, data: Mapping) -> dict:
    return {
        "kind": "attack",
        "characteristic": data["characteristic"],
        "skill": data.get("skill") or "",
        "difficulty": defence(attacker, target, data).value,
        "modifier": data.get("modifier") or 0,
        "weapon": data.get("weapon") or "central",
        "weapon_constant": data.get("weapon_constant") or 0,
        "attack_range": data.get("attack_range") or "melee",
        "target_rd": data.get("target_rd") or 0,
        "damage_shift": data.get("damage_shift") or 0,
    }


def _ndp_data(data: Mapping, adversity: int) -> dict:
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


def _ndp_defence_data(data: Mapping) -> dict:
    return {
        "kind": "check",
        "skill": data["defence"],
        "dice": 3,
        "desgracias": data.get("defence_desgracias") or 0,
    }


def _objetivo_data(attacker: Sheet, target: Sheet, data: Mapping) -> dict:
    skill = _objetivo_skill(data)
    weapon = _objetivo_weapon(data)
    plan_data = {
        "kind": "attack",
        "attribute": "destreza" if skill == "armas_dist" else "fuerza",
        "skill": skill,
        "modifier": data.get("modifier") or 0,
        "weapon": weapon.key if weapon else CUSTOM_WEAPON,
        "defensa": defence(attacker, target, data).value,
        "destiny_point": bool(data.get("destiny_point")),
    }
    if weapon is None:
        plan_data.update(
            damage_count=data["damage_count"],
            damage_sides=data["damage_sides"],
            damage_fixed=data.get("damage_fixed") or 0,
        )
    return plan_data


def _ndp_adversity(target: Sheet, data: Mapping) -> int | None:
    """The fixed adversity when the target does not roll a defence."""
    if (data.get("defence") or "") in NDP_DEFENCES and not target.cannot_act:
        return None
    adversity = data.get("adversity")
    if adversity is None:
        raise ValidationError(
            _("Give the adversity to exceed, or let %(name)s roll a defence.")
            % {"name": target.character.name},
            code="adversity",
        )
    return adversity


def plan_attack(attacker: Sheet, target: Sheet, data: Mapping) -> AttackPlan:
    """The odds of an attack before it is rolled. Raises RuleError or ValidationError
    for a set-up that cannot be rolled (the views show the message)."""
    system = attacker.system.key
    setup = get_setup(system)
    shown = defence(attacker, target, data)
    if system == "tinieblas":
        plan_data, steps = _tinieblas_data(attacker, target, data)
        plan = setup.plan(attacker, plan_data)
        return AttackPlan(plan.odds, tuple(steps), shown)
    if system == "hitos":
        plan = setup.plan(attacker, _hitos_data(attacker, target, data))
        return AttackPlan(plan.odds, (), shown, plan.odds.notes)
    if system == "objetivo":
        plan = setup.plan(attacker, _objetivo_data(attacker, target, data))
        return AttackPlan(plan.odds, (), shown, plan.odds.notes)
    adversity = _ndp_adversity(target, data)
    if adversity is not None:
        plan = setup.plan(attacker, _ndp_data(data, adversity))
        return AttackPlan(plan.odds, (), shown)
    # The target rolls its defence: the odds are those of the opposed roll.
    attack_side = {"skill": data["skill"], "dice": int(data.get("dice") or 3)}
    attack_side.update(gracias=data.get("gracias") or 0, desgracias=data.get("desgracias") or 0)
    plan = setup.opposed(attacker, attack_side, target, _ndp_defence_data(data))
    return AttackPlan(plan.odds, (), shown)


def _stamp(side: SideRecord, target: Sheet, defence_value: int | None) -> SideRecord:
    """The attack record names its target, so the log says whom it was against."""
    details = {
        **side.record.details,
        "target": {"character": target.character.pk, "name": target.character.name},
    }
    if defence_value is not None and "defensa" not in details:
        details["defensa"] = defence_value
    return SideRecord(side.sheet, replace(side.record, details=details))


def roll_attack(
    attacker: Sheet, target: Sheet, data: Mapping, rng: RandomSource | None = None
) -> AttackRoll:
    """Roll an attack on the server. Nothing is stored or applied here."""
    if attacker.character.pk == target.character.pk:
        raise ValidationError(_("A character cannot attack itself."), code="self")
    system = attacker.system.key
    setup = get_setup(system)
    if system == "tinieblas":
        plan_data, _steps = _tinieblas_data(attacker, target, data)
        [side] = setup.plan(attacker, plan_data).roll(rng)
        side = _stamp(side, target, defence(attacker, target, data).value)
        successes = side.record.result if side.record.outcome != "dramatic_failure" else 0
        damage_type = data.get("damage_type") or "B"
        if successes <= 0:
            return AttackRoll([side], False, None, "")
        return AttackRoll(
            [side], True, DamageInput(successes, damage_type), f"{successes} {damage_type}"
        )
    if system == "hitos":
        [side] = setup.plan(attacker, _hitos_data(attacker, target, data)).roll(rng)
        side = _stamp(side, target, None)
        dealt = side.record.effects.damage
        notes = ()
        if side.record.details.get("secuela"):
            notes = (_("A crítico: the target takes a secuela."),)
        if dealt is None:
            return AttackRoll([side], False, None, "", notes)
        if dealt <= 0:
            return AttackRoll([side], True, None, _("no damage"), notes)
        return AttackRoll([side], True, DamageInput(dealt), str(dealt), notes)
    if system == "objetivo":
        [side] = setup.plan(attacker, _objetivo_data(attacker, target, data)).roll(rng)
        side = _stamp(side, target, None)
        dealt = side.record.effects.damage
        if dealt is None:
            return AttackRoll([side], False, None, "")
        if dealt <= 0:
            return AttackRoll([side], True, None, _("no damage"))
        return AttackRoll([side], True, DamageInput(dealt), f"−{dealt} PV")
    return _roll_ndp_attack(attacker, target, data, rng)


def _roll_ndp_attack(attacker: Sheet, target: Sheet, data: Mapping, rng) -> AttackRoll:
    setup = get_setup("ndp")
    sides: list[SideRecord] = []
    adversity = _ndp_adversity(target, data)
    group = None
    if adversity is None:
        [defence_side] = setup.plan(target, _ndp_defence_data(data)).roll(rng)
        adversity = defence_side.record.result
        details = {**defence_side.record.details, "role": "defender"}
        sides.append(SideRecord(target, replace(defence_side.record, details=details)))
        group = uuid.uuid4()
    [side] = setup.plan(attacker, _ndp_data(data, adversity)).roll(rng)
    sides.append(_stamp(side, target, None))
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
    part_name = ndp_catalogue.body_part(part).name
    if not result.get("tier"):
        return AttackRoll(sides, True, None, _("no wound"), notes, group)
    damage = DamageInput(
        result["raw"], data["damage_type"], rd=data.get("target_rd") or 0, part=part
    )
    text = f"{part_name}: {result['net']} → {result['tier']}"
    return AttackRoll(sides, True, damage, text, notes, group)
