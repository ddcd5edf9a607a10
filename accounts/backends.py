"""The password backend, under the name the project's sessions record
(`accounts.sessions`)."""

from __future__ import annotations

from django.contrib.auth import backends

from accounts.sessions import SIGNING_IN


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        """The user the request's session row brought, if it is this one (no query);
        Django's otherwise."""
        user = getattr(SIGNING_IN.get(), "user", None)
        if user is None or user.pk != user_id:
            return super().get_user(user_id)
        return user if self.user_can_authenticate(user) else None
