from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers


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


class VaryOnHtmxMiddleware:
    """Every URL may answer htmx with a partial and a browser with the whole page, so
    every response varies on HX-Request: the one place that says so to caches."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
