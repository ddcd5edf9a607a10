"""`rows_state_query`: the state of several tables' rows in one query, written once by the
ORM; any change to one of the rows changes it, as `rows_state` does."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.compiled import _compiled
from campaigns.fragments import rows_state_query
from characters.models import Resource, Specialty, Trait
from mechanics.models import Roll
from tests.factories import make_character
from tests.mechanics_web.rolls import store_roll


def _build(character, campaign):
    return [
        Trait.objects.filter(character_id=character),
        Resource.objects.filter(character_id=character),
        Specialty.objects.filter(character_id=character),
    ]


def _state(character) -> tuple:
    return rows_state_query(_build, character=character.pk, campaign=character.campaign_id)


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía", ratings={"fuerza": 2, "astucia": 3})


@pytest.mark.django_db
def test_it_reads_every_row_in_one_query_and_writes_the_sql_once(lucia):
    _compiled.cache_clear()
    with CaptureQueriesContext(connection) as queries:
        first = _state(lucia)
        second = _state(lucia)
    assert len(queries) == 2
    assert first == second
    assert (_compiled.cache_info().misses, _compiled.cache_info().hits) == (1, 1)
    assert (
        len(first)
        == Trait.objects.filter(character=lucia).count()
        + Resource.objects.filter(character=lucia).count()
    )


@pytest.mark.django_db
def test_any_field_of_any_row_changes_the_state(lucia, campaign, player):
    before = _state(lucia)
    Trait.objects.filter(character=lucia, key="fuerza").update(rating=3)
    after_rating = _state(lucia)
    assert after_rating != before
    Trait.objects.filter(character=lucia, key="fuerza").update(name="Fuerza bruta")
    assert _state(lucia) != after_rating
    # Another character's rows are not this one's.
    other = make_character(campaign, player, name="Otra", ratings={"fuerza": 5})
    assert _state(lucia) == _state(lucia)
    assert _state(other) != _state(lucia)


@pytest.mark.django_db
def test_added_and_removed_rows_change_the_state(lucia):
    before = _state(lucia)
    specialty = Specialty.objects.create(character=lucia, skill_key="astucia", name="Mentir")
    added = _state(lucia)
    assert added != before
    specialty.delete()
    assert _state(lucia) == before


@pytest.mark.django_db
def test_an_append_only_record_is_read_by_its_id_and_links_alone(lucia, gm):
    """The database lets nothing else of a roll change (campaigns.append_only)."""
    roll = store_roll(lucia.campaign, gm, label="Astucia + Investigación")
    (state,) = rows_state_query(_rolls, campaign=lucia.campaign_id)
    links = {field.attname for field in Roll._meta.concrete_fields if field.is_relation}
    assert set(json.loads(state)) == {"_model", "id", *links}
    assert json.loads(state)["id"] == roll.pk


def _rolls(campaign):
    return [Roll.objects.filter(campaign_id=campaign)]
