"""A small campaign with something to find in every place the search reads: GM alice,
players bob (Lucía) and dora (Pérez), observer olga; charlie is a stranger."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from django.urls import reverse

from bench.data import pool_records
from campaigns import services
from campaigns.models import Scene, SceneNote, Story
from characters import services as character_services
from characters.models import Character, DiaryEntry
from mechanics.services.rolls import roll_store
from tests.factories import MembershipFactory, UserFactory, make_character


@dataclass
class World:
    campaign: object
    story: Story
    scene: Scene
    lucia: Character
    perez: Character
    gm: object
    player: object
    other: object
    observer: object
    stranger: object


@pytest.fixture
def dora(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def world(campaign, gm, player, dora, observer, stranger) -> World:
    lucia = make_character(campaign, player, name="Lucía", concept="Periodista curiosa")
    perez = make_character(campaign, dora, name="Ramón Pérez", concept="Policía de barrio")
    story = services.story_create(campaign=campaign, title="La línea 5", summary="Un arco.")
    scene = services.scene_create(
        campaign=campaign,
        title="El andén vacío",
        story=story,
        place="Chamberí",
        summary="Bajamos al andén abandonado.",
        participants=[lucia, perez],
    )
    return World(campaign, story, scene, lucia, perez, gm, player, dora, observer, stranger)


def diary(world: World, character, body: str, *, status="published", visibility="group"):
    return character_services.diary_save(
        scene=world.scene,
        character=character,
        user=character.owner,
        body=body,
        status=status,
        visibility=visibility,
    )


def roll(world: World, label: str, *, secret=False, character=None, user=None):
    record, _details, _label = pool_records(random.Random(len(label)), 1)[0]
    return roll_store(
        campaign=world.campaign,
        user=user or world.gm,
        record=record,
        character=character,
        scene=world.scene,
        label=label,
        secret=secret,
    )


def note(world: World, body: str) -> SceneNote:
    return services.scene_note_save(scene=world.scene, author=world.gm, body=body)


def search_url(world: World, **params) -> str:
    from urllib.parse import urlencode

    url = reverse("search:search", args=[world.campaign.pk])
    return f"{url}?{urlencode(params)}" if params else url


__all__ = ["DiaryEntry", "World", "diary", "note", "roll", "search_url"]
