"""The combat panel of a scene, and "time passes" for everyone in a scene.

GMs run the fight; players and observers of the campaign watch it read-only (their page
polls and refreshes the panel while a fight is on); non-members get a 404, and so does
every combat URL of a system without combat. Every write goes through
`mechanics.services` (combat and time), and every control works without JavaScript:
plain forms with POST/redirect/GET, and htmx swaps the panel (`combat.html#combat-panel`)
when it is there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.models import Scene
from campaigns.permissions import (
    CampaignAccess,
    CharacterAccess,
    campaign_access,
    require,
    sees_full_sheet,
)
from campaigns.selectors import scene_or_404
from campaigns.views.chronicle import scene_page_context
from characters.models import Character
from mechanics import combat as rules
from mechanics.combat_timeline import summary_for
from mechanics.forms.combat import (
    AddFightersForm,
    AttackForm,
    MoveForm,
    PhaseForm,
    SceneTimeForm,
)
from mechanics.forms.errors import error_text
from mechanics.health_panel import state_label
from mechanics.models import Combat, CombatAttack, CombatParticipant
from mechanics.rules.dice import default_rng
from mechanics.rules.errors import RuleError
from mechanics.services import combat as services
from mechanics.services.health import scene_advance_time
from mechanics.setup import Sheet, load_sheets
from mechanics.systems.base import HealthView, hours_in_words

PANEL = "mechanics/combat.html"
RECENT_ATTACKS = 30


def _respond(request: HttpRequest, template: str, context: dict, status: int = 200):
    return render(request, template, context, status=status)


def _combat_or_404(scene: Scene, combat_id: int) -> Combat:
    combat = Combat.objects.filter(pk=combat_id, scene=scene).first()
    if combat is None:
        raise Http404
    combat.scene = scene
    return combat


def _rules_or_404(campaign) -> rules.CombatRules:
    """The campaign's combat hooks; a system without combat has no panel."""
    combat_rules = campaign.game_system.combat
    if combat_rules is None:
        raise Http404
    return combat_rules


def _load(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    access = campaign_access(request.user, campaign_id)
    _rules_or_404(access.campaign)
    scene = scene_or_404(access, scene_id)
    return access, scene, _combat_or_404(scene, combat_id)


# --- What the panel shows -------------------------------------------------------------------


@dataclass
class FighterRow:
    participant: CombatParticipant
    character: Character
    position: int | None
    current: bool
    # None when the viewer may not see this character's sheet (health is sheet data).
    health: HealthView | None
    cannot_act: bool
    # The state's name, else "Wounded" or "Unhurt" as the sheet says it: a 3d6 + NdP wound
    # without a state is still a wound (`health_panel.state_label`). "" with no `health`.
    state: str = ""
    phase_form: PhaseForm | None = None
    # The system's one-click pool actions the viewer may take (the GM hands a destiny
    # point back), with whether each is pending: the sheet's `characters:pool_action`.
    pool_actions: tuple = ()


def _participants(combat: Combat, campaign) -> list[CombatParticipant]:
    participants = list(
        combat.participants.select_related("character__owner", "initiative_roll__user")
    )
    for participant in participants:
        participant.character.campaign = campaign
    return participants


def _version(combat: Combat, participants: list[CombatParticipant]) -> str:
    """Changes whenever the panel would: the combat row moves on every write, and the
    fighters' health may change from their sheets too."""
    health = {p.character_id: p.character.health for p in participants}
    raw = json.dumps([combat.updated_at.isoformat(), health], sort_keys=True, default=str)
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()[:16]


def _default_data(form: AttackForm) -> dict:
    """What an untouched attack form posts: each field's initial value."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else str(value)
    return data


def _fight_data(form: AttackForm, combat: Combat, attacker_id: int, target_id: int) -> dict:
    """The attack form's choices and what the system's hooks read of the fight so far."""
    data = dict(form.cleaned_data)
    if form.rules.counts_actions:
        data.update(services.attack_counts(combat, attacker_id, target_id))
    if form.rules.reads_last_shots:
        data.update(last_shots=services.last_shots(combat, attacker_id), round=combat.round)
    if form.rules.moves:
        fighter = combat.participants.filter(character_id=attacker_id).first()
        data["moved"] = services.moved_this_round(fighter, combat.round) if fighter else 0
    return data


def _chosen(data: QueryDict | dict | None, name: str) -> int | None:
    """The character id `data` names for `name` (attacker, target), if it is one."""
    value = str(data.get(name, "")) if data is not None else ""
    return int(value) if value.isdigit() else None


def _attack_form(
    access: CampaignAccess,
    combat: Combat,
    order: list[CombatParticipant],
    sheets: dict[int, Sheet],
    data: QueryDict | dict | None,
    *,
    adjust: bool = False,
) -> tuple[AttackForm, rules.AttackPlan | None, str]:
    """The attack set-up (bound to `data`, or to the defaults: the character whose turn
    it is against the next one), its odds, and any problem setting it up. `adjust`: the
    set-up is shown, not rolled (the GM is still choosing, or it is kept after an
    action), so what no longer fits falls back to its default: an attacker or target
    no longer in the fight, a target equal to the attacker, a choice of another sheet."""
    fighters = [p.character for p in order if p.active]
    in_fight = {c.pk for c in fighters}
    attacker_id = _chosen(data, "attacker")
    if attacker_id is None or (adjust and attacker_id not in in_fight):
        current = next((p for p in order if p.pk == combat.current_id), None)
        attacker_id = current.character_id if current else (fighters[0].pk if fighters else None)
    sheet = sheets.get(attacker_id)
    kwargs = {"rules": _rules_or_404(access.campaign), "fighters": fighters, "sheet": sheet}
    target = next((c.pk for c in fighters if c.pk != attacker_id), None)
    if data is None:
        unbound = AttackForm(initial={"attacker": attacker_id, "target": target}, **kwargs)
        data = _default_data(unbound)
    elif adjust and attacker_id is not None:
        target_id = _chosen(data, "target")
        data = data.copy()
        data["attacker"] = str(attacker_id)
        if target is not None and (target_id == attacker_id or target_id not in in_fight):
            # The GM just picked as attacker the one who was the target, or the target
            # left the fight: aim at another.
            data["target"] = str(target)
    form = AttackForm(data, **kwargs)
    if adjust and data is not None and not form.is_valid():
        # Choices offered by the previous attacker's sheet (a weapon) go back to the new
        # attacker's defaults instead of showing an error while the GM is still choosing.
        stale = [
            name
            for name in form.system_fields
            if name in form.errors and isinstance(form.fields[name], forms.ChoiceField)
        ]
        if stale:
            defaults = _default_data(AttackForm(**kwargs))
            data = data.copy()
            for name in stale:
                data[name] = defaults.get(name, "")
            form = AttackForm(data, **kwargs)
    if not fighters or not form.is_valid():
        return form, None, ""
    attacker = sheets[form.cleaned_data["attacker"]]
    target = sheets[form.cleaned_data["target"]]
    data = _fight_data(form, combat, attacker.character.pk, target.character.pk)
    try:
        return form, rules.plan_attack(attacker, target, data), ""
    except (RuleError, ValidationError) as error:
        return form, None, error_text(error)


def _candidates(access: CampaignAccess, scene: Scene, participants) -> list[Character]:
    """Who may join: the scene's characters and the campaign's NPCs not in the fight yet."""
    fighting = {p.character_id for p in participants if p.active}
    in_scene = list(scene.participants.select_related("owner"))
    npcs = access.campaign.characters.filter(is_npc=True).exclude(pk__in=[c.pk for c in in_scene])
    chosen = in_scene + list(npcs.select_related("owner"))
    chosen.sort(key=lambda c: (c.is_npc, c.name, c.pk))
    return [c for c in chosen if c.pk not in fighting]


def _panel_context(
    request: HttpRequest,
    access: CampaignAccess,
    scene: Scene,
    combat: Combat,
    *,
    attack_data=None,
    adjust: bool = False,
    notice: str = "",
    error: str = "",
    add_form: AddFightersForm | None = None,
    move_form: MoveForm | None = None,
) -> dict:
    campaign = access.campaign
    participants = _participants(combat, campaign)
    characters = [p.character for p in participants]
    sheets = load_sheets(characters, campaign, with_scene=False) if characters else {}
    order = rules.turn_order(participants)
    combat_rules = _rules_or_404(campaign)
    phases = combat_rules.phases
    running = access.can_run_scenes and combat.is_active
    rows = []
    position = 0
    for participant in order:
        if participant.active and participant.initiative is not None:
            position += 1
        sheet = sheets[participant.character_id]
        sees = sees_full_sheet(access, participant.character.owner_id)
        phase_form = None
        if running and phases:
            phase_form = PhaseForm(
                initial={"phase": participant.phase},
                phases=phases,
                auto_id=f"phase{participant.pk}_%s",
            )
        character_rights = CharacterAccess(access, participant.character)
        pool_actions = tuple(
            (action, action.pending(participant.character))
            for action in campaign.game_system.pool_actions
            if running
            and action.pool in sheet.resources
            and getattr(character_rights, action.permission)
        )
        rows.append(
            FighterRow(
                participant=participant,
                character=participant.character,
                position=position if participant.active and participant.initiative else None,
                current=participant.pk == combat.current_id,
                health=sheet.health if sees else None,
                cannot_act=sees and sheet.cannot_act,
                state=state_label(sheet.health, campaign.game_system) if sees else "",
                phase_form=phase_form,
                pool_actions=pool_actions,
            )
        )
    attacks = combat.attacks.select_related(
        "roll__user",
        "roll__character",
        "defence_roll__user",
        "defence_roll__character",
    )
    pending = list(attacks.filter(status=CombatAttack.Status.PENDING).order_by("created_at", "pk"))
    recent = list(
        attacks.exclude(status=CombatAttack.Status.PENDING).order_by("-created_at", "-pk")[
            :RECENT_ATTACKS
        ]
    )
    for attack in (*pending, *recent):
        for roll in (attack.roll, attack.defence_roll):
            if roll is not None and roll.scene_id == scene.pk:
                roll.scene = scene  # already loaded: the roll card reads its title
        # Damage is health information: shown to those who may see the target's sheet.
        owner = next((c.owner_id for c in characters if c.pk == attack.target_id), None)
        attack.damage_visible = sees_full_sheet(access, owner)
    for attack in pending:
        attack.waiting_notes = combat_rules.pending_notes(attack.with_damage, sheets)
    spend = combat_rules.initiative_spend
    # Who may spend on the initiative about to be rolled: fighters still to roll who hold
    # some of the pool.
    spenders = [
        row
        for row in rows
        if running
        and spend is not None
        and row.participant.active
        and row.participant.initiative is None
        and spend[0] in sheets[row.character.pk].resources
        and sheets[row.character.pk].pool_current(spend[0]) > 0
    ]
    context = {
        "access": access,
        "campaign": campaign,
        "scene": scene,
        "combat": combat,
        "initiative_spenders": spenders,
        "initiative_spend_label": spend[1] if spend else "",
        "rows": rows,
        "phases": phases,
        "pending": pending,
        "recent": recent,
        "running": running,
        "needs_initiative": any(p.active and p.initiative is None for p in participants),
        "initiative_rule": combat_rules.initiative_rule(),
        "penalty_template": campaign.game_system.template("combat_penalty"),
        "version": _version(combat, participants),
        "notice": notice,
        "error": error,
        "summary": summary_for(access, combat.summary) if not combat.is_active else None,
    }
    if running:
        form, plan, problem = _attack_form(
            access, combat, order, sheets, attack_data, adjust=adjust
        )
        context.update(attack_form=form, plan=plan, attack_problem=problem)
        # With one fighter left (the others dead or out) there is nobody to attack: the
        # panel says so rather than draw a set-up that can only be refused.
        context["can_attack"] = sum(1 for p in participants if p.active) >= 2
        context["add_form"] = add_form or AddFightersForm(
            candidates=_candidates(access, scene, participants)
        )
        if combat_rules.moves and combat.round:
            fighters = [p.character for p in order if p.active]
            current = next((p for p in order if p.pk == combat.current_id), None)
            context["move_form"] = move_form or MoveForm(
                initial={"fighter": current.character_id if current else None},
                fighters=fighters,
            )
    return context


def _panel(request: HttpRequest, context: dict) -> HttpResponse:
    """The panel for htmx, the whole page otherwise."""
    partial = request.htmx and not request.htmx.history_restore_request
    return _respond(request, f"{PANEL}#combat-panel" if partial else PANEL, context)


# --- Pages ----------------------------------------------------------------------------------


@login_required
@require_GET
def combat(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    """The scene's fight in progress, or (none on) a start button and the earlier fights."""
    access = campaign_access(request.user, campaign_id)
    _rules_or_404(access.campaign)
    scene = scene_or_404(access, scene_id)
    combats = list(scene.combats.order_by("-started_at", "-pk"))
    active = next((c for c in combats if c.is_active), None)
    if active is not None:
        return redirect(active.get_absolute_url())
    context = {
        "access": access,
        "campaign": access.campaign,
        "scene": scene,
        "combat": None,
        "earlier": combats,
    }
    return _respond(request, PANEL, context)


@login_required
@require_GET
def combat_detail(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    access, scene, combat = _load(request, campaign_id, scene_id, combat_id)
    since = request.GET.get("since")
    if since and request.htmx:
        # A watcher's poll: nothing new, nothing to send.
        participants = list(
            combat.participants.select_related("character").only(
                "pk", "character", "character__health"
            )
        )
        if _version(combat, participants) == since:
            response = HttpResponse(status=204)
            return response
    context = _panel_context(request, access, scene, combat)
    context["earlier"] = list(scene.combats.exclude(pk=combat.pk).order_by("-started_at", "-pk"))
    return _panel(request, context)


@login_required
@require_POST
def combat_start(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    _rules_or_404(access.campaign)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    try:
        started = services.combat_start(scene=scene, user=request.user)
    except ValidationError as error:
        messages.error(request, error_text(error))
        return redirect("mechanics:combat", campaign_id, scene_id)
    # No flash message: the panel says what comes next, and a message would stay on
    # screen while htmx swaps the panel under it.
    started.scene = scene
    return redirect(started.get_absolute_url())


def _after_action(
    request: HttpRequest,
    access: CampaignAccess,
    scene: Scene,
    combat: Combat,
    *,
    notice: str = "",
    error: str = "",
    **extra,
) -> HttpResponse:
    """The panel again (htmx), or POST/redirect/GET with the message. The attack set-up
    the action carried (the panel's forms include it) is drawn again as it was, unless
    the turn moved on (initiative, the next turn): the set-up then follows the turn, the
    new fighter against the next one, as the panel opens."""
    if request.htmx:
        turn = combat.current_id
        combat.refresh_from_db()
        if "attack_data" not in extra:
            kept = combat.current_id == turn
            extra["attack_data"] = (
                _kept(request.POST, _rules_or_404(access.campaign)) if kept else None
            )
        context = _panel_context(
            request, access, scene, combat, notice=notice, error=error, adjust=True, **extra
        )
        return _respond(request, f"{PANEL}#combat-panel", context)
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect(combat.get_absolute_url())


def _gm_action(request, campaign_id: int, scene_id: int, combat_id: int, action) -> HttpResponse:
    """Run `action(combat)` for a GM; it returns the message to show."""
    access, scene, combat = _load(request, campaign_id, scene_id, combat_id)
    require(access.can_run_scenes)
    try:
        notice = action(combat)
    except (RuleError, ValidationError) as error:
        return _after_action(request, access, scene, combat, error=error_text(error))
    return _after_action(request, access, scene, combat, notice=notice)


@login_required
@require_POST
def combat_add(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    access, scene, combat = _load(request, campaign_id, scene_id, combat_id)
    require(access.can_run_scenes)
    candidates = _candidates(access, scene, list(combat.participants.all()))
    form = AddFightersForm(request.POST, candidates=candidates)
    if not form.is_valid():
        if request.htmx:
            # The panel shows the message beside the list, kept open with its choices.
            return _after_action(request, access, scene, combat, add_form=form)
        error = " ".join(e for errors in form.errors.values() for e in errors)
        return _after_action(request, access, scene, combat, error=error)
    chosen = [c for c in candidates if c.pk in form.cleaned_data["characters"]]
    try:
        added = services.combat_add_participants(combat=combat, characters=chosen)
    except ValidationError as error:
        return _after_action(request, access, scene, combat, error=error_text(error))
    notice = ngettext(
        "%(count)d character joins the fight.", "%(count)d characters join the fight.", len(added)
    ) % {"count": len(added)}
    return _after_action(request, access, scene, combat, notice=notice)


def _participant_or_404(combat: Combat, participant_id: int) -> CombatParticipant:
    participant = combat.participants.select_related("character").filter(pk=participant_id).first()
    if participant is None:
        raise Http404
    participant.combat = combat
    return participant


@login_required
@require_POST
def combat_remove(
    request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int, participant_id: int
):
    def action(combat: Combat) -> str:
        participant = _participant_or_404(combat, participant_id)
        services.combat_remove_participant(participant=participant)
        return _("%(name)s leaves the fight.") % {"name": participant.character.name}

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_phase(
    request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int, participant_id: int
):
    def action(combat: Combat) -> str:
        participant = _participant_or_404(combat, participant_id)
        form = PhaseForm(request.POST, phases=_rules_or_404(combat.scene.campaign).phases)
        if not form.is_valid():
            raise ValidationError(_("Unknown combat phase."))
        services.combat_set_phase(participant=participant, phase=form.cleaned_data["phase"])
        return _("%(name)s now acts in the phase %(phase)s.") % {
            "name": participant.character.name,
            "phase": dict(form.fields["phase"].choices)[form.cleaned_data["phase"]],
        }

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_initiative(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    def action(combat: Combat) -> str:
        chosen = request.POST.getlist("spend")
        if not all(value.isdigit() for value in chosen):
            raise ValidationError(_("Unknown fighter."), code="spend")
        rolls = services.combat_roll_initiative(
            combat=combat, user=request.user, spenders={int(value) for value in chosen}
        )
        return ngettext(
            "Initiative rolled for %(count)d character.",
            "Initiative rolled for %(count)d characters.",
            len(rolls),
        ) % {"count": len(rolls)}

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_next(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    def action(combat: Combat) -> str:
        before = combat.round
        moved = services.combat_next_turn(combat=combat, user=request.user)
        name = moved.current.character.name
        if moved.round == before:
            return _("%(name)s's turn.") % {"name": name}
        notice = _("Round %(round)s: %(name)s's turn.") % {"round": moved.round, "name": name}
        if moved.bled:
            notice += " " + _("Bleeding: %(names)s.") % {"names": ", ".join(moved.bled)}
        return notice

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_move(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    """A fighter moves this turn (a system with movement rules); what the GM typed stays
    in the form when the move is refused."""
    access, scene, combat = _load(request, campaign_id, scene_id, combat_id)
    require(access.can_run_scenes)
    _rules_or_404(access.campaign)
    fighters = [p.character for p in combat.participants.select_related("character") if p.active]
    form = MoveForm(request.POST, fighters=fighters)
    if not form.is_valid():
        error = " ".join(e for errors in form.errors.values() for e in errors)
        return _after_action(request, access, scene, combat, error=error, move_form=form)
    character = next(c for c in fighters if c.pk == form.cleaned_data["fighter"])
    try:
        notice = services.combat_move(
            combat=combat,
            character=character,
            metres=form.cleaned_data["metres"],
            adversity=form.cleaned_data["adversity"],
            user=request.user,
        )
    except (RuleError, ValidationError) as error:
        return _after_action(
            request, access, scene, combat, error=error_text(error), move_form=form
        )
    return _after_action(request, access, scene, combat, notice=notice)


def _kept(data: QueryDict, combat_rules: rules.CombatRules) -> QueryDict | None:
    """The attack choices to show again after an action, without the one-off spends;
    None when `data` carries no set-up (the panel's defaults then)."""
    if "attacker" not in data:
        return None
    kept = data.copy()
    for name in ("csrfmiddlewaretoken", *combat_rules.spends):
        kept.pop(name, None)
    return kept


@login_required
@require_http_methods(["GET", "POST"])
def combat_attack(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    """GET: the attack set-up and its odds (htmx on every change, or the page); POST:
    roll it on the server and store it. Its damage then waits for the GM's decision."""
    access, scene, combat = _load(request, campaign_id, scene_id, combat_id)
    require(access.can_run_scenes)
    if not combat.is_active:
        return redirect(combat.get_absolute_url())
    if request.method == "GET":
        data = request.GET if "attacker" in request.GET else None
        context = _panel_context(request, access, scene, combat, attack_data=data, adjust=True)
        if request.htmx:
            return _respond(request, f"{PANEL}#combat-attack", context)
        return _respond(request, PANEL, context)
    context = _panel_context(request, access, scene, combat, attack_data=request.POST)
    form = context["attack_form"]
    if form.is_valid() and context["plan"] is not None:
        ids = [form.cleaned_data["attacker"], form.cleaned_data["target"]]
        fighters = {c.pk: c for c in Character.objects.filter(pk__in=ids)}
        sheets = load_sheets([fighters[pk] for pk in ids], access.campaign, with_scene=False)
        attacker, target = (sheets[pk] for pk in ids)
        data = _fight_data(form, combat, *ids)
        try:
            rolled = rules.roll_attack(attacker, target, data, default_rng())
            attack = services.combat_attack_record(
                combat=combat,
                user=request.user,
                attacker=attacker.character,
                target=target.character,
                attack=rolled,
            )
        except (RuleError, ValidationError) as error:
            form.add_error(None, error_text(error))
        else:
            notice = _attack_notice(attack)
            kept = _kept(request.POST, form.rules)
            if not request.htmx:
                messages.success(request, notice)
                url = reverse("mechanics:combat_attack", args=[campaign_id, scene_id, combat_id])
                return redirect(f"{url}?{urlencode(kept, doseq=True)}#combat-pending")
            combat.refresh_from_db()
            return _after_action(request, access, scene, combat, notice=notice, attack_data=kept)
    return _panel(request, context)


def _attack_notice(attack: CombatAttack) -> str:
    names = {"attacker": attack.attacker_name, "target": attack.target_name}
    if attack.is_pending:
        return _("%(attacker)s hits %(target)s: apply or discard the damage.") % names
    if attack.hit:
        return _("%(attacker)s hits %(target)s, but deals no damage.") % names
    return _("%(attacker)s misses %(target)s.") % names


def _attack_or_404(combat: Combat, attack_id: int) -> CombatAttack:
    attack = combat.attacks.filter(pk=attack_id).first()
    if attack is None:
        raise Http404
    attack.combat = combat
    return attack


@login_required
@require_POST
def combat_apply(
    request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int, attack_id: int
):
    def action(combat: Combat) -> str:
        attack = _attack_or_404(combat, attack_id)
        services.combat_attack_apply(attack=attack, user=request.user)
        return _("Damage applied to %(name)s: %(damage)s.") % {
            "name": attack.target_name,
            "damage": attack.damage_words,
        }

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_discard(
    request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int, attack_id: int
):
    def action(combat: Combat) -> str:
        attack = _attack_or_404(combat, attack_id)
        services.combat_attack_discard(attack=attack, user=request.user)
        return _("Damage discarded: nothing was applied to %(name)s.") % {
            "name": attack.target_name
        }

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


@login_required
@require_POST
def combat_end(request: HttpRequest, campaign_id: int, scene_id: int, combat_id: int):
    def action(combat: Combat) -> str:
        services.combat_end(combat=combat, user=request.user)
        return _("The combat is over. Its summary is in the scene's record.")

    return _gm_action(request, campaign_id, scene_id, combat_id, action)


# --- Time passes for everyone in a scene ----------------------------------------------------


@login_required
@require_POST
def scene_time(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    """The GM lets in-game time pass for every character of the scene: each heals by its
    system's rules (`mechanics.services.health.scene_advance_time`)."""
    access = campaign_access(request.user, campaign_id)
    scene = scene_or_404(access, scene_id)
    require(access.can_run_scenes)
    form = SceneTimeForm(request.POST)
    back = f"{scene.get_absolute_url()}#scene-time"
    if not form.is_valid():
        errors = [e for errors in form.errors.values() for e in errors]
        messages.error(request, " ".join(errors) or _("Say how much time passes."))
        # The scene page again, with what the GM typed in its card (no redirect: kept).
        context = scene_page_context(request, access, scene, time_form=form)
        return render(request, "campaigns/scene.html", context)
    hours = form.cleaned_data["hours"]
    try:
        events = scene_advance_time(
            scene=scene,
            user=request.user,
            hours=hours,
            reason=form.cleaned_data["reason"],
            rested=form.cleaned_data["rested"] or access.campaign.game_system.rest_question is None,
        )
    except ValidationError as error:
        messages.error(request, error_text(error))
        return redirect(back)
    if not events:
        messages.warning(request, _("Nobody takes part in this scene: no time passed."))
    else:
        messages.success(
            request,
            ngettext(
                "%(time)s passed for %(count)d character.",
                "%(time)s passed for %(count)d characters.",
                len(events),
            )
            % {"time": hours_in_words(hours), "count": len(events)},
        )
    return redirect(back)
