from __future__ import annotations

import gc
import os
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.management import create_contenttypes
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models.signals import post_migrate
from django.test import override_settings
from django.utils import translation
from hypothesis import HealthCheck, settings

from campaigns.history import DELETING_GUARD_SQL
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

# Property tests must not depend on the machine's speed: no per-example deadline, and no
# health check that fails because generating data was slow on a loaded machine.
settings.register_profile(
    "cronica", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("cronica")

# A test needs the database when it is marked so or asks, directly or through another
# fixture, for one of these (pytest-django's own database fixtures).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
)


def pytest_addoption(parser):
    parser.addoption(
        "--database-only",
        action="store_true",
        help="run only the tests that use the database (the second database's run: the "
        "others do not depend on which database is configured, and ran in the first)",
    )


def pytest_configure(config):
    """With CACHE_URL (scripts/with-redis.sh), each xdist worker keeps its fragments in a
    Redis database of its own: every test empties the cache, which must not empty the
    cache of a test running beside it, and test databases give the same ids to their rows."""
    from django.conf import settings as django_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw-1")
    if django_settings.CACHE_URL:
        fragments = django_settings.CACHES["fragments"]
        url = urlsplit(fragments["LOCATION"])
        fragments["LOCATION"] = url._replace(path=f"/{int(worker[2:]) + 1}").geturl()


def uses_database(item: pytest.Item) -> bool:
    from django.test import TransactionTestCase

    cls = getattr(item, "cls", None)
    return (
        item.get_closest_marker("django_db") is not None
        or bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))
        or (cls is not None and issubclass(cls, TransactionTestCase))
    )


def pytest_collection_modifyitems(config, items):
    # Browser tests last (xdist hands each worker its tests in this order): Playwright's
    # sync API leaves an event loop running in the worker's thread, after which neither
    # asyncio.run() nor Django's async_to_sync (an async view under the test client) works.
    # Within each group the long tests first: one left for the end keeps a core busy alone.
    items.sort(key=lambda item: (item.get_closest_marker("e2e") is not None, not is_long(item)))
    from django.conf import settings as django_settings

    database_only = config.getoption("--database-only")
    kept, skipped = [], []
    for item in items:
        if item.get_closest_marker("redis") is not None:
            # Where there is a server (scripts/with-redis.sh: the PostgreSQL run).
            wanted = bool(django_settings.CACHE_URL)
        else:
            wanted = not database_only or uses_database(item)
        (kept if wanted else skipped).append(item)
    config.hook.pytest_deselected(items=skipped)
    items[:] = kept


def is_long(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) for name in ("long", "slow"))


def pytest_collection_finish(session):
    """The modules and test items loaded so far live until the end: the cyclic garbage
    collector stops walking them (freeze), and runs a young collection every 50,000 new
    objects rather than 700. 1,667 view tests on SQLite: 149 s of CPU before, 136-141 s after."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Django asks the database once per connection, at its first JSON query, whether it
    supports JSON (three statements on SQLite): asked here, so that no query count
    depends on which test ran first. From here on, a flush puts back the content types
    and permissions `migrate` made (`MigratedRows`)."""
    with django_db_blocker.unblock():
        connection.features.supports_json_field  # noqa: B018
        rows = MigratedRows.read(connection.alias)
    post_migrate.disconnect(create_contenttypes)
    post_migrate.disconnect(dispatch_uid=CREATE_PERMISSIONS)
    post_migrate.connect(rows.after_migrate_or_flush)
    yield
    post_migrate.disconnect(rows.after_migrate_or_flush)
    post_migrate.connect(create_contenttypes)
    post_migrate.connect(create_permissions, dispatch_uid=CREATE_PERMISSIONS)


CREATE_PERMISSIONS = "django.contrib.auth.management.create_permissions"


@dataclass(frozen=True)
class MigratedRows:
    """The content types and permissions `migrate` made, as it made them.

    A transactional test (the browser's) ends with a flush, after which Django makes
    every content type and permission again, one app at a time, in dozens of queries:
    on PostgreSQL a flush took about 170 ms, 75 ms without them. They are put back as
    they were instead, with their ids, in two statements. A real `migrate` (plan given; a flush
    gives none) still runs Django's own receivers."""

    alias: str
    content_types: tuple
    permissions: tuple

    @classmethod
    def read(cls, alias: str) -> MigratedRows:
        return cls(
            alias,
            tuple(ContentType.objects.using(alias).order_by("pk")),
            tuple(Permission.objects.using(alias).order_by("pk")),
        )

    def after_migrate_or_flush(self, sender, **kwargs):
        using = kwargs.get("using", DEFAULT_DB_ALIAS)
        if kwargs.get("plan") is not None or using != self.alias:
            create_contenttypes(**kwargs)
            create_permissions(**kwargs)
        elif sender.label == "contenttypes":  # the signal comes once per app: restore once
            ContentType.objects.clear_cache()
            ContentType.objects.using(using).bulk_create(self.content_types)
            Permission.objects.using(using).bulk_create(self.permissions)
            with connections[using].cursor() as cursor:
                for statement in connections[using].ops.sequence_reset_sql(
                    no_style(), [ContentType, Permission]
                ):
                    cursor.execute(statement)


@pytest.fixture(scope="module")
def module_rows(django_db_setup, django_db_blocker, tmp_path_factory):
    """A transaction open across a module's tests, rolled back after its last: rows that
    take seconds to make (the demo) and that its tests share are made once, through the
    blocker this yields, with the tests' settings. Each test still starts from them as
    they were made: its own writes are rolled back at its end (`db` nests its transaction
    in this one). Not for a module with transactional tests, which must commit."""
    with override_settings(MEDIA_ROOT=_media_root(tmp_path_factory)):
        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
        yield django_db_blocker
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _empty_caches():
    """Each test starts with empty caches: rolled-back rows give their ids to the next
    test's rows, which a cache must not take for the same rows."""
    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: a request in English leaves English active
    in its thread after it (LocaleMiddleware), and a later test's messages would follow."""
    translation.deactivate()


@pytest.fixture(autouse=True)
def _history_flushable(request):
    """A transactional test ends with a flush, DELETE FROM every table on SQLite, in no
    set order. Mark every campaign as being deleted first, as deleting one does, so the
    history triggers let its rolls, XP entries and health events go."""
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and (
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
    )
    if not (transactional or {"transactional_db", "live_server"} & set(request.fixturenames)):
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up first, so flushed after this
    yield
    # Only a campaign's deletion may set the mark: the guard triggers step aside for it.
    create, drop = DELETING_GUARD_SQL.get(connection.vendor, ([], []))
    with connection.cursor() as cursor:
        for statement in drop:
            cursor.execute(statement)
        cursor.execute("UPDATE campaigns_campaign SET deleting = %s", [True])
        for statement in create:
            cursor.execute(statement)


@pytest.fixture(scope="session", autouse=True)
def _session_settings():
    """Settings every test runs with, set once for the whole run: a change of settings
    between two tests would reach the live server's threads too, and a request still
    answering the last test's page could build the static files storage of the settings
    in between (a 500 for the next test's page)."""
    from django.conf import settings as django_settings

    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        # The manifest storage needs collectstatic; tests render templates without it.
        STORAGES={
            **django_settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        yield


def _media_root(tmp_path_factory) -> str:
    """Uploaded portraits go to a folder of each test's (or module's) own, never the
    project's media/."""
    return str(tmp_path_factory.mktemp("media"))


@pytest.fixture(autouse=True)
def _test_media(settings, tmp_path_factory):
    settings.MEDIA_ROOT = _media_root(tmp_path_factory)


@pytest.fixture
def gm(db):
    return UserFactory(username="alice")


@pytest.fixture
def player(db):
    return UserFactory(username="bob")


@pytest.fixture
def stranger(db):
    return UserFactory(username="charlie")


@pytest.fixture
def observer(db):
    return UserFactory(username="olga")


@pytest.fixture
def campaign(gm, player, observer):
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    MembershipFactory(campaign=campaign, user=observer, role="observer")
    return campaign


@pytest.fixture
def player2(campaign):
    """A second player of the campaign."""
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user
