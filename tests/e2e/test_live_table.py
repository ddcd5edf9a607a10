"""The live table in three browsers, under uvicorn as `make run` serves it: a GM and two
players with their pages open. A roll, a wound, a trait's new rating and a published diary
appear on the others' pages (the scene page and an open roll panel included), pushed over
the stream with no reload; the
pages stop polling once the stream is up, and a secret roll reaches the GM alone."""

import re

import pytest
from playwright.sync_api import expect

from campaigns.models import Scene
from characters.models import DiaryEntry
from mechanics.models import Roll
from tests.e2e.test_chronicle import write_diary
from tests.factories import UserFactory, campaign_with, make_character

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def live(page, url: str):
    """Open `url` and wait until its stream has said hello; mark the page, so that a
    reload (which would clear the mark) cannot pass for a push."""
    page.goto(url)
    expect(page.locator("main")).to_have_attribute("data-live", "up")
    page.evaluate("window.cronicaNotReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.cronicaNotReloaded === true")


def hold_first_refresh(page, matches) -> list:
    """Hold the page's first live refresh of a URL that `matches`: the server answers it
    at once, and the test hands that answer to the page when it chooses (`fulfill`)."""
    held = []

    def hold(route):
        if route.request.headers.get("x-cronica-since") and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route(matches, hold)
    return held


def held_answer(page, held: list, what: str):
    """The held (route, answer), once the refresh has reached the network."""
    for _round_trip in range(1000):  # the route's handler runs while Playwright is called
        if held:
            return held[0]
        page.evaluate("0")
    raise AssertionError(f"the {what} never reached the network")


def count_reloads_answered(page) -> None:
    """From now on, `window.reloadsAnswered` counts the live reloads the page has had
    answered (whether or not it drew them)."""
    page.evaluate(
        """() => {
          window.reloadsAnswered = 0;
          document.addEventListener("htmx:afterRequest", (event) => {
            const headers = (event.detail.requestConfig || {}).headers || {};
            if (headers["X-Cronica-Since"]) window.reloadsAnswered += 1;
          });
        }"""
    )


def press(page, control) -> None:
    """Put the mouse's button down in the middle of `control`, and keep it there. (The
    pointer gets there as Playwright's actions do: once `control` is drawn and still,
    though a live swap may draw it again meanwhile.)"""
    control.hover()
    page.mouse.down()


def lucias_sheet(open_live):
    """Ana's sheet of Lucía (Tinieblas, Inteligencia 3, Investigación 2), open and live;
    the campaign is narradora's. Returns (the page, Lucía)."""
    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = campaign_with("tinieblas", gm, players=[ana], name="La mesa")
    lucia = make_character(
        campaign, ana, name="Lucía", ratings={"inteligencia": 3, "investigacion": 2}
    )
    page = open_live(ana)
    live(page, lucia.get_absolute_url())
    return page, lucia


def panel_on_investigacion(page, lucia):
    """Her roll panel, opened from the sheet's Investigación."""
    page.locator('a[data-roll-trait="investigacion"]').click()
    # Open once the trait's answer is drawn (test_first_evening says why).
    expect(page.locator(f"#roll-dock-{lucia.pk}")).to_have_attribute("role", "dialog")
    panel = page.locator(f"#roll-panel-{lucia.pk}")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("investigacion")
    return panel


def test_a_roll_a_wound_and_a_diary_reach_the_others_pages_without_a_reload(open_live, screenshot):
    gm, ana, berto = (UserFactory(username=name) for name in ("narradora", "ana", "berto"))
    campaign = campaign_with("tinieblas", gm, players=[ana, berto], name="La mesa")
    lucia = make_character(
        campaign, ana, name="Lucía", ratings={"inteligencia": 3, "investigacion": 2}
    )
    tomas = make_character(campaign, berto, name="Tomás")
    scene = Scene.objects.create(campaign=campaign, title="La biblioteca")
    scene.participants.add(lucia, tomas)

    gm_page = open_live(gm)
    ana_page = open_live(ana, width=360, height=800)
    berto_page = open_live(berto)
    live(gm_page, scene.get_absolute_url())
    live(ana_page, lucia.get_absolute_url())
    live(berto_page, campaign.get_absolute_url())

    # Ana rolls on her phone: the card reaches Berto's campaign page and the GM's scene.
    ana_page.locator('a[data-roll-trait="investigacion"]').click()
    expect(ana_page.locator(f"#roll-dock-{lucia.pk}")).to_have_attribute("role", "dialog")
    panel = ana_page.locator(f"#roll-panel-{lucia.pk}")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("investigacion")
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(ana_page.locator(f"#roll-result-{lucia.pk} .roll-card")).to_be_visible()
    roll = Roll.objects.get(character=lucia)
    card = f'article.roll[data-roll="{roll.pk}"]'
    expect(berto_page.locator(f"#roll-feed {card}")).to_be_visible()
    expect(gm_page.locator(f"#group-review {card}")).to_be_visible()
    screenshot(gm_page, "scene-after-roll")

    # The GM opens Lucía's sheet and wounds her: Ana's open sheet follows.
    gm_sheet = gm_page.context.new_page()
    gm_sheet.goto(lucia.get_absolute_url())
    damage = gm_sheet.locator("#health-damage")
    damage.locator("summary").click()
    damage.get_by_label("Niveles de daño").fill("2")
    damage.get_by_text("Letal", exact=True).click()
    damage.get_by_role("button", name="Aplicar daño").click()
    expect(gm_sheet.locator(".health-notice")).to_contain_text("Daño aplicado: 2 L")
    expect(ana_page.locator(".health-state")).to_have_text("Lastimado")
    # The GM's own page keeps the notice of what they did: the push of their own write
    # finds the section up to date.
    expect(gm_sheet.locator(".health-notice")).to_contain_text("Daño aplicado: 2 L")
    screenshot(ana_page, "sheet-after-wound")

    # The GM raises Lucía's Investigación: Ana's open roll panel follows, her choices and
    # her last result kept.
    lucia.traits.filter(key="investigacion").update(rating=4)
    expect(panel.locator(f"#roll-odds-{lucia.pk}")).to_contain_text("Investigación +4")
    expect(panel.get_by_label("Habilidad", exact=True)).to_have_value("investigacion")
    expect(ana_page.locator(f"#roll-result-{lucia.pk} .roll-card")).to_have_attribute(
        "data-roll", str(roll.pk)
    )
    screenshot(ana_page, "panel-after-trait-edit")

    # Berto publishes Tomás's diary: it appears in the GM's group review.
    diary_page = berto_page.context.new_page()
    write_diary(diary_page, scene.get_absolute_url(), "Tomás", "Alguien cerró la puerta.")
    diary = DiaryEntry.objects.get(character=tomas)
    expect(gm_page.locator(f"#group-review #diary-{diary.pk}")).to_contain_text(
        "Alguien cerró la puerta."
    )
    screenshot(gm_page, "scene-after-diary")

    for page in (gm_page, ana_page, berto_page):
        assert not_reloaded(page)
        expect(page.locator("main")).to_have_attribute("data-live", "up")


def test_a_secret_roll_reaches_the_gms_page_and_not_the_players(open_live):
    from tests.mechanics_web.rolls import CANARY, store_roll

    gm, ana = UserFactory(username="narradora"), UserFactory(username="ana")
    campaign = campaign_with("tinieblas", gm, players=[ana], name="La mesa")
    gm_page, ana_page = open_live(gm), open_live(ana)
    live(gm_page, campaign.get_absolute_url())
    live(ana_page, campaign.get_absolute_url())
    secret = store_roll(campaign, gm, label=CANARY, secret=True)
    expect(gm_page.locator(f'#roll-feed article.roll[data-roll="{secret.pk}"]')).to_be_visible()
    shown = store_roll(campaign, gm, label="A la vista")
    expect(ana_page.locator(f'#roll-feed article.roll[data-roll="{shown.pk}"]')).to_be_visible()
    # (That the stream tells her nothing of the secret roll: tests/live/test_stream.py.)
    assert CANARY not in ana_page.content()
    assert not_reloaded(ana_page)


def test_a_change_heard_while_the_panel_waits_for_its_reload_is_not_lost(open_live):
    """The CI failure of session 14: a second change reached an open roll panel while its
    reload for the first was still on the way. htmx dropped the second reload (the panel's
    hx-sync), and the first answer, computed before the second change, stayed for good."""
    page, lucia = lucias_sheet(open_live)
    panel = panel_on_investigacion(page, lucia)
    # The dock puts the focus in the panel's first field, where a reload would wait (a user
    # filling it in): she is only looking.
    page.evaluate("document.activeElement.blur()")
    page.evaluate(
        """() => {
          window.reloadsAsked = 0;
          document.addEventListener("htmx:confirm", (event) => {
            const trigger = event.detail.triggeringEvent;
            if (trigger && trigger.type === "sse:change" && event.detail.elt.hasAttribute("hidden")
                && event.detail.target.matches(".roll-panel")) window.reloadsAsked += 1;
          });
        }"""
    )
    # The first reload is answered by the server at once, and handed to the page late.
    held = hold_first_refresh(page, lambda url: f"/characters/{lucia.pk}/roll/" in url)
    lucia.traits.filter(key="investigacion").update(rating=3)
    page.wait_for_function("() => window.reloadsAsked === 1")
    route, answer = held_answer(page, held, "first reload")
    lucia.traits.filter(key="investigacion").update(rating=4)
    page.wait_for_function("() => window.reloadsAsked === 2")
    route.fulfill(response=answer)
    expect(panel.locator(f"#roll-odds-{lucia.pk}")).to_contain_text("Investigación +4")


def test_a_refresh_asked_before_the_pages_own_write_never_draws_the_older_state(open_live):
    """A live refresh of the sheet is asked (a change of the GM's), and its answer reaches
    the page only after the player's own write there (a Willpower point spent) has been
    drawn: that answer holds the state before her write, so the page drops it and asks
    again (static/js/live.js), and her pool never shows the point back, even for a moment."""
    page, lucia = lucias_sheet(open_live)
    willpower = page.locator("#pool-willpower [data-pool-value]")
    start = willpower.inner_text().split("/")[0].strip()
    # Every value the pool shows, in order, whichever swap draws it.
    page.evaluate(
        """() => {
          window.poolShown = [];
          const note = () => {
            const value = document.querySelector("#pool-willpower [data-pool-value]");
            const text = value && value.textContent.split("/")[0].trim();
            if (text && text !== window.poolShown.at(-1)) window.poolShown.push(text);
          };
          note();
          new MutationObserver(note).observe(
            document.body, {subtree: true, childList: true, characterData: true}
          );
        }"""
    )
    held = hold_first_refresh(page, lambda url: url.endswith(lucia.get_absolute_url()))
    lucia.traits.filter(key="investigacion").update(rating=3)
    route, answer = held_answer(page, held, "refresh")

    page.locator("#pool-willpower-minus").click()
    expect(willpower).to_contain_text(str(int(start) - 1))
    route.fulfill(response=answer)
    # The GM's change comes in all the same, with her spend.
    investigacion = page.locator("#trait-investigacion [role=img]")
    expect(investigacion).to_have_attribute("aria-label", re.compile(r"\b3\b"))
    expect(willpower).to_contain_text(str(int(start) - 1))
    assert page.evaluate("window.poolShown") == [start, str(int(start) - 1)]


def test_a_part_of_the_page_being_filled_in_waits_and_the_rest_follows(open_live, screenshot):
    """The GM types a new aspect on a Hitos sheet when the player's drama points change
    and another aspect is added elsewhere: the pools follow at once, the aspects' part
    keeps what she typed; once she has left it with nothing unsent, it is drawn anew."""
    from characters.models import Aspect, Resource
    from mechanics.systems.hitos.system import DRAMA_POINTS

    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    irene = make_character(
        campaign, player, name="Irene", aspects=[("concepto", "Bibliotecaria curiosa")]
    )
    page = open_live(gm)
    live(page, irene.get_absolute_url())
    form = page.locator("#sheet-aspects details.gm-form")
    form.locator("summary").click()
    typed = form.get_by_label("Aspecto")
    typed.fill("Me debe un favor")

    drama = Resource.objects.get(character=irene, key=DRAMA_POINTS)
    Resource.objects.filter(pk=drama.pk).update(current=drama.current + 2)
    Aspect.objects.create(character=irene, kind="cita", text="«Todo está escrito»", position=5)
    expect(page.locator(f"#pool-{DRAMA_POINTS} [data-pool-value]")).to_contain_text(
        str(drama.current + 2)
    )
    expect(typed).to_have_value("Me debe un favor")
    expect(typed).to_be_focused()
    expect(page.locator("#sheet-aspects")).not_to_contain_text("Todo está escrito")
    screenshot(page, "aspect-typed-kept")

    # She thinks better of it: the part is drawn anew, with the aspect added meanwhile.
    typed.fill("")
    page.locator("h1").click()
    expect(page.locator("#sheet-aspects")).to_contain_text("Todo está escrito")
    assert not_reloaded(page)


def test_a_section_the_user_opened_stays_open_when_a_change_draws_it_again(open_live):
    """A player opens "save this set-up" in her roll panel, and the GM opens "add an
    aspect" on a sheet; a change reloads the panel and that part of the sheet: each section
    stays open (the GM's form loads again), what changed drawn in it."""
    from characters.models import Aspect

    page, lucia = lucias_sheet(open_live)
    panel = panel_on_investigacion(page, lucia)
    gm, ana = lucia.campaign.created_by, lucia.owner
    panel.get_by_text("Guardar esta preparación").click()
    page.evaluate("document.activeElement.blur()")  # she only looks
    lucia.traits.filter(key="investigacion").update(rating=4)
    expect(panel.locator(f"#roll-odds-{lucia.pk}")).to_contain_text("Investigación +4")
    expect(panel.locator("details.roll-save")).to_have_attribute("open", "")
    expect(panel.get_by_label("Nombre de la tirada guardada")).to_be_visible()

    hitos = campaign_with("hitos", gm, players=[ana], name="Mesa")
    irene = make_character(hitos, ana, name="Irene", aspects=[("concepto", "Periodista")])
    gm_page = open_live(gm)
    live(gm_page, irene.get_absolute_url())
    add = gm_page.locator("#sheet-aspects details.gm-form")
    add.locator("summary").click()
    expect(add.get_by_label("Aspecto")).to_be_visible()
    gm_page.evaluate("document.activeElement.blur()")
    Aspect.objects.create(character=irene, kind="cita", text="«Todo está escrito»", position=5)
    expect(gm_page.locator("#sheet-aspects")).to_contain_text("Todo está escrito")
    expect(add.get_by_label("Aspecto")).to_be_visible()


def test_what_is_typed_while_a_reload_is_on_its_way_is_kept(open_live):
    """The panel's reload is asked (a change of the GM's) while the player looks; she starts
    typing what the roll is for before its answer arrives: the answer does not take it."""
    page, lucia = lucias_sheet(open_live)
    panel = panel_on_investigacion(page, lucia)
    panel.get_by_text("Más opciones").click()
    page.evaluate("document.activeElement.blur()")
    held = hold_first_refresh(page, lambda url: f"/characters/{lucia.pk}/roll/" in url)
    lucia.traits.filter(key="investigacion").update(rating=4)
    route, answer = held_answer(page, held, "reload")
    label = panel.get_by_label("¿Para qué es la tirada?")
    label.fill("Leer el diario del forense")
    count_reloads_answered(page)
    route.fulfill(response=answer)
    # The answer came and went: what she typed stays.
    page.wait_for_function("() => window.reloadsAnswered >= 1")
    expect(label).to_have_value("Leer el diario del forense")
    # Once she has sent it, the change is there, and the roll is made.
    panel.get_by_role("button", name="Tirar los dados").click()
    expect(panel.locator(f"#roll-odds-{lucia.pk}")).to_contain_text("Investigación +4")
    expect(page.locator(f"#roll-result-{lucia.pk} .roll-card")).to_be_visible()


@pytest.mark.parametrize("by", ["pointer", "space"])
def test_a_tap_on_the_roll_button_outlasts_a_reload_of_its_panel(open_live, by):
    """The GM raises a rating while the player's finger is on «Tirar los dados» (or Space
    is held on it, which clicks when let go): the panel's reload waits for the press to
    end, so it rolls; then the new rating follows."""
    page, lucia = lucias_sheet(open_live)
    panel = panel_on_investigacion(page, lucia)
    button = panel.get_by_role("button", name="Tirar los dados")
    if by == "pointer":
        press(page, button)
    else:
        button.focus()
        page.keyboard.down("Space")
    held = hold_first_refresh(page, lambda url: f"/characters/{lucia.pk}/roll/" in url)
    lucia.traits.filter(key="investigacion").update(rating=4)
    route, answer = held_answer(page, held, "reload")
    count_reloads_answered(page)
    route.fulfill(response=answer)
    page.wait_for_function("() => window.reloadsAnswered >= 1")
    if by == "pointer":
        page.mouse.up()
    else:
        page.keyboard.up("Space")
    expect(panel.locator(f"#roll-result-{lucia.pk} .roll-card")).to_be_visible()
    expect(panel.locator(f"#roll-odds-{lucia.pk}")).to_contain_text("Investigación +4")
    assert Roll.objects.filter(character=lucia).count() == 1


def test_a_tap_in_a_part_of_the_page_outlasts_a_refresh_that_draws_it(open_live, screenshot):
    """The GM's finger is on a pool's «−» when two points added to it by another hand redraw
    the sheet's pools (a part its live refresh draws): that part waits for the tap to end,
    so the point is spent from what the change left."""
    from characters.models import Resource
    from mechanics.systems.hitos.system import DRAMA_POINTS

    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    irene = make_character(campaign, player, name="Irene")
    page = open_live(gm)
    live(page, irene.get_absolute_url())
    start = Resource.objects.get(character=irene, key=DRAMA_POINTS).current
    press(page, page.locator(f"#pool-{DRAMA_POINTS}-minus"))
    sheet = irene.get_absolute_url()
    held = hold_first_refresh(page, lambda url: url.split("?")[0].endswith(sheet))
    drama = Resource.objects.filter(character=irene, key=DRAMA_POINTS)
    drama.update(current=start + 2)
    route, answer = held_answer(page, held, "refresh")
    count_reloads_answered(page)
    route.fulfill(response=answer)
    page.wait_for_function("() => window.reloadsAnswered >= 1")
    page.mouse.up()
    # Spent from what the change left: two more, one less.
    value = page.locator(f"#pool-{DRAMA_POINTS} [data-pool-value]")
    expect(value).to_have_text(re.compile(rf"^{start + 1}\b"))
    assert drama.get().current == start + 1
    assert not_reloaded(page)
    screenshot(page, "pool-spent-after-refresh")


@pytest.mark.parametrize("tap", ["while-answered", "pressed", "space-held"])
def test_every_tap_on_a_pools_minus_counts_though_each_answer_draws_it_again(
    open_live, screenshot, tap
):
    """The GM taps a pool's «−» twice in quick succession. The second tap lands while the
    first one's answer is on its way (`while-answered`: htmx would drop it, its form still
    busy), or the answer draws the pool again while the second press is under way, under
    the pointer (`pressed`) or with Space held on the button (`space-held`): either way the
    tap is made again on the «−» drawn in its place, and two points are spent."""
    from characters.models import Resource
    from mechanics.systems.hitos.system import DRAMA_POINTS

    gm, player = UserFactory(username="narradora"), UserFactory(username="jugadora")
    campaign = campaign_with("hitos", gm, players=[player], name="Mesa")
    irene = make_character(campaign, player, name="Irene")
    drama = Resource.objects.filter(character=irene, key=DRAMA_POINTS)
    start = drama.get().current
    page = open_live(gm)
    live(page, irene.get_absolute_url())
    held = []

    def hold_first_tap(route):
        if route.request.method == "POST" and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route(lambda url: f"/pools/{DRAMA_POINTS}/" in url, hold_first_tap)
    # The first tap's live refresh is held until the end: only the taps' answers draw the
    # pool meanwhile.
    sheet = irene.get_absolute_url()
    refresh = hold_first_refresh(page, lambda url: url.split("?")[0].endswith(sheet))
    minus = page.locator(f"#pool-{DRAMA_POINTS}-minus")
    value = page.locator(f"#pool-{DRAMA_POINTS} [data-pool-value]")
    minus.click()
    route, answer = held_answer(page, held, "first tap")
    if tap == "while-answered":
        minus.click()
        route.fulfill(response=answer)
    else:
        if tap == "pressed":
            press(page, minus)
        else:
            minus.focus()
            page.keyboard.down("Space")
        route.fulfill(response=answer)
        # The first tap's answer has drawn the «−» again under the press.
        expect(value).to_have_text(re.compile(rf"^{start - 1}\b"))
        if tap == "pressed":
            page.mouse.up()
        else:
            page.keyboard.up("Space")
    expect(value).to_have_text(re.compile(rf"^{start - 2}\b"))
    assert drama.get().current == start - 2
    # The held refresh, older than the taps, is dropped and asked again: the rest of the
    # page (the roll panel's pool) follows the two taps too.
    route, answer = held_answer(page, refresh, "refresh")
    route.fulfill(response=answer)
    expect(page.locator(".roll-panel")).to_contain_text(f"Puntos dramáticos {start - 2}")
    expect(value).to_have_text(re.compile(rf"^{start - 2}\b"))
    assert not_reloaded(page)
    screenshot(page, "two-taps-two-points")
