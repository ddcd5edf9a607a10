"""After the flush that ends a transactional test, the content types and permissions are
back as `migrate` made them (tests/conftest.py `MigratedRows`), and Django's own receivers
would add nothing to them."""

import pytest
from django.apps import apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.management import create_contenttypes
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from campaigns.models import Campaign
from tests.factories import CampaignFactory


def rows() -> tuple[list, list]:
    return (
        list(ContentType.objects.order_by("pk").values_list("pk", "app_label", "model")),
        list(Permission.objects.order_by("pk").values_list("pk", "content_type", "codename")),
    )


@pytest.mark.django_db(transaction=True)
def test_a_flush_puts_back_every_content_type_and_permission_with_its_id():
    before = rows()
    CampaignFactory()
    call_command("flush", interactive=False, verbosity=0)
    assert not Campaign.objects.exists()
    assert rows() == before
    assert ContentType.objects.get_for_model(Campaign).pk in {pk for pk, *_ in before[0]}
    for app_config in apps.get_app_configs():
        create_contenttypes(app_config, verbosity=0)
        create_permissions(app_config, verbosity=0)
    assert rows() == before
    # The sequences follow the ids put back: the next row takes a new one.
    created = ContentType.objects.create(app_label="tests", model="made_after_a_flush")
    assert created.pk > max(pk for pk, *_ in before[0])


@pytest.mark.django_db(transaction=True)
def test_a_migrate_still_runs_djangos_own_receivers():
    ContentType.objects.filter(app_label="campaigns", model="campaign").delete()
    call_command("migrate", verbosity=0)
    assert ContentType.objects.filter(app_label="campaigns", model="campaign").exists()
    assert Permission.objects.filter(codename="change_campaign").exists()
