from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from campaigns.models import Campaign
from mechanics.systems.registry import all_systems

pytestmark = pytest.mark.django_db


def test_seed_demo_for_one_system_seeds_its_campaign_alone_and_the_rest_can_follow():
    call_command("seed_demo", system=["hitos"], stdout=StringIO())
    hitos = Campaign.objects.get()
    assert hitos.system == "hitos"
    assert hitos.characters.count() == 2
    assert hitos.stories.exists()
    call_command("seed_demo", "--system", "ndp", "--system", "objetivo", stdout=StringIO())
    assert sorted(Campaign.objects.values_list("system", flat=True)) == [
        "hitos",
        "ndp",
        "objetivo",
    ]
    call_command("seed_demo", stdout=StringIO())
    assert Campaign.objects.count() == len(all_systems())
    assert Campaign.objects.get(system="hitos") == hitos
    assert hitos.characters.count() == 2


def test_seed_demo_refuses_a_system_it_does_not_know():
    with pytest.raises(CommandError, match="nosuch"):
        call_command("seed_demo", "--system", "nosuch", stdout=StringIO())
    assert not Campaign.objects.exists()
