"""Queries compiled once (`mechanics.prepared.Prepared`) read what the ORM reads: the same
rows, for one character or several, on every database the tests run on."""

import pytest
from django.db.models import Exists, Max, OuterRef

from campaigns.models import Scene
from characters.models import Character, Resource, Specialty, Trait
from mechanics.health_panel import latest_event_id
from mechanics.models import HealthEvent
from mechanics.prepared import Prepared
from mechanics.selectors import roll_scenes
from mechanics.services.health import character_apply_damage
from mechanics.setup import _sheet_rows
from mechanics.systems.base import DamageInput
from mechanics.systems.registry import get_system
from tests.factories import make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(campaign, player):
    lucia = make_character(campaign, player, ratings={"fuerza": 3, "pelea": 2})
    pepa = make_character(campaign, player, name="Pepa", ratings={"astucia": 4})
    Specialty.objects.create(character=lucia, skill_key="pelea", name="Cuchillos")
    return lucia, pepa


def test_sheet_rows_are_the_orms_for_one_character_and_for_several(campaign, two):
    lucia, pepa = two
    system = get_system(campaign.system)
    for ids in ([pepa.pk], [lucia.pk, pepa.pk], [lucia.pk]):
        rows = _sheet_rows(ids, system)
        for pk in ids:
            traits = Trait.objects.filter(character_id=pk).order_by("kind", "key")
            assert rows[pk]["traits"] == list(traits.values_list("key", "kind", "name", "rating"))
            resources = Resource.objects.filter(character_id=pk).order_by("key")
            assert {
                key: (r.pk, r.current, r.maximum) for key, r in rows[pk]["resources"].items()
            } == {r.key: (r.pk, r.current, r.maximum) for r in resources}
            assert [(s.pk, s.name) for s in rows[pk]["specialties"]] == [
                (s.pk, s.name) for s in Specialty.objects.filter(character_id=pk)
            ]
    assert rows[lucia.pk]["specialties"]
    assert rows[lucia.pk]["traits"]


def test_open_scenes_are_the_orms_with_whether_the_character_is_in_each(campaign, two):
    lucia, _pepa = two
    tavern = Scene.objects.create(campaign=campaign, title="La taberna")
    Scene.objects.create(campaign=campaign, title="El puerto")
    Scene.objects.create(campaign=campaign, title="El prólogo", status="closed")
    lucia.scenes.add(tavern)
    joined = Character.scenes.through.objects.filter(scene=OuterRef("pk"), character_id=lucia.pk)
    expected = (
        Scene.objects.filter(campaign=campaign, status="open")
        .annotate(joined=Exists(joined))
        .order_by("-created_at", "-pk")
    )
    scenes, default = roll_scenes(campaign, lucia)
    assert [(s.pk, s.title, s.created_at, bool(s.joined)) for s in scenes] == [
        (s.pk, s.title, s.created_at, s.joined) for s in expected
    ]
    assert default == tavern


def test_the_latest_health_event_is_the_orms(campaign, gm, two):
    lucia, pepa = two
    assert latest_event_id(lucia) is None
    for _ in range(2):
        character_apply_damage(character=lucia, user=gm, damage=DamageInput(1, damage_type="B"))
    latest = HealthEvent.objects.filter(character=lucia).aggregate(m=Max("pk"))["m"]
    assert latest is not None
    assert latest_event_id(lucia) == latest
    assert latest_event_id(pepa) is None


def test_an_argument_the_query_does_not_use_is_refused():
    unused = Prepared(lambda pk: Scene.objects.filter(pk__gt=0))
    with pytest.raises(ValueError, match="Every argument"):
        unused.rows(1)
