"""`compiled_values` and `compiled_models`: a query the ORM writes once per shape of ids,
then run with the ids alone; it must answer what the ORM's own query answers, for any
ids."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from campaigns.compiled import _compiled, compiled_models, compiled_values
from characters.models import Character, Trait
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


def _characters_with_campaign(campaign: int, names: tuple[int, ...]):
    return (
        Character.objects.select_related("campaign", "owner")
        .filter(campaign_id=campaign, pk__in=names)
        .annotate(trait_count=Count("traits"))
        .order_by("name")
    )


def _fields(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def test_models_are_loaded_as_the_orm_loads_them_with_their_related_rows(two, campaign):
    lucia, mateo = two
    lucia.details = {"notas": "«herida»", "aspect_rolls": [3]}
    lucia.save(update_fields=["details"])
    ids = (lucia.pk, mateo.pk)
    expected = list(_characters_with_campaign(campaign.pk, ids))
    _compiled.cache_clear()
    compiled_models(_characters_with_campaign, campaign=campaign.pk, names=ids)
    with CaptureQueriesContext(connection) as queries:
        loaded = compiled_models(_characters_with_campaign, campaign=campaign.pk, names=ids)
        # The related rows came with them: reading them asks nothing more.
        related = [(c.campaign.name, c.owner.username, c.trait_count) for c in loaded]
    assert len(queries) == 1
    assert [_fields(c) for c in loaded] == [_fields(c) for c in expected]
    # Converted as the ORM converts them: JSON as a dict, times as aware datetimes.
    assert loaded[0].details == {"notas": "«herida»", "aspect_rolls": [3]}
    assert loaded[0].created_at == expected[0].created_at
    assert loaded[0].created_at.tzinfo is not None
    assert related == [(c.campaign.name, c.owner.username, c.trait_count) for c in expected]
    assert related[0][2] > 0
    assert [_fields(c.campaign) for c in loaded] == [_fields(c.campaign) for c in expected]
    # Loaded rows save as rows the ORM loaded do.
    loaded[1].name = "Mateo el Rojo"
    loaded[1].save(update_fields=["name"])
    assert Character.objects.get(pk=mateo.pk).name == "Mateo el Rojo"


def test_models_of_another_campaign_or_of_no_ids_are_not_found(two, campaign):
    lucia, _ = two
    assert (
        compiled_models(_characters_with_campaign, campaign=campaign.pk + 1, names=(lucia.pk,))
        == []
    )
    assert compiled_models(_characters_with_campaign, campaign=campaign.pk, names=()) == []
    # An id no column can hold finds nothing, instead of a driver error (a 500).
    assert compiled_models(_characters_with_campaign, campaign=2**64, names=(lucia.pk,)) == []


def test_a_query_that_prefetches_is_refused(campaign):
    def prefetching(campaign: int):
        return Character.objects.filter(campaign_id=campaign).prefetch_related("traits")

    with pytest.raises(ValueError, match="prefetch"):
        compiled_models(prefetching, campaign=campaign.pk)


def _rating_of(character: int, key: str):
    return Trait.objects.filter(character_id=character, key=key).values_list("rating", flat=True)


def test_a_text_id_is_a_parameter_like_a_number(two):
    lucia, mateo = two
    _compiled.cache_clear()
    for character, key in ((lucia, "fuerza"), (lucia, "astucia"), (mateo, "fuerza")):
        assert compiled_values(_rating_of, character=character.pk, key=key) == [
            (rating,) for rating in _rating_of(character.pk, key)
        ]
    assert compiled_values(_rating_of, character=lucia.pk, key="no-such-trait") == []
    assert _compiled.cache_info().misses == 1
