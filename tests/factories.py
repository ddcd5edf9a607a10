from contextlib import contextmanager

import factory
from django.contrib.auth.models import User

from campaigns.models import Campaign, Invitation, Membership, Role

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaña {n}")
    description = "Una campaña de prueba."
    system = "tinieblas"
    created_by = factory.SubFactory(UserFactory)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.PLAYER


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    campaign = factory.SubFactory(CampaignFactory)
    role = Role.PLAYER


def make_character(campaign, owner=None, *, name="Lucía", user=None, **kwargs):
    """A complete sheet made the way the site makes one (through the service)."""
    from characters.services import character_create

    return character_create(
        campaign=campaign,
        user=user or owner or campaign.created_by,
        owner=owner,
        name=name,
        is_npc=owner is None,
        **kwargs,
    )


@contextmanager
def backdated(when):
    """Rolls, XP entries and health events made inside get `when` as their time, as rows
    committed then would have. Their time cannot change afterwards: the database refuses
    it, and the history hash covers it."""
    from characters.models import XpEntry
    from mechanics.models import HealthEvent, Roll

    fields = [model._meta.get_field("created_at") for model in (Roll, XpEntry, HealthEvent)]
    saved = [field.default for field in fields]
    for field in fields:
        field.default = lambda: when
        field.__dict__.pop("_get_default", None)  # Field caches the default's callable
    try:
        yield
    finally:
        for field, default in zip(fields, saved, strict=True):
            field.default = default
            field.__dict__.pop("_get_default", None)


def campaign_with(system: str, gm, *, players=(), observers=(), **fields):
    """A campaign of `system` run by `gm`, with these players and observers as members."""
    campaign = CampaignFactory(system=system, created_by=gm, **fields)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    for user in players:
        MembershipFactory(campaign=campaign, user=user, role="player")
    for user in observers:
        MembershipFactory(campaign=campaign, user=user, role="observer")
    return campaign
