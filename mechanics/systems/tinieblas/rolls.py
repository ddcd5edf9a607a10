"""Mundo de Tinieblas rolls: a sheet and the panel's choices to dice pools, simple,
extended, opposed and teamwork (docs/rules.md#tinieblas-rolls)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.fragments import cached_value, fragment_key
from characters.models import Character
from mechanics.models import Roll
from mechanics.rules.tinieblas import catalogue
from mechanics.rules.tinieblas import odds as engine_odds
from mechanics.rules.tinieblas import rolls as engine
from mechanics.setup import (
    OddsRow,
    OddsView,
    Plan,
    RollSetup,
    Sheet,
    SideRecord,
    check_can_act,
    compare,
    effects_from,
    named_sides,
    opponent,
    opposed_rows,
    side_record,
    single,
    trait_names,
    won,
)
from mechanics.systems.tinieblas.display import translated_steps

WILLPOWER_POOL = "willpower"


class TinieblasSetup(RollSetup):
    # The extended actions in progress are read from the character's rolls, whose writes
    # bump the character's version (campaigns.versions.READ_BACK): the panel follows it.
    opposed_kinds = ("opposed", "teamwork")
    sheet_extras = ("specialties",)

    def spec(self, sheet: Sheet, data: Mapping) -> engine.PoolSpec:
        check_can_act(sheet)
        attribute = data["attribute"]
        skill = data.get("skill") or ""
        specialty = bool(data.get("specialty"))
        if specialty and not skill:
            raise ValidationError(_("Choose the skill the specialty belongs to."), code="specialty")
        category = catalogue.skill(skill).category if skill else None
        modifiers = tuple(m for m in data.get("modifiers", ()) if m)
        willpower = data.get("willpower") or None
        if willpower and sheet.pool_current(WILLPOWER_POOL) < 1:
            raise ValidationError(
                _("%(name)s has no Willpower points left.") % {"name": sheet.character.name},
                code="empty",
            )
        again = data.get("again", 10)
        return engine.PoolSpec(
            attribute=sheet.rating(attribute),
            skill=sheet.rating(skill) if skill else 0,
            skill_category=category,
            attribute_key=attribute,
            specialty=specialty,
            modifiers=modifiers,
            extra_dice=data.get("extra_dice") or 0,
            willpower=willpower,
            willpower_pool=min(sheet.pool_current(WILLPOWER_POOL), 10),
            again=again,
            rote=bool(data.get("rote")),
            attempts=data.get("attempts") or 0,
            wound_penalty=sheet.health.penalty,
            unskilled_penalty=bool(sheet.rules.get("unskilled_penalty", True)),
        )

    def odds(self, spec: engine.PoolSpec, extra_steps=(), names=None) -> OddsView:
        pool, steps = engine.pool_breakdown(spec)
        steps = (*steps, *extra_steps)
        pool += sum(delta for _step, delta in extra_steps)
        result = engine_odds.odds_for_pool(pool, spec.again, spec.rote)
        chance = pool <= 0
        rows = [
            OddsRow("success", _("Success"), result.p_success),
            OddsRow("exceptional", _("Exceptional success"), result.p_exceptional),
        ]
        if chance:
            rows.append(
                OddsRow("dramatic_failure", _("Dramatic failure"), result.p_dramatic_failure)
            )
        summary = (
            _("Chance die")
            if chance
            else ngettext("%(count)s die", "%(count)s dice", pool) % {"count": pool}
        )
        return OddsView(
            rows=tuple(rows), summary=summary, steps=translated_steps(steps, names or {})
        )

    def open_actions(self, character: Character) -> dict[str, Roll]:
        """Read when first used (the odds of a simple roll never do). Their rolls bump
        the character's versions (READ_BACK), its grid version too, which a wound leaves;
        the campaign's version follows their scenes' titles."""
        campaign = character.campaign
        key = fragment_key(
            "open-actions", character.pk, character.grid_version, campaign.pk, campaign.version
        )
        return SimpleLazyObject(lambda: cached_value(key, lambda: open_extended_actions(character)))

    def plan(self, sheet: Sheet, data: Mapping, *, open_actions=None) -> Plan:
        last = continued_action(data, open_actions)
        if last is not None:
            # One task: every roll of it throws the pool of its first (docs/rules.md
            # #tinieblas-extended-pool), whatever the hidden fields of the panel hold.
            data = {**data, **action_pool(sheet, last.record)}
        elif data["kind"] == "extended" and data.get("action"):
            raise ValidationError(_("That extended action is already over."), code="done")
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
                roll=single(sheet, lambda rng: engine.roll_pool(spec, rng), data),
            )
        if last is not None:
            details = last.record["details"]
            target, max_rolls = details["target"], details["max_rolls"]
            progress, rolls_made = details["progress"], details["rolls_made"]
            group, label = last.group, last.label
        else:
            target, max_rolls = data.get("target"), data.get("max_rolls")
            progress, rolls_made = 0, 0
            group, label = uuid.uuid4(), ""
        odds = self.odds(spec, names=names)
        if not target:
            # Nothing typed yet: the pool's odds and what is missing, not an error.
            notes = [_("Type how many successes the extended action needs.")]
        else:
            notes = [
                _("Progress: %(progress)s of %(target)s successes")
                % {"progress": progress, "target": target}
            ]
        rows = odds.rows
        if max_rolls:
            notes.append(_("Rolls: %(made)s of %(max)s") % {"made": rolls_made, "max": max_rolls})
            left = max_rolls - rolls_made
            chance = (
                engine_odds.extended_completion(spec, target - progress, left) if target else None
            )
            if chance is not None:
                completing = ngettext(
                    "Completing it in the roll left",
                    "Completing it in the %(count)s rolls left",
                    left,
                ) % {"count": left}
                rows = (*rows, OddsRow("complete", completing, chance))

        def roll(rng=None):
            if not target:
                raise ValidationError(
                    _("Say how many successes the extended action needs."), code="target"
                )
            record = engine.roll_extended(
                spec,
                target=target,
                progress=progress,
                rolls_made=rolls_made,
                max_rolls=max_rolls,
                rng=rng,
            )
            # The action it goes on with, so storing it can check nobody rolled meanwhile,
            # and the traits its next rolls throw again.
            chosen = {role: str(data.get(role) or "") for role in POOL_ROLES}
            return replace(
                record, details={**record.details, "action": str(group), "chosen": chosen}
            )

        return Plan(
            kind="extended",
            odds=replace(odds, rows=rows, notes=tuple(notes)),
            roll=single(sheet, roll, data),
            group=group,
            label=label,
        )

    def kept_after_roll(self, stored: Roll, kept) -> None:
        """An extended action goes on with the next roll while it is open; once over, the
        panel offers a new one."""
        if stored.kind == "extended":
            details = stored.record["details"]
            kept["action"] = "" if details.get("done") else str(stored.group)

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        spec_a = self.spec(a, data_a)
        spec_b = self.spec(b, data_b)
        odds_a = self.odds(spec_a, names=trait_names(a, data_a))
        odds_b = self.odds(spec_b)
        dist_a = engine_odds.odds(spec_a).distribution
        dist_b = engine_odds.odds(spec_b).distribution
        rows = opposed_rows(*compare(dist_a, dist_b), a.character.name, b.character.name)
        summary = f"{a.character.name}: {odds_a.summary} · {b.character.name}: {odds_b.summary}"
        notes = spend_notes((a, spec_a), (b, spec_b))

        def roll(rng=None) -> list[SideRecord]:
            record = engine.roll_opposed(spec_a, spec_b, rng)
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
                        side_record(
                            record,
                            kind="opposed",
                            outcome=won(winner, side),
                            result=own["result"],
                            dice=dice,
                            kept=tuple(own["kept"]),
                            spec=own["spec"],
                            effects=effects_from(own["effects"]),
                            flags=tuple(own["flags"]),
                            details={
                                **own["details"],
                                "grade": own["outcome"],
                                "opponent": opponent(other, opponent_result),
                            },
                        ),
                    )
                )
            return named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        return Plan(
            kind="opposed",
            odds=OddsView(rows=rows, summary=summary, steps=odds_a.steps, notes=notes),
            roll=roll,
            group=uuid.uuid4(),
        )

    def teamwork(self, main: Sheet, data: Mapping, helpers: list[tuple[Sheet, Mapping]]) -> Plan:
        spec = self.spec(main, data)
        helper_specs = [self.spec(sheet, helper_data) for sheet, helper_data in helpers]
        names = ", ".join(sheet.character.name for sheet, _data in helpers)
        odds = self.odds(spec, names=trait_names(main, data))
        # The odds of the whole roll: the main pool with every helper's successes added.
        exact = engine_odds.teamwork_odds(spec, helper_specs)
        rows = [
            OddsRow("success", _("Success"), exact.p_success),
            OddsRow("exceptional", _("Exceptional success"), exact.p_exceptional),
        ]
        if exact.p_dramatic_failure:
            rows.append(
                OddsRow("dramatic_failure", _("Dramatic failure"), exact.p_dramatic_failure)
            )
        notes = [
            _("Helpers roll first: %(names)s. Each success adds a die.") % {"names": names}
        ] + [
            f"{sheet.character.name}: {self.odds(helper_spec).summary}"
            for (sheet, _data), helper_spec in zip(helpers, helper_specs, strict=True)
        ]
        helper_sheets = [sheet for sheet, _data in helpers]
        notes += spend_notes((main, spec), *zip(helper_sheets, helper_specs, strict=True))

        def roll(rng=None) -> list[SideRecord]:
            record = engine.roll_teamwork(spec, helper_specs, rng)
            split = record.details["split"]
            sides = []
            offset = 0
            for (sheet, _data), helper in zip(helpers, record.details["helpers"], strict=True):
                count = len(helper["dice"])
                sides.append(
                    SideRecord(
                        sheet,
                        side_record(
                            record,
                            kind="teamwork_helper",
                            outcome=helper["outcome"],
                            result=helper["result"],
                            dice=record.dice[offset : offset + count],
                            kept=tuple(helper["kept"]),
                            spec=helper["spec"],
                            effects=effects_from(helper["effects"]),
                            flags=tuple(helper["flags"]),
                            details={
                                **helper["details"],
                                "helping": opponent(main, record.result),
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
            return named_sides([SideRecord(main, main_record), *sides], data_by_character)

        return Plan(
            kind="teamwork",
            odds=replace(odds, rows=tuple(rows), notes=tuple(notes)),
            roll=roll,
            group=uuid.uuid4(),
        )


def spend_notes(*sides: tuple[Sheet, engine.PoolSpec]) -> list[str]:
    """Who spends Willpower on a two-sided roll, each side from their own pool."""
    return [
        _("%(name)s spends 1 Willpower point (%(current)s left after the roll).")
        % {"name": sheet.character.name, "current": sheet.pool_current(WILLPOWER_POOL) - 1}
        for sheet, spec in sides
        if spec.willpower
    ]


def check_extended_roll(character: Character, record) -> None:
    """Inside the roll's transaction: the extended action this roll goes on with is still
    where the roll found it (another roll may have gone in meanwhile, from another tab or
    player), so the cap on rolls and the target hold however rolls arrive."""
    if record.kind != "extended" or "action" not in record.details:
        return
    Character.objects.select_for_update().filter(pk=character.pk).first()
    last = (
        Roll.objects.filter(character=character, kind="extended", group=record.details["action"])
        .order_by("-pk")
        .first()
    )
    made_before = last.record["details"]["rolls_made"] if last is not None else 0
    if made_before != record.details["rolls_made"] - 1 or (
        last is not None and last.record["details"].get("done")
    ):
        raise ValidationError(
            _("That extended action moved on meanwhile: check its progress and roll again."),
            code="stale",
        )


def finished_action_message(character: Character, group: str) -> str | None:
    """Why an extended action of this character can no longer be rolled; None if it is
    not one of theirs."""
    try:
        last = (
            Roll.objects.filter(character=character, kind="extended", group=group)
            .order_by("-pk")
            .first()
        )
    except ValidationError:  # not a UUID
        return None
    if last is None:
        return None
    details = last.record["details"]
    if details.get("reached"):
        return _("That extended action already reached its target.")
    if details.get("max_rolls") and details["rolls_made"] >= details["max_rolls"]:
        return _("No rolls left: that extended action used its %(max)s rolls.") % {
            "max": details["max_rolls"]
        }
    if details.get("done"):
        return _("That extended action ended with a dramatic failure.")
    return None


# The choices that make an extended action's pool, the same for each of its rolls.
POOL_ROLES = ("attribute", "skill", "specialty")


def continued_action(data: Mapping, open_actions) -> Roll | None:
    """The latest roll of the open extended action a set-up goes on with, if any."""
    if data.get("kind") != "extended" or not data.get("action"):
        return None
    return (open_actions or {}).get(data["action"])


def action_pool(sheet: Sheet, record: Mapping) -> dict[str, str]:
    """The pool choices of an extended action, from the record of one of its rolls: as
    stored (`chosen`), or for a roll stored before they were, from its attribute's key and
    its skill's name. A specialty adds one die whichever it is: any of the skill's will do."""
    details = record["details"]
    if "chosen" in details:
        chosen = details["chosen"]
        # A specialty taken off the sheet since adds its die no more.
        if chosen["specialty"] and all(str(s.pk) != chosen["specialty"] for s in sheet.specialties):
            return {**chosen, "specialty": ""}
        return chosen
    skill_name = details.get("traits", {}).get("skill")
    skill = next((key for key in sheet.trait_keys("skill") if sheet.name(key) == skill_name), "")
    specialty = ""
    if skill and record["spec"].get("specialty"):
        specialty = next((str(s.pk) for s in sheet.specialties if s.skill_key == skill), "")
    return {"attribute": record["spec"]["attribute_key"], "skill": skill, "specialty": specialty}


# Enough for any table: a character rarely keeps more than a few actions going.
OPEN_ACTIONS_SEEN = 40


def open_extended_actions(character: Character) -> dict[str, Roll]:
    """Extended actions still in progress: the newest roll of each unfinished group, keyed by
    the group as text. One query; progress lives in the stored rolls (never in the form)."""
    latest: dict[str, Roll] = {}
    rolls = (
        Roll.objects.filter(character_id=character.pk, kind="extended", group__isnull=False)
        .select_related("scene")
        .only("group", "label", "record", "scene__title")
        .order_by("-created_at", "-pk")[:OPEN_ACTIONS_SEEN]
    )
    for roll in rolls:
        latest.setdefault(str(roll.group), roll)
    return {key: roll for key, roll in latest.items() if not roll.record["details"].get("done")}
