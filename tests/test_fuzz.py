"""No input makes a server error, and a refused request writes nothing.

Every URL pattern of the resolver, filled with the ids of a small played table (one
campaign of each system, tests/fuzz_site.py), is sent GETs with hostile query parameters
and POSTs of its own forms (read from the site's pages) with hostile values, as the GM,
a player, an observer, a stranger and an anonymous visitor. Hostile means: NUL, lone
surrogates, invisible and right-to-left characters, markup, numbers too large or odd
(26 digits, -0, 1e309, NaN), very long text, bodies declared in other charsets or not
UTF-8 at all, forged ids in the path, tampered sheet files. Each request must answer
below 500; when it is refused (4xx, or a form shown again with its errors) or is a GET,
no table may have gained or lost a row. Each request runs in a savepoint rolled back
afterwards, so every one starts from the same table.
"""

from __future__ import annotations

import copy
import json
import re
import traceback
from urllib.parse import quote

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.fuzz_site import (
    ROLES,
    Route,
    Table,
    build_table,
    data_tables,
    real_values,
    routes,
    row_counts,
)

pytestmark = pytest.mark.django_db

# Examples per route and method for each role: the GM gets past every permission check,
# so most of the depth is theirs; the others are mostly refused early. The admin's pages
# are many and alike: fewer each.
EXAMPLES = {"gm": 3, "player": 2, "observer": 1, "stranger": 1, "anonymous": 1}
ADMIN_EXAMPLES = {"gm": 1, "anonymous": 1}

# Drawn more often: the values that have broken a site like this one before.
SHARP_NUMBERS = ["1" * 26, "9223372036854775808", "-9223372036854775809", "1e309", "NaN",
                 "-0", "99999999999999999999", "2147483648", "-1"]  # fmt: skip
NUMBERS = ["-1e309", "nan", "inf", "-Infinity", "0x1A", "1_000", "１２", "٣", "+5", " 7 ",
           "5.", ".5", "1e3", "0", "1" + "0" * 400, "3.0000000000000001", "0.1e-400",
           "9223372036854775807", "1.5"]  # fmt: skip
SHARP_TEXTS = ["\x00", "\ud800", "9999-12-31", "0001-01-01", "", " ", "x" * 201,
               "<script>alert(1)</script>"]  # fmt: skip
TEXTS = ["a\x00b", "x\udfffy", "\ufeff", "\u202eabc", "\r\n", "\t", "{{ 7|add:7 }}",
         "{% now 'Y' %}", "%(name)s", "%s%n", "' OR '1'='1", "../../etc/passwd", "ñandú",
         "😀😀", "Ａ", "e\u0301", "\x7f", "\x1b[31m", "null", "None", "true", "[]", "{}",
         "2024-02-30", "10000-01-01", "24:00", "|", "a|b|c", "ánimo|", "javascript:alert(1)",
         "//evil.example/", "http://evil.example/", "%00", "%zz", "\u0085", "\u2028",
         "ß" * 3]  # fmt: skip
GENERIC_QUERY = ["page", "after", "before", "format", "kind", "character", "scene", "measure",
                 "story", "q", "o", "p", "next", "date_from", "date_to", "system", "user",
                 "e", "_changelist_filters", "term", "app_label", "model_name", "field_name",
                 "all", "status"]  # fmt: skip
CHARSETS = ["utf-16", "utf-32", "latin-1", "no-such-charset", "utf8"]
# A form shown again with its errors (crispy's and Django's markup, an error message).
ERRORS = re.compile(r"is-invalid|invalid-feedback|errorlist|alert-danger")


def hostile_number() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(SHARP_NUMBERS), st.sampled_from(NUMBERS))


def hostile_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(SHARP_TEXTS),
        st.sampled_from(TEXTS),
        hostile_number(),
        st.text(max_size=30),
        # Lone surrogates among other characters.
        st.text(
            st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.characters(),
            min_size=1,
            max_size=6,
        ),
        st.builds(lambda c, n: c * n, st.sampled_from("xñ😀 \n"), st.sampled_from([5001, 60_001])),
    )


def looks_numeric(kind: str, options: list[str]) -> bool:
    return kind == "number" or (bool(options) and all(o.isdigit() for o in options if o))


def hostile_value(kind: str, options: list[str]) -> st.SearchStrategy[str]:
    """Odd numbers for a field that holds numbers (ids in a menu too), odd text for the
    others; now and then the other kind."""
    if looks_numeric(kind, options) and any(options):
        return st.one_of(hostile_number(), hostile_number(), hostile_text())
    return hostile_text()


def real_value(options: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(options) if options else st.just("")


def encode(text: str, codec: str = "utf-8") -> bytes:
    return text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")


def urlencode(pairs: list[tuple[str, str]], codec: str = "utf-8") -> str:
    return "&".join(f"{quote(encode(k, codec))}={quote(encode(v, codec))}" for k, v in pairs)


def multipart(pairs: list[tuple[str, str]], files: list[tuple[str, bytes]]) -> bytes:
    boundary = b"fuzzfrontera"
    parts = []
    for name, value in pairs:
        parts.append(
            b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + encode(name)
            + b'"\r\n\r\n' + encode(value) + b"\r\n"
        )  # fmt: skip
    for name, content in files:
        parts.append(
            b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + encode(name)
            + b'"; filename="ficha.json"\r\nContent-Type: application/json\r\n\r\n'
            + content + b"\r\n"
        )  # fmt: skip
    return b"".join(parts) + b"--" + boundary + b"--\r\n"


def sheet_file(export: dict) -> st.SearchStrategy[bytes]:
    """A sheet file: the real export with one value made hostile, or not JSON at all."""
    odd = st.one_of(
        hostile_text(),
        st.sampled_from([float("nan"), float("inf"), 10**30, -(10**30), -0.0, 1e308, None, True]),
        st.sampled_from([[], {}, [[[[]]]], {"": ""}, ["x"] * 500]),
    )

    def tamper(data: dict, key: str, value, row: int) -> bytes:
        data = copy.deepcopy(data)
        target = data
        if isinstance(data.get(key), list) and data[key]:
            rows = data[key]
            target = rows[row % len(rows)] if isinstance(rows[row % len(rows)], dict) else data
            key = sorted(target)[row % len(target)] if target is not data else key
        target[key] = value
        return json.dumps(data, ensure_ascii=True).encode()

    keys = sorted(export) or ["name"]
    return st.one_of(
        st.builds(tamper, st.just(export), st.sampled_from(keys), odd, st.integers(0, 50)),
        st.sampled_from(
            [
                b"",
                b"\xff\xfe{",
                b"[" * 100_000,
                b"{" * 50_000,
                b"\x00" * 10,
                json.dumps(export).encode("utf-16"),
                b'{"format": NaN}',
            ]
        ),
    )


class Walker:
    """Sends one route's hostile requests as one role and says what went wrong."""

    def __init__(self, table: Table):
        self.table = table
        self.systems = sorted(table.campaigns)
        self.tables = data_tables()
        self.baseline = row_counts(self.tables)
        self.clients = {}
        for role in ROLES:
            client = Client(raise_request_exception=False)
            if table.users[role] is not None:
                client.force_login(table.users[role])
            self.clients[role] = client
        self.problems: list[str] = []

    def path(self, data, route: Route, system: str) -> str:
        """The route filled with this campaign's ids; one time in four, one parameter
        is forged instead: another campaign's id, an id no row has, odd text."""
        real = real_values(self.table, route, system)
        values = {
            name: data.draw(st.sampled_from(options), label=name) for name, options in real.items()
        }
        if real and data.draw(st.integers(0, 3), label="forge the path") == 0:
            converter, name = data.draw(st.sampled_from(route.params), label="forged")
            if converter == "id":
                others = [
                    value
                    for other in self.systems
                    if other != system
                    for value in self.table.ids[other].get(name, [])
                ]
                odd = ["0", "9223372036854775807", "9999999999999999999", "0000000000000000001"]
                values[name] = data.draw(st.sampled_from(others + odd), label=name)
            else:
                text = data.draw(hostile_text(), label=name)
                values[name] = quote(encode(text), safe="")
        return route.fill(values)

    def get(self, data, role: str, route: Route) -> None:
        system = data.draw(st.sampled_from(self.systems), label="system")
        path = self.path(data, route, system)
        known = self.table.queries.get(route.route, {})
        names = sorted(known) + GENERIC_QUERY
        chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3), label="query")
        pairs = []
        for index, name in enumerate(chosen):
            options = sorted(known.get(name, []))
            # The first parameter is the hostile one; the others mostly what the site sends.
            if index == 0 or data.draw(st.integers(0, 3), label="hostile") == 0:
                value = data.draw(hostile_value("", options), label=name)
            else:
                value = data.draw(real_value(options), label=name)
            pairs.append((name, value))
        codec = data.draw(st.sampled_from(["utf-8"] * 6 + ["latin-1"]), label="codec")
        htmx = data.draw(st.booleans(), label="htmx")
        self.send(role, "GET", f"{path}?{urlencode(pairs, codec)}", htmx=htmx)

    def post(self, data, role: str, route: Route) -> None:
        """One of the route's forms with its own values but for one hostile field (so the
        hostile value gets past the others' checks), sometimes a field dropped, sent
        twice or added, in a body that is now and then not UTF-8 or says another charset."""
        system = data.draw(st.sampled_from(self.systems), label="system")
        path = self.path(data, route, system)
        specs = self.table.forms.get(route.route, [])
        fields = data.draw(st.sampled_from(specs), label="form").fields if specs else []
        target = data.draw(st.integers(0, len(fields)), label="hostile field")
        pairs, files = [], []
        for index, (name, kind, options) in enumerate(fields):
            if kind == "file":
                files.append((name, data.draw(sheet_file(self.table.export), label=name)))
                continue
            how = data.draw(st.sampled_from(["keep"] * 8 + ["drop", "twice"]), label=name)
            for _time in range({"keep": 1, "drop": 0, "twice": 2}[how]):
                chosen = hostile_value(kind, options) if index == target else real_value(options)
                pairs.append((name, data.draw(chosen, label=name)))
        if target == len(fields):
            extra = data.draw(st.sampled_from([*GENERIC_QUERY, "name", "action", "amount"]))
            pairs.append((extra, data.draw(hostile_text(), label="extra")))
        htmx = data.draw(st.booleans(), label="htmx")
        body_kind = data.draw(
            st.sampled_from(["form"] * 6 + ["multipart", "charset", "not utf-8"]), label="body"
        )
        if files or body_kind == "multipart":
            body = multipart(pairs, files)
            content_type = "multipart/form-data; boundary=fuzzfrontera"
        elif body_kind == "charset":
            charset = data.draw(st.sampled_from(CHARSETS), label="charset")
            codec = charset if charset in ("utf-16", "utf-32", "latin-1") else "utf-8"
            body = encode(urlencode(pairs), codec)
            content_type = f"application/x-www-form-urlencoded; charset={charset}"
        elif body_kind == "not utf-8":
            body = "&".join(f"{k}={v}" for k, v in pairs).encode("latin-1", "replace")
            content_type = "application/x-www-form-urlencoded"
        else:
            body = urlencode(pairs).encode()
            content_type = "application/x-www-form-urlencoded"
        self.send(role, "POST", path, body=body, content_type=content_type, htmx=htmx)

    def send(self, role, method, path, *, body=b"", content_type="", htmx=False) -> None:
        client = self.clients[role]
        cookies = copy.deepcopy(client.cookies)
        for cache in caches.all():
            cache.clear()
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with transaction.atomic():
            response = client.generic(method, path, body, content_type=content_type, **extra)
            status = response.status_code
            where = f"{role} {method} {path[:300]!r} ({content_type})"
            assert status < 500, f"{where}: {status}\n{_traceback(response)}"
            # A streamed export is read to its end: an error half-way is an error too.
            content = (
                b"".join(response.streaming_content) if response.streaming else response.content
            )
            refused = status >= 400 or (
                status == 200 and ERRORS.search(content.decode(errors="replace"))
            )
            if method == "GET" or refused:
                counts = row_counts(self.tables)
                changed = {
                    t: (self.baseline[t], n) for t, n in counts.items() if n != self.baseline[t]
                }
                assert not changed, f"{where}: {status}, rows written: {changed}"
            transaction.set_rollback(True)
        client.cookies = cookies

    def walk(self, route: Route, method: str, role: str, examples: int) -> None:
        @settings(
            max_examples=examples,
            database=None,
            phases=[Phase.generate, Phase.shrink],
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.data())
        def run(data):
            getattr(self, method)(data, role, route)

        try:
            run()
        except Exception as error:  # a failed check, or an error reading the answer
            notes = "\n".join(getattr(error, "__notes__", []))
            self.problems.append(f"{route.name}: {error}\n{notes}")


def _traceback(response) -> str:
    info = getattr(response, "exc_info", None)
    if not info:
        return ""
    return "".join(traceback.format_exception(*info))[-3000:]


@pytest.mark.long
@pytest.mark.parametrize("half", [0, 1])
def test_no_hostile_request_is_a_server_error_or_a_partial_write(half):
    """Every other route in each half: two workers share the walk, the longest test."""
    walker = Walker(build_table())
    for route in routes()[half::2]:
        budget = ADMIN_EXAMPLES if route.is_admin else EXAMPLES
        for role, examples in budget.items():
            for method in ("get", "post"):
                walker.walk(route, method, role, examples)
    # The pages were read: most routes have forms to post or parameters to send.
    assert len(walker.table.forms) > 40
    assert len(walker.table.queries) > 10
    assert walker.problems == [], "\n\n".join(walker.problems)
