"""Sessions in the database, as Django keeps them, under this project's backend name."""

from __future__ import annotations

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db

# The backend that sessions signed in before `accounts.backends` name: they stay signed in.
EARLIER_BACKEND = "django.contrib.auth.backends.ModelBackend"
BACKEND = "accounts.backends.ModelBackend"


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        data = super().load()
        if data.get(BACKEND_SESSION_KEY) == EARLIER_BACKEND:
            data[BACKEND_SESSION_KEY] = BACKEND
        return data
