"""Rendered fragments kept in the cache, keyed by everything they show.

A fragment's key is a digest of its *inputs*: the rows it renders (their field values,
not just their ids), who is looking and with which rights, and the language. A write
changes a row, so the next request computes another key and renders afresh: there is
nothing to invalidate, and a fragment can only be served to a request that would have
rendered the very same HTML. Each process keeps its own cache (LocMem), which is safe for
the same reason.

Forms inside a fragment carry a CSRF token, which belongs to one browser: fragments are
rendered with a placeholder instead, and each response gets its own masked token.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Hashable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import models
from django.db.models import QuerySet, Value
from django.db.models.functions import JSONObject
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from campaigns.append_only import AppendOnlyModel
from campaigns.compiled import compiled_values

CACHE = "fragments"
# Never a real token (those are letters and digits only), so it cannot clash with one.
CSRF_PLACEHOLDER = "~csrf-token~"
# Set on the request while a fragment that holds other fragments renders for the cache.
NESTED = "rendering_cached_fragment"
TOKEN = "fragments_csrf_token"


def row_state(row: models.Model | None) -> tuple:
    """Everything a row holds: its model and every concrete field's value."""
    if row is None:
        return (None,)
    meta = row._meta
    return (meta.label, *(field.value_from_object(row) for field in meta.concrete_fields))


def rows_state_query(build: Callable[..., list[QuerySet]], *, using="default", **ids) -> tuple:
    """The state of every row of the querysets `build(**ids)` returns, read in one query.

    Loading rows as model instances only to key a fragment by them costs more than the
    fragment saves; this reads each row as one JSON object (its model and every field
    that can change: all concrete fields, or the id and links of an append-only record)
    in a UNION ALL that the ORM writes once per process and database, run after that with
    the ids alone. Like `row_state` for each row, any change to a row changes the
    result."""
    return rows_state_parts((build,), using=using, **ids)[0]


def rows_state_parts(
    builds: tuple[Callable[..., list[QuerySet]], ...], *, using="default", **ids
) -> list[tuple]:
    """`rows_state_query` of several builds in one query: a state per build, for a
    fragment made of parts cached apart."""
    parts: list[list] = [[] for _build in builds]
    for part, state in compiled_values(_state_query(builds), using=using, **ids):
        parts[part].append(state)
    return [tuple(sorted(states)) for states in parts]


def linked_rows(queryset: QuerySet, *links: str) -> list[QuerySet]:
    """For a `rows_state_query` build: the rows that the foreign keys `links` of the rows
    of `queryset` point at (the characters and users a list of events names)."""
    meta = queryset.model._meta
    return [
        meta.get_field(link).related_model._default_manager.filter(pk__in=queryset.values(link))
        for link in links
    ]


@functools.cache
def _state_query(builds: tuple[Callable[..., list[QuerySet]], ...]) -> Callable[..., QuerySet]:
    """The build of `rows_state_parts`: every row of the builds' querysets as the number
    of its build and one JSON object, in a UNION ALL."""

    def union(**ids) -> QuerySet:
        querysets = [
            queryset.order_by().values_list(
                Value(part),
                JSONObject(
                    _model=Value(queryset.model._meta.label),
                    **{
                        field.attname: field.attname for field in _changeable_fields(queryset.model)
                    },
                ),
            )
            for part, build in enumerate(builds)
            for queryset in build(**ids)
        ]
        return querysets[0].union(*querysets[1:], all=True).order_by()

    return union


def _changeable_fields(model: type[models.Model]) -> list:
    """The fields whose value can differ between two reads of one row: every concrete
    field, but only the primary key and the links of an append-only record, which the
    database lets change in nothing else (`campaigns.append_only`)."""
    fields = model._meta.concrete_fields
    if issubclass(model, AppendOnlyModel):
        return [field for field in fields if field.primary_key or field.is_relation]
    return fields


def fragment_key(name: str, *parts: object) -> str:
    """The cache key of fragment `name` for these inputs, the active language and the
    release (a deploy never serves what older templates rendered)."""
    inputs = (parts, get_language(), settings.CRONICA_RELEASE)
    digest = hashlib.blake2b(repr(inputs).encode(), digest_size=20)
    return f"{name}:{digest.hexdigest()}"


def viewer(access) -> tuple:
    """Who looks, for a key: their membership and role (a `CampaignAccess`). A change of
    role bumps the campaign's version too; the id keeps members' fragments apart."""
    return (access.membership.pk, access.membership.user_id, access.membership.role)


def cached_pieces(
    keys: dict[Hashable, str], render: Callable[[list], dict], *, timeout: int
) -> dict[Hashable, Any]:
    """The pieces of a list cached apart, one per item: `keys` maps each item to its
    cache key. Those in the cache come in one `get_many`; `render(missing items)` gives
    the others (`{item: piece}`), stored in one `set_many`."""
    cache = caches[CACHE]
    cached = cache.get_many(keys.values())
    rendered = render([item for item, key in keys.items() if key not in cached])
    if rendered:
        cache.set_many({keys[item]: piece for item, piece in rendered.items()}, timeout)
    return {item: cached[key] if key in cached else rendered[item] for item, key in keys.items()}


def _token(request: HttpRequest) -> str:
    """The response's CSRF token for every fragment in it: masked once per request, not
    once per fragment (each masking draws 32 random characters)."""
    token = getattr(request, TOKEN, None)
    if token is None:
        token = get_token(request)
        setattr(request, TOKEN, token)
    return token


def cached_html(request: HttpRequest, key: str) -> SafeString | None:
    """The fragment stored under `key` with this request's CSRF token, or None."""
    html = caches[CACHE].get(key)
    if html is None:
        return None
    return mark_safe(html.replace(CSRF_PLACEHOLDER, _token(request)))


def cached_fragment(
    request: HttpRequest, key: str, render: Callable[[dict], str], *, timeout: int = 3600
) -> SafeString:
    """The fragment cached under `key`, or `render(extra_context)` stored there.

    `render` receives the context to add (`csrf_token`: the placeholder) and returns HTML.
    """
    cache = caches[CACHE]
    html = cache.get(key)
    if html is None:
        html = str(render({"csrf_token": CSRF_PLACEHOLDER}))
        cache.set(key, html, timeout)
    # Inside a fragment being rendered for the cache, the placeholder stays for the outer one.
    if CSRF_PLACEHOLDER in html and not getattr(request, NESTED, False):
        html = html.replace(CSRF_PLACEHOLDER, _token(request))
    return mark_safe(html)  # rendered by our templates, which escaped it
