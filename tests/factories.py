import factory
from django.contrib.auth.models import User

from campaigns.models import Campaign, Invitation, Membership, Role

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

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


def backdate(record, when) -> None:
    """Set created_at on an append-only record, as rows committed at that time would have.

    Tests only: the site never changes these rows (their manager refuses updates).
    """
    from django.db.models import QuerySet

    QuerySet(type(record)).filter(pk=record.pk).update(created_at=when)


def campaign_with(system: str, gm, *, players=(), observers=(), **fields):
    """A campaign of `system` run by `gm`, with these players and observers as members."""
    campaign = CampaignFactory(system=system, created_by=gm, **fields)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    for user in players:
        MembershipFactory(campaign=campaign, user=user, role="player")
    for user in observers:
        MembershipFactory(campaign=campaign, user=user, role="observer")
    return campaign
