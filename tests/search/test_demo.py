"""The demo is searchable as seed_demo leaves it: every write it makes reached the index."""

from io import StringIO

import pytest
from django.core.management import call_command

from search.index import rebuild
from search.models import SearchEntry

pytestmark = pytest.mark.django_db

FIELDS = ("campaign_id", "kind", "object_id", "scene_id", "character_id", "secret", "title", "body")


@pytest.fixture(scope="module")
def demo(module_rows):
    with module_rows.unblock():
        call_command("seed_demo", stdout=StringIO())


def test_seed_demo_leaves_the_index_a_rebuild_would_make(demo):
    kept = sorted(SearchEntry.objects.values_list(*FIELDS))
    assert {row[1] for row in kept} >= {"scene", "diary", "character", "roll"}
    out = StringIO()
    call_command("search_rebuild", stdout=out)
    assert sorted(SearchEntry.objects.values_list(*FIELDS)) == kept
    assert out.getvalue() == f"{len(kept)} entries indexed.\n"


def test_rebuilding_one_campaign_leaves_the_others_alone(demo):
    first, *others = sorted({row[0] for row in SearchEntry.objects.values_list("campaign_id")})
    theirs = sorted(SearchEntry.objects.exclude(campaign_id=first).values_list(*FIELDS))
    assert rebuild(campaign_id=first) == SearchEntry.objects.filter(campaign_id=first).count()
    assert sorted(SearchEntry.objects.exclude(campaign_id=first).values_list(*FIELDS)) == theirs
    assert others
