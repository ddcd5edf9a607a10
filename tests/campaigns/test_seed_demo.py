from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from campaigns.models import Campaign, Membership, System

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_one_campaign_per_system_with_a_gm_and_two_players():
    call_command("seed_demo", stdout=StringIO())
    assert sorted(Campaign.objects.values_list("system", flat=True)) == sorted(System.values)
    for campaign in Campaign.objects.all():
        roles = sorted(campaign.memberships.values_list("role", flat=True))
        assert roles == ["gm", "player", "player"]
    assert User.objects.get(username="master").check_password("cronica-demo")


def test_seed_demo_is_idempotent():
    call_command("seed_demo", stdout=StringIO())
    counts = (User.objects.count(), Campaign.objects.count(), Membership.objects.count())
    call_command("seed_demo", stdout=StringIO())
    assert (User.objects.count(), Campaign.objects.count(), Membership.objects.count()) == counts
