"""The roll panel of a sheet and the GM's panel for two-sided rolls.

One URL each. GET shows the panel (a full page, or the panel partial for htmx); a GET
asking for `part=odds` returns only the odds of the current choices (htmx, on every
change); POST rolls on the server with the engine's cryptographic random source, applies
the effects and stores the roll in one transaction, then shows the result (the panel
partial for htmx, or POST/redirect/GET to the page with the result).
"""

from __future__ import annotations

from itertools import chain
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from campaigns.fragments import (
    CSRF_PLACEHOLDER,
    cached_fragment,
    cached_html,
    cached_value,
    fragment_key,
    viewer,
)
from campaigns.htmx import unchanged
from campaigns.permissions import (
    CampaignAccess,
    CharacterAccess,
    campaign_access,
    character_access,
    require,
    visible_rolls,
)
from characters import services
from characters.views.sheet import sheet_context
from mechanics.forms.errors import error_text
from mechanics.forms.roll import RollSceneForm, default_data
from mechanics.forms.two_sided import HELPERS, gm_forms, gm_plan, relevant_forms
from mechanics.health_panel import health_digest
from mechanics.models import CombatAttack, Roll, SavedRoll
from mechanics.presentation import roll_display
from mechanics.rules.errors import RuleError
from mechanics.selectors import roll_scenes
from mechanics.services import combat as combat_services
from mechanics.services.rolls import RollSide, roll_perform
from mechanics.setup import Sheet, cached_sheet
from mechanics.systems.registry import get_system

PANEL = "mechanics/roll_panel.html"
GM_PANEL = "mechanics/gm_roll.html"


def _respond(request: HttpRequest, template: str, context: dict, status: int = 200):
    return render(request, template, context, status=status)


def _pools(sheet: Sheet) -> list[dict]:
    labels = {
        spec.key: spec.label
        for spec in sheet.system.resource_specs(sheet.ratings, sheet.character.details, sheet.rules)
    }
    return [
        {
            "key": key,
            "label": labels.get(key, key),
            "current": resource.current,
            "maximum": resource.maximum,
            "dots": (
                "●" * resource.current + "○" * max(0, resource.maximum - resource.current)
                if resource.maximum is not None and resource.maximum <= 10
                else ""
            ),
        }
        for key, resource in sorted(sheet.resources.items())
    ]


# --- A character's roll panel ---------------------------------------------------------------


def _panel_key(request: HttpRequest, char_access: CharacterAccess, *, grid: bool = False):
    """The cache key of the panel or odds partial a GET asks for (htmx), or None for what
    is not cached: a full page (it holds messages), a POST, and a panel that shows a
    stored result (rolls are read by who may see them). `grid`: the key of the panel's
    parts that do not read the character's health and XP (`_panel_html`)."""
    query = request.GET.copy()
    query.pop("csrfmiddlewaretoken", None)
    if query.get("part") == "odds":
        query.pop("result", None)  # the odds never show it
    if request.method != "GET" or not request.htmx or "result" in query:
        return None
    if get_system(char_access.access.campaign.system).roll_setup is None:
        return None
    character = char_access.character
    if grid:
        return _key("roll-panel-grid", char_access, character.grid_version, query)
    return _key("roll-panel", char_access, _shown_version(character), query)


def _shown_version(character) -> str:
    """What the panel shows of its character: its rows but for its health and XP (the
    grid version), and its stored health, the one of those two the panel reads (its line,
    its penalty to the odds). An XP award, or a wound undone, leaves the panel as it was."""
    return f"{character.grid_version}-{health_digest(character)}"


def _key(name: str, char_access: CharacterAccess, version, query: QueryDict) -> str:
    """A key of the panel for these choices and this version of its character."""
    access = char_access.access
    campaign = access.campaign
    return fragment_key(
        name,
        viewer(access),
        (char_access.character.pk, version),
        (campaign.pk, campaign.version),
        # A panel that reads more than its character's and campaign's rows, and no rolls.
        campaign.nonroll_seq if campaign.game_system.roll_setup.panel_follows_campaign else None,
        sorted(query.lists()),
    )


# Where the panel kept under the grid version leaves out a part that reads the health:
# never in what a template draws (a "<" in any text comes out escaped).
APART = mark_safe("<~apart~>")


def _panel_html(request: HttpRequest, context: dict, grid_key: str) -> str:
    """The panel partial, for a key of its own. Its parts that read the character's
    health (its line, the set-up's errors, the odds, the button) are drawn for each
    version of the character; the rest, the bulk, is kept under the grid version, which a
    wound leaves (`campaigns.versions.APART`), and drawn with a mark in their place."""
    grid = cached_value(
        grid_key,
        lambda: render_to_string(f"{PANEL}#panel", {**context, "apart": APART}, request=request),
    )
    parts = render_to_string(f"{PANEL}#apart", {**context, "apart": APART}, request=request)
    pieces = grid.split(APART)
    drawn = parts.split(APART)
    return "".join(chain.from_iterable(zip(pieces, [*drawn, ""], strict=True)))


def _rolled_panel(request, char_access, context: dict, kept, *, attack: bool) -> str:
    """The panel a roll answers with: its result, and the choices kept, whose part is kept
    under the grid version as a GET's (`_panel_html`; the versions read back where the
    roll changed the sheet). Drawn whole for a panel that reads the campaign's other rows
    and after an attack: the roll wrote rows of the campaign, whose versions were read
    before it."""
    context = {**context, "csrf_token": CSRF_PLACEHOLDER}
    if attack or char_access.access.campaign.game_system.roll_setup.panel_follows_campaign:
        html = render_to_string(f"{PANEL}#panel", context, request=request)
    else:
        grid_key = _key("roll-panel-rolled", char_access, char_access.character.grid_version, kept)
        html = _panel_html(request, context, grid_key)
    return mark_safe(html.replace(CSRF_PLACEHOLDER, get_token(request)))  # our templates'


def _live_version(access: CampaignAccess, character) -> str:
    """What an open panel's live reload sends ({% live_reload %}): the panel is stale when
    what it shows of its character (`_shown_version`) or the campaign's rows change, or,
    for a panel that reads more, when the reader's sequence moves but for new rolls, which
    no panel reads (campaigns.versions): another player's roll leaves it as it is."""
    setup = get_system(access.campaign.system).roll_setup
    # (An attack's answer reads the sequence again, since its words are in that answer
    # alone: `character_roll`.)
    follows = access.live_nonroll_seq if setup is not None and setup.panel_follows_campaign else ""
    return f"{_shown_version(character)}.{access.campaign.version}.{follows}"


def _panel_form(sheet: Sheet, data, *, is_gm: bool, open_actions: dict, drawn: bool = True):
    form_class = sheet.system.roll_form
    # Ids unique per character: the panel may sit inside a sheet page with other forms.
    kwargs = {
        "sheet": sheet,
        "is_gm": is_gm,
        "open_actions": open_actions,
        "auto_id": f"roll{sheet.character.pk}_%s",
    }
    if data is not None:
        return form_class(data, drawn=drawn, **kwargs)
    form = form_class(None, **kwargs)
    form.bind(default_data(form))
    return form


def _asked_forms(
    sheet: Sheet, query: QueryDict, *, is_gm: bool, open_actions: dict, odds_only: bool = False
):
    """A GET's scene form, panel form and the field the player is asked for. With `kind`
    the query is a whole set-up (the panel's own, or the one kept after a roll); without
    it, each field of the panel's form it names is an initial value over the defaults (a
    plain link can preselect a trait). `trait` then sets what a click on that trait sets
    (`GameSystem.trait_roll`). For the odds box alone (`odds_only`) the form is not drawn,
    and there is no scene form unless the set-up reads the scene (`RollSetup.reads_scene`):
    the sheet then has no scene."""
    whole = "kind" in query
    # The scene first: a form may read the sheet's scene (Objetivo's specialization).
    with_scene = not odds_only or sheet.system.roll_setup.reads_scene
    scene_form = _scene_form(sheet, query if whole else None) if with_scene else None
    spec = sheet.specs.get(query.get("trait", ""))
    trait = sheet.system.trait_roll(spec) if spec is not None else None
    if whole:
        form, data = None, query.copy()
    else:
        form = _panel_form(sheet, None, is_gm=is_gm, open_actions=open_actions)
        data = {**form.data, **{name: query[name] for name in form.fields if name in query}}
    if trait is not None:
        for name, value in trait.choices.items():
            data[name] = value
    if form is None:
        form = _panel_form(sheet, data, is_gm=is_gm, open_actions=open_actions, drawn=not odds_only)
    else:
        form.bind(data)
    return scene_form, form, trait.ask if trait is not None else ""


def _scene_form(sheet: Sheet, data) -> RollSceneForm:
    """Which open scene the roll goes to, from the choices sent (the default when none is):
    the sheet's scene follows it. The open scenes are kept under the campaign's version
    (their rows) and the character's grid version (the scenes it takes part in)."""
    character = sheet.character
    campaign = character.campaign
    key = fragment_key(
        "roll-scenes", campaign.pk, campaign.version, character.pk, character.grid_version
    )
    scenes, default = cached_value(key, lambda: roll_scenes(campaign, character))
    form = RollSceneForm(
        data if data is not None and data.get("scene") else None,
        campaign=campaign,
        scenes=scenes,
        default=default,
        auto_id=f"roll{character.pk}_%s",
    )
    sheet.scene = form.chosen
    return form


def _plan(sheet: Sheet, form, open_actions: dict, scene_form: RollSceneForm | None):
    """The plan of a valid form, or None with the problem added to the form."""
    if sheet.cannot_act:
        # The panel's alert says so once: no error of the set-up repeats it.
        return None
    if not form.is_valid():
        return None
    if scene_form is not None and scene_form.is_bound and not scene_form.is_valid():
        for error in scene_form.errors["scene"]:
            form.add_error(None, error)
        return None
    try:
        return sheet.system.roll_setup.plan(sheet, form.cleaned_data, open_actions=open_actions)
    except (RuleError, ValidationError) as error:
        form.add_error(None, error_text(error))
        return None


def _odds(plan):
    return plan.odds if plan is not None else None


def _panel_context(
    request, access, sheet, form, scene_form, plan, result=None, ask: str = ""
) -> dict:
    character = sheet.character
    return {
        "scene_form": scene_form,
        # What gets the focus when the panel opens from a trait: the field the player still
        # picks, or the roll button (one more tap rolls).
        "focus_id": form[ask].id_for_label if ask in form.fields else f"roll-submit-{character.pk}",
        "access": access,
        "campaign": access.campaign,
        "character": character,
        "sheet": sheet,
        "form": form,
        "plan": plan,
        "odds": _odds(plan),
        "result": roll_display(result) if result is not None else None,
        "aspect_offer": result is not None and _offers_aspect(result, character),
        "pools": _pools(sheet),
        "health_template": sheet.system.template("roll_health"),
        "roll_url": reverse("mechanics:roll", args=[character.campaign_id, character.pk]),
        "live_version": _live_version(access, character),
    }


def _attack_words(attack: CombatAttack) -> str:
    """What became of an attack aimed at a character: where its damage went."""
    names = {"attacker": attack.attacker_name, "target": attack.target_name}
    if attack.is_pending:
        return (
            _("%(attacker)s hits %(target)s: the damage waits for the GM in the combat panel.")
            % names
        )
    if attack.hit:
        return _("%(attacker)s hits %(target)s, but deals no damage.") % names
    return _("%(attacker)s misses %(target)s.") % names


def _offers_aspect(roll: Roll, character) -> bool:
    """A Hitos double or triple offers a temporary aspect, until one is taken for it."""
    offered = (roll.record.get("effects") or {}).get("temporary_aspect")
    return bool(offered) and roll.pk not in character.details.get("aspect_rolls", [])


def _kept_choices(data: QueryDict, one_off: tuple[str, ...]) -> dict:
    """The choices to show again after a roll: everything but the one-off spends."""
    kept = data.copy()
    for name in ("csrfmiddlewaretoken", "part", "result", "saved", "saved_name", *one_off):
        kept.pop(name, None)
    return kept


def _saved_data(character, posted: QueryDict) -> tuple[QueryDict, SavedRoll | None]:
    """The choices to roll: the posted ones, or a saved roll's set-up when `saved` names
    one of the character's (the scene still comes from the post, if chosen)."""
    saved_id = posted.get("saved", "")
    if not saved_id:
        return posted, None
    saved = (
        SavedRoll.objects.filter(character=character, pk=saved_id).first()
        if saved_id.isdigit()
        else None
    )
    if saved is None:
        raise Http404("No such saved roll.")
    data = QueryDict(mutable=True)
    for name, values in saved.setup.items():
        data.setlist(name, [str(value) for value in values])
    if posted.get("scene"):
        data["scene"] = posted["scene"]
    if not data.get("label"):
        data["label"] = saved.name
    return data, saved


def _no_longer_fits(saved: SavedRoll) -> str:
    return _(
        "The saved roll «%(name)s» no longer fits the sheet (a trait or an item it used "
        "may be gone): choose again and save it anew."
    ) % {"name": saved.name}


def _refresh_sheet_section(request, response: HttpResponse, char_access, partial: str) -> None:
    """A change made from the roll panel also updates that part of the sheet when the panel
    sits on the sheet page (an out-of-band swap), so the page never shows two values."""
    character = char_access.character
    sheet_url = reverse("characters:sheet", args=[character.campaign_id, character.pk])
    if request.htmx.current_url_abs_path != sheet_url:
        return

    context = sheet_context(char_access, oob=True)
    response.content += render_to_string(
        f"characters/sheet.html#{partial}", context, request=request
    ).encode()


@login_required
@require_http_methods(["GET", "POST"])
def character_roll(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_roll)
    access = char_access.access
    character = char_access.character
    if up_to_date := unchanged(request, _live_version(access, character)):
        return up_to_date
    is_gm = access.is_gm
    key = _panel_key(request, char_access)
    if key is not None and (html := cached_html(request, key)) is not None:
        return HttpResponse(html)
    # The scene comes from the roller's choice (_scene_form), not the sheet's loader.
    sheet = cached_sheet(character, access.campaign)
    setup = sheet.system.roll_setup
    if setup is None:
        raise Http404("This rule system has no rolls.")
    open_actions = setup.open_actions(character)

    if request.method == "POST":
        data, saved = _saved_data(character, request.POST)
        scene_form = _scene_form(sheet, data)
        form = _panel_form(sheet, data, is_gm=is_gm, open_actions=open_actions)
        plan = _plan(sheet, form, open_actions, scene_form)
        if plan is None and saved is not None and not sheet.cannot_act:
            form.add_error(None, _no_longer_fits(saved))
        if plan is not None:
            try:
                [side] = plan.roll(None)  # None: the engine's cryptographic source
                target = plan.extra.get("target")
                attack = None
                if target is not None:
                    # Aimed at a character: stored with the fight of its scene, where its
                    # damage waits for the GM like the combat panel's.
                    attack = combat_services.scene_attack_record(
                        scene=sheet.scene,
                        user=request.user,
                        attacker=character,
                        target=target,
                        attack=sheet.system.combat.attack_from_roll(side),
                    )
                    stored = attack.roll
                else:
                    [stored] = roll_perform(
                        campaign=access.campaign,
                        user=request.user,
                        sides=[
                            RollSide(
                                record=side.record,
                                character=character,
                                scene=sheet.scene,
                                label=plan.label or form.cleaned_data.get("label", ""),
                            )
                        ],
                        secret=bool(form.cleaned_data.get("secret")),
                        group=plan.group,
                    )
            except (RuleError, ValidationError) as error:
                form.add_error(None, error_text(error))
            else:
                kept = _kept_choices(data, form.one_off_fields())
                setup.kept_after_roll(stored, kept)
                if not request.htmx:
                    if attack is not None:
                        messages.success(request, _attack_words(attack))
                    kept["result"] = str(stored.pk)
                    return redirect(f"{request.path}?{urlencode(kept, doseq=True)}")
                # Read the sheet again only if the roll changed it (a pool spent, an aspect
                # exhausted...), and the extended actions only after an extended roll.
                changed = bool(stored.record.get("details", {}).get("applied"))
                if changed:
                    character.refresh_from_db(
                        fields=["details", "health", "version", "grid_version"]
                    )
                    scene = sheet.scene
                    sheet = cached_sheet(character, access.campaign)
                    sheet.scene = scene
                elif stored.group is not None or attack is not None:
                    # An extended action's roll bumped the version that keys its progress;
                    # an attack, its attacker's (the fight links to it).
                    character.refresh_from_db(fields=["version", "grid_version"])
                if attack is not None:
                    # The answer carries the versions the attack left, so the live reload
                    # its own change sends finds the panel up to date and keeps its words.
                    access.campaign.refresh_from_db(
                        fields=["version", "nonroll_seq", "public_seq", "public_roll_seq"]
                    )
                if changed or stored.group is not None:
                    open_actions = setup.open_actions(character)
                    form = _panel_form(sheet, kept, is_gm=is_gm, open_actions=open_actions)
                    plan = _plan(sheet, form, open_actions, scene_form)
                elif any(kept.getlist(name) != data.getlist(name) for name in form.fields):
                    # The same sheet: the form's fields stand, for the choices kept.
                    form.bind(kept)
                    plan = _plan(sheet, form, open_actions, scene_form)
                # Else the same choices on the same sheet: the form and its plan stand.
                context = _panel_context(request, access, sheet, form, scene_form, plan, stored)
                context["attack_words"] = _attack_words(attack) if attack is not None else ""
                response = HttpResponse(
                    _rolled_panel(request, char_access, context, kept, attack=attack is not None)
                )
                if changed:
                    _refresh_sheet_section(request, response, char_access, "resources")
                trigger_client_event(
                    response, "cronica:roll", {"character": character.pk, "roll": stored.pk}
                )
                return response
        template = f"{PANEL}#panel" if request.htmx else PANEL
        context = _panel_context(request, access, sheet, form, scene_form, None)
        return _respond(request, template, context)

    # The odds box alone (htmx, at each change of the set-up): it draws nothing but the
    # odds, or what to fix, and reads the open scenes only for a set-up that reads the
    # scene (the panel draws them, the roll checks the one chosen).
    odds_only = bool(request.htmx) and request.GET.get("part") == "odds"
    scene_form, form, ask = _asked_forms(
        sheet, request.GET, is_gm=is_gm, open_actions=open_actions, odds_only=odds_only
    )
    plan = _plan(sheet, form, open_actions, scene_form)
    if odds_only:
        context = {"character": character, "form": form, "odds": _odds(plan)}

        def render(extra: dict) -> str:
            return render_to_string(f"{PANEL}#odds", {**context, **extra}, request=request)

        return HttpResponse(cached_fragment(request, key, render))
    result = None
    if request.GET.get("result", "").isdigit():
        result = (
            visible_rolls(access, Roll.objects.filter(character=character))
            .filter(pk=int(request.GET["result"]))
            .first()
        )
    context = _panel_context(request, access, sheet, form, scene_form, plan, result, ask)
    if key is not None:
        grid_key = _panel_key(request, char_access, grid=True)

        def render(extra: dict) -> str:
            return _panel_html(request, {**context, **extra}, grid_key)

        return HttpResponse(cached_fragment(request, key, render))
    if request.htmx:
        return _respond(request, f"{PANEL}#panel", context)
    return _respond(request, PANEL, context)


# --- The GM's panel: NPCs and two-sided rolls -----------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def gm_roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.is_gm)
    campaign = access.campaign
    characters = list(campaign.characters.select_related("owner").order_by("-is_npc", "name"))
    data = request.POST if request.method == "POST" else None
    if data is None and "kind" in request.GET:
        data = request.GET
    main, side_a, side_b, helpers = gm_forms(data, campaign, characters)
    plan = gm_plan(campaign, main, side_a, side_b, helpers) if data is not None else None
    results = []
    if request.method == "POST" and plan is not None:
        try:
            sides = plan.roll(None)
            stored = roll_perform(
                campaign=campaign,
                user=request.user,
                sides=[
                    RollSide(
                        record=side.record,
                        character=side.sheet.character,
                        scene=side.sheet.scene,
                        label=main.cleaned_data.get("label", ""),
                    )
                    for side in sides
                ],
                secret=bool(main.cleaned_data.get("secret")),
                group=plan.group,
            )
        except (RuleError, ValidationError) as error:
            main.add_error(None, error_text(error))
        else:
            # No side spends again unless the GM asks again.
            spends = campaign.game_system.side_form.spends
            one_off = ("secret", *(f"{p}-{name}" for p in ("a", "b", *HELPERS) for name in spends))
            kept = _kept_choices(request.POST, one_off)
            if not request.htmx:
                kept["group"] = str(plan.group)
                return redirect(f"{request.path}?{urlencode(kept, doseq=True)}")
            results = stored
            main, side_a, side_b, helpers = gm_forms(kept, campaign, characters)
            plan = gm_plan(campaign, main, side_a, side_b, helpers)
    group = request.GET.get("group", "")
    if request.method == "GET" and group:
        try:
            results = list(
                visible_rolls(access, Roll.objects.filter(campaign=campaign, group=group))
                .select_related("character")
                .order_by("pk")
            )
        except ValidationError:
            results = []
    context = {
        "access": access,
        "campaign": campaign,
        "characters": characters,
        "main": main,
        "side_a": side_a,
        "side_b": side_b,
        "helpers": helpers,
        "plan": plan,
        "odds": plan.odds if plan is not None else None,
        "error_forms": relevant_forms(main, side_a, side_b, helpers) if data else [],
        "results": [roll_display(roll) for roll in results],
        "gm_url": reverse("mechanics:gm_roll", args=[campaign.pk]),
    }
    if request.htmx:
        part = "odds" if request.GET.get("part") == "odds" else "panel"
        return _respond(request, f"{GM_PANEL}#{part}", context)
    return _respond(request, GM_PANEL, context)


@login_required
@require_POST
def roll_aspect(
    request: HttpRequest, campaign_id: int, character_id: int, roll_id: int
) -> HttpResponse:
    """Take the temporary aspect a Hitos double or triple offers (the panel offers it:
    docs/rules.md#hitos-temporary-aspects)."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_roll)
    character = char_access.character
    roll = get_object_or_404(Roll, pk=roll_id, character=character, campaign_id=campaign_id)
    error = None
    try:
        aspect = services.roll_temporary_aspect(
            character=character, user=request.user, roll=roll, text=request.POST.get("text", "")
        )
    except ValidationError as exc:
        error = exc.messages[0]
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, _("Aspect added: «%(text)s».") % {"text": aspect.text})
        return redirect(character)
    context = {
        "roll": roll,
        "campaign": char_access.access.campaign,
        "character": character,
        "error": error,
        "aspect": None if error else aspect,
        "typed": request.POST.get("text", ""),
    }
    response = render(request, "mechanics/_roll_aspect.html", context)
    if not error:
        _refresh_sheet_section(request, response, char_access, "aspects")
    return response
