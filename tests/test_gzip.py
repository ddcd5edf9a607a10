"""The site's GZipMiddleware (config.middleware) answers as Django's does, but for the
compression level: the same headers, the same body once decompressed, the same defence
against BREACH, the same responses left alone."""

from __future__ import annotations

import gzip
import random

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.test import RequestFactory

from config.middleware import GZipMiddleware

NOISE = random.Random(3).randbytes(4096)  # more bytes once compressed
PAGE = ("<p>Tirada de Destreza + Atletismo: 3 éxitos</p>\n" * 200).encode()


def _response(kind: str) -> HttpResponse:
    if kind == "page":
        response = HttpResponse(PAGE)
        response["ETag"] = '"v1"'
        return response
    if kind == "short":
        return HttpResponse(b"<p>Hola</p>")
    if kind == "encoded":
        response = HttpResponse(PAGE)
        response["Content-Encoding"] = "br"
        return response
    if kind == "incompressible":
        return HttpResponse(NOISE)
    if kind == "stream":
        return StreamingHttpResponse(iter([PAGE[:3000], PAGE[3000:]]))
    raise AssertionError(kind)


def _answer(middleware_class, kind: str, accept: str):
    request = RequestFactory().get("/", headers={"accept-encoding": accept} if accept else {})
    response = middleware_class(lambda request: _response(kind))(request)
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Encoding") == "gzip":
        content = gzip.decompress(content)
    headers = {k: v for k, v in response.headers.items() if k != "Content-Length"}
    return headers, content


@pytest.mark.parametrize("accept", ["gzip, deflate, br", "br", ""])
@pytest.mark.parametrize("kind", ["page", "short", "encoded", "incompressible", "stream"])
def test_the_answer_is_djangos_but_for_the_level(kind, accept):
    assert _answer(GZipMiddleware, kind, accept) == _answer(DjangoGZipMiddleware, kind, accept)


def test_a_page_is_compressed_at_the_fastest_level_with_a_name_of_random_length():
    request = RequestFactory().get("/", headers={"accept-encoding": "gzip"})
    middleware = GZipMiddleware(lambda request: _response("page"))
    bodies = [middleware(request).content for _ in range(20)]
    for body in bodies:
        assert body[3] == gzip.FNAME
        assert body[8] == 4  # XFL: "compressor used fastest algorithm" (RFC 1952)
        assert gzip.decompress(body) == PAGE
    assert len(set(map(len, bodies))) > 5, "the lengths vary from response to response"
