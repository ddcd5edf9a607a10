"""Writes for the roll log: store a roll the engine made, with its effects, in one transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace

from django.db import transaction

from campaigns.models import Scene
from campaigns.texts import TEXTS, codes
from characters.services import roll_apply_effects
from mechanics.models import Roll
from mechanics.rules.dice import RollRecord
from mechanics.systems.registry import get_system


# One INSERT needs no savepoint of its own inside a caller's transaction.
@transaction.atomic(savepoint=False)
def roll_store(
    *,
    campaign,
    user,
    record: RollRecord,
    character=None,
    scene=None,
    label: str = "",
    secret: bool = False,
    group: uuid.UUID | None = None,
) -> Roll:
    stored = record.to_dict()
    # A label the site wrote keeps its code, shown in each reader's language.
    texts = codes(label=label)
    if texts:
        stored[TEXTS] = texts
    return Roll.objects.create(
        campaign=campaign,
        character=character,
        scene=scene,
        user=user,
        group=group,
        system=record.system,
        kind=record.kind,
        label=label,
        record=stored,
        result=record.result,
        outcome=record.outcome,
        secret=secret,
    )


@dataclass(frozen=True)
class RollSide:
    """One character's part of a roll: its record and where it is stored."""

    record: RollRecord
    character: object = None
    scene: Scene | None = None
    label: str = ""


@transaction.atomic
def roll_perform(
    *, campaign, user, sides: list[RollSide], secret: bool = False, group: uuid.UUID | None = None
) -> list[Roll]:
    """Apply each side's effects to its sheet and store its roll, all in one transaction.

    A refused effect (an empty pool, an aspect already exhausted) stores nothing. Sides of
    one roll (opposed, teamwork) share `group`; the effects applied are kept in the
    stored record under details["applied"].
    """

    rolls = []
    for side in sides:
        record = side.record
        if side.character is not None:
            applied = roll_apply_effects(
                character=side.character, user=user, record=record, scene=side.scene
            ) + get_system(campaign.system).after_roll(side.character, user, record)
            if applied:
                record = replace(record, details={**record.details, "applied": applied})
        rolls.append(
            roll_store(
                campaign=campaign,
                user=user,
                record=record,
                character=side.character,
                scene=side.scene,
                label=side.label,
                secret=secret,
                group=group,
            )
        )
    return rolls
