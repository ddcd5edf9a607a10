"""How a server process hears of changes (live/brokers.py): PostgreSQL's trigger NOTIFYs
each committed change of a campaign's sequences, and the brokers carry committed changes
to a hub's channels, through a lost LISTEN connection too."""

from __future__ import annotations

import asyncio
import contextlib
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections, transaction

from campaigns.models import Campaign
from campaigns.versions import CHANNEL
from live import brokers
from live.brokers import PollBroker, PostgresBroker, configured_broker, conninfo
from live.hub import Hub
from tests.factories import CampaignFactory
from tests.mechanics_web.rolls import store_roll

pytestmark = pytest.mark.django_db(transaction=True)

# How long a change may take to arrive: it comes in milliseconds; this only bounds a hang.
WAIT = 5.0


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's: run under scripts/with-postgres.sh")


def seqs_of(campaign) -> tuple[int, int]:
    """The campaign's (change_seq, public_seq), as committed."""
    return Campaign.objects.values_list("change_seq", "public_seq").get(pk=campaign.pk)


def payload(campaign, seqs: tuple[int, int]) -> str:
    change, public = seqs
    return f"{campaign.pk}:{change}:{public}"


def rolled_back(campaign, user, **kwargs) -> None:
    """A roll stored, then rolled back with its transaction."""
    with contextlib.suppress(RuntimeError), transaction.atomic():
        store_roll(campaign, user, **kwargs)
        raise RuntimeError("rolled back")


def committed(function):
    """`function` run in a thread, as a request would, its connection closed after: its
    writes are committed when it returns (the test is transactional), and no connection
    is left behind."""

    def run(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)


def roll_and_read(campaign, user, **kwargs) -> tuple[int, int]:
    """Store a roll (committed) and return the campaign's sequences after it."""
    store_roll(campaign, user, **kwargs)
    return seqs_of(campaign)


# --- The trigger (PostgreSQL) -----------------------------------------------------------


@pytest.fixture
def listener(postgres, campaign):
    """A connection listening on the channel from after the campaign's setup (its members'
    rows bump it too)."""
    import psycopg

    with psycopg.connect(**conninfo(), autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}")
        yield listening


def heard_until(listening, last: str) -> list[str]:
    """The payloads heard on the channel, up to and including `last`."""
    heard: list[str] = []
    deadline = time.monotonic() + WAIT
    while last not in heard:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no NOTIFY {last!r} on {CHANNEL}; heard {heard}"
        heard += [
            notice.payload
            for notice in listening.notifies(timeout=remaining, stop_after=1)
            if notice.channel == CHANNEL
        ]
    return heard


def assert_one_transaction(heard: list[str], campaign, before, after) -> None:
    """What a committed transaction that took the campaign from `before` to `after` sends:
    its sequences as they grow, every one past `before`, the last one `after`."""
    assert heard[-1] == payload(campaign, after)
    seqs = []
    for text in heard:
        campaign_id, change, public = (int(part) for part in text.split(":"))
        assert campaign_id == campaign.pk, heard
        seqs.append((change, public))
    assert seqs == sorted(set(seqs)), heard
    assert all(seq > before for seq in seqs), heard
    assert all(change <= after[0] and public <= after[1] for change, public in seqs), heard


def elsewhere(function, *args):
    """`function` run and committed on a connection of its own (while this thread's holds
    a transaction open)."""

    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(run).result()


def rename(campaign, name: str) -> tuple[int, int]:
    Campaign.objects.filter(pk=campaign.pk).update(name=name)
    return seqs_of(campaign)


def test_a_committed_roll_notifies_the_campaign_and_its_new_sequences(listener, campaign, gm):
    before = seqs_of(campaign)
    store_roll(campaign, gm, label="Pelea")
    after = seqs_of(campaign)
    # Everyone may see it: both sequences grow.
    assert after == (before[0] + 1, before[1] + 1)
    assert_one_transaction(heard_until(listener, payload(campaign, after)), campaign, before, after)


def test_a_secret_roll_notifies_a_new_change_sequence_alone(listener, campaign, gm):
    before = seqs_of(campaign)
    store_roll(campaign, gm, label="Secreta", secret=True)
    after = seqs_of(campaign)
    assert after == (before[0] + 1, before[1])
    assert heard_until(listener, payload(campaign, after)) == [payload(campaign, after)]


def test_a_change_of_the_campaigns_own_row_is_notified(listener, campaign):
    before = seqs_of(campaign)
    Campaign.objects.filter(pk=campaign.pk).update(name="Otra campaña")
    after = seqs_of(campaign)
    assert after > before
    assert_one_transaction(heard_until(listener, payload(campaign, after)), campaign, before, after)


def test_a_transactions_changes_are_notified_at_its_commit_not_before(listener, campaign, gm):
    other = CampaignFactory(created_by=gm)
    before = seqs_of(campaign)
    with transaction.atomic():
        store_roll(campaign, gm, label="Una")
        store_roll(campaign, gm, label="Otra")
        # Another connection commits meanwhile: its change arrives, and nothing before it.
        fence = payload(other, elsewhere(rename, other, "Entretanto"))
        assert heard_until(listener, fence) == [fence]
    after = seqs_of(campaign)
    assert after == (before[0] + 2, before[1] + 2)
    assert_one_transaction(heard_until(listener, payload(campaign, after)), campaign, before, after)


def test_a_rolled_back_write_notifies_nothing(listener, campaign, gm):
    other = CampaignFactory(created_by=gm)
    before = seqs_of(campaign)
    rolled_back(campaign, gm, label="Deshecha")
    assert seqs_of(campaign) == before
    # A committed change of another campaign after it: notifications come in commit
    # order, so had the rollback sent anything, it would come first.
    fence = payload(other, rename(other, "Después"))
    assert heard_until(listener, fence) == [fence]


# --- The brokers ------------------------------------------------------------------------


def test_the_configured_broker_suits_the_database(settings):
    settings.LIVE_BROKER = ""
    expected = PostgresBroker if connection.vendor == "postgresql" else PollBroker
    assert configured_broker() is expected
    settings.LIVE_BROKER = "poll"
    assert configured_broker() is PollBroker
    settings.LIVE_BROKER = "postgres"
    assert configured_broker() is PostgresBroker


async def until(condition, what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def stopped(hub: Hub) -> None:
    """Stop the hub's broker, and close any connection its reader's thread holds: no test
    leaves one open (PostgreSQL's pool would run dry, the test database could not be
    dropped)."""
    broker = hub.broker
    if broker.task is not None:
        broker.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await broker.task
    await asyncio.get_running_loop().run_in_executor(broker.reader.executor, connections.close_all)
    broker.reader.executor.shutdown()


@pytest.fixture(params=["configured", "poll", "postgres"])
def broker_class(request, settings, transactional_db):
    settings.LIVE_BROKER = ""
    if request.param == "configured":
        return configured_broker()
    if request.param == "postgres" and connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL broker needs PostgreSQL: run under scripts/with-postgres.sh")
    return brokers.BROKERS[request.param]


def test_a_committed_write_advances_the_hub_channel(broker_class, campaign, gm):
    other = CampaignFactory(created_by=gm)

    async def scenario():
        hub = Hub(broker_class, readers=None)
        try:
            change, public = await committed(seqs_of)(campaign)
            channel = hub.open(campaign.pk, change, public)
            changed = channel.changed
            # Another campaign's change, far ahead: it must not reach this channel.
            await committed(Campaign.objects.filter(pk=other.pk).update)(
                change_seq=10_000, public_seq=10_000
            )
            after = await committed(roll_and_read)(campaign, gm, label="Pelea")
            await asyncio.wait_for(changed.wait(), WAIT)
            await until(lambda: (channel.change, channel.public) == after, f"change {after}")
            assert after == (change + 1, public + 1)
            assert (channel.seq(True), channel.seq(False)) == after
            # Whoever waits now waits for the next change.
            assert not channel.changed.is_set()
            assert hub.watched() == [campaign.pk]
            # A secret roll: the change sequence alone grows.
            secret = await committed(roll_and_read)(campaign, gm, label="Secreta", secret=True)
            assert secret == (after[0] + 1, after[1])
            await until(lambda: (channel.change, channel.public) == secret, f"change {secret}")
        finally:
            await stopped(hub)

    asyncio.run(scenario())


def test_a_rolled_back_write_does_not_advance_the_hub_channel(broker_class, campaign, gm):
    async def scenario():
        hub = Hub(broker_class, readers=None)
        news: list[tuple[int, int]] = []
        try:
            change, public = await committed(seqs_of)(campaign)
            channel = hub.open(campaign.pk, change, public)
            advance = channel.advance

            def recording(change, public):
                if change > channel.change or public > channel.public:
                    news.append((change, public))
                advance(change, public)

            channel.advance = recording
            await committed(rolled_back)(campaign, gm, label="Deshecha")
            # A committed change of a second campaign, watched too, after the rollback:
            # once the broker has passed it, it has passed the rollback.
            other = await committed(CampaignFactory)(created_by=gm)
            other_channel = hub.open(other.pk, other.change_seq, other.public_seq)
            await committed(roll_and_read)(other, gm, label="Marca")
            await until(lambda: other_channel.change > other.change_seq, "the marker")
            assert news == []
            assert (channel.change, channel.public) == (change, public)
        finally:
            await stopped(hub)

    asyncio.run(scenario())


# --- The PostgreSQL broker's lost connection ----------------------------------------------


class GatedBroker(PostgresBroker):
    """The PostgreSQL broker, counting its connections; each after the first waits for
    `gate`, so that the test knows a change was committed while nobody listened."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub)
        self.attempts = 0
        self.gate = asyncio.Event()

    async def listen(self) -> None:
        self.attempts += 1
        if self.attempts > 1:
            await self.gate.wait()
        await super().listen()


def listening_backends() -> list[int]:
    """The server processes of this database that LISTEN on the channel, but this one."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND query = %s",
            [f"LISTEN {CHANNEL}"],
        )
        return [pid for (pid,) in cursor.fetchall()]


def terminate(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        return cursor.fetchone()[0]


def test_the_postgres_broker_listens_again_after_losing_its_connection(
    postgres, monkeypatch, campaign, gm
):
    monkeypatch.setattr(brokers, "RETRY_SECONDS", 0.05)

    async def listening_again():
        while len(await committed(listening_backends)()) != 1:
            await asyncio.sleep(0.02)

    async def scenario():
        hub = Hub(GatedBroker, readers=None)
        broker = hub.broker
        try:
            change, public = await committed(seqs_of)(campaign)
            channel = hub.open(campaign.pk, change, public)

            def now():
                return channel.change, channel.public

            # Listening: a change arrives.
            after = await committed(roll_and_read)(campaign, gm, label="Antes")
            await until(lambda: now() == after, f"change {after}")
            [pid] = await committed(listening_backends)()

            # The connection is lost (the database restarted, a proxy timed it out...).
            assert await committed(terminate)(pid)
            await until(lambda: broker.attempts == 2, "the broker to notice its lost connection")
            assert await committed(listening_backends)() == []
            # A change committed while nobody listens: its NOTIFY reaches no one.
            missed = await committed(roll_and_read)(campaign, gm, label="Mientras tanto")
            assert now() == after < missed

            # Connected again, the broker reads the sequences it missed...
            broker.gate.set()
            await until(lambda: now() == missed, f"the missed change {missed}")
            # ...and listens again: the next change arrives as the first did.
            await asyncio.wait_for(listening_again(), WAIT)
            latest = await committed(roll_and_read)(campaign, gm, label="Después")
            await until(lambda: now() == latest, f"change {latest}")
            assert broker.attempts == 2
        finally:
            await stopped(hub)

    asyncio.run(scenario())
