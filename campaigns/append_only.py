"""Append-only records (rolls, XP entries, health events): written once, never changed.

Corrections are new records. Every new record joins its campaign's history chain
(`campaigns.history`) on the way in. Database triggers refuse what these guards cannot
see (a plain queryset, `_base_manager`, SQL): an UPDATE other than a link set to NULL, and
a DELETE unless the whole campaign is being deleted.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models, router, transaction

from campaigns.history import history_append

MESSAGE = "%s records are append-only: record a correction instead."


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(MESSAGE % self.model._meta.object_name)

    def delete(self):
        raise TypeError(MESSAGE % self.model._meta.object_name)

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        with transaction.atomic(using=self.db, savepoint=False):
            history_append(objs)
            return super().bulk_create(objs, *args, **kwargs)


class AppendOnlyModel(models.Model):
    """Subclasses have a `campaign` foreign key and list the fields their history hash
    covers in HISTORY_FIELDS, and in HISTORY_LINKS the links that deleting their row sets
    to NULL (the hash covers the ids they were written with, kept in `links`)."""

    HISTORY_FIELDS: tuple[str, ...] = ()
    HISTORY_LINKS: tuple[str, ...] = ()

    # The row's place in its campaign's chain and its hashes (campaigns.history).
    chain_seq = models.PositiveIntegerField(editable=False)
    content_hash = models.CharField(max_length=64, editable=False)
    chain_hash = models.CharField(max_length=64, editable=False)
    links = models.JSONField(null=True, editable=False)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError(MESSAGE % type(self).__name__)
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        with transaction.atomic(using=using, savepoint=False):
            history_append([self])
            super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(MESSAGE % type(self).__name__)


def chained_models() -> list[type[AppendOnlyModel]]:
    """Every model whose rows form history chains, by label (whatever app defines it)."""
    found = [model for model in apps.get_models() if issubclass(model, AppendOnlyModel)]
    return sorted(found, key=lambda model: model._meta.label)


def checkpoint(campaign_id: int) -> dict[str, dict[str, dict]]:
    """The tip of each of the campaign's chains, as a backup's manifest keeps them:
    {table: {campaign id: {"length", "head"}}}."""
    tips = {}
    for model in chained_models():
        tip = (
            model._base_manager.filter(campaign_id=campaign_id)
            .order_by("-chain_seq")
            .values_list("chain_seq", "chain_hash")
            .first()
        )
        if tip is not None:
            tips[model._meta.db_table] = {str(campaign_id): {"length": tip[0], "head": tip[1]}}
    return tips
