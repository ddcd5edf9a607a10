"""Addresses of the rows of a list, reversed once for the whole list."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

# An id no row has, which an address reversed once is written with and each row's replaces.
_SOME_ID = 987654321


def addresses(name: str, *args: object) -> Callable[[object], str]:
    """`reverse(name, args=[*args, row])` for any row (an id or a key), the address
    reversed once: a list shows dozens of rows, each with its own."""
    pattern = reverse(name, args=[*args, _SOME_ID])
    return lambda row: pattern.replace(f"/{_SOME_ID}/", f"/{row}/")
