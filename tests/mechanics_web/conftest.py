import pytest

from tests.factories import MembershipFactory, UserFactory


@pytest.fixture
def paula(campaign):
    """A second player of the campaign."""
    user = UserFactory(username="paula")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def dora():
    """A user of no campaign, until a test makes her a member."""
    return UserFactory(username="dora")
