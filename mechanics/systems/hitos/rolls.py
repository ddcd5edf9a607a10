"""Hitos rolls: a sheet and the panel's choices to 3d10 checks and attacks
(docs/rules.md#hitos-rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.models import Scene
from characters.models import Aspect, Character
from characters.services.sheet import aspect_set_exhausted, resource_adjust
from mechanics.combat import aimed
from mechanics.models import SituationAspect
from mechanics.rules.hitos import odds as engine_odds
from mechanics.rules.hitos import rolls as engine
from mechanics.rules.hitos import traits
from mechanics.rules.hitos.catalogue import (
    ATTACK_CHARACTERISTIC,
    ATTACK_SKILL,
    DAMAGE_CATEGORIES_BY_KEY,
)
from mechanics.services.combat import attack_target
from mechanics.setup import (
    OddsRow,
    OddsView,
    Plan,
    RollSetup,
    Sheet,
    check_can_act,
    load_sheets,
    single,
    trait_names,
)
from mechanics.systems.hitos.sheet import armour_rds

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
                .filter(pk=row_id(value.removeprefix(OTHER_PREFIX)))
                .first()
            )
            kind, owner = "ajeno", found.character if found else None
        else:
            found = (
                situation_aspects(character.campaign_id)
                .filter(pk=row_id(value.removeprefix(SITUATION_PREFIX)))
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


def row_id(text: str) -> int:
    """An id from a form value; 0 (no row) when it is not a short number."""
    return int(text) if text.isdigit() and len(text) <= 18 else 0


def opposing_activation(payer: Sheet, opponent: Sheet, value, pay):
    """An aspect one side of a contest activates (the combat panel's sides, the roll
    panel's hindering opponent), as the form names it ("<aspect id>" or
    "situation:<id>"): (the engine's activation or None, the character it hands the drama
    point to, the aspect row). A side uses its own aspects, the opponent's (against them)
    or the situation's (docs/rules.md#hitos-combat-aspects)."""
    value = str(value or "")
    pay = pay or "drama_point"
    if not value:
        return None, None, None
    owner = None
    if value.startswith(SITUATION_PREFIX):
        found = (
            situation_aspects(payer.character.campaign_id)
            .filter(pk=row_id(value.removeprefix(SITUATION_PREFIX)))
            .first()
        )
        kind = "de_situacion"
    else:
        found = (
            Aspect.objects.filter(
                pk=row_id(value), character_id__in=(payer.character.pk, opponent.character.pk)
            )
            .select_related("character")
            .first()
        )
        kind = "propio" if found and found.character_id == payer.character.pk else "ajeno"
        if kind == "ajeno":
            owner = opponent.character
    if found is None:
        raise ValidationError(
            _("%(name)s can activate their own aspects, their opponent's or the situation's.")
            % {"name": payer.character.name},
            code="aspect",
        )
    if pay == "exhaust" and kind != "propio":
        raise ValidationError(
            _("Only your own aspects can be exhausted: pay with a drama point."), code="aspect"
        )
    if pay == "drama_point" and payer.pool_current(DRAMA_POINTS_POOL) < 1:
        raise ValidationError(
            _("%(name)s has no drama points left.") % {"name": payer.character.name},
            code="empty",
        )
    activation = engine.AspectActivation(
        aspect=found.text,
        aspect_type=kind,
        pay=pay,
        drama_points=payer.pool_current(DRAMA_POINTS_POOL),
        exhausted=kind == "propio" and found.exhausted,
    )
    return activation, owner, found


def pay_activation(*, payer_id: int, user, pay: str, aspect_id, owner_id) -> list[dict]:
    """Charge an activation to the character who made it, in the caller's transaction: a
    drama point (handed to `owner_id` when the aspect was theirs) or exhausting its own
    aspect. Refused (ValidationError) when it can no longer be paid."""
    payer = Character.objects.get(pk=payer_id)
    if pay == "drama_point":
        pool = resource_adjust(character=payer, user=user, key=DRAMA_POINTS_POOL, delta=-1)
        label = _("Drama points of %(name)s") % {"name": payer.name}
        applied = [
            {
                "what": DRAMA_POINTS_POOL,
                "label": label,
                "old": pool.current + 1,
                "new": pool.current,
            }
        ]
    else:
        aspect = Aspect.objects.filter(pk=aspect_id, character=payer).first()
        if aspect is None or aspect.exhausted:
            raise ValidationError(
                _("%(aspect)s is already exhausted.") % {"aspect": aspect.text if aspect else "?"},
                code="exhausted",
            )
        aspect_set_exhausted(aspect=aspect, user=user, exhausted=True)
        applied = [{"what": "aspect", "label": aspect.text, "old": False, "new": True}]
    if owner_id is not None:
        owner = Character.objects.get(pk=owner_id)
        pool = resource_adjust(
            character=owner, user=user, key=DRAMA_POINTS_POOL, delta=1, may_raise_open=True
        )
        applied.append(
            {
                "what": "drama_point_to_owner",
                "label": owner.name,
                "old": pool.current - 1,
                "new": pool.current,
            }
        )
    return applied


def _stamped(record, owner, hindering: dict | None):
    """The record names whose aspect was used, so the drama point reaches them, and the
    opponent's hindering activation, which `pay_hindering` charges when it is stored."""
    details = dict(record.details)
    if owner is not None:
        details.update(aspect_owner=owner.pk, aspect_owner_name=owner.name)
    if hindering is not None:
        details["hinder_activation"] = hindering
    return replace(record, details=details)


def rolled_traits(data: Mapping) -> Mapping:
    """The set-up with the traits it rolls: an attack always Reflejos + Combate, whatever
    else was sent (docs/rules.md#hitos-attack-traits)."""
    if data.get("kind") != "attack":
        return data
    return {**data, "characteristic": ATTACK_CHARACTERISTIC, "skill": ATTACK_SKILL}


class HitosSetup(RollSetup):
    sheet_extras = ("aspects", "items")
    # The panel offers the other characters' aspects to use against them.
    panel_follows_campaign = True
    # An attack aimed at a character joins the fight of its scene.
    reads_scene = True

    def spec(self, sheet: Sheet, data: Mapping) -> engine.HitosSpec:
        return self._spec(sheet, rolled_traits(data))[0]

    def _hindering(self, sheet: Sheet, data: Mapping) -> dict | None:
        """The roll panel's opponent activating an aspect against the roll, with what it
        pays (docs/rules.md#hitos-hindering); None when nobody does."""
        if not data.get("hinder_aspect"):
            return None
        hinderer = (
            Character.objects.filter(
                pk=data.get("hinderer") or 0, campaign_id=sheet.character.campaign_id
            )
            .exclude(pk=sheet.character.pk)
            .first()
        )
        if hinderer is None:
            raise ValidationError(_("Choose who activates the aspect."), code="hinderer")
        payer = load_sheets([hinderer], sheet.character.campaign, with_scene=False)[hinderer.pk]
        activation, owner, row = opposing_activation(
            payer, sheet, data["hinder_aspect"], data.get("hinder_pay")
        )
        use = data.get("hinder_use") or "roll"
        if use == "damage" and data.get("kind") != "attack":
            raise ValidationError(
                _("Only an attack has damage to raise or lower."), code="aspect_use"
            )
        return {
            **activation.to_dict(),
            "use": use,
            "by": hinderer.pk,
            "by_name": hinderer.name,
            "aspect_id": row.pk,
            "owner": owner.pk if owner is not None and activation.hands_drama_point else None,
        }

    def _spec(self, sheet: Sheet, data: Mapping):
        """The spec; the character whose aspect is used against them (or None); the
        opponent's hindering activation (or None); and the roller's aspect activated for
        the damage instead of the roll (or None)."""
        check_can_act(sheet)
        if "activation" in data:
            # Resolved already, with whom it hands the point to (the combat panel's).
            activation, owner = data["activation"], data.get("aspect_owner")
            damage_activation = data.get("damage_activation")
        else:
            activation, owner, _own = activation_for(
                sheet.character, sheet.aspects, sheet.pool_current(DRAMA_POINTS_POOL), data
            )
            damage_activation = None
            if activation is not None and data.get("aspect_use") == "damage":
                activation, damage_activation = None, activation
        hindering = self._hindering(sheet, data)
        skill = data.get("skill") or ""
        spec = engine.HitosSpec(
            characteristic=sheet.rating(data["characteristic"]),
            skill=sheet.rating(skill) if skill else 0,
            difficulty=data["difficulty"],
            modifier=data.get("modifier") or 0,
            wound_penalty=sheet.health.penalty,
            improve=activation is not None,
            hinder=bool(data.get("hinder"))
            or (hindering is not None and hindering["use"] == "roll"),
            equal_succeeds=bool(sheet.rules.get("equal_succeeds")),
            activation=activation,
        )
        return spec, owner, hindering, damage_activation

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
        data = rolled_traits(data)
        # An attack on a character: its Defensa is the difficulty, its armour the RD.
        target = attack_target(sheet, data)
        defence = None
        if target is not None:
            defence = sheet.system.combat.computed_defence(sheet, target, data)
            data = {**data, "difficulty": defence.value}
        spec, owner, hindering, damage_activation = self._spec(sheet, data)
        # Damage steps: the combat panel's target lowering it, or the roll panel's opponent.
        shift = data.get("damage_shift") or 0
        notes = ()
        if hindering is not None:
            words = {
                "roll": _("%(name)s activates «%(aspect)s» against this roll: it keeps m."),
                "damage": _(
                    "%(name)s activates «%(aspect)s» against this attack: the damage goes "
                    "one category down."
                ),
            }
            notes = (
                words[hindering["use"]]
                % {"name": hindering["by_name"], "aspect": hindering["aspect"]},
            )
            shift -= hindering["use"] == "damage"
        if data["kind"] != "attack":
            odds = self.odds(spec, names=trait_names(sheet, data))
            return Plan(
                kind="check",
                odds=replace(odds, notes=(*odds.notes, *notes)),
                roll=single(
                    sheet,
                    lambda rng: _stamped(engine.roll_check(spec, rng), owner, hindering),
                    data,
                ),
            )
        category = DAMAGE_CATEGORIES_BY_KEY[data["weapon"]]
        fortaleza, combate = sheet.rating("fortaleza"), sheet.rating("combate")
        if data.get("attack_range") == "ranged":
            bonus = traits.ranged_damage_bonus(max(combate, 0))
        else:
            bonus = traits.melee_damage_bonus(max(fortaleza, 1), max(combate, 0))
        constant = data.get("weapon_constant") or 0
        rds = armour_rds(target.items) if target is not None else [data.get("target_rd") or 0]
        rd = engine.highest_rd(rds)
        odds = self.odds(spec, attack=True, names=trait_names(sheet, data))
        shifted = engine.shift_category(category, shift + (damage_activation is not None))
        weapon = shifted.name + (f"{constant:+d}" if constant else "")
        notes = (*notes, _("An attack always rolls Reflejos + Combate."))
        note = _(
            "Damage if it hits: %(weapon)s + %(bonus)s (damage bonus) − RD %(rd)s, "
            "from the same dice"
        ) % {"weapon": weapon, "bonus": bonus, "rd": rd}
        if target is not None:
            notes = (
                *notes,
                _("%(defence)s: %(value)s, the difficulty.")
                % {"defence": defence.label, "value": defence.value},
            )
            note = _(
                "%(damage)s; RD from the armour of %(name)s. A hit's damage waits for the "
                "GM in the combat panel."
            ) % {"damage": note, "name": target.character.name}

        def roll(rng):
            record = engine.roll_attack(
                spec,
                category,
                weapon_constant=constant,
                damage_bonus=bonus,
                target_rd=rds,
                damage_shift=shift,
                rng=rng,
                damage_activation=damage_activation,
            )
            return _stamped(record, owner, hindering)

        plan_roll = single(sheet, roll, data)
        if target is not None:
            plan_roll = aimed(plan_roll, target, defence.value)
        return Plan(
            kind="attack",
            odds=replace(odds, notes=(*odds.notes, *notes, note)),
            roll=plan_roll,
            extra={"target": target.character} if target is not None else {},
        )


def after_hitos_roll(system, character, user, record) -> list[dict]:
    """In the roll's transaction: the drama point of an aspect used against its owner
    reaches them, and a hindering opponent pays for its aspect."""
    return hand_drama_point_to_owner(system, character, user, record) + pay_hindering(record, user)


def pay_hindering(record, user) -> list[dict]:
    """The opponent who activated an aspect against the roll pays for it (refused, and
    the roll with it, when it no longer can)."""
    hindering = record.details.get("hinder_activation")
    if not hindering:
        return []
    return pay_activation(
        payer_id=hindering["by"],
        user=user,
        pay=hindering["pay"],
        aspect_id=hindering["aspect_id"],
        owner_id=hindering["owner"],
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
