"""3d6 + NdP magic on the roll panel (docs/rules.md#ndp-magic): from the panel's choices
to the engine's arcane, dispel, crafting, divine and binding rolls with their exact odds,
and what a stored magic roll writes besides its own effects (faith spent from a deity's
pool, a bound creature kept on the sheet)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaigns.texts import Message
from characters.models import Character, Item, Resource
from characters.services.sheet import character_set_details, item_wear, resource_adjust
from mechanics.rules.dice import RollRecord
from mechanics.rules.ndp import catalogue, equipment
from mechanics.rules.ndp import odds as engine_odds
from mechanics.rules.ndp import rolls as engine
from mechanics.setup import OddsRow, OddsView, Plan, Sheet, check_can_act, single
from mechanics.systems.ndp.display import NdpWords
from mechanics.systems.ndp.health import character_wound
from mechanics.systems.ndp.magic_forms import (
    ARCANE,
    CRAFTING,
    DISPEL,
    DIVINE,
    MAGIC_KINDS,
    SUMMON,
    VOLUNTAD,
)
from mechanics.systems.ndp.rolls import NdpSetup

PRANA = "prana"
# Where the leve wounds taken for Prana go (docs/rules.md#ndp-extra-prana).
EXTRA_WOUND_PART = "torso"
CREATURES = "creatures"
GESTURES = {gesture.key: gesture for gesture in catalogue.ARCANE_GESTURES}


def faith_pool(deity: str) -> str:
    """The key of a deity's faith pool (system.resource_specs names them so)."""
    return f"fe_{deity}"


def gesture_effect(key: str, prana: int) -> str:
    """What `prana` Prana on a gesture buys, from the seed's table (cost and base)."""
    return {
        "poder": f"{prana} daño",
        "distancia": f"{1 + 10 * prana} m",
        "integridad": f"{1 + 2 * prana}",
        "duracion": f"+{prana} turno(s)",
        "precision": f"{1 + prana} objetivo(s)",
        "complejidad": f"+{prana}d4 Adversidad enemiga",
    }[key]


def spell_words(gestures: Mapping[str, int]) -> list[str]:
    return [
        f"{GESTURES[key].name} {prana}: {gesture_effect(key, prana)}"
        for key, prana in gestures.items()
        if prana
    ]


def bound_creatures(character: Character) -> list[dict]:
    creatures = character.details.get(CREATURES, [])
    return creatures if isinstance(creatures, list) else []


def max_creatures(voluntad: int) -> int:
    """Criaturas máximas: 2 × NdP Voluntad (docs/rules.md#ndp-summon-limit)."""
    return equipment.max_summons(voluntad)


def _refuse_creature_limit(name: str, bound: int, voluntad: int) -> None:
    limit = max_creatures(voluntad)
    if bound >= limit:
        raise ValidationError(
            _(
                "%(name)s already keeps %(bound)s bound creatures: with Voluntad %(voluntad)s "
                "the most is %(limit)s. Release one first."
            )
            % {"name": name, "bound": bound, "voluntad": voluntad, "limit": limit},
            code="creature_limit",
        )


def _refuse_prana(name: str, needed: int, available: int) -> None:
    if needed > available:
        raise ValidationError(
            _("%(name)s has %(available)s Prana; this needs %(needed)s.")
            % {"name": name, "available": available, "needed": needed},
            code="prana",
        )


def _refuse_integrity(item: Item | None, wanted: int) -> None:
    have = item.data.get("integrity") if item is not None else None
    if not isinstance(have, int) or wanted > have:
        raise ValidationError(
            _("%(name)s has %(have)s integrity; this spends %(wanted)s.")
            % {"name": item.name if item else "?", "have": have or 0, "wanted": wanted},
            code="integrity",
        )


def extra_sources(character: Character, data: Mapping) -> dict:
    """The extra Prana a cast or a crafting asks for (seed: "Fuentes extra"), checked against
    the character's own item; {} when none."""
    wounds, integrity = data.get("extra_wounds") or 0, data.get("extra_integrity") or 0
    if not (wounds or integrity):
        return {}
    extra = {"wounds": wounds, "integrity": integrity, "item": None, "item_name": ""}
    if integrity:
        item = Item.objects.filter(pk=data.get("extra_item"), character=character).first()
        _refuse_integrity(item, integrity)
        extra.update(item=item.pk, item_name=item.name)
    extra["prana"] = equipment.extra_prana(leve_wounds=wounds, object_integrity=integrity)
    return extra


def _with_extra(record: RollRecord, extra: dict) -> RollRecord:
    """The extra Prana pays first; the Prana pool only what is left of the spend."""
    if not extra:
        return record
    own = max(0, record.effects.prana_spent - extra["prana"])
    return replace(
        record,
        effects=replace(record.effects, prana_spent=own),
        details={**record.details, "extra_prana": extra},
    )


def _prana_notes(cost: int, own: int, extra: dict) -> tuple[str, ...]:
    notes = [
        _("Prana cost %(cost)s: all of it on success, %(half)s on failure.")
        % {"cost": cost, "half": engine.failed_spell_cost(cost)}
    ]
    if extra:
        notes.append(
            _(
                "Prana available %(total)s: %(own)s own and %(extra)s extra, spent first; "
                "the wounds and the integrity are paid whatever the outcome."
            )
            % {"total": own + extra["prana"], "own": own, "extra": extra["prana"]}
        )
    return tuple(notes)


class NdpMagicSetup(NdpSetup):
    """The plain checks and attacks of NdpSetup, and the magic rolls."""

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        kind = data["kind"]
        if kind not in MAGIC_KINDS:
            return super().plan(sheet, data, **kwargs)
        check_can_act(sheet)
        return getattr(self, f"_plan_{kind}")(sheet, data)

    def _dice(self, sheet: Sheet, data: Mapping) -> dict:
        return {
            "level": sheet.rating(VOLUNTAD),
            "dice": int(data.get("dice") or 3),
            "gracias": data.get("gracias") or 0,
            "desgracias": data.get("desgracias") or 0,
        }

    def _voluntad_odds(self, sheet: Sheet, spec, notes: tuple[str, ...]) -> OddsView:
        view = self.odds(spec.check(), ((sheet.name(VOLUNTAD), sheet.rating(VOLUNTAD)),))
        return replace(view, notes=(*view.notes, *notes))

    def _plan_arcane(self, sheet: Sheet, data: Mapping) -> Plan:
        gestures = {key: prana for key, prana in data["gestures"].items() if prana}
        prana = sum(gestures.values())
        if prana < 1:
            raise ValidationError(
                _("Put at least 1 Prana into a gesture to cast."), code="no_gesture"
            )
        arcano = sheet.rating("arcano")
        known = equipment.max_gestures(arcano)
        if len(gestures) > known:
            raise ValidationError(
                # The plural follows the gestures known: "1 gesto" at Arcano 1.
                ngettext(
                    "With Arcano %(arcano)s you know at most %(count)s gesture; "
                    "this spell uses %(used)s.",
                    "With Arcano %(arcano)s you know at most %(count)s gestures; "
                    "this spell uses %(used)s.",
                    known,
                )
                % {"arcano": arcano, "count": known, "used": len(gestures)},
                code="gestures",
            )
        own = sheet.pool_current(PRANA)
        extra = extra_sources(sheet.character, data)
        available = own + extra.get("prana", 0)
        _refuse_prana(sheet.character.name, prana, available)
        spec = engine.ArcaneSpec(**self._dice(sheet, data), prana=prana, available_prana=available)
        notes = (*_prana_notes(prana, own, extra), " · ".join(spell_words(gestures)))
        odds = self._voluntad_odds(sheet, spec, notes)

        def roll(rng=None) -> RollRecord:
            record = _with_extra(engine.roll_arcane(spec, rng), extra)
            return replace(record, details={**record.details, "gestures": gestures})

        return Plan(kind=ARCANE, odds=odds, roll=single(sheet, roll, data))

    def _plan_dispel(self, sheet: Sheet, data: Mapping) -> Plan:
        spec = engine.DispelSpec(
            **self._dice(sheet, data), original_adversity=data["original_adversity"]
        )
        notes = (_("Touch the spell. Success gives you back 1 Prana."),)
        odds = self._voluntad_odds(sheet, spec, notes)
        return Plan(
            kind=DISPEL,
            odds=odds,
            roll=single(sheet, lambda rng: engine.roll_dispel(spec, rng), data),
        )

    def _plan_crafting(self, sheet: Sheet, data: Mapping) -> Plan:
        cost = data["prana_cost"]
        own = sheet.pool_current(PRANA)
        extra = extra_sources(sheet.character, data)
        _refuse_prana(sheet.character.name, cost, own + extra.get("prana", 0))
        spec = engine.CraftingSpec(**self._dice(sheet, data), prana_cost=cost)
        odds = self._voluntad_odds(sheet, spec, _prana_notes(cost, own, extra))
        name = data.get("artefact_name") or ""

        def roll(rng=None) -> RollRecord:
            record = _with_extra(engine.roll_crafting(spec, rng), extra)
            return replace(record, details={**record.details, "artefact": name})

        return Plan(kind=CRAFTING, odds=odds, roll=single(sheet, roll, data))

    def _plan_divine(self, sheet: Sheet, data: Mapping) -> Plan:
        deity = data["deity"]
        faith = data["faith"]
        deities = sheet.character.details.get("deities", {})
        available = sheet.pool_current(faith_pool(deity))
        if faith > available:
            raise ValidationError(
                ngettext(
                    "%(deity)s: %(available)s faith point left; this needs %(needed)s.",
                    "%(deity)s: %(available)s faith points left; this needs %(needed)s.",
                    available,
                )
                % {"deity": deities.get(deity, deity), "available": available, "needed": faith},
                code="faith",
            )
        spec = engine.DivineSpec(faith=faith, target=data.get("divine_target") or None)
        result = engine_odds.divine_odds(spec)
        tiers = engine_odds.divine_tier_odds(spec)
        rows = (
            OddsRow("success", _("Success"), result.p_success),
            *(
                OddsRow(f"tier_{tier.key}", tier.name, tiers[tier.key])
                for tier in catalogue.DIVINE_TIERS
            ),
        )
        target = catalogue.divine_tier(spec.threshold)
        odds = OddsView(
            rows=rows,
            summary=_("%(faith)sd10 (a 10 rolls again) for %(tier)s, %(threshold)s or more")
            % {"faith": faith, "tier": target.name, "threshold": spec.threshold},
            notes=(
                _("Spends %(faith)s faith of %(deity)s, whatever the outcome.")
                % {"faith": faith, "deity": deities.get(deity, deity)},
            ),
        )

        def roll(rng=None) -> RollRecord:
            record = engine.roll_divine(spec, rng)
            return replace(
                record,
                details={**record.details, "deity": deity, "deity_name": deities.get(deity, "")},
            )

        return Plan(kind=DIVINE, odds=odds, roll=single(sheet, roll, data))

    def _plan_summon(self, sheet: Sheet, data: Mapping) -> Plan:
        voluntad = sheet.rating(VOLUNTAD)
        bound = len(bound_creatures(sheet.character))
        _refuse_creature_limit(sheet.character.name, bound, voluntad)
        caster = engine.NdpSpec(**self._dice(sheet, data), skill=VOLUNTAD)
        creature = engine.NdpSpec(level=data["creature_voluntad"])
        p_bind = engine_odds.p_attacker_wins(caster, creature)
        name = data["creature"].strip()
        school = next(s for s in catalogue.SUMMONING_SCHOOLS if s.key == data["school"])
        rows = (
            OddsRow("success", _("Bound"), p_bind),
            OddsRow("progress", _("Gain 1 PdP"), engine_odds.p_progress(caster)),
        )
        odds = OddsView(
            rows=rows,
            summary=_("%(caster)s against %(creature)s's Voluntad: %(roll)s")
            % {
                "caster": self.odds(caster, ()).summary,
                "creature": name,
                "roll": f"3d6 + {creature.level}",
            },
            steps=((sheet.name(VOLUNTAD), voluntad),),
            notes=(
                _("Opposed Voluntad: the creature wins ties."),
                _("Bound creatures: %(bound)s of %(limit)s.")
                % {"bound": bound, "limit": max_creatures(voluntad)},
            ),
        )

        def roll(rng=None) -> RollRecord:
            result = engine.roll_opposed(caster, creature, rng)
            own = result.attacker
            return replace(
                own,
                kind=SUMMON,
                details={
                    **own.details,
                    "creature": {
                        "name": name,
                        "school": school.name,
                        "voluntad": creature.level,
                        "result": result.defender.result,
                    },
                },
            )

        return Plan(kind=SUMMON, odds=odds, roll=single(sheet, roll, data))


# --- What a stored magic roll writes besides its own effects -------------------------------


def after_magic_roll(system, character, user, record: RollRecord) -> list[dict]:
    """In the roll's transaction: check the Prana again under the lock (a cast or an
    artefact paid with Prana the character no longer has is refused whole) and pay its
    extra Prana, spend the deity's faith of a divine roll, keep a creature bound by a
    summoning."""
    if record.kind in (ARCANE, CRAFTING):
        return _recheck_prana(character, record) + _pay_extra(character, user, record)
    if record.kind == DIVINE:
        return _spend_faith(character, user, record)
    if record.kind == SUMMON and record.outcome == "success":
        return _bind(character, user, record)
    return []


def _recheck_prana(character, record: RollRecord) -> list[dict]:
    # roll_apply_effects already spent it (all, or half on failure) under the row lock.
    left = Resource.objects.filter(character=character, key=PRANA).values_list("current", flat=True)
    before = (left.first() or 0) + record.effects.prana_spent
    cost = record.spec.get("prana") or record.spec.get("prana_cost") or 0
    extra = record.details.get("extra_prana", {}).get("prana", 0)
    _refuse_prana(character.name, cost, before + extra)
    return []


def _pay_extra(character, user, record: RollRecord) -> list[dict]:
    """The sacrificed wounds and integrity, whatever the outcome (docs/rules.md#ndp-extra-prana)."""
    extra = record.details.get("extra_prana")
    if not extra:
        return []
    locked = Character.objects.select_for_update().get(pk=character.pk)
    applied = []
    if extra["integrity"]:
        item = Item.objects.filter(pk=extra["item"], character=locked).first()
        _refuse_integrity(item, extra["integrity"])
        old = item.data["integrity"]
        new = item_wear(item=item, user=user, loss=extra["integrity"])
        label = _("%(name)s · Integrity") % {"name": item.name}
        applied.append({"what": "integrity", "label": label, "old": old, "new": new})
    for _wound in range(extra["wounds"]):
        character_wound(
            character=locked,
            user=user,
            part=EXTRA_WOUND_PART,
            tier="leve",
            damage_type=None,
            reason=Message(gettext_noop("Leve wound taken for Prana")),
        )
    if extra["wounds"]:
        applied.append(
            {
                "what": "extra_wounds",
                "label": catalogue.body_part(EXTRA_WOUND_PART).name,
                "old": 0,
                "new": extra["wounds"],
            }
        )
    return applied


def _spend_faith(character, user, record: RollRecord) -> list[dict]:
    deity = record.details["deity"]
    faith = record.spec["faith"]
    pool = resource_adjust(character=character, user=user, key=faith_pool(deity), delta=-faith)
    label = f"Fe · {record.details.get('deity_name') or deity}"
    return [{"what": "faith", "label": label, "old": pool.current + faith, "new": pool.current}]


def _bind(character, user, record: RollRecord) -> list[dict]:
    locked = Character.objects.select_for_update().get(pk=character.pk)
    voluntad = record.spec.get("level", 0)
    creatures = bound_creatures(locked)
    _refuse_creature_limit(locked.name, len(creatures), voluntad)
    creature = {key: record.details["creature"][key] for key in ("name", "school", "voluntad")}
    creature["id"] = uuid.uuid4().hex[:12]
    character_set_details(character=locked, user=user, values={CREATURES: [*creatures, creature]})
    character.details = locked.details
    return [{"what": "creature", "label": creature["name"], "old": len(creatures), "new": 1}]


# --- Magic rolls in words ------------------------------------------------------------------


class NdpMagicWords(NdpWords):
    def setup_lines(self, details: dict) -> list[str]:
        lines = super().setup_lines(details)
        if details.get("gestures"):
            lines += spell_words(details["gestures"])
        if details.get("artefact"):
            lines.append(_("Artefact: %(name)s") % {"name": details["artefact"]})
        if details.get("deity_name"):
            lines.append(_("Faith of %(deity)s") % {"deity": details["deity_name"]})
        if details.get("tier_name"):
            lines.append(_("Power reached: %(tier)s") % {"tier": details["tier_name"]})
        creature = details.get("creature")
        if creature:
            lines.append(
                _("Against %(name)s (%(school)s, Voluntad %(voluntad)s): %(result)s") % creature
            )
        return lines

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "creature":
            return _("%(name)s is bound.") % {"name": item["label"]}
        if item.get("what") == "extra_wounds":
            return _("%(count)s leve wound(s) for Prana: %(part)s.") % {
                "count": item["new"],
                "part": item["label"],
            }
        return super().applied_text(item)
