"""Append-only records (rolls, XP entries, health events): written once, never changed.

Corrections are new records. Deleting a whole campaign or character still cascades:
Django's collector deletes rows without going through these methods.
"""

from __future__ import annotations

from django.db import models

MESSAGE = "%s records are append-only: record a correction instead."


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(MESSAGE % self.model._meta.object_name)

    def delete(self):
        raise TypeError(MESSAGE % self.model._meta.object_name)


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError(MESSAGE % type(self).__name__)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(MESSAGE % type(self).__name__)
