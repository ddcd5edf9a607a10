"""Browser tests: Playwright driving Debian's headless Chromium against the live server."""

import os
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from playwright.sync_api import expect

from tests.ports import free_port

# Playwright's sync API runs an event loop in this thread; the test still talks to the
# database synchronously, which is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's build of Chromium's headless shell, the browser Playwright itself runs headless:
# without the full browser's interface, a browser test costs about a fifth less CPU.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "e2e"
# Every wait is for a condition; the timeout only bounds a failure, so it is generous
# (several poll periods on a loaded machine) and no test asserts how long anything took.
WAIT_MS = 20_000
expect.set_options(timeout=WAIT_MS)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test` to install it")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.failed_call = report.failed
    return report


@pytest.fixture(scope="session")
def _idle_pages(browser, live_server):
    """Pages left clean by earlier tests, by locale. A new page starts a renderer process
    (about a second on a loaded machine); a kept one also keeps its context's cache of the
    static files."""
    idle: dict[str, list] = {}
    yield idle
    for pages in idle.values():
        for page in pages:
            page.context.close()


@pytest.fixture
def new_page(browser, live_server, request, _idle_pages):
    """A page in a browser context of its own (its own cookies) at phone or desktop width."""
    used = []

    def open_page(width: int = 1280, height: int = 900, locale: str = "es-ES"):
        idle = _idle_pages.setdefault(locale, [])
        if idle:
            page = idle.pop()
            page.set_viewport_size({"width": width, "height": height})
        else:
            context = browser.new_context(
                viewport={"width": width, "height": height}, locale=locale, base_url=live_server.url
            )
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
        used.append((locale, page))
        return page

    yield open_page
    for number, (locale, page) in enumerate(used):
        context = page.context
        if getattr(request.node, "failed_call", False):
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for shown in context.pages:
                shown.screenshot(
                    path=str(SCREENSHOTS / f"{request.node.name}--FAILED-{number}.png")
                )
        if page.is_closed() or len(context.pages) != 1:
            context.close()
            continue
        # Nothing of this test reaches the next: no page left polling the server, no
        # cookies (session, language), no emulated media, no request held by a route.
        page.unroute_all(behavior="ignoreErrors")
        page.goto("about:blank")
        page.emulate_media(media="null", color_scheme="null")
        context.clear_cookies()
        _idle_pages[locale].append(page)


@pytest.fixture
def open_as(new_page, live_server):
    """A page already logged in as a user (or username): Django's test client makes the
    session and the browser gets its cookie, two page loads fewer than the login form.
    For every test but the one that logs in through the form (test_roll.py)."""

    def open_page(user, **size):
        if isinstance(user, str):
            user = get_user_model().objects.get(username=user)
        client = Client()
        client.force_login(user)
        page = new_page(**size)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        page.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
        return page

    return open_page


@pytest.fixture
def screenshot(request):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        # JPEG: a full page's PNG took Chromium about a third more CPU to encode (0.42 s
        # against 0.31 s for a GM's sheet at 1280), and a run takes some 250 of them.
        path = SCREENSHOTS / f"{request.node.name}--{name}.jpg"
        page.screenshot(path=str(path), full_page=True, type="jpeg", quality=80)
        return path

    return take


@dataclass(frozen=True)
class AsgiSite:
    url: str
    server: object  # uvicorn.Server

    def wait_until_idle(self) -> None:
        """Until no request is being answered: a test's last request (a roll still being
        written when the page showed what the test waited for) must end before the flush,
        whose TRUNCATE would otherwise deadlock with its locks."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while self.server.server_state.tasks:
            if time.monotonic() > deadline:
                pytest.fail(f"the ASGI server still answers {len(self.server.server_state.tasks)}")
            time.sleep(0.01)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup):
    """The site under uvicorn, as `make run` serves it, in a thread of this process (so
    it uses the test database): the live table's streams need an ASGI server, which
    pytest-django's live server is not. Static files are served as the live server does."""
    import threading

    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        server_header=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            pytest.fail("uvicorn did not start")
        thread.join(0.05)
    with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "127.0.0.1"]):
        yield AsgiSite(f"http://127.0.0.1:{port}", server)
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def open_live(browser, asgi_server, screenshot):
    """A logged-in page on the ASGI server, in a context of its own."""
    contexts = []

    def open_page(user, width=1280, height=900):
        client = Client()
        client.force_login(user)
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale="es-ES", base_url=asgi_server.url
        )
        context.set_default_timeout(WAIT_MS)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": asgi_server.url,
                }
            ]
        )
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    asgi_server.wait_until_idle()
