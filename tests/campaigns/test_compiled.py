"""`compiled_values`: a values query the ORM writes once per shape of ids, then run with
the ids alone; it must answer what the ORM's own query answers, for any ids."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.compiled import _compiled, compiled_values
from characters.models import Trait
from tests.factories import make_character

pytestmark = pytest.mark.django_db


def _ratings(character: int):
    return Trait.objects.filter(character_id=character).order_by("key").values_list("key", "rating")


def _ratings_of_some(character: int, traits: tuple[int, ...]):
    return _ratings(character).filter(pk__in=traits)


@pytest.fixture
def two(campaign, player):
    return (
        make_character(campaign, player, name="Lucía", ratings={"fuerza": 2, "astucia": 3}),
        make_character(campaign, player, name="Mateo", ratings={"fuerza": 4, "astucia": 1}),
    )


def test_it_answers_what_the_orm_answers_for_any_id_with_the_sql_written_once(two):
    _compiled.cache_clear()
    with CaptureQueriesContext(connection) as queries:
        answers = [compiled_values(_ratings, character=character.pk) for character in two]
    assert len(queries) == 2
    assert [list(_ratings(character.pk)) for character in two] == answers
    assert answers[0] != answers[1]
    assert (_compiled.cache_info().misses, _compiled.cache_info().hits) == (1, 1)


def test_tuples_of_ids_of_each_length_are_their_own_shape(two):
    lucia, mateo = two
    traits = tuple(
        Trait.objects.filter(character=lucia).order_by("key").values_list("pk", flat=True)
    )
    _compiled.cache_clear()
    for some in (traits[:1], traits[:2], traits[1:3], traits[:1]):
        assert compiled_values(_ratings_of_some, character=lucia.pk, traits=some) == list(
            _ratings_of_some(lucia.pk, some)
        )
        # Another character's id in the same place finds none of these traits.
        assert compiled_values(_ratings_of_some, character=mateo.pk, traits=some) == []
    assert _compiled.cache_info().misses == 2
