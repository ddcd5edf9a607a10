"""From a roll panel's choices and a character's stored sheet to the engine's roll specs.

This is the only place that maps sheet data (ratings, pools, health, details, items) to
the specs of `mechanics/rules/<system>/rolls.py`, and that says which engine function
rolls a set-up and which engine odds describe it. Views and forms never build specs.

Each system has a `*Setup` with:
- `plan(sheet, data)`: a single character's roll (`data` is a roll form's cleaned data);
- `opposed(sheet_a, data_a, sheet_b, data_b)`, for the systems that have opposed rolls;
- `teamwork(main, data, helpers)` for Mundo de Tinieblas.
They raise `RuleError` (engine) or `ValidationError` (sheet state) for a set-up that
cannot be rolled; the views show the message.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from characters.models import Aspect, Character, Item, Resource, Specialty, Trait
from mechanics.models import Roll
from mechanics.rules.dice import Die, Effects, RandomSource, RollRecord
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import odds as hitos_odds
from mechanics.rules.hitos import rolls as hitos
from mechanics.rules.hitos import traits as hitos_traits
from mechanics.rules.hitos.catalogue import DAMAGE_CATEGORIES_BY_KEY
from mechanics.rules.ndp import equipment as ndp_equipment
from mechanics.rules.ndp import odds as ndp_odds
from mechanics.rules.ndp import rolls as ndp
from mechanics.rules.objetivo import catalogue as objetivo_catalogue
from mechanics.rules.objetivo import odds as objetivo_odds
from mechanics.rules.objetivo import rolls as objetivo
from mechanics.rules.tinieblas import catalogue as tinieblas_catalogue
from mechanics.rules.tinieblas import odds as tinieblas_odds
from mechanics.rules.tinieblas import rolls as tinieblas
from mechanics.services.rolls import active_scene
from mechanics.systems.base import GameSystem, HealthView, TraitSpec
from mechanics.systems.registry import get_system

# --- The sheet as rolls see it -------------------------------------------------------------


@dataclass
class Sheet:
    """Everything about one character that a roll set-up needs, loaded in a fixed number
    of queries."""

    character: Character
    system: GameSystem
    rules: Mapping
    specs: dict[str, TraitSpec]
    ratings: dict[str, int]
    names: dict[str, str]
    kinds: dict[str, str]
    resources: dict[str, Resource]
    specialties: list[Specialty]
    aspects: list[Aspect]
    items: list[Item]
    health: HealthView
    scene: object = None

    def rating(self, key: str) -> int:
        return self.ratings.get(key, 0)

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    def pool(self, key: str) -> Resource | None:
        return self.resources.get(key)

    def pool_current(self, key: str) -> int:
        resource = self.resources.get(key)
        return resource.current if resource is not None else 0

    def trait_keys(self, kind: str) -> list[str]:
        return [key for key in self.ratings if self.kinds.get(key) == kind]

    def trait_choices(self, kind: str, *, with_rating: bool = True) -> list:
        """Choices grouped by category: [(category, [(key, "Fuerza (3)"), ...]), ...]."""
        groups: dict[str, list[tuple[str, str]]] = {}
        for key, spec in self.specs.items():
            if spec.kind != kind:
                continue
            label = f"{spec.name} ({self.rating(key)})" if with_rating else spec.name
            groups.setdefault(spec.category, []).append((key, label))
        for key in self.ratings:
            # Custom traits that are not in the campaign's lists (Hitos custom skills).
            if key not in self.specs and self.kinds.get(key) == kind:
                label = f"{self.name(key)} ({self.rating(key)})"
                groups.setdefault(_("Other"), []).append((key, label))
        return list(groups.items())

    @property
    def cannot_act(self) -> bool:
        return self.health.cannot_act or self.health.dead


def load_sheets(characters: Iterable[Character], campaign, *, with_scene: bool = True) -> dict:
    """Sheets of several characters of one campaign: one query per table, not per character
    (plus one to find each character's open scene)."""
    characters = list(characters)
    ids = [c.pk for c in characters]
    system = get_system(campaign.system)
    specs = {spec.key: spec for spec in system.trait_specs(campaign)}
    rules = campaign.rules
    by_character: dict[int, dict] = {
        pk: {"traits": [], "resources": {}, "specialties": [], "aspects": [], "items": []}
        for pk in ids
    }
    for trait in Trait.objects.filter(character_id__in=ids):
        by_character[trait.character_id]["traits"].append(trait)
    for resource in Resource.objects.filter(character_id__in=ids):
        by_character[resource.character_id]["resources"][resource.key] = resource
    if system.key == "tinieblas":
        for specialty in Specialty.objects.filter(character_id__in=ids):
            by_character[specialty.character_id]["specialties"].append(specialty)
    if system.key == "hitos":
        for aspect in Aspect.objects.filter(character_id__in=ids):
            by_character[aspect.character_id]["aspects"].append(aspect)
    if system.key == "ndp":
        for item in Item.objects.filter(character_id__in=ids):
            by_character[item.character_id]["items"].append(item)
    sheets = {}
    for character in characters:
        character.campaign = campaign
        data = by_character[character.pk]
        ratings = {t.key: t.rating for t in data["traits"]}
        names = {
            t.key: (specs[t.key].name if t.key in specs else t.name or t.key)
            for t in data["traits"]
        }
        kinds = {t.key: (specs[t.key].kind if t.key in specs else t.kind) for t in data["traits"]}
        sheets[character.pk] = Sheet(
            character=character,
            system=system,
            rules=rules,
            specs=specs,
            ratings=ratings,
            names=names,
            kinds=kinds,
            resources=data["resources"],
            specialties=data["specialties"],
            aspects=data["aspects"],
            items=data["items"],
            health=system.health_view(character.health, ratings, character.details, rules),
            scene=active_scene(campaign=campaign, character=character) if with_scene else None,
        )
    return sheets


def load_sheet(character: Character, campaign, *, with_scene: bool = True) -> Sheet:
    return load_sheets([character], campaign, with_scene=with_scene)[character.pk]


# --- What a plan is -------------------------------------------------------------------------


@dataclass(frozen=True)
class OddsRow:
    key: str  # success / exceptional / dramatic_failure / progress / win / tie / lose ...
    label: str
    p: float

    @property
    def percent(self) -> float:
        return self.p * 100


@dataclass(frozen=True)
class OddsView:
    """The exact odds of a set-up, with what goes into it, ready to show."""

    rows: tuple[OddsRow, ...]
    summary: str
    steps: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    def p(self, key: str) -> float | None:
        return next((row.p for row in self.rows if row.key == key), None)


@dataclass(frozen=True)
class SideRecord:
    """One character's part of a roll, ready to store."""

    sheet: Sheet | None
    record: RollRecord


@dataclass(frozen=True)
class Plan:
    """A roll ready to throw: `roll(rng)` calls the engine (rng None = the cryptographic
    source) and returns one record per character involved."""

    kind: str
    odds: OddsView
    roll: Callable[[RandomSource | None], list[SideRecord]]
    group: uuid.UUID | None = None
    label: str = ""
    extra: dict = field(default_factory=dict)


TRAIT_ROLES = ("attribute", "characteristic", "skill")


def trait_names(sheet: Sheet, data: Mapping) -> dict[str, str]:
    """The names of the traits a set-up uses, by role ("attribute": "Fuerza")."""
    return {role: sheet.name(data[role]) for role in TRAIT_ROLES if data.get(role)}


def _named(record: RollRecord, names: Mapping[str, str]) -> RollRecord:
    """The record with the trait names it used, so the log can say what was rolled."""
    if not names:
        return record
    return replace(record, details={**record.details, "traits": dict(names)})


def _single(sheet: Sheet, roll: Callable[[RandomSource | None], RollRecord], data: Mapping):
    names = trait_names(sheet, data)
    return lambda rng=None: [SideRecord(sheet, _named(roll(rng), names))]


def _named_sides(sides: list[SideRecord], data_by_character: Mapping) -> list[SideRecord]:
    return [
        SideRecord(
            side.sheet,
            _named(
                side.record, trait_names(side.sheet, data_by_character[side.sheet.character.pk])
            ),
        )
        for side in sides
    ]


def _check_can_act(sheet: Sheet) -> None:
    if sheet.cannot_act:
        raise ValidationError(
            _("%(name)s cannot act in this state.") % {"name": sheet.character.name},
            code="cannot_act",
        )


def step_label(label: str, names: Mapping[str, str]) -> str:
    """A pool step's words: the trait's own name for the attribute and skill steps."""
    if label == tinieblas.LABEL_ATTRIBUTE and names.get("attribute"):
        return names["attribute"]
    if label == tinieblas.LABEL_SKILL and names.get("skill"):
        return names["skill"]
    return _(label)


def _translated_steps(steps, names: Mapping[str, str]) -> tuple[tuple[str, int], ...]:
    return tuple((step_label(label, names), delta) for label, delta in steps)


def _compare(a: Mapping[int, float], b: Mapping[int, float]) -> tuple[float, float, float]:
    """P(A > B), P(A = B), P(A < B) for two independent distributions."""
    b_items = sorted(b.items())
    greater = equal = 0.0
    for x, px in a.items():
        for y, py in b_items:
            if y < x:
                greater += px * py
            elif y == x:
                equal += px * py
            else:
                break
    return greater, equal, max(0.0, 1.0 - greater - equal)


def _opposed_rows(p_a: float, p_tie: float, p_b: float, name_a: str, name_b: str):
    return (
        OddsRow("win", _("%(name)s wins") % {"name": name_a}, p_a),
        OddsRow("tie", _("Tie"), p_tie),
        OddsRow("lose", _("%(name)s wins") % {"name": name_b}, p_b),
    )


def _side(
    record: RollRecord,
    *,
    kind: str,
    outcome: str,
    result: int,
    dice: tuple[Die, ...],
    kept: tuple[int, ...],
    spec: dict,
    effects: Effects,
    details: dict,
    flags: tuple[str, ...] = (),
) -> RollRecord:
    return RollRecord(
        system=record.system,
        kind=kind,
        spec=spec,
        dice=dice,
        kept=kept,
        result=result,
        outcome=outcome,
        flags=flags,
        effects=effects,
        details=details,
    )


def _effects_from(data: Mapping) -> Effects:
    values = dict(data)
    values["aspects_exhausted"] = tuple(values.get("aspects_exhausted", ()))
    return Effects(**values)


def _dice_from(data: Iterable[Mapping]) -> tuple[Die, ...]:
    return tuple(Die(d["sides"], d["value"], tuple(d["tags"])) for d in data)


def _won(outcome_for_a: str, side: str) -> str:
    """ "won" / "lost" / "tie" from one side's point of view."""
    if outcome_for_a == "tie":
        return "tie"
    return "won" if (outcome_for_a == "a") == (side == "a") else "lost"


def _opponent(sheet: Sheet, result: int) -> dict:
    return {"character": sheet.character.pk, "name": sheet.character.name, "result": result}


# --- Mundo de Tinieblas ---------------------------------------------------------------------

TINIEBLAS_WILLPOWER = "willpower"


class TinieblasSetup:
    key = "tinieblas"
    kinds = ("pool", "extended")
    opposed_kinds = ("opposed", "teamwork")

    def spec(self, sheet: Sheet, data: Mapping, *, spends: bool = True) -> tinieblas.PoolSpec:
        _check_can_act(sheet)
        attribute = data["attribute"]
        skill = data.get("skill") or ""
        specialty = bool(data.get("specialty"))
        if specialty and not skill:
            raise ValidationError(_("Choose the skill the specialty belongs to."), code="specialty")
        category = tinieblas_catalogue.skill(skill).category if skill else None
        modifiers = tuple(m for m in data.get("modifiers", ()) if m)
        willpower = (data.get("willpower") or None) if spends else None
        again = data.get("again", 10)
        return tinieblas.PoolSpec(
            attribute=sheet.rating(attribute),
            skill=sheet.rating(skill) if skill else 0,
            skill_category=category,
            attribute_key=attribute,
            specialty=specialty,
            modifiers=modifiers,
            extra_dice=data.get("extra_dice") or 0,
            willpower=willpower,
            willpower_pool=min(sheet.pool_current(TINIEBLAS_WILLPOWER), 10),
            again=again,
            rote=bool(data.get("rote")),
            attempts=data.get("attempts") or 0,
            wound_penalty=sheet.health.penalty,
            unskilled_penalty=bool(sheet.rules.get("unskilled_penalty", True)),
        )

    def odds(self, spec: tinieblas.PoolSpec, extra_steps=(), names=None) -> OddsView:
        pool, steps = tinieblas.pool_breakdown(spec)
        steps = (*steps, *extra_steps)
        pool += sum(delta for _, delta in extra_steps)
        result = tinieblas_odds.odds_for_pool(pool, spec.again, spec.rote)
        chance = pool <= 0
        rows = [
            OddsRow("success", _("Success"), result.p_success),
            OddsRow("exceptional", _("Exceptional success"), result.p_exceptional),
        ]
        if chance:
            rows.append(
                OddsRow("dramatic_failure", _("Dramatic failure"), result.p_dramatic_failure)
            )
        summary = _("Chance die") if chance else _("%(count)s dice") % {"count": pool}
        return OddsView(
            rows=tuple(rows), summary=summary, steps=_translated_steps(steps, names or {})
        )

    def plan(self, sheet: Sheet, data: Mapping, *, open_actions=None) -> Plan:
        spec = self.spec(sheet, data)
        if data.get("specialty"):
            specialty = next(
                (s for s in sheet.specialties if str(s.pk) == str(data["specialty"])), None
            )
            if specialty is None or specialty.skill_key != data.get("skill"):
                raise ValidationError(
                    _("That specialty does not belong to the chosen skill."), code="specialty"
                )
        names = trait_names(sheet, data)
        if data["kind"] != "extended":
            return Plan(
                kind="pool",
                odds=self.odds(spec, names=names),
                roll=_single(sheet, lambda rng: tinieblas.roll_pool(spec, rng), data),
            )
        action = data.get("action") or ""
        if action:
            last = (open_actions or {}).get(action)
            if last is None:
                raise ValidationError(_("That extended action is already over."), code="done")
            details = last.record["details"]
            target, max_rolls = details["target"], details["max_rolls"]
            progress, rolls_made = details["progress"], details["rolls_made"]
            group, label = last.group, last.label
        else:
            target, max_rolls = data.get("target"), data.get("max_rolls")
            if not target:
                raise ValidationError(
                    _("Say how many successes the extended action needs."), code="target"
                )
            progress, rolls_made = 0, 0
            group, label = uuid.uuid4(), ""
        odds = self.odds(spec, names=names)
        notes = [
            _("Progress: %(progress)s of %(target)s successes")
            % {"progress": progress, "target": target}
        ]
        if max_rolls:
            notes.append(_("Rolls: %(made)s of %(max)s") % {"made": rolls_made, "max": max_rolls})
        return Plan(
            kind="extended",
            odds=replace(odds, notes=tuple(notes)),
            roll=_single(
                sheet,
                lambda rng: tinieblas.roll_extended(
                    spec,
                    target=target,
                    progress=progress,
                    rolls_made=rolls_made,
                    max_rolls=max_rolls,
                    rng=rng,
                ),
                data,
            ),
            group=group,
            label=label,
        )

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        spec_a = self.spec(a, data_a, spends=False)
        spec_b = self.spec(b, data_b, spends=False)
        odds_a = self.odds(spec_a, names=trait_names(a, data_a))
        odds_b = self.odds(spec_b)
        dist_a = tinieblas_odds.odds(spec_a).distribution
        dist_b = tinieblas_odds.odds(spec_b).distribution
        rows = _opposed_rows(*_compare(dist_a, dist_b), a.character.name, b.character.name)
        summary = f"{a.character.name}: {odds_a.summary} · {b.character.name}: {odds_b.summary}"

        def roll(rng=None) -> list[SideRecord]:
            record = tinieblas.roll_opposed(spec_a, spec_b, rng)
            split = record.details["split"]
            winner = {"a_wins": "a", "b_wins": "b", "tie": "tie"}[record.outcome]
            sides = []
            for side, sheet, other in (("a", a, b), ("b", b, a)):
                own = record.details[side]
                opponent_result = record.details["successes_b" if side == "a" else "successes_a"]
                dice = record.dice[:split] if side == "a" else record.dice[split:]
                sides.append(
                    SideRecord(
                        sheet,
                        _side(
                            record,
                            kind="opposed",
                            outcome=_won(winner, side),
                            result=own["result"],
                            dice=dice,
                            kept=tuple(own["kept"]),
                            spec=own["spec"],
                            effects=_effects_from(own["effects"]),
                            flags=tuple(own["flags"]),
                            details={
                                **own["details"],
                                "grade": own["outcome"],
                                "opponent": _opponent(other, opponent_result),
                            },
                        ),
                    )
                )
            return _named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        return Plan(
            kind="opposed",
            odds=OddsView(rows=rows, summary=summary, steps=odds_a.steps),
            roll=roll,
            group=uuid.uuid4(),
        )

    def teamwork(self, main: Sheet, data: Mapping, helpers: list[tuple[Sheet, Mapping]]) -> Plan:
        spec = self.spec(main, data, spends=False)
        helper_specs = [
            self.spec(sheet, helper_data, spends=False) for sheet, helper_data in helpers
        ]
        names = ", ".join(sheet.character.name for sheet, _data in helpers)
        odds = self.odds(spec, names=trait_names(main, data))
        notes = [
            _("Helpers roll first: %(names)s. Each success adds a die.") % {"names": names}
        ] + [
            f"{sheet.character.name}: {self.odds(helper_spec).summary}"
            for (sheet, _data), helper_spec in zip(helpers, helper_specs, strict=True)
        ]

        def roll(rng=None) -> list[SideRecord]:
            record = tinieblas.roll_teamwork(spec, helper_specs, rng)
            split = record.details["split"]
            sides = []
            offset = 0
            for (sheet, _data), helper in zip(helpers, record.details["helpers"], strict=True):
                count = len(helper["dice"])
                sides.append(
                    SideRecord(
                        sheet,
                        _side(
                            record,
                            kind="teamwork_helper",
                            outcome=helper["outcome"],
                            result=helper["result"],
                            dice=record.dice[offset : offset + count],
                            kept=tuple(helper["kept"]),
                            spec=helper["spec"],
                            effects=_effects_from(helper["effects"]),
                            flags=tuple(helper["flags"]),
                            details={
                                **helper["details"],
                                "helping": _opponent(main, record.result),
                            },
                        ),
                    )
                )
                offset += count
            # The helpers' dice go to their own rows: the main row keeps only its own.
            main_details = {
                key: value
                for key, value in record.details.items()
                if key not in ("helpers", "split")
            }
            main_record = replace(record, dice=record.dice[split:], details=main_details)
            main_record = replace(main_record, kept=tuple(i - split for i in record.kept))
            data_by_character = {sheet.character.pk: d for sheet, d in helpers}
            data_by_character[main.character.pk] = data
            return _named_sides([SideRecord(main, main_record), *sides], data_by_character)

        return Plan(
            kind="teamwork",
            odds=replace(odds, notes=tuple(notes)),
            roll=roll,
            group=uuid.uuid4(),
        )


def open_extended_actions(character: Character, limit: int = 40) -> dict[str, Roll]:
    """Extended actions still in progress: the newest roll of each unfinished group, keyed by
    the group as text. One query; progress lives in the stored rolls (never in the form)."""
    latest: dict[str, Roll] = {}
    rolls = Roll.objects.filter(character=character, kind="extended", group__isnull=False)
    for roll in rolls.order_by("-created_at", "-pk")[:limit]:
        latest.setdefault(str(roll.group), roll)
    return {key: roll for key, roll in latest.items() if not roll.record["details"].get("done")}


# --- Hitos ----------------------------------------------------------------------------------

HITOS_DRAMA_POINTS = "drama_points"


class HitosSetup:
    key = "hitos"
    kinds = ("check", "attack")
    opposed_kinds = ()

    def spec(self, sheet: Sheet, data: Mapping) -> hitos.HitosSpec:
        _check_can_act(sheet)
        activation = None
        aspect_id = data.get("aspect")
        if aspect_id:
            aspect = next((a for a in sheet.aspects if str(a.pk) == str(aspect_id)), None)
            if aspect is None:
                raise ValidationError(_("Choose one of this character's aspects."), code="aspect")
            activation = hitos.AspectActivation(
                aspect=aspect.text,
                aspect_type="propio",
                pay=data.get("pay") or "drama_point",
                drama_points=sheet.pool_current(HITOS_DRAMA_POINTS),
                exhausted=aspect.exhausted,
            )
        skill = data.get("skill") or ""
        return hitos.HitosSpec(
            characteristic=sheet.rating(data["characteristic"]),
            skill=sheet.rating(skill) if skill else 0,
            difficulty=data["difficulty"],
            modifier=data.get("modifier") or 0,
            wound_penalty=sheet.health.penalty,
            improve=activation is not None,
            hinder=bool(data.get("hinder")),
            equal_succeeds=bool(sheet.rules.get("equal_succeeds")),
            activation=activation,
        )

    def odds(self, spec: hitos.HitosSpec, *, attack: bool = False, names=None) -> OddsView:
        result = hitos_odds.odds(spec)
        kept = hitos.DIE_NAMES[1 + spec.shift]
        names = names or {}
        steps = [(names.get("characteristic") or _("Characteristic"), spec.characteristic)]
        steps.append((names.get("skill") or _("Skill"), spec.skill))
        if spec.modifier:
            steps.append((_("Modifier"), spec.modifier))
        if spec.wound_penalty:
            steps.append((_("Wound penalty"), spec.wound_penalty))
        rows = (
            OddsRow("success", _("Hit") if attack else _("Success"), result.p_success),
            OddsRow("exceptional", pgettext("hitos", "Crítico"), result.p_exceptional),
            OddsRow("dramatic_failure", pgettext("hitos", "Pifia"), result.p_dramatic_failure),
        )
        summary = _("%(die)s + %(bonus)s against %(difficulty)s") % {
            "die": kept,
            "bonus": spec.bonus,
            "difficulty": spec.difficulty,
        }
        return OddsView(rows=rows, summary=summary, steps=tuple(steps))

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        spec = self.spec(sheet, data)
        if data["kind"] != "attack":
            return Plan(
                kind="check",
                odds=self.odds(spec, names=trait_names(sheet, data)),
                roll=_single(sheet, lambda rng: hitos.roll_check(spec, rng), data),
            )
        category = DAMAGE_CATEGORIES_BY_KEY[data["weapon"]]
        fortaleza, combate = sheet.rating("fortaleza"), sheet.rating("combate")
        if data.get("attack_range") == "ranged":
            bonus = hitos_traits.ranged_damage_bonus(max(combate, 0))
        else:
            bonus = hitos_traits.melee_damage_bonus(max(fortaleza, 1), max(combate, 0))
        constant = data.get("weapon_constant") or 0
        rd = data.get("target_rd") or 0
        shift = data.get("damage_shift") or 0
        odds = self.odds(spec, attack=True, names=trait_names(sheet, data))
        weapon = category.name + (f"{constant:+d}" if constant else "")
        note = _(
            "Damage if it hits: %(weapon)s + %(bonus)s (damage bonus) − RD %(rd)s, "
            "from the same dice"
        ) % {"weapon": weapon, "bonus": bonus, "rd": rd}
        return Plan(
            kind="attack",
            odds=replace(odds, notes=(note,)),
            roll=_single(
                sheet,
                lambda rng: hitos.roll_attack(
                    spec,
                    category,
                    weapon_constant=constant,
                    damage_bonus=bonus,
                    target_rd=rd,
                    damage_shift=shift,
                    rng=rng,
                ),
                data,
            ),
        )


# --- 3d6 + NdP ------------------------------------------------------------------------------


class NdpSetup:
    key = "ndp"
    kinds = ("check", "attack")
    opposed_kinds = ("opposed",)

    def load_desgracias(self, sheet: Sheet, skill: str) -> int:
        weight = float(sum((item.weight_kg for item in sheet.items), Decimal(0)))
        load = ndp_equipment.load_state(weight, sheet.rating("fortitud"))
        return ndp_equipment.load_desgracias(load, skill)

    def spec(
        self, sheet: Sheet, data: Mapping, *, adversity=None, opposed_total=None
    ) -> tuple[ndp.NdpSpec, list]:
        _check_can_act(sheet)
        skill = data["skill"]
        steps = [(sheet.name(skill), sheet.rating(skill))]
        load = self.load_desgracias(sheet, skill)
        if load:
            steps.append((_("Desgracias for the load carried"), load))
        spec = ndp.NdpSpec(
            level=sheet.rating(skill),
            dice=int(data.get("dice") or 3),
            gracias=data.get("gracias") or 0,
            desgracias=(data.get("desgracias") or 0) + load,
            adversity=adversity,
            opposed_total=opposed_total,
            defender=opposed_total is not None and bool(data.get("defending")),
            skill=skill,
        )
        return spec, steps

    def odds(self, spec: ndp.NdpSpec, steps, *, attack: bool = False) -> OddsView:
        result = ndp_odds.odds(spec)
        rows = []
        if spec.threshold is not None:
            rows.append(OddsRow("success", _("Hit") if attack else _("Success"), result.p_success))
        rows.append(OddsRow("progress", _("Gain 1 PdP"), ndp_odds.p_progress(spec)))
        dice = {2: _("2d6 (desventaja)"), 3: "3d6", 4: _("4d6 (ventaja)")}[spec.dice]
        parts = [dice, f"+ {spec.level}"]
        if spec.gracias:
            parts.append(f"+ {spec.gracias}d4")
        if spec.desgracias:
            parts.append(f"− {spec.desgracias}d4")
        summary = " ".join(parts)
        notes = ()
        if spec.adversity is not None or spec.opposed_total is not None:
            against = spec.adversity if spec.adversity is not None else spec.opposed_total
            summary = _("%(roll)s against %(adversity)s") % {"roll": summary, "adversity": against}
        if spec.opposed_total is not None:
            notes = (
                _("You defend: a tie goes to you.")
                if spec.defender
                else _("The defender wins ties: you need more than their total."),
            )
        return OddsView(rows=tuple(rows), summary=summary, steps=tuple(steps), notes=notes)

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        adversity = data.get("adversity")
        if data["kind"] == "attack" and adversity is None:
            raise ValidationError(
                _("An attack needs the adversity to beat (the defence)."), code="adversity"
            )
        opposed = data.get("opposed_total") if data["kind"] == "check" else None
        spec, steps = self.spec(sheet, data, adversity=adversity, opposed_total=opposed)
        if data["kind"] != "attack":
            return Plan(
                kind="check",
                odds=self.odds(spec, steps),
                roll=_single(sheet, lambda rng: ndp.roll_check(spec, rng), data),
            )
        damage = ndp.DamageSpec(
            sides=data["damage_sides"],
            count=data["damage_count"] if data["damage_sides"] else 0,
            fixed=data.get("damage_fixed") or 0,
            damage_type=data["damage_type"],
            rd=data.get("target_rd") or 0,
            pelea=spec.skill == "pelea",
        )
        odds = self.odds(spec, steps, attack=True)
        tiers = ndp_odds.damage_odds(damage)
        p_hit = odds.p("success") or 0.0
        rows = odds.rows + tuple(
            OddsRow(f"tier_{tier}", label, p_hit * tiers[tier])
            for tier, label in (
                ("leve", _("Hit: leve wound")),
                ("grave", _("Hit: grave wound")),
                ("letal", _("Hit: letal wound")),
            )
        )

        def roll(rng=None) -> RollRecord:
            check = ndp.roll_check(spec, rng)
            if check.outcome != "success":
                return replace(check, kind="attack", details={**check.details, "hit": False})
            hit = ndp.roll_damage(damage, rng)
            dice = check.dice + tuple(replace(d, tags=(*d.tags, "damage")) for d in hit.dice)
            return replace(
                check,
                kind="attack",
                dice=dice,
                effects=replace(check.effects, damage=hit.result),
                details={
                    **check.details,
                    "hit": True,
                    "damage_roll": {**hit.details, "dice": f"{damage.count}d{damage.sides}"},
                    "damage": hit.result,
                    "tier": hit.outcome,
                },
            )

        return Plan(
            kind="attack",
            odds=replace(odds, rows=rows),
            roll=_single(sheet, roll, data),
        )

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        spec_a, steps_a = self.spec(a, data_a)
        spec_b, _steps = self.spec(b, data_b)
        p_attacker = ndp_odds.p_attacker_wins(spec_a, spec_b)
        rows = (
            OddsRow("win", _("%(name)s wins (attacker)") % {"name": a.character.name}, p_attacker),
            OddsRow(
                "lose",
                _("%(name)s wins (defender, wins ties)") % {"name": b.character.name},
                1.0 - p_attacker,
            ),
        )
        summary = (
            f"{a.character.name}: {self.odds(spec_a, ()).summary} · "
            f"{b.character.name}: {self.odds(spec_b, ()).summary}"
        )

        def roll(rng=None) -> list[SideRecord]:
            result = ndp.roll_opposed(spec_a, spec_b, rng)
            winner = "a" if result.winner == "attacker" else "b"
            sides = []
            for side, sheet, other, own, theirs in (
                ("a", a, b, result.attacker, result.defender),
                ("b", b, a, result.defender, result.attacker),
            ):
                sides.append(
                    SideRecord(
                        sheet,
                        replace(
                            own,
                            outcome=_won(winner, side),
                            details={
                                **own.details,
                                "role": "attacker" if side == "a" else "defender",
                                "opponent": _opponent(other, theirs.result),
                            },
                        ),
                    )
                )
            return _named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        return Plan(
            kind="opposed",
            odds=OddsView(rows=rows, summary=summary, steps=tuple(steps_a)),
            roll=roll,
            group=uuid.uuid4(),
        )


# --- Dado objetivo --------------------------------------------------------------------------

OBJETIVO_DESTINY = "destiny_points"
CUSTOM_WEAPON = "custom"


def specialization_used(sheet: Sheet) -> bool:
    """Once per scene: used if it was marked for the scene the character is in now."""
    details = sheet.character.details
    if "specialization_used_scene" not in details:
        return False
    scene_id = sheet.scene.pk if sheet.scene is not None else None
    return details["specialization_used_scene"] == scene_id


class ObjetivoSetup:
    key = "objetivo"
    kinds = ("skill", "attribute", "attack")
    opposed_kinds = ("opposed",)

    def spec(
        self, sheet: Sheet, data: Mapping, *, difficulty=None, extra: int = 0, spends: bool = True
    ) -> tuple[objetivo.ObjetivoSpec, list]:
        _check_can_act(sheet)
        attribute = data["attribute"]
        skill = data.get("skill") or ""
        modifier = (data.get("modifier") or 0) + extra
        details = sheet.character.details
        specialization = spends and bool(data.get("specialization"))
        if specialization and skill != details.get("specialization"):
            raise ValidationError(
                _("The specialization only applies to a roll of its own skill."),
                code="specialization",
            )
        flags = {
            "destiny_point": spends and bool(data.get("destiny_point")),
            "destiny_points": sheet.pool_current(OBJETIVO_DESTINY),
            "destiny_returned": bool(details.get("destiny_returned")),
            "incapacitated": sheet.health.penalty < 0,
        }
        steps = []
        if not skill:
            steps.append((f"2 × {sheet.name(attribute)}", 2 * sheet.rating(attribute)))
            if modifier:
                steps.append((_("Modifier"), modifier))
            spec = objetivo.attribute_roll_spec(
                sheet.rating(attribute), difficulty, modifier, **flags
            )
            return spec, steps
        steps.append((sheet.name(attribute), sheet.rating(attribute)))
        steps.append((sheet.name(skill), sheet.rating(skill)))
        if modifier:
            steps.append((_("Modifier"), modifier))
        spec = objetivo.ObjetivoSpec(
            bonus=sheet.rating(attribute) + sheet.rating(skill) + modifier,
            difficulty=difficulty,
            specialization=specialization,
            specialization_used_this_scene=specialization and specialization_used(sheet),
            unskilled=sheet.rating(skill) == 0,
            **flags,
        )
        return spec, steps

    def odds(self, spec: objetivo.ObjetivoSpec, steps, *, attack: bool = False) -> OddsView:
        result = objetivo_odds.odds(spec)
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

    def weapon(self, data: Mapping) -> tuple[objetivo_catalogue.DamageDice, int]:
        key = data.get("weapon") or CUSTOM_WEAPON
        if key == CUSTOM_WEAPON:
            return (
                objetivo_catalogue.DamageDice(
                    data["damage_count"], data["damage_sides"], data.get("damage_fixed") or 0
                ),
                0,
            )
        weapon = objetivo_catalogue.WEAPON_BY_KEY[key]
        return weapon.damage, weapon.precision

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        kind = data["kind"]
        if kind == "attribute":
            data = {**data, "skill": ""}
        elif not data.get("skill"):
            raise ValidationError(_("Choose a skill."), code="skill")
        if kind != "attack":
            spec, steps = self.spec(sheet, data, difficulty=data.get("difficulty"))
            return Plan(
                kind=kind,
                odds=self.odds(spec, steps),
                roll=_single(sheet, lambda rng: objetivo.roll_check(spec, rng), data),
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
        return Plan(
            kind="attack",
            odds=replace(odds, notes=(*odds.notes, note)),
            roll=_single(sheet, lambda rng: objetivo.roll_attack(spec, defensa, damage, rng), data),
        )

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        spec_a, steps_a = self.spec(a, data_a, spends=False)
        spec_b, _steps = self.spec(b, data_b, spends=False)
        result = objetivo_odds.opposed_odds(spec_a, spec_b)
        rows = _opposed_rows(
            result.p_actor, result.p_tie, result.p_opponent, a.character.name, b.character.name
        )
        summary = (
            f"{a.character.name}: {self.odds(spec_a, ()).summary} · "
            f"{b.character.name}: {self.odds(spec_b, ()).summary}"
        )

        def roll(rng=None) -> list[SideRecord]:
            record = objetivo.roll_opposed(spec_a, spec_b, rng)
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
                        _side(
                            record,
                            kind="opposed",
                            outcome=_won(winner, side),
                            result=own["total"],
                            dice=dice,
                            kept=tuple(own["target_dice"]),
                            spec=own["spec"],
                            effects=_effects_from(own["effects"]),
                            flags=tuple(own["flags"]),
                            details={
                                **{k: v for k, v in own.items() if k not in ("spec", "effects")},
                                "opponent": _opponent(other, record.details[other_key]["total"]),
                            },
                        ),
                    )
                )
            return _named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        return Plan(
            kind="opposed",
            odds=OddsView(rows=rows, summary=summary, steps=tuple(steps_a)),
            roll=roll,
            group=uuid.uuid4(),
        )


SETUPS = {
    setup.key: setup for setup in (TinieblasSetup(), HitosSetup(), NdpSetup(), ObjetivoSetup())
}


def get_setup(system: str):
    return SETUPS[system]


__all__ = [
    "OddsRow",
    "OddsView",
    "Plan",
    "RuleError",
    "Sheet",
    "SideRecord",
    "get_setup",
    "load_sheet",
    "load_sheets",
    "open_extended_actions",
]
