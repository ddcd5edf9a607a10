"""Sessions in the database, as Django keeps them, each with the user it is signed in as.

A session's row holds its user's id, written from its data at every save, so a request
reads its session and its user in one query: the store keeps the user its row brought,
and the password backend (`accounts.backends`) takes it from there while Django's
`get_user` checks it as ever (still active, the password's hash unchanged).
"""

from __future__ import annotations

from contextvars import ContextVar

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.auth import middleware as auth_middleware
from django.contrib.sessions.backends import db
from django.utils.functional import SimpleLazyObject

from accounts.models import Session

# The backend that sessions signed in before `accounts.backends` name: they stay signed in.
EARLIER_BACKEND = "django.contrib.auth.backends.ModelBackend"
BACKEND = "accounts.backends.ModelBackend"
# The session of the request whose user Django's `get_user` is reading, for the backend.
SIGNING_IN: ContextVar[SessionStore | None] = ContextVar("signing_in", default=None)


class SessionStore(db.SessionStore):
    # The user the session's row brought (None: signed out, or not read yet).
    user = None

    @classmethod
    def get_model_class(cls):
        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        user_id = data.get(SESSION_KEY)
        session.user_id = int(user_id) if str(user_id).isdigit() else None
        return session

    def _get_session_from_db(self):
        session = super()._get_session_from_db()
        self.user = session.user if session is not None else None
        return session

    def load(self) -> dict:
        data = super().load()
        if data.get(BACKEND_SESSION_KEY) == EARLIER_BACKEND:
            data[BACKEND_SESSION_KEY] = BACKEND
        return data


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, whose `request.user` takes the user the session's row brought."""

    def process_request(self, request) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: signed_in_user(request))


def signed_in_user(request):
    """Django's `get_user`, with this request's session at hand for the backend."""
    token = SIGNING_IN.set(request.session)
    try:
        return auth_middleware.get_user(request)
    finally:
        SIGNING_IN.reset(token)
