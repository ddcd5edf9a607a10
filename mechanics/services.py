"""Writes for the roll log: store a roll the engine made, with its effects, in one transaction."""

from __future__ import annotations

import uuid

from django.db import transaction

from campaigns.models import Scene
from mechanics.models import Roll
from mechanics.rules.dice import RollRecord


def active_scene(*, campaign, character=None) -> Scene | None:
    """The open scene a roll belongs to: the newest open scene the character takes part
    in, or for rolls without a character the campaign's newest open scene."""
    scenes = Scene.objects.filter(campaign=campaign, status=Scene.Status.OPEN)
    if character is not None:
        scenes = scenes.filter(participants=character)
    return scenes.order_by("-created_at", "-pk").first()


@transaction.atomic
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
    return Roll.objects.create(
        campaign=campaign,
        character=character,
        scene=scene,
        user=user,
        group=group,
        system=record.system,
        kind=record.kind,
        label=label,
        record=record.to_dict(),
        result=record.result,
        outcome=record.outcome,
        secret=secret,
    )
