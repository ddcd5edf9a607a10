"""Escaping for the markup the site builds as strings (roll cards, ledger rows, menus):
pieces written hundreds of times a page, where a template's lookups cost more than the
markup itself."""

from __future__ import annotations

from html import escape


def esc(text) -> str:
    """What `conditional_escape` gives, without its checks for lazy text: the parts are
    plain or safe strings (and lazy ones, made plain by `str`)."""
    return text.__html__() if hasattr(text, "__html__") else escape(str(text))
