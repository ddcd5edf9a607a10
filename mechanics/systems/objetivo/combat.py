"""Combat in Dado objetivo: Destreza + Percepción + the target die for initiative, the
target's Defensa (or the range) as the attack's difficulty, exploding damage dice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.texts import Message
from mechanics.combat import AttackPlan, AttackRoll, CombatRules, Defence, Initiative, stamp_target
from mechanics.rules.objetivo import catalogue, rolls, traits
from mechanics.setup import Sheet, SideRecord
from mechanics.systems.base import DamageInput
from mechanics.systems.objetivo import combat_forms
from mechanics.systems.objetivo.rolls import CUSTOM_WEAPON, DESTINY_POOL

MELEE_SKILLS = ("armas_cc", "pelea")
RANGED_SKILL = "armas_dist"


def _at_least_one(sheet: Sheet, key: str) -> int:
    return max(sheet.rating(key), 1)


def _weapon(data) -> catalogue.Weapon | None:
    key = data.get("weapon") or CUSTOM_WEAPON
    return None if key == CUSTOM_WEAPON else catalogue.WEAPON_BY_KEY[key]


def _weapon_key(data) -> str:
    weapon = _weapon(data)
    return weapon.key if weapon else CUSTOM_WEAPON


def _skill(data) -> str:
    weapon = _weapon(data)
    return data.get("skill") or (weapon.skill if weapon else "armas_cc")


def attack_traits(data) -> tuple[str, tuple[str, ...]]:
    """The attribute an attack adds and the skills it may add, by the seed's formulas: a
    shot is Destreza + Armas Dist, any other attack Fuerza + Armas CC or Pelea. A shot is
    one with a ranged weapon of the catalogue or, with another weapon, one with Armas Dist
    or a distance typed (docs/rules.md#objetivo-attack-traits)."""
    weapon = _weapon(data)
    if weapon is not None:
        ranged = weapon.ranges is not None
    else:
        ranged = data.get("skill") == RANGED_SKILL or data.get("distance") is not None
    return ("destreza", (RANGED_SKILL,)) if ranged else ("fuerza", MELEE_SKILLS)


def _attack_data(data, defence: Defence) -> dict:
    skill = _skill(data)
    weapon = _weapon(data)
    plan_data = {
        "kind": "attack",
        "attribute": "destreza" if skill == RANGED_SKILL else "fuerza",
        "skill": skill,
        "modifier": data.get("modifier") or 0,
        "weapon": _weapon_key(data),
        "defensa": defence.value,
        "destiny_point": bool(data.get("destiny_point")),
    }
    if skill == RANGED_SKILL:
        plan_data["shot"] = shot_details(data)
    if weapon is None:
        plan_data.update(
            damage_count=data["damage_count"],
            damage_sides=data["damage_sides"],
            damage_fixed=data.get("damage_fixed") or 0,
        )
    return plan_data


def check_ready(weapon_key: str, name: str, last_shots, round_: int) -> None:
    """Refuse a shot with a weapon still reloading (docs/rules.md#objetivo-reload)."""
    weapon = catalogue.WEAPON_BY_KEY.get(weapon_key)
    if weapon is None or traits.ready_to_fire(
        weapon.reload_turns, last_shots.get(weapon.key), round_
    ):
        return
    raise ValidationError(
        _(
            "The %(weapon)s of %(name)s is reloading: it takes a turn to reload after "
            "each shot and cannot fire in two rounds in a row."
        )
        % {"name": name, "weapon": weapon.name},
        code="reloading",
    )


RANGE_WORDS = {
    "corta": gettext_lazy("short range"),
    "media": gettext_lazy("medium range"),
    "larga": gettext_lazy("long range"),
}


def shot_range(data) -> tuple[int, dict]:
    """A shot's difficulty from the distance typed, the weapon's ranges and cover
    (docs/rules.md#objetivo-ranged), and what its record keeps of them."""
    distance = data["distance"]
    weapon = _weapon(data)
    ranges = weapon.ranges if weapon is not None else data.get("ranges")
    if not ranges:
        raise ValidationError(
            _("This weapon has no ranges: type them, or type the difficulty."), code="ranges"
        )
    cover = bool(data.get("cover"))
    value = traits.ranged_difficulty(distance, ranges, cover)
    band = next(
        b for b, limit in zip(catalogue.RANGE_BANDS, ranges, strict=True) if distance <= limit
    )
    return value, {"distance": distance, "band": band.key, "cover": cover}


def range_words(shot: Mapping) -> str:
    """A shot's range in words, "50 m, medium range, under cover", in the reader's
    language; from a record that keeps no distance, the band (and cover) alone."""
    label = str(RANGE_WORDS[shot["band"]])
    if "distance" in shot:
        label = _("%(distance)s m, %(band)s") % {"distance": shot["distance"], "band": label}
    if shot.get("cover"):
        label = _("%(range)s, under cover") % {"range": label}
    return label


def range_defence(data) -> Defence:
    """The difficulty of a shot: from the distance typed, the weapon's ranges and cover
    (docs/rules.md#objetivo-ranged); short range until a distance is typed."""
    if data.get("defensa") is not None:
        # The GM's own number replaces the computed one.
        return Defence(data["defensa"], "")
    if data.get("distance") is None:
        short = catalogue.RANGE_BANDS[0]
        cover = bool(data.get("cover"))
        value = short.difficulty + (catalogue.COVER_STEP if cover else 0)
        return Defence(value, range_words({"band": short.key, "cover": cover}))
    value, shot = shot_range(data)
    return Defence(value, range_words(shot))


def shot_details(data) -> dict:
    """What the record of a shot keeps of its difficulty, so that its card names it as the
    shot's and not as a Defensa: the range, or nothing when a number typed replaced it."""
    if data.get("defensa") is not None:
        return {}
    if data.get("distance") is None:
        return {"band": catalogue.RANGE_BANDS[0].key, "cover": bool(data.get("cover"))}
    return shot_range(data)[1]


def _outcome(side: SideRecord) -> AttackRoll:
    """A rolled attack: a miss, a hit without damage, or the PV for the GM to apply."""
    dealt = side.record.effects.damage
    if dealt is None:
        return AttackRoll([side], False, None, "")
    if dealt <= 0:
        return AttackRoll([side], True, None, Message(gettext_noop("no damage")))
    return AttackRoll([side], True, DamageInput(dealt), f"−{dealt} PV")


class ObjetivoCombat(CombatRules):
    spends = ("destiny_point",)
    # Seed: "un ataque por turno".
    attacks_per_round = 1
    initiative_spend = (DESTINY_POOL, gettext_lazy("spends a destiny point (highest die)"))
    # Seed, revolver: "Tarda un turno en recargar tras cada disparo".
    reads_last_shots = True
    attack_fields = staticmethod(combat_forms.attack_fields)
    clean_attack = staticmethod(combat_forms.clean_attack)

    def initiative_rule(self) -> str:
        return _(
            "Destreza + Percepción + 1o3d10, highest first. Ties: the higher Destreza + "
            "Percepción, then a roll-off of 1d10."
        )

    def roll_initiative(self, sheet, rng, spend: bool = False) -> Initiative:
        base = traits.initiative_base(
            _at_least_one(sheet, "destreza"), _at_least_one(sheet, "percepcion")
        )
        points = sheet.pool_current(DESTINY_POOL)
        if spend and points < 1:
            raise ValidationError(
                _("%(name)s has no destiny points left.") % {"name": sheet.character.name},
                code="empty",
            )
        # Seed: a destiny point "antes de cualquier tirada"; a point handed back lowers
        # the next roll, initiative included (docs/rules.md#objetivo-initiative-destiny).
        spec = rolls.ObjetivoSpec(
            bonus=base,
            incapacitated=sheet.health.penalty < 0,
            destiny_point=spend,
            destiny_points=points,
            destiny_returned=bool(sheet.character.details.get("destiny_returned")),
        )
        record = rolls.roll_initiative(spec, rng)
        return Initiative(record, record.result, base)

    def typed_defence_label(self, data) -> str:
        # A shot's number is its difficulty: its target has no Defensa against it
        # (docs/rules.md#objetivo-shot-card).
        if _skill(data) == RANGED_SKILL:
            return _("Shot difficulty set by the GM")
        return super().typed_defence_label(data)

    def computed_defence(self, attacker, target, data) -> Defence:
        skill = _skill(data)
        if skill == RANGED_SKILL:
            return range_defence(data)
        if skill not in MELEE_SKILLS:
            skill = max(MELEE_SKILLS, key=target.rating)
        value = traits.defensa(
            _at_least_one(target, "destreza"),
            target.rating(skill),
            int(target.rules.get("defense_base", traits.DEFAULT_DEFENSE_BASE)),
        )
        return Defence(value, _("Defensa of %(name)s") % {"name": target.character.name})

    def plan_attack(self, attacker, target, data, defence) -> AttackPlan:
        check_ready(
            _weapon_key(data),
            attacker.character.name,
            data.get("last_shots", {}),
            data.get("round", 0),
        )
        plan = attacker.system.roll_setup.plan(attacker, _attack_data(data, defence))
        return AttackPlan(plan.odds, (), defence, plan.odds.notes)

    def roll_attack(self, attacker, target, data, defence, rng) -> AttackRoll:
        plan = attacker.system.roll_setup.plan(attacker, _attack_data(data, defence))
        [side] = plan.roll(rng)
        side = stamp_target(side, target, None)
        # The weapon fired, for a later shot's reload check (`refuse_attack`).
        details = {**side.record.details, "weapon": _weapon_key(data)}
        return _outcome(SideRecord(side.sheet, replace(side.record, details=details)))

    def attack_from_roll(self, side) -> AttackRoll:
        # The roll panel's plan named the target and the weapon (`aimed_data`).
        return _outcome(side)

    def aimed_data(self, attacker: Sheet, target: Sheet, data: Mapping) -> tuple[Defence, dict]:
        """A roll panel's attack aimed at `target`: the difficulty the combat panel would
        use, the target's Defensa or, for a shot, the range (short range with no distance
        typed), and the set-up to roll with it; a number typed is not used
        (docs/rules.md#objetivo-roll-panel-attacks)."""
        computed = {**data, "defensa": None}
        # A shot by the panel's rule (`attack_traits`), whatever skill was chosen.
        ranged = attack_traits(data)[1] == (RANGED_SKILL,)
        if ranged:
            computed["skill"] = RANGED_SKILL
        defence = self.computed_defence(attacker, target, computed)
        shot = shot_details(computed) if ranged else None
        return defence, {**data, "defensa": defence.value, "shot": shot}

    def refuse_attack(self, attack, last_shots, round_) -> None:
        side = attack.sides[-1]
        weapon = side.record.details.get("weapon", "")
        check_ready(weapon, side.sheet.character.name, last_shots, round_)
