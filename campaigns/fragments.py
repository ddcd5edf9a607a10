"""Rendered fragments kept in the cache, keyed by the versions of what they show.

A fragment's key holds the versions of the rows it shows (`campaigns.versions`: the
database bumps them at every write, in the same transaction), who is looking, the
language and the release. A write changes a version, so the next request computes another
key and renders afresh: there is nothing to invalidate. Append-only rows (roll cards,
XP entries) are keyed by their id and the names they show.

Forms inside a fragment carry a CSRF token, which belongs to one browser: fragments are
rendered with a placeholder instead, and each response gets its own masked token.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import caches
from django.db import models
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

if TYPE_CHECKING:
    from campaigns.permissions import CampaignAccess

CACHE = "fragments"
# Never a real token (those are letters and digits only), so it cannot clash with one.
CSRF_PLACEHOLDER = "~csrf-token~"
# Set on the request while a fragment that holds other fragments renders for the cache.
NESTED = "rendering_cached_fragment"
TOKEN = "fragments_csrf_token"
# What this request's `cached_htmls` read, found or not (None), so that `cached_fragment`
# does not ask the cache again: one round trip per view to a shared cache, not per piece.
READ = "fragments_read"


def row_state(row: models.Model | None) -> tuple:
    """Everything a row holds: its model and every concrete field's value."""
    if row is None:
        return (None,)
    meta = row._meta
    return (meta.label, *(field.value_from_object(row) for field in meta.concrete_fields))


def fragment_key(name: str, *parts: object) -> str:
    """The cache key of fragment `name` for these inputs, the active language and the
    release (a deploy never serves what older templates rendered)."""
    inputs = (parts, get_language(), settings.CRONICA_RELEASE)
    digest = hashlib.blake2b(repr(inputs).encode(), digest_size=20)
    return f"{name}:{digest.hexdigest()}"


def viewer(access: CampaignAccess) -> tuple:
    """Who looks, for a key: their membership and role (a `CampaignAccess`). A change of
    role bumps the campaign's version too; the id keeps members' fragments apart."""
    return (access.membership.pk, access.membership.user_id, access.membership.role)


def cached_value(key: str, compute: Callable[[], Any], *, timeout: int = 3600) -> Any:
    """What `compute()` gives, kept under `key` (a `fragment_key` of the versions it is
    computed from): data a page reads, rather than HTML."""
    cache = caches[CACHE]
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, timeout)
    return value


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


def read_rest(rows: dict[int, models.Model], fields: tuple[str, ...]) -> None:
    """Set `fields` on the rows a list loaded with its keys' fields only (ids to rows of
    one model), for the pieces not cached: one query of plain values, rather than the
    rows again with their relations."""
    if not rows:
        return
    model = type(next(iter(rows.values())))
    rest = model._default_manager.filter(pk__in=list(rows)).order_by()
    for pk, *values in rest.values_list("pk", *fields):
        for field, value in zip(fields, values, strict=True):
            setattr(rows[pk], field, value)


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
    return cached_htmls(request, [key]).get(key)


def cached_htmls(request: HttpRequest, keys: list[str]) -> dict[str, SafeString]:
    """The fragments stored under these keys, read in one `get_many` (one round trip to a
    shared cache), each with this request's CSRF token; those not stored are left out."""
    found = caches[CACHE].get_many(keys) if keys else {}
    request.__dict__.setdefault(READ, {}).update({key: found.get(key) for key in keys})
    token = _token(request) if found else ""
    return {key: mark_safe(html.replace(CSRF_PLACEHOLDER, token)) for key, html in found.items()}


def cached_fragment(
    request: HttpRequest, key: str, render: Callable[[dict], str], *, timeout: int = 3600
) -> SafeString:
    """The fragment cached under `key`, or `render(extra_context)` stored there.

    `render` receives the context to add (`csrf_token`: the placeholder) and returns HTML.
    """
    read = getattr(request, READ, {})
    html = read[key] if key in read else caches[CACHE].get(key)
    if html is None:
        html = str(render({"csrf_token": CSRF_PLACEHOLDER}))
        caches[CACHE].set(key, html, timeout)
        read[key] = html
    # Inside a fragment being rendered for the cache, the placeholder stays for the outer one.
    if CSRF_PLACEHOLDER in html and not getattr(request, NESTED, False):
        html = html.replace(CSRF_PLACEHOLDER, _token(request))
    return mark_safe(html)  # rendered by our templates, which escaped it
