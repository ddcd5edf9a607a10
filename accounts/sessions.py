"""Sessions in the database, as Django keeps them, with the row that every signed-in
request reads loaded by a query written once (`campaigns.compiled`)."""

from __future__ import annotations

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.compiled import compiled_models

# The backend that sessions signed in before `accounts.backends` name: they stay signed in.
EARLIER_BACKEND = "django.contrib.auth.backends.ModelBackend"
BACKEND = "accounts.backends.ModelBackend"


def _session(key: str) -> QuerySet:
    return Session.objects.filter(session_key=key)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        # The key is checked like Django's own (None when it is not a valid one).
        found = compiled_models(_session, key=self.session_key) if self.session_key else []
        # Expiry is compared here rather than in SQL: the query stays the same for every key.
        if found and found[0].expire_date > timezone.now():
            return found[0]
        self._session_key = None
        return None

    def load(self) -> dict:
        data = super().load()
        if data.get(BACKEND_SESSION_KEY) == EARLIER_BACKEND:
            data[BACKEND_SESSION_KEY] = BACKEND
        return data
