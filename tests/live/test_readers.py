"""Who keeps their stream (live/readers.py): checked for all of a process's streams at once,
in three queries however many there are."""

from django.test import Client

from campaigns.models import Membership
from live.readers import Reader, still_readers
from tests.factories import UserFactory


def signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.session.session_key


def test_still_readers_keeps_members_signed_in_and_drops_the_rest(
    campaign, gm, player, observer, stranger, django_assert_num_queries
):
    gm_reader = Reader(signed_in(gm), gm.pk, campaign.pk)
    player_reader = Reader(signed_in(player), player.pk, campaign.pk)
    # Logged out: the session is gone.
    logged_out = Reader("no-such-session", observer.pk, campaign.pk)
    # Not a member (a stranger's own session).
    outsider = Reader(signed_in(stranger), stranger.pk, campaign.pk)
    # Another user's session presented as this one's.
    borrowed = Reader(player_reader.session_key, gm.pk, campaign.pk)
    # A new password: the session's hash no longer matches.
    changed = UserFactory(username="dora")
    Membership.objects.create(campaign=campaign, user=changed, role="player")
    changed_reader = Reader(signed_in(changed), changed.pk, campaign.pk)
    changed.set_password("otra-clave-larga-9")
    changed.save()
    readers = [gm_reader, player_reader, logged_out, outsider, borrowed, changed_reader]
    with django_assert_num_queries(3):
        kept = still_readers(readers)
    assert kept == {gm_reader, player_reader}


def test_a_deactivated_user_loses_the_stream(campaign, player):
    reader = Reader(signed_in(player), player.pk, campaign.pk)
    player.is_active = False
    player.save()
    assert still_readers([reader]) == set()
