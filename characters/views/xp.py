"""XP pages: the per-scene award panel, a character's ledger and purchases, the campaign log.

All under the character URLs (characters:xp…, characters:scene_xp, characters:xp_log; the
old campaigns:scene_xp and campaigns:xp_log addresses redirect here). Every view asks
campaigns.permissions; every write goes through characters.services.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services as campaign_services
from campaigns.addresses import addresses
from campaigns.fragments import (
    cached_fragment,
    cached_html,
    cached_pieces,
    fragment_key,
    viewer,
)
from campaigns.htmx import SINCE_HEADER, unchanged
from campaigns.keyset import keyset_page
from campaigns.models import Campaign, Scene
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    character_access,
    require,
    visible_sheet_rows,
)
from campaigns.scene_menu import scene_menu
from characters import advancement, services
from characters.forms.xp import (
    DecisionForm,
    PurchaseForm,
    SceneAwardForm,
    XpAdjustForm,
    XpLogFilterForm,
)
from characters.models import Character, DiaryEntry, WillpowerGrant, XpEntry, XpPurchase
from characters.services.sheet import ratings_of
from characters.xp_buckets import Charted, Ledgers, Sums, ledger_summary, line_keys
from characters.xp_chart import build_chart, chart_marks, chart_title, integer_text
from characters.xp_rows import keyed, ledger_rows
from mechanics.systems.base import SceneRubric

ENTRIES_PER_PAGE = 25
# As the roll log: a page that does not grow with the ledger.
LOG_ENTRIES_PER_PAGE = 25
# What a purchase waiting in the XP log shows of its own row (characters/partials/
# xp_purchase.html), besides the two names.
PURCHASE_FIELDS = (
    "character", "kind", "name", "current", "target", "cost", "status", "requested_by",
    "requested_at", "note",
)  # fmt: skip
MARKS_TIMEOUT = 3600


def _render(request: HttpRequest, template: str, partial: str, context: dict) -> HttpResponse:
    """The partial for htmx, the full page otherwise; caches keep the two apart."""
    return render(request, f"{template}#{partial}" if request.htmx else template, context)


def _drawn_in() -> str:
    """The axis of a chart ends now: a chart drawn in an earlier hour is drawn again."""
    return timezone.now().strftime("%Y%m%d%H")


def _chart(
    request: HttpRequest,
    campaign: Campaign,
    characters: Sequence[Charted],
    measure: str,
    chart_id: str,
) -> tuple[SafeString, dict[int, Sums]]:
    """The chart of these characters' ledgers (one character, or every character of the
    campaign whose sheet the viewer may see) from a few hundred summed points, drawn once
    per line keys, names and measure; and each ledger's sums. Each line's marks are kept
    apart under its key (its character's version): an award to one character reads and
    marks its line alone, and the chart is drawn again from them."""
    ledgers = ledger_summary(campaign, characters)
    names = [(c.pk, c.name) for c in characters]

    def draw(_extra: dict) -> str:
        lines = [c for c in characters if c.pk in ledgers.keys]
        keys = line_keys("xp-marks", lines, campaign.pk, ledgers.span, measure)
        marks = cached_pieces(
            {c: keys[c.pk] for c in lines},
            lambda missing: _marks(ledgers, missing, measure),
            timeout=MARKS_TIMEOUT,
        )
        return build_chart(marks, measure=measure).figure(chart_id)

    key = fragment_key("xp-chart", ledgers.keys, names, measure, chart_id, _drawn_in())
    return cached_fragment(request, key, draw), ledgers.sums


def _marks(ledgers: Ledgers, characters: Sequence[Charted], measure: str) -> dict:
    """The marks of these characters' lines, from their points (one query)."""
    points = ledgers.points([c.pk for c in characters])
    return chart_marks({c: points[c.pk] for c in characters}, measure, dates=ledgers.dated)


# The award panel ---------------------------------------------------------------------------


@dataclass
class AwardRow:
    character: Character
    form: SceneAwardForm
    given: dict | None
    has_diary: bool
    granted: WillpowerGrant | None
    willpower: tuple[int, int | None] | None
    total: int | None = None


def _diarists(scene: Scene) -> set[int]:
    """Characters with a published diary entry for the scene (GMs read them all)."""
    return set(
        DiaryEntry.objects.filter(scene=scene, status=DiaryEntry.Status.PUBLISHED).values_list(
            "character_id", flat=True
        )
    )


def _initial(
    character: Character, given: dict | None, rubric: SceneRubric | None, has_diary: bool
) -> dict:
    """What the panel shows before the GM touches it: what was given, or the defaults."""
    initial = {"include": not character.is_npc, "amount": 0}
    stored = None
    if given is not None:
        initial["include"] = given["total"] > 0
        initial["amount"] = given["total"]
        stored = given["breakdown"].get("rubric")
    if rubric is not None:
        initial.update(rubric.initial(has_diary=has_diary, stored=stored))
    return initial


def _row_total(form: SceneAwardForm) -> int | None:
    """The engine's total for a row as the form stands; None while it is invalid."""
    if form.is_bound:
        if not form.is_valid():
            return None
        value = form.award()
    elif not form.initial.get("include"):
        value = 0
    elif form.rubric is not None:
        value = form.rubric.award(form.initial)
    else:
        value = form.initial["amount"]
    return value if isinstance(value, int) else value.total


def _award_rows(
    access: CampaignAccess, scene: Scene, data=None
) -> tuple[list[AwardRow], list[Character]]:
    """The rows of the award panel, and the dead it leaves out: a character who died is
    offered nothing, unless it was given XP for this scene already (then its row stays,
    to correct it) (docs/rules.md#shared-xp-dead)."""
    campaign = access.campaign
    characters = (
        Character.objects.filter(Q(scenes=scene) | Q(xp_entries__scene=scene))
        .filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related("resources", "traits")
        .distinct()
        .order_by("name", "pk")
    )
    given = services.scene_award_totals(scene)
    system = campaign.game_system
    dead = [
        character
        for character in characters
        if character.pk not in given
        and system.health_view(
            character.health, ratings_of(character), character.details, campaign.rules
        ).dead
    ]
    diarists = _diarists(scene)
    grants = {grant.character_id: grant for grant in WillpowerGrant.objects.filter(scene=scene)}
    rubric = campaign.scene_rubric
    pool_key = campaign.game_system.scene_end_pool
    dead_ids = {character.pk for character in dead}
    rows = []
    for character in characters:
        if character.pk in dead_ids:
            continue
        previous = given.get(character.pk)
        has_diary = character.pk in diarists
        form = SceneAwardForm(
            data,
            prefix=f"c{character.pk}",
            character=character,
            rubric=rubric,
            willpower=pool_key is not None,
            granted=character.pk in grants,
            initial={
                **_initial(character, previous, rubric, has_diary),
                "willpower": character.pk in grants,
            },
        )
        pool = next((r for r in character.resources.all() if r.key == pool_key), None)
        row = AwardRow(
            character=character,
            form=form,
            given=previous,
            has_diary=has_diary,
            granted=grants.get(character.pk),
            willpower=(pool.current, pool.maximum) if pool else None,
        )
        row.total = _row_total(form)
        rows.append(row)
    return rows, dead


@login_required
@require_http_methods(["GET", "POST"])
def scene_xp(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    """The GM's award panel for one scene: rubric per character, live totals, one submit."""
    access = campaign_access(request.user, campaign_id)
    require(access.can_award_xp)
    scene = get_object_or_404(Scene, pk=scene_id, campaign=access.campaign)
    scene.campaign = access.campaign
    data = request.POST if request.method == "POST" else None
    rows, dead = _award_rows(access, scene, data)
    if request.method == "POST" and request.POST.get("action") == "award":
        if all(row.form.is_valid() for row in rows):
            willpower = {row.character.pk for row in rows if row.form.wants_willpower()}
            try:
                entries = services.scene_award_xp(
                    scene=scene,
                    user=request.user,
                    awards={row.character.pk: row.form.award() for row in rows},
                    willpower=willpower,
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                if entries:
                    messages.success(
                        request,
                        ngettext(
                            "XP recorded for %(count)d character.",
                            "XP recorded for %(count)d characters.",
                            len(entries),
                        )
                        % {"count": len(entries)},
                    )
                elif not willpower:
                    messages.info(request, _("Nothing changed in the XP of this scene."))
                if willpower:
                    messages.success(request, _("Fuerza de Voluntad granted."))
                if request.POST.get("close_scene") and scene.status == Scene.Status.OPEN:
                    # One step at the end of a scene: award, then close (what lasted the
                    # scene expires, as with the scene page's Close button).
                    try:
                        campaign_services.scene_close(scene=scene, user=request.user)
                    except ValidationError as error:
                        # The XP stays given; the scene stays open (a fight going on).
                        messages.error(request, " ".join(error.messages))
                    else:
                        messages.success(request, _("Scene closed."))
                    return redirect(scene.get_absolute_url())
                return redirect("characters:scene_xp", campaign_id, scene.pk)
        else:
            messages.error(request, _("Check the marked rows."))
    context = {
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "scene_url": scene.get_absolute_url(),
        "rows": rows,
        "dead": dead,
        "grand_total": (None if any(r.total is None for r in rows) else sum(r.total for r in rows)),
        "rubric": access.campaign.scene_rubric,
        "awarded_before": any(row.given for row in rows),
    }
    return _render(request, "characters/xp_award.html", "totals", context)


# A character's ledger and purchases --------------------------------------------------------


def _purchase_spec(request: HttpRequest, character: Character):
    """The form and the purchase a GET (price) or POST (buy) names (None if it names none)."""
    form = PurchaseForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return form, None
    return form, form.spec(lambda key: advancement.trait_kind(character, key))


def _xp_url(character: Character) -> str:
    return reverse("characters:xp", args=[character.campaign_id, character.pk])


@login_required
@require_GET
def character_xp(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A character's XP: balance, ledger, chart, purchases (and the price of one). XP is
    part of the full sheet: members who may not see that get a 403."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_view_full)
    access = char_access.access
    if up_to_date := unchanged(request, access.live_seq):
        return up_to_date
    character = char_access.character
    ledger = XpEntry.objects.filter(character=character)
    entries = keyed(ledger).order_by("-created_at", "-pk")
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    chart, _sums = _chart(request, access.campaign, [character], "balance", "character-xp-chart")
    context = {
        "access": access,
        "char_access": char_access,
        "campaign": access.campaign,
        "character": character,
        "page": page,
        "ledger_rows": ledger_rows(page.object_list, campaign=access.campaign),
        "chart": chart,
        "purchases": list(
            XpPurchase.objects.filter(character=character).select_related(
                "requested_by", "decided_by"
            )[:20]
        ),
        "xp_sections": access.campaign.game_system.xp_sections,
        "xp_without_purchases": access.campaign.game_system.xp_without_purchases,
        "quote": None,
        "quote_error": "",
        "xp_url": _xp_url(character),
    }
    if char_access.can_spend_xp:
        context.update(_purchase_context(request, character))
    if access.can_award_xp:
        context["adjust_form"] = XpAdjustForm()
    for section in context["xp_sections"]:
        context.update(section.context(access, character))
    if request.headers.get(SINCE_HEADER):
        # A live refresh takes its parts from the whole page (the price is htmx's too).
        return render(request, "characters/xp_ledger.html", context)
    return _render(request, "characters/xp_ledger.html", "quote", context)


def _purchase_context(request: HttpRequest, character: Character) -> dict:
    """The purchase forms the system offers, and the price of the one asked for: from the
    balance less what requests waiting for the GM hold, whoever buys and whether it waits
    (services.xp_purchase_request refuses it otherwise)."""
    found = advancement.advancement_of(character.campaign)
    if found is None:
        return {}
    traits = list(character.traits.all())
    offers = found.purchase_context(character, traits)
    if not offers:
        return {}
    context: dict = {
        "needs_approval": character.campaign.xp_purchases_need_approval,
        "purchase_title": found.title,
        "purchase_template": found.template,
        **offers,
    }
    if request.GET.get("kind"):
        _form, spec = _purchase_spec(request, character)
        if spec is None:
            context["quote_error"] = _("Choose what to buy.")
        else:
            ratings = {trait.key: trait.rating for trait in traits}
            try:
                quote = advancement.quote(character, spec, ratings=ratings)
            except ValidationError as error:
                context["quote_error"] = " ".join(error.messages)
            else:
                reserved = 0
                if not quote.uses_drama_points:
                    reserved = XpPurchase.objects.held(character, drama=False)
                context["quote"] = quote
                context["quote_reserved"] = reserved
                context["quote_balance"] = character.xp_balance - reserved
                context["quote_balance_after"] = context["quote_balance"] - quote.cost
    return context


@login_required
@require_POST
def xp_buy(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Buy (or ask the GM for) one purchase at the price the player saw."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_spend_xp)
    character = char_access.character
    form, spec = _purchase_spec(request, character)
    back = _xp_url(character)
    if spec is None:
        messages.error(request, _("Choose what to buy."))
        return redirect(back)
    apply_now = char_access.access.is_gm or not character.campaign.xp_purchases_need_approval
    try:
        purchase = services.xp_purchase_request(
            character=character,
            user=request.user,
            purchase=spec,
            apply_now=apply_now,
            expected_cost=form.cleaned_data.get("expected_cost"),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        # Back to the price with what the player chose, so nothing is lost.
        query = {k: v for k, v in request.POST.items() if k in PurchaseForm.base_fields}
        query.pop("expected_cost", None)
        return redirect(f"{back}?{urlencode(query)}#purchase")
    label = advancement.purchase_label(character, purchase)
    if purchase.status == XpPurchase.Status.APPLIED:
        messages.success(
            request, _("Bought: %(what)s for %(cost)s.") % {"what": label, "cost": _cost(purchase)}
        )
    else:
        messages.success(
            request,
            _("Asked for %(what)s (%(cost)s); it waits for the GM's approval.")
            % {"what": label, "cost": _cost(purchase)},
        )
    return redirect(back)


def _cost(purchase: XpPurchase) -> str:
    if purchase.uses_drama_points:
        return ngettext("%(n)d drama point", "%(n)d drama points", purchase.cost) % {
            "n": purchase.cost
        }
    return _("%(n)d XP") % {"n": purchase.cost}


@login_required
@require_POST
def xp_purchase_decide(
    request: HttpRequest, campaign_id: int, character_id: int, purchase_id: int
) -> HttpResponse:
    """A GM approves or rejects a pending purchase; its player (or a GM) may cancel it."""
    char_access = character_access(request.user, campaign_id, character_id)
    purchase = get_object_or_404(XpPurchase, pk=purchase_id, character=char_access.character)
    purchase.character = char_access.character
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose approve, reject or cancel."))
        return redirect(_xp_url(char_access.character))
    action = form.cleaned_data["action"]
    if action == "cancel":
        require(char_access.can_spend_xp)
    else:
        require(char_access.access.can_award_xp)
    try:
        if action == "approve":
            services.xp_purchase_approve(purchase=purchase, user=request.user)
            messages.success(request, _("Purchase approved and applied."))
        elif action == "reject":
            services.xp_purchase_reject(
                purchase=purchase, user=request.user, note=form.cleaned_data["note"]
            )
            messages.success(request, _("Purchase rejected."))
        else:
            services.xp_purchase_cancel(purchase=purchase, user=request.user)
            messages.success(request, _("Purchase cancelled."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    if form.cleaned_data.get("back") == "log":
        return redirect("characters:xp_log", campaign_id)
    return redirect(_xp_url(char_access.character))


@login_required
@require_POST
def xp_adjust(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A GM gives XP outside a scene (starting XP, a bonus) or takes some back."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.access.can_award_xp)
    form = XpAdjustForm(request.POST)
    if form.is_valid():
        try:
            services.xp_adjust(
                character=char_access.character,
                user=request.user,
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("XP balance updated."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return redirect(_xp_url(char_access.character))


# The campaign's XP log ------------------------------------------------------------------------


LOG_SCENE_TOTALS = 10


def _totals(
    campaign: Campaign, characters: Sequence[Charted], entries, sums: dict[int, Sums] | None
) -> SafeString:
    """The table rows of earned, spent and balance per character of the campaign: from
    the chart's sums when the log is not filtered (no query), else summed over the
    filtered entries. Written here, as the ledger's rows: a template's lookups cost more
    than the rest."""
    if sums is not None:
        found = {
            pk: {"earned": ledger.earned, "spent": ledger.total - ledger.earned}
            for pk, ledger in sums.items()
        }
    else:
        earned = Q(kind__in=[XpEntry.Kind.AWARD, XpEntry.Kind.CORRECTION])
        found = {
            row["character_id"]: row
            for row in entries.order_by()
            .values("character_id")
            .annotate(
                earned=Sum("amount", filter=earned, default=0),
                spent=Sum("amount", filter=Q(kind=XpEntry.Kind.SPEND), default=0),
            )
        }
    address = addresses("characters:xp", campaign.pk)
    number = integer_text()
    return mark_safe(  # the names escaped here, the rest numbers and addresses
        "".join(
            f'<tr><th scope="row" class="fw-normal"><a href="{address(character.pk)}">'
            f"{escape(character.name)}</a></th>"
            f'<td class="text-end">{number(found[character.pk]["earned"])}</td>'
            f'<td class="text-end">{number(-found[character.pk]["spent"])}</td>'
            f'<td class="text-end fw-semibold">{number(character.xp_balance)}</td></tr>\n'
            for character in characters
            if character.pk in found
        )
    )


def _scene_totals(
    scenes: list[tuple[int, str]], totals: dict[int, int], address: Callable[[int], str]
) -> SafeString:
    """The list items of the XP each of these scenes awarded (those that did)."""
    number, xp = integer_text(), escape(_("XP"))
    return mark_safe(  # the titles escaped here, the rest numbers and addresses
        "".join(
            '<li class="list-group-item px-0 d-flex justify-content-between gap-2">'
            f'<a href="{address(pk)}">{escape(title)}</a>'
            f'<span class="fw-semibold text-nowrap">{number(totals[pk])} {xp}</span></li>\n'
            for pk, title in scenes
            if pk in totals
        )
    )


def _filtered(entries, filters: dict):
    """`entries` with the log's valid filters applied."""
    if "character" in filters:
        entries = entries.filter(character_id=filters["character"])
    if "scene" in filters:
        entries = entries.filter(scene_id=filters["scene"])
    if "kind" in filters:
        entries = entries.filter(kind=filters["kind"])
    return entries


@login_required
@require_GET
def xp_log(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's XP entries, newest first with filters, the totals per character,
    the latest scenes' awards and the chart over time: of the characters whose full
    sheet the viewer may see, as everything else here."""
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    if up_to_date := unchanged(request, access.live_seq):
        return up_to_date
    pending = []
    if access.can_award_xp:
        # Newest first as the model orders them, but sorted here: the few waiting cost
        # less to sort than an ORDER BY to build.
        waiting = (
            XpPurchase.objects.filter(
                character__campaign_id=campaign.pk, status=XpPurchase.Status.PENDING
            )
            .select_related("character", "requested_by")
            .only("character__name", "requested_by__username", *PURCHASE_FIELDS)
            .order_by()
        )
        pending = sorted(waiting, key=lambda row: (row.requested_at, row.pk), reverse=True)
    # The filters and everything below them show XP entries (`xp_seq`), names, scenes and
    # who sees which sheet (the campaign's version, the viewer), as the request asks:
    # rendered once per key, and the rows read only then. Purchases waiting are apart.
    key = fragment_key(
        "xp-log",
        viewer(access),
        campaign.pk,
        campaign.version,
        campaign.xp_seq,
        sorted(request.GET.lists()),
        _drawn_in(),
    )
    context = {
        "access": access,
        "campaign": campaign,
        "pending": pending,
        "body": cached_html(request, key),
        "body_key": key,
    }
    if context["body"]:
        return render(request, "characters/xp_log.html", context)
    # What the menus, the chart, the rows and the totals show of each character, as
    # named tuples of plain values.
    characters = list(
        visible_sheet_rows(access, Character.objects.filter(campaign=campaign), character="")
        .order_by("name", "pk")
        .values_list("pk", "name", "xp_balance", "version", named=True)
    )
    # The latest scenes (and the chosen one), pk and title: the menu does not grow.
    menu = scene_menu(campaign, request.GET.get("scene"))
    scenes = menu.scenes

    def filter_form() -> XpLogFilterForm:
        return XpLogFilterForm(request.GET or None, scenes=scenes, characters=characters)

    # Without a query there is nothing to filter: the form is made only to draw the menus,
    # when they are not cached.
    form = filter_form() if request.GET else None
    filters = form.filters() if form is not None else {}
    # The menus show the characters and scenes (the campaign's version) the viewer sees,
    # as the request asks, and nothing of the ledger: kept through awards.
    menus_key = fragment_key(
        "xp-filters", viewer(access), campaign.pk, campaign.version, sorted(request.GET.lists())
    )

    def draw_menus(extra: dict) -> str:
        shown = form if form is not None else filter_form()
        context = {"campaign": campaign, "filter_form": shown, "scene_menu": menu, **extra}
        return render_to_string("characters/xp_log.html#filters", context, request=request)

    filters_html = cached_fragment(request, menus_key, draw_menus)
    visible = visible_sheet_rows(access, XpEntry.objects.filter(campaign=campaign))
    entries = _filtered(visible, filters)
    # Pages found from the last entry shown (the campaign's index), never by OFFSET.
    page = keyset_page(
        keyed(entries),
        size=LOG_ENTRIES_PER_PAGE,
        after=request.GET.get("after"),
        before=request.GET.get("before"),
    )
    by_id = {character.pk: character for character in characters}
    names = {character.pk: character.name for character in characters}
    # The entries the viewer may see are those of the characters they see
    # (visible_sheet_rows filters both alike): the chart sums theirs alone.
    charted = characters
    if filters.get("character") in by_id:
        charted = [by_id[filters["character"]]]
    measure = filters.get("measure", "balance")
    chart, sums = _chart(request, campaign, charted, measure, "campaign-xp-chart")
    # The latest scenes' awards only: the list must not grow with the campaign.
    shown_scenes = [pk for pk, _title in scenes[:LOG_SCENE_TOTALS]]
    # From the scene index: these scenes are the campaign's, and filtering on the
    # campaign too would lead the planner to read all its entries.
    awarded = XpEntry.objects.filter(
        scene_id__in=shown_scenes, kind__in=[XpEntry.Kind.AWARD, XpEntry.Kind.CORRECTION]
    )
    scene_totals = {
        row["scene_id"]: row["total"]
        for row in _filtered(visible_sheet_rows(access, awarded), filters)
        .order_by()
        .values("scene_id")
        .annotate(total=Sum("amount"))
    }
    unfiltered = not {"scene", "kind"} & filters.keys()
    # GMs go to a scene's awards, players to the scene.
    scene_page = "characters:scene_xp" if access.can_award_xp else "campaigns:scene"
    scene_address = addresses(scene_page, campaign.pk)
    context |= {
        "filters": filters_html,
        "keyset": page,
        "ledger_rows": ledger_rows(page.items, campaign=campaign, names=names),
        "character_totals": _totals(
            campaign,
            charted if unfiltered else characters,
            entries,
            sums if unfiltered else None,
        ),
        "scene_totals": _scene_totals(scenes[:LOG_SCENE_TOTALS], scene_totals, scene_address),
        "chart": chart,
        "chart_title": chart_title(measure),
    }
    return render(request, "characters/xp_log.html", context)


urlpatterns = [
    path("xp/", xp_log, name="xp_log"),
    path("xp/scenes/<id:scene_id>/", scene_xp, name="scene_xp"),
    path("<id:character_id>/xp/", character_xp, name="xp"),
    path("<id:character_id>/xp/buy/", xp_buy, name="xp_buy"),
    path("<id:character_id>/xp/adjust/", xp_adjust, name="xp_adjust"),
    path(
        "<id:character_id>/xp/purchases/<id:purchase_id>/",
        xp_purchase_decide,
        name="xp_purchase_decide",
    ),
]

# Included from campaigns/urls.py (namespace "campaigns").
