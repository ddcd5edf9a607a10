"""The password backend, under the name the project's sessions record
(`accounts.sessions`)."""

from __future__ import annotations

from django.contrib.auth import backends


class ModelBackend(backends.ModelBackend):
    pass
