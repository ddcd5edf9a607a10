"""The password backend, with the user that every signed-in request loads read by a query
written once (`campaigns.compiled`)."""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model
from django.db.models import QuerySet

from campaigns.compiled import compiled_models


def _user(user: int) -> QuerySet:
    return get_user_model()._default_manager.filter(pk=user)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        try:
            found = compiled_models(_user, user=int(user_id))
        except (TypeError, ValueError):
            return None
        if not found or not self.user_can_authenticate(found[0]):
            return None
        return found[0]
