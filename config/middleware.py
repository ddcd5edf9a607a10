import gzip
import secrets

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.cache import caches
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpResponse
from django.middleware import gzip as django_gzip
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import render, resolve_url
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from campaigns.fragments import CACHE


class SpanishFirstLocaleMiddleware(LocaleMiddleware):
    """Spanish unless the user chose another language with the switcher.

    The site is for groups that play in Spanish, so the browser's Accept-Language
    does not decide: only the language cookie set by the switcher does.
    """

    def process_request(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = {code for code, _name in settings.LANGUAGES}
        language = chosen if chosen in supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class GZipMiddleware(django_gzip.GZipMiddleware):
    """Django's, compressing a whole response at zlib's fastest level (1, nginx's default
    `gzip_comp_level`) rather than at 6: a GM's sheet of 95 KB costs 0.3 ms instead of
    1.1 ms, for 2 KB more (16 %). Streams are Django's. The same headers and the same
    defence against BREACH: a file name of random length in the gzip header, so lengths
    do not reveal a secret guessed byte by byte (the CSRF token is also masked afresh per
    response). tests/test_gzip.py compares both middlewares' answers."""

    def process_response(self, request, response):
        if response.streaming:
            return super().process_response(request, response)
        if len(response.content) < 200 or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not django_gzip.re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = _compress(response.content, self.max_random_bytes)
        if len(compressed) >= len(response.content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag  # a strong ETag names the plain bytes
        response.headers["Content-Encoding"] = "gzip"
        return response


def _compress(content: bytes, max_random_bytes: int) -> bytes:
    """gzip at level 1, with a file name of 0 to `max_random_bytes` - 1 bytes after the
    10-byte header, as django.utils.text.compress_string writes it."""
    data = gzip.compress(content, compresslevel=1, mtime=0)
    name = b"a" * secrets.randbelow(max_random_bytes) + b"\0"
    return data[:3] + bytes([gzip.FNAME]) + data[4:10] + name + data[10:]


class DeferredFragmentWritesMiddleware:
    """With a shared fragment cache (CACHE_URL), what a request stores in it goes in one
    round trip once its response is ready (`config.cache.RedisFragmentCache`); the
    in-process cache has nothing to gain, and goes without."""

    def __init__(self, get_response):
        if not hasattr(caches[CACHE], "deferred_writes"):
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        with caches[CACHE].deferred_writes():
            return self.get_response(request)


class VaryOnHtmxMiddleware:
    """Every URL may answer htmx with a partial and a browser with the whole page, so
    every response varies on HX-Request: the one place that says so to caches."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


class SignInAgainMiddleware:
    """An htmx request whose session has ended (CRONICA_SESSION_DAYS after signing in) goes
    to the login page as a whole page, and back to the page it came from: htmx would
    otherwise follow login_required's redirect and draw the login page inside a panel."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            request.htmx
            and response.status_code == 302
            and response["Location"].startswith(f"{resolve_url(settings.LOGIN_URL)}?")
        ):
            # The page the user is on, not the partial it asked for; only ours.
            page = request.htmx.current_url_abs_path or "/"
            return HttpResponseClientRedirect(redirect_to_login(page).url)
        return response


class RefuseUnreadableInputMiddleware:
    """400 with a clear message for requests no view can read safely.

    - A body larger than REQUEST_MAX_BYTES (413): refused before it is read. A
      chunked body without a length never reaches a WSGI view whole anyway.

    - A body declared in a charset other than UTF-8: Django would decode it with that
      codec (or fail on an unknown one) and views would see garbage or crash.
    - A NUL character in the path, a query parameter or a form field: no text on the
      site may hold one, and PostgreSQL refuses it in any query, so a lookup such as an
      admin filter or an invitation token would fail with a server error.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = request.META.get("CONTENT_LENGTH") or "0"
        # Before the body is read: a picture is at most 5 MB, and no form needs much more.
        if length.isdigit() and int(length) > settings.REQUEST_MAX_BYTES:
            message = _("The request is larger than %(size)s. Send a smaller picture.")
            size = filesizeformat(settings.REQUEST_MAX_BYTES)
            return _bad_request(request, message % {"size": size}, status=413)
        charset = request.content_params.get("charset") if request.content_params else None
        # Exactly "utf-8", as Django demands of urlencoded forms.
        if charset and charset.strip().lower() != "utf-8":
            message = _("This site reads only UTF-8 text; the request was sent as %(charset)s.")
            return _bad_request(request, message % {"charset": charset[:40]})
        if "\x00" in request.path or _has_nul(request.GET) or _has_nul(request.POST):
            return _bad_request(
                request, _("The request contains a null character, which no text may hold.")
            )
        return self.get_response(request)


def _has_nul(data) -> bool:
    return any("\x00" in key or any("\x00" in value for value in data.getlist(key)) for key in data)


def _bad_request(request, message: str, status: int = 400) -> HttpResponse:
    return render(request, "400.html", {"message": message}, status=status)


# Features the site never uses, refused for it and anything it might embed.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "usb",
        "xr-spatial-tracking",
    )
)


class PrivacyHeadersMiddleware:
    """Permissions-Policy on every response; nothing a logged-in user sees is stored.

    Every page of a logged-in user shows something private (their campaigns, sheets,
    secret rolls), so all their responses, exports included, say `private, no-store`:
    no shared cache keeps them and the browser keeps no copy on disk. Placed before
    whitenoise, static files get the policy but keep their long cache.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response
