"""Writes for campaigns, memberships, invitations and the chronicle: one transaction each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Campaign,
    Combat,
    CombatAttack,
    CombatParticipant,
    DiaryEntry,
    Invitation,
    Membership,
    Removal,
    Role,
    Scene,
    SceneNote,
    Story,
)
from campaigns.permissions import may_join_through
from characters.models import Character, HealthEvent

# Campaign settings a form may set directly (see CampaignForm.options).
CAMPAIGN_OPTIONS = (
    "max_characters_per_player",
    "players_see_full_sheets",
    "xp_rubric",
    "xp_purchases_need_approval",
    "hitos_drama_sacrifice",
    "owner_applies_damage",
)


def _options(options: dict | None) -> dict:
    options = dict(options or {})
    unknown = set(options) - set(CAMPAIGN_OPTIONS)
    if unknown:
        raise ValidationError(_("These settings cannot be changed here."), code="forbidden")
    return options


@transaction.atomic
def campaign_create(
    *,
    user,
    name: str,
    description: str,
    system: str,
    house_rules: dict,
    options: dict | None = None,
) -> Campaign:
    campaign = Campaign.objects.create(
        name=name,
        description=description,
        system=system,
        house_rules=house_rules,
        created_by=user,
        **_options(options),
    )
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return campaign


@transaction.atomic
def campaign_update(
    *,
    campaign: Campaign,
    name: str,
    description: str,
    system: str,
    house_rules: dict,
    options: dict | None = None,
) -> Campaign:
    options = _options(options)
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if system != locked.system and locked.characters.exists():
        raise ValidationError(
            _("The rule system can only change while the campaign has no characters."),
            code="system_locked",
        )
    locked.name = name
    locked.description = description
    locked.system = system
    locked.house_rules = house_rules
    for field, value in options.items():
        setattr(locked, field, value)
    locked.save()
    return locked


@transaction.atomic
def invitation_create(*, campaign: Campaign, user, role: str, expires_at, max_uses: int | None):
    return Invitation.objects.create(
        campaign=campaign, role=role, expires_at=expires_at, max_uses=max_uses, created_by=user
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def invitation_accept(*, token: str, user) -> Membership:
    """Join the campaign through a link; a member who opens it again keeps their role."""
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None:
        raise ValidationError(_("This invitation link does not exist."), code="missing")
    existing = Membership.objects.filter(campaign_id=invitation.campaign_id, user=user).first()
    if existing is not None:
        return existing
    if not may_join_through(invitation, user):
        raise ValidationError(
            _(
                "A game master removed you from this campaign after this link was made. "
                "Ask them for a new invitation if they want you back."
            ),
            code="removed",
        )
    messages = {
        "revoked": _("This invitation link has been revoked."),
        "expired": _("This invitation link has expired."),
        "used_up": _("This invitation link has been used the maximum number of times."),
    }
    if invitation.status != "active":
        raise ValidationError(messages[invitation.status], code=invitation.status)
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    return Membership.objects.create(
        campaign_id=invitation.campaign_id, user=user, role=invitation.role
    )


def _lock_gms(campaign_id: int) -> list[int]:
    return list(
        Membership.objects.select_for_update()
        .filter(campaign_id=campaign_id, role=Role.GM)
        .values_list("pk", flat=True)
    )


def _ensure_not_last_gm(membership: Membership) -> None:
    gm_ids = _lock_gms(membership.campaign_id)
    if gm_ids == [membership.pk]:
        raise ValidationError(
            _("A campaign needs at least one game master: name another GM first."),
            code="last_gm",
        )


@transaction.atomic
def membership_change_role(*, membership: Membership, role: str) -> Membership:
    if role not in Role.values:
        raise ValidationError(_("Unknown role."), code="invalid_role")
    if membership.role == Role.GM and role != Role.GM:
        _ensure_not_last_gm(membership)
    Membership.objects.filter(pk=membership.pk).update(role=role)
    membership.role = role
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, removed_by=None) -> None:
    """Leave (no `removed_by`), or be removed by a GM: then invitations made before now no
    longer let this user back in."""
    if membership.role == Role.GM:
        _ensure_not_last_gm(membership)
    Membership.objects.filter(pk=membership.pk).delete()
    if removed_by is not None:
        membership_record_removal(membership=membership, removed_by=removed_by)


def membership_record_removal(*, membership: Membership, removed_by) -> None:
    """Bar older invitations for a member someone else removed (also from the admin)."""
    if membership.user_id != removed_by.pk:
        Removal.objects.create(
            campaign_id=membership.campaign_id, user_id=membership.user_id, removed_by=removed_by
        )


# The chronicle: stories, scenes, diaries and GM notes.


def _story_in(campaign: Campaign, story: Story | None) -> Story | None:
    if story is not None and story.campaign_id != campaign.pk:
        raise ValidationError(_("That story belongs to another campaign."), code="foreign_story")
    return story


def _participants_in(campaign: Campaign, participants: Iterable[Character]) -> list[Character]:
    """Only characters of the scene's own campaign may take part."""
    chosen = list(participants)
    foreign = [c for c in chosen if c.campaign_id != campaign.pk]
    if foreign:
        raise ValidationError(
            _("%(name)s is not a character of this campaign.") % {"name": foreign[0].name},
            code="foreign_character",
        )
    return chosen


@transaction.atomic
def story_create(*, campaign: Campaign, title: str, summary: str = "") -> Story:
    # Lock the campaign so two new stories never take the same position.
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    last = campaign.stories.aggregate(last=Max("position"))["last"]
    return Story.objects.create(
        campaign=campaign,
        title=title,
        summary=summary,
        position=0 if last is None else last + 1,
    )


@transaction.atomic
def story_update(*, story: Story, title: str, summary: str = "") -> Story:
    Story.objects.filter(pk=story.pk).update(title=title, summary=summary)
    story.title, story.summary = title, summary
    return story


@transaction.atomic
def scene_create(
    *,
    campaign: Campaign,
    title: str,
    story: Story | None = None,
    date=None,
    session_number: int | None = None,
    place: str = "",
    summary: str = "",
    participants: Iterable[Character] = (),
) -> Scene:
    chosen = _participants_in(campaign, participants)
    scene = Scene.objects.create(
        campaign=campaign,
        story=_story_in(campaign, story),
        title=title,
        date=date,
        session_number=session_number,
        place=place,
        summary=summary,
    )
    scene.participants.set(chosen)
    return scene


@transaction.atomic
def scene_update(
    *,
    scene: Scene,
    title: str,
    story: Story | None = None,
    date=None,
    session_number: int | None = None,
    place: str = "",
    summary: str = "",
    participants: Iterable[Character] = (),
) -> Scene:
    locked = Scene.objects.select_for_update().select_related("campaign").get(pk=scene.pk)
    chosen = _participants_in(locked.campaign, participants)
    locked.story = _story_in(locked.campaign, story)
    locked.title = title
    locked.date = date
    locked.session_number = session_number
    locked.place = place
    locked.summary = summary
    locked.save()
    # Diaries already written stay when a character leaves the scene: nothing is lost.
    locked.participants.set(chosen)
    return locked


@transaction.atomic
def scene_close(*, scene: Scene) -> Scene:
    """Close an open scene; closing a closed scene changes nothing."""
    Scene.objects.filter(pk=scene.pk, status=Scene.Status.OPEN).update(
        status=Scene.Status.CLOSED, closed_at=timezone.now()
    )
    return Scene.objects.get(pk=scene.pk)


@transaction.atomic
def scene_reopen(*, scene: Scene) -> Scene:
    Scene.objects.filter(pk=scene.pk, status=Scene.Status.CLOSED).update(
        status=Scene.Status.OPEN, closed_at=None
    )
    return Scene.objects.get(pk=scene.pk)


@transaction.atomic
def diary_save(
    *, scene: Scene, character: Character, user, body: str, status: str, visibility: str
) -> DiaryEntry:
    """Write or rewrite the one diary entry of a character for a scene."""
    if status not in DiaryEntry.Status.values:
        raise ValidationError(_("Unknown diary status."), code="invalid_status")
    if visibility not in DiaryEntry.Visibility.values:
        raise ValidationError(_("Unknown diary visibility."), code="invalid_visibility")
    if not body.strip():
        raise ValidationError(_("The diary entry is empty."), code="empty")
    if character.campaign_id != scene.campaign_id or character.owner_id != user.pk:
        raise ValidationError(
            _("You can only write the diary of your own characters."), code="not_owner"
        )
    if not scene.participants.filter(pk=character.pk).exists():
        raise ValidationError(
            _("%(name)s does not take part in this scene.") % {"name": character.name},
            code="not_participant",
        )
    now = timezone.now()
    published = status == DiaryEntry.Status.PUBLISHED
    entry, created = DiaryEntry.objects.select_for_update().get_or_create(
        scene=scene,
        character=character,
        defaults={
            "author": user,
            "body": body,
            "status": status,
            "visibility": visibility,
            "published_at": now if published else None,
        },
    )
    if created:
        return entry
    if entry.author_id != user.pk:
        # A character handed to another player: the previous player's words stay theirs.
        raise ValidationError(
            _("This diary entry was written by another player."), code="other_author"
        )
    entry.body = body
    entry.status = status
    entry.visibility = visibility
    if published and entry.published_at is None:
        entry.published_at = now
    entry.save()
    return entry


@transaction.atomic
def scene_note_save(*, scene: Scene, author, body: str, note: SceneNote | None = None) -> SceneNote:
    """Add a GM note to a scene, or rewrite one (`note`)."""
    if not body.strip():
        raise ValidationError(_("The note is empty."), code="empty")
    if note is None:
        return SceneNote.objects.create(scene=scene, author=author, body=body)
    if note.scene_id != scene.pk:
        raise ValidationError(_("That note belongs to another scene."), code="foreign_note")
    SceneNote.objects.filter(pk=note.pk).update(body=body, updated_at=timezone.now())
    note.body = body
    return note


@transaction.atomic
def scene_note_delete(*, note: SceneNote) -> None:
    SceneNote.objects.filter(pk=note.pk).delete()


# --- Combat: a fight in a scene ------------------------------------------------------------
#
# The rules (initiative, defence, attack and damage) come from mechanics.combat; these
# functions store what it rolled and move the combat on, one transaction each, locking
# the combat row so two GMs clicking at once never skip a turn or settle an attack twice.


def _lock_combat(combat: Combat) -> Combat:
    locked = Combat.objects.select_for_update().select_related("scene__campaign").get(pk=combat.pk)
    if not locked.is_active:
        raise ValidationError(_("This combat has ended."), code="ended")
    return locked


def _active_participants(combat: Combat) -> list[CombatParticipant]:
    return list(combat.participants.filter(active=True).select_related("character"))


def _fighter(combat: Combat, character: Character) -> CombatParticipant:
    """The character's place in this combat; refused if it is not in the fight."""
    if character.campaign_id != combat.scene.campaign_id:
        raise ValidationError(
            _("%(name)s is not a character of this campaign.") % {"name": character.name},
            code="foreign_character",
        )
    participant = combat.participants.filter(character=character, active=True).first()
    if participant is None:
        raise ValidationError(
            _("%(name)s is not taking part in this combat.") % {"name": character.name},
            code="not_participant",
        )
    return participant


@transaction.atomic
def combat_start(*, scene: Scene, user) -> Combat:
    """Start a fight in an open scene, with every character of the scene in it."""
    from mechanics.combat import default_phase

    locked = Scene.objects.select_for_update().select_related("campaign").get(pk=scene.pk)
    if locked.status != Scene.Status.OPEN:
        raise ValidationError(_("Reopen the scene to start a combat."), code="closed")
    if Combat.objects.filter(scene=locked, status=Combat.Status.ACTIVE).exists():
        raise ValidationError(_("A combat is already in progress in this scene."), code="active")
    combat = Combat.objects.create(scene=locked, started_by=user)
    phase = default_phase(locked.campaign.system)
    CombatParticipant.objects.bulk_create(
        CombatParticipant(combat=combat, character=character, phase=phase)
        for character in locked.participants.order_by("is_npc", "name", "pk")
    )
    return combat


@transaction.atomic
def combat_add_participants(
    *, combat: Combat, characters: Iterable[Character]
) -> list[CombatParticipant]:
    """Bring characters of the campaign into the fight (and into the scene, for NPCs who
    were not in it); a character taken out earlier comes back with its initiative."""
    from mechanics.combat import default_phase

    locked = _lock_combat(combat)
    chosen = _participants_in(locked.scene.campaign, characters)
    if not chosen:
        raise ValidationError(_("Choose at least one character."), code="empty")
    existing = {p.character_id: p for p in locked.participants.all()}
    phase = default_phase(locked.scene.campaign.system)
    added = []
    for character in chosen:
        participant = existing.get(character.pk)
        if participant is None:
            participant = CombatParticipant.objects.create(
                combat=locked, character=character, phase=phase
            )
        elif not participant.active:
            CombatParticipant.objects.filter(pk=participant.pk).update(active=True)
            participant.active = True
        added.append(participant)
    locked.scene.participants.add(*chosen)
    if locked.round and locked.current_id is None:
        locked.current = _first_in_order(locked)
    locked.save(update_fields=["current", "updated_at"])
    return added


def _in_order(combat: Combat) -> list[CombatParticipant]:
    """Everyone who has rolled initiative, in turn order (out of the fight included)."""
    from mechanics.combat import turn_order

    everyone = combat.participants.filter(initiative__isnull=False).select_related("character")
    return turn_order(list(everyone))


def _first_in_order(combat: Combat) -> CombatParticipant | None:
    return next((p for p in _in_order(combat) if p.active), None)


def _next_in_order(
    combat: Combat, after: CombatParticipant | None
) -> tuple[CombatParticipant | None, bool]:
    """(whose turn comes after `after`, whether that starts a new round). Characters out
    of the fight keep their place in the order, so the turn passes on from there."""
    order = _in_order(combat)
    ids = [p.pk for p in order]
    if after is not None and after.pk in ids:
        later = order[ids.index(after.pk) + 1 :]
        following = next((p for p in later if p.active), None)
        if following is not None:
            return following, False
        return _first_in_order(combat), True
    return _first_in_order(combat), False


@transaction.atomic
def combat_remove_participant(*, participant: CombatParticipant) -> None:
    """Take a character out of the fight (its attacks stay in the record)."""
    locked = _lock_combat(participant.combat)
    CombatParticipant.objects.filter(pk=participant.pk).update(active=False)
    if locked.current_id == participant.pk:
        following, new_round = _next_in_order(locked, participant)
        locked.current = following
        if new_round:
            locked.round += 1
    locked.save(update_fields=["current", "round", "updated_at"])


@transaction.atomic
def combat_set_phase(*, participant: CombatParticipant, phase: int) -> CombatParticipant:
    """3d6 + NdP: the phase a character acts in (melee threatening shooters, shooters...)."""
    from mechanics.combat import phases

    locked = _lock_combat(participant.combat)
    if phase not in dict(phases(locked.scene.campaign.system)):
        raise ValidationError(_("Unknown combat phase."), code="phase")
    CombatParticipant.objects.filter(pk=participant.pk).update(phase=phase)
    participant.phase = phase
    locked.save(update_fields=["updated_at"])
    return participant


@transaction.atomic
def combat_roll_initiative(*, combat: Combat, user, rng=None) -> list:
    """Roll initiative on the server for everyone in the fight who has none yet, break
    ties, store each roll in the log with the scene, and start round 1 if not started."""
    from mechanics import combat as rules
    from mechanics.rules.dice import default_rng
    from mechanics.rules.initiative import Entry, break_ties
    from mechanics.services import RollSide, roll_perform
    from mechanics.setup import load_sheets

    locked = _lock_combat(combat)
    campaign = locked.scene.campaign
    participants = _active_participants(locked)
    pending = [p for p in participants if p.initiative is None]
    if not pending:
        raise ValidationError(_("Everyone in the fight has rolled initiative."), code="rolled")
    sheets = load_sheets([p.character for p in participants], campaign, with_scene=False)
    rng = rng or default_rng()
    rolled = {p.pk: rules.roll_initiative(sheets[p.character_id], rng) for p in pending}
    by_pk = {p.pk: p for p in participants}
    entries = [
        Entry(
            p.pk,
            rolled[p.pk].total if p.pk in rolled else p.initiative,
            rolled[p.pk].base if p.pk in rolled else p.initiative_base,
            p.phase,
            p.tiebreak,
        )
        for p in participants
        if p.pk in rolled or p.initiative is not None
    ]
    tiebreaks = break_ties(
        entries, lambda entry: rules.roll_off(sheets[by_pk[entry.key].character_id], rng)
    )
    stored = []
    for participant in pending:
        result = rolled[participant.pk]
        record = result.record
        if participant.pk in tiebreaks:
            details = {**record.details, "tiebreak": tiebreaks[participant.pk]}
            record = replace(record, details=details)
        [roll] = roll_perform(
            campaign=campaign,
            user=user,
            sides=[
                RollSide(
                    record=record,
                    character=participant.character,
                    scene=locked.scene,
                    label=_("Initiative"),
                )
            ],
        )
        CombatParticipant.objects.filter(pk=participant.pk).update(
            initiative=result.total,
            initiative_base=result.base,
            initiative_roll=roll,
            tiebreak=tiebreaks.get(participant.pk),
        )
        stored.append(roll)
    for pk, value in tiebreaks.items():
        if pk not in rolled:
            # Someone already in the order tied with a newcomer: it rolls off too.
            CombatParticipant.objects.filter(pk=pk).update(tiebreak=value)
    if locked.round == 0:
        locked.round = 1
        locked.current = _first_in_order(locked)
    elif locked.current_id is None:
        locked.current = _first_in_order(locked)
    locked.save(update_fields=["round", "current", "updated_at"])
    return stored


@transaction.atomic
def combat_next_turn(*, combat: Combat, user=None) -> Combat:
    """The next character in the order plays; after the last one a new round starts.

    In 3d6 + NdP a new round also makes everyone in the fight who is bleeding bleed
    (Hemorragia: a wound per round); their names are in the returned combat's `bled`.
    """
    locked = _lock_combat(combat)
    if locked.round == 0:
        raise ValidationError(_("Roll initiative first."), code="no_initiative")
    following, new_round = _next_in_order(locked, locked.current)
    if following is None:
        raise ValidationError(_("Nobody in the fight can take a turn."), code="empty")
    locked.current = following
    locked.bled = []
    if new_round:
        locked.round += 1
        if locked.scene.campaign.system == "ndp":
            locked.bled = _bleed_round(locked, user)
    locked.save(update_fields=["current", "round", "updated_at"])
    return locked


def _bleed_round(combat: Combat, user) -> list[str]:
    from characters.services import character_bleed_round
    from characters.systems import get_system

    system = get_system("ndp")
    bled = []
    for participant in _active_participants(combat):
        character = participant.character
        state = system.state(character.health)
        if state.bleeding_parts and not state.dead:
            character_bleed_round(
                character=character,
                user=user,
                reason=_("Round %(round)s of the combat") % {"round": combat.round},
                scene=combat.scene,
            )
            bled.append(character.name)
    return bled


@transaction.atomic
def combat_attack_record(
    *, combat: Combat, user, attacker: Character, target: Character, attack
) -> CombatAttack:
    """Store an attack the server rolled (`mechanics.combat.AttackRoll`): its rolls go to
    the log with the scene (the attacker's spends applied), and its damage waits for
    the GM. Nothing is applied to the target here."""
    from mechanics.services import RollSide, roll_perform

    locked = _lock_combat(combat)
    _fighter(locked, attacker)
    _fighter(locked, target)
    if attacker.pk == target.pk:
        raise ValidationError(_("A character cannot attack itself."), code="self")
    labels = {
        attacker.pk: _("Attack on %(name)s") % {"name": target.name},
        target.pk: _("Defence against %(name)s") % {"name": attacker.name},
    }
    rolls = roll_perform(
        campaign=locked.scene.campaign,
        user=user,
        sides=[
            RollSide(
                record=side.record,
                character=side.sheet.character,
                scene=locked.scene,
                label=labels[side.sheet.character.pk],
            )
            for side in attack.sides
        ],
        group=attack.group,
    )
    pending = attack.damage is not None
    created = CombatAttack.objects.create(
        combat=locked,
        round=locked.round,
        attacker=attacker,
        target=target,
        attacker_name=attacker.name,
        target_name=target.name,
        roll=rolls[-1],
        defence_roll=rolls[0] if len(rolls) > 1 else None,
        hit=attack.hit,
        damage=asdict(attack.damage) if pending else None,
        damage_text=attack.damage_text[:120],
        notes=list(attack.notes),
        status=CombatAttack.Status.PENDING if pending else CombatAttack.Status.NO_DAMAGE,
        created_by=user,
    )
    locked.save(update_fields=["updated_at"])
    return created


def _settle(attack: CombatAttack, user, status: str) -> Combat:
    """Claim a pending attack for `status`; refused if it is settled already."""
    locked = _lock_combat(attack.combat)
    claimed = CombatAttack.objects.filter(
        pk=attack.pk, combat=locked, status=CombatAttack.Status.PENDING
    ).update(status=status, decided_by=user, decided_at=timezone.now())
    if not claimed:
        raise ValidationError(_("This attack has already been settled."), code="settled")
    locked.save(update_fields=["updated_at"])
    return locked


@transaction.atomic
def combat_attack_apply(*, attack: CombatAttack, user, rng=None) -> HealthEvent:
    """The GM confirms: the damage goes to the target through its system's rules
    (`characters.services.character_apply_damage`), recorded with the scene."""
    from characters.services import character_apply_damage
    from characters.systems import DamageInput

    locked = _settle(attack, user, CombatAttack.Status.APPLIED)
    target = Character.objects.filter(pk=attack.target_id).first()
    if target is None or target.campaign_id != locked.scene.campaign_id:
        raise ValidationError(_("The target is not a character of this campaign."), code="target")
    event = character_apply_damage(
        character=target,
        user=user,
        damage=DamageInput(**attack.damage),
        reason=_("Attack by %(name)s") % {"name": attack.attacker_name},
        scene=locked.scene,
        rng=rng,
    )
    CombatAttack.objects.filter(pk=attack.pk).update(health_event=event)
    attack.status, attack.health_event = CombatAttack.Status.APPLIED, event
    return event


@transaction.atomic
def combat_attack_discard(*, attack: CombatAttack, user) -> CombatAttack:
    """The GM drops an attack's damage: nothing is applied."""
    _settle(attack, user, CombatAttack.Status.DISCARDED)
    attack.status = CombatAttack.Status.DISCARDED
    return attack


@transaction.atomic
def combat_end(*, combat: Combat, user) -> Combat:
    """End the fight: damage still waiting is discarded, and the summary (rounds, who hit
    whom, damage applied, everyone's final state) is kept for the scene's record."""
    from mechanics.setup import load_sheets

    locked = _lock_combat(combat)
    now = timezone.now()
    locked.attacks.filter(status=CombatAttack.Status.PENDING).update(
        status=CombatAttack.Status.DISCARDED, decided_by=user, decided_at=now
    )
    participants = list(locked.participants.select_related("character").order_by("pk"))
    characters = [p.character for p in participants]
    sheets = load_sheets(characters, locked.scene.campaign, with_scene=False)
    states = []
    for participant in participants:
        character = participant.character
        health = sheets[character.pk].health
        track = " ".join(mark or "·" for mark, _name in health.boxes)
        lines = " · ".join(f"{label} {value}" for label, value in health.lines)
        states.append(
            {
                "character": character.pk,
                "name": character.name,
                "owner": character.owner_id,
                "npc": character.is_npc,
                "in_fight": participant.active,
                "state": health.state or "",
                "unconscious": health.unconscious,
                "dead": health.dead,
                "penalty": health.penalty,
                "track": track or lines,
                "states": list(health.states),
            }
        )
    owners = {c.pk: c.owner_id for c in characters}
    attacks = [
        {
            "round": a.round,
            "attacker": a.attacker_name,
            "target": a.target_name,
            "target_id": a.target_id,
            "target_owner": owners.get(a.target_id),
            "hit": a.hit,
            "damage": a.damage_text,
            "status": a.status,
        }
        for a in locked.attacks.order_by("created_at", "pk")
    ]
    locked.summary = {
        "rounds": locked.round,
        "participants": states,
        "attacks": attacks,
        "hits": sum(1 for a in attacks if a["hit"]),
        "applied": sum(1 for a in attacks if a["status"] == CombatAttack.Status.APPLIED),
    }
    locked.status = Combat.Status.ENDED
    locked.ended_at = now
    locked.current = None
    locked.save()
    return locked
