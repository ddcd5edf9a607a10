"""Browser tests: Playwright driving Debian's headless Chromium against the live server."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

# Playwright's sync API runs an event loop in this thread; the test still talks to the
# database synchronously, which is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
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


@pytest.fixture
def new_page(browser, live_server, request):
    """Open a fresh browser context (its own cookies) at phone or desktop width."""
    contexts = []

    def open_page(width: int = 1280, height: int = 900, locale: str = "es-ES"):
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale, base_url=live_server.url
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for number, context in enumerate(contexts):
        if getattr(request.node, "failed_call", False):
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for page in context.pages:
                page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}--FAILED-{number}.png"))
        context.close()


@pytest.fixture
def screenshot(request):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{request.node.name}--{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
