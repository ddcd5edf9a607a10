"""axe-core on every kind of page, as a player and as the GM, in light and dark mode; and no
console error on any of them.

axe-core ships in tests/e2e/vendor/ (from its npm package, with its licence): nothing is
fetched. A page passes when axe finds no WCAG 2.0/2.1 A or AA violation.
"""

import json
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from campaigns.models import Campaign
from characters.models import Character
from tests.e2e.played import PASSWORD, played_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def pages(campaigns: dict, gm: bool) -> list[tuple[str, str]]:
    """(name, URL) of every kind of page a member opens: those a system shapes for each
    system, the others (the chronicle, the roll log, the free roller...) once."""
    found = [("dashboard", reverse("campaigns:list"))]
    for system, (campaign, scene, character) in campaigns.items():
        c = campaign.pk
        found += [
            (f"{system} campaign", reverse("campaigns:detail", args=[c])),
            (f"{system} sheet", reverse("characters:sheet", args=[c, character.pk])),
            (f"{system} roll page", reverse("mechanics:roll", args=[c, character.pk])),
            (f"{system} health", reverse("mechanics:health", args=[c, character.pk])),
            (f"{system} character XP", reverse("characters:xp", args=[c, character.pk])),
            (f"{system} creation", reverse("characters:create", args=[c])),
            (f"{system} XP log", reverse("characters:xp_log", args=[c])),
            (f"{system} combat", reverse("mechanics:combat", args=[c, scene.pk])),
        ]
        if gm:
            found += [
                (f"{system} GM rolls", reverse("mechanics:gm_roll", args=[c])),
                (f"{system} scene XP", reverse("characters:scene_xp", args=[c, scene.pk])),
            ]
    campaign, scene, character = next(iter(campaigns.values()))
    c, s, ch = campaign.pk, scene.pk, character.pk
    found += [
        ("scene", reverse("campaigns:scene", args=[c, s])),
        ("chronicle", reverse("campaigns:timeline", args=[c])),
        ("roll log", reverse("mechanics:log", args=[c])),
        ("sheet history", reverse("characters:history", args=[c, ch])),
        ("saved rolls", reverse("mechanics:saved_rolls", args=[c, ch])),
        ("health history", reverse("mechanics:health_history", args=[c, ch])),
        ("password change", reverse("password_change")),
    ]
    hitos, hitos_scene, _ = campaigns["hitos"]
    found.append(("hitos scene tools", reverse("hitos:scene", args=[hitos.pk, hitos_scene.pk])))
    if gm:
        objetivo = campaigns["objetivo"][0]
        found += [
            ("free roller", reverse("mechanics:free_roll", args=[c])),
            ("campaign form", reverse("campaigns:edit", args=[c])),
            ("member forms", reverse("campaigns:members", args=[c])),
            ("campaign creation", reverse("campaigns:create")),
            ("story form", reverse("campaigns:story_create", args=[c])),
            ("scene form", reverse("campaigns:scene_edit", args=[c, s])),
            ("sheet import", reverse("characters:import", args=[c])),
            ("trait lists", reverse("characters:trait_lists", args=[objetivo.pk])),
            ("admin index", reverse("admin:index")),
        ]
    else:
        found.append(("diary form", reverse("characters:diary", args=[c, ch, s])))
        # A GM's page: the site's "not allowed" page.
        found.append(("not allowed", reverse("campaigns:edit", args=[c])))
    return found


SCHEMES = ("light", "dark")


# Axe's rules that read colours. A change of scheme changes colours alone (theme.js), so on
# the same markup the second scheme can fail only these; with other markup, every rule runs.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def show_scheme(page, scheme: str, themed: bool = True) -> None:
    """The page drawn in a colour scheme. The page follows a change of scheme without a
    reload (theme.js; Django's admin by its own CSS, not `themed`), so one load serves both
    schemes."""
    page.emulate_media(color_scheme=scheme)
    if themed:
        expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    # Colours still fading after a change of scheme (Bootstrap's buttons ease their colour)
    # would be judged half-way: the running transitions jump to their end.
    page.evaluate(
        """() => document.getAnimations()
            .filter(animation => animation instanceof CSSTransition)
            .forEach(animation => animation.finish())"""
    )


def axe_run(page, rules: list[str] | None = None) -> list[dict]:
    """What axe finds on the page as it is: every WCAG A and AA rule, or only `rules`."""
    # Evaluated by the browser's devtools protocol, so the page's strict CSP does not apply.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    # Only violations are read: axe skips collecting the passes, most of its time.
    result = page.evaluate(
        "runOnly => axe.run(document, {runOnly: runOnly, resultTypes: ['violations']})",
        run_only,
    )
    return [
        {
            "rule": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [
                {"target": node["target"], "summary": node.get("failureSummary", "")}
                for node in violation["nodes"][:5]
            ],
        }
        for violation in result["violations"]
    ]


def axe_violations(page, scheme: str, themed: bool = True) -> list[dict]:
    """What axe finds on the page drawn in a colour scheme."""
    show_scheme(page, scheme, themed)
    return axe_run(page)


def violations_by_scheme(page, themed: bool = True) -> dict[str, list[dict]]:
    """What axe finds in each scheme: in the first, by every rule; in the next, by the
    colour rules, unless the markup changed meanwhile (a live swap)."""
    found, markup = {}, None
    for scheme in SCHEMES:
        show_scheme(page, scheme, themed)
        drawn = page.evaluate("document.body.outerHTML")
        found[scheme] = axe_run(page, COLOUR_RULES if drawn == markup else None)
        markup = drawn
    return found


def log_in(page, username: str) -> None:
    page.goto(reverse("login"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form [type=submit]").click()
    expect(page.locator("#campaign-list")).to_be_visible()


def test_the_pages_before_logging_in_have_no_wcag_aa_violations(new_page):
    page = new_page()
    failures = {}
    for name, url in [
        ("login", reverse("login")),
        ("sign-up", reverse("signup")),
        ("forgotten password", reverse("password_reset")),
        ("reset link sent", reverse("password_reset_done")),
        ("reset link spent", reverse("password_reset_confirm", args=["MQ", "used-token"])),
        ("page not found", "/no-such-page/"),
    ]:
        page.goto(url)
        for scheme, violations in violations_by_scheme(page).items():
            if violations:
                failures[f"{name} ({scheme})"] = violations
    assert failures == {}, json.dumps(failures, indent=1, ensure_ascii=False)


@pytest.mark.long
@pytest.mark.parametrize("who", ["player", "gm"])
def test_every_page_has_no_wcag_aa_violations(new_page, who):
    campaigns = played_table()
    page = new_page()
    log_in(page, "master" if who == "gm" else "ana")
    failures = {}
    # A style or script the CSP refuses, or a script error, on any page (what axe skips).
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    for name, url in pages(campaigns, gm=who == "gm"):
        errors.clear()
        response = page.goto(url)
        # A page the viewer may not open would check an error page instead, except the
        # creation page's own refusal to a player at the campaign's character limit, and
        # the "not allowed" page itself.
        refused = name.endswith(" creation") or name == "not allowed"
        assert response.ok or (refused and response.status == 403), name
        if name.endswith(" sheet"):
            # The roll panel loads into the sheet: check the sheet with it open.
            expect(page.locator(".roll-panel")).to_be_visible()
        if name.endswith(" campaign"):
            # The roll feed scrolls here: axe checks that the keyboard can reach it.
            assert page.locator("#roll-feed").evaluate("e => e.scrollHeight > e.clientHeight")
        # Django's admin follows the scheme its own way
        for scheme, violations in violations_by_scheme(page, themed=name != "admin index").items():
            if violations:
                failures[f"{name} {url} ({scheme})"] = violations
        if not response.ok:  # the browser logs the refused page's own status
            errors[:] = [e for e in errors if not e.startswith("Failed to load resource")]
        if errors:
            failures[f"{name} {url} (console)"] = list(errors)
    assert failures == {}, json.dumps(failures, indent=1, ensure_ascii=False)


# What axe does not measure: the focus ring and the borders of controls (WCAG 1.4.11).
COLOURS = """el => {
  const style = getComputedStyle(el);
  let behind = null;
  for (let node = el.parentElement; node && !behind; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (colour !== "rgba(0, 0, 0, 0)" && colour !== "transparent") behind = colour;
  }
  return {outline: style.outlineColor, outlineStyle: style.outlineStyle,
          outlineWidth: parseFloat(style.outlineWidth), text: style.color,
          border: style.borderTopColor, background: style.backgroundColor, behind: behind};
}"""


def luminance(css: str) -> float:
    red, green, blue, *alpha = (float(part) for part in css[css.index("(") + 1 : -1].split(","))
    assert not alpha or alpha[0] == 1, f"translucent colour {css}"

    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_stands_out_against_the_page(new_page, scheme):
    page = new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto(reverse("password_reset"))  # no autofocus: Tab starts at the top
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    checked = 0
    # Every stop of the page's tab order: skip link, menu, language, the form, its links.
    while True:
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement === document.body"):
            break
        colours = page.evaluate(f"({COLOURS})(document.activeElement)")
        name = page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
        assert colours["outlineStyle"] == "solid", name
        assert colours["outlineWidth"] >= 2, name
        assert contrast(colours["outline"], colours["behind"]) >= 3, (name, colours)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_roll_type_toggle_and_outline_buttons_reach_aa(new_page, scheme):
    played_table("objetivo")
    page = new_page()
    page.emulate_media(color_scheme=scheme)
    log_in(page, "ana")
    campaign = Campaign.objects.get(system="objetivo")
    character = Character.objects.get(campaign=campaign, owner__username="ana")
    page.goto(reverse("characters:sheet", args=[campaign.pk, character.pk]))
    toggle = page.locator(".roll-panel .btn-check + .btn")
    expect(toggle.first).to_be_visible()
    buttons = [*toggle.all(), *page.locator(".btn-outline-secondary:visible").all()]
    assert len(buttons) > 3
    for button in buttons:
        colours = button.evaluate(COLOURS)
        fill = colours["background"]
        fill = colours["behind"] if fill == "rgba(0, 0, 0, 0)" else fill
        label = button.inner_text()
        assert contrast(colours["text"], fill) >= 4.5, (label, colours)
        if colours["background"] == "rgba(0, 0, 0, 0)":
            # An outline button is known by its border: 3:1 against what is behind it.
            assert contrast(colours["border"], colours["behind"]) >= 3, (label, colours)


def test_the_language_switcher_is_laid_out_before_first_paint(new_page):
    """The no-JS "Change" button is hidden by the blocking script in <head>, not by the
    deferred app.js, so the menu never shifts after the first paint."""
    page = new_page()
    page.route("**/js/app.js", lambda route: route.abort())
    page.goto(reverse("login"))
    expect(page.locator("html")).to_have_class("js")
    expect(page.locator("#language-select")).to_be_visible()
    expect(page.locator("#language-select ~ button")).to_be_hidden()
    # Pages go back to a pool for the next test: it must get app.js again.
    page.unroute("**/js/app.js")
