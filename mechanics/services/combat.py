"""Writes for a fight in a scene: one transaction each, locking the combat."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import asdict, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaigns.models import Scene
from campaigns.services.chronicle import participants_in
from campaigns.signals import scene_closing
from campaigns.texts import TEXTS, Message, codes, kept
from characters.models import Character
from mechanics import combat as rules
from mechanics.combat import CombatRules, turn_order
from mechanics.models import Combat, CombatAttack, CombatParticipant, HealthEvent
from mechanics.rules.dice import default_rng
from mechanics.rules.initiative import Entry, break_ties
from mechanics.services.health import character_apply_damage, character_died
from mechanics.services.rolls import RollSide, roll_perform
from mechanics.setup import Sheet, load_sheets
from mechanics.systems.base import DamageInput

# --- Combat: a fight in a scene ------------------------------------------------------------
#
# The rules (initiative, defence, attack and damage) come from mechanics.combat and the
# campaign's system's combat hooks; these functions store what they rolled and move the
# combat on, one transaction each, locking the combat row so two GMs clicking at once
# never skip a turn or settle an attack twice.


def _rules(campaign) -> CombatRules:
    """The campaign's combat hooks; refused for a system without combat."""
    combat_rules = campaign.game_system.combat
    if combat_rules is None:
        raise ValidationError(_("This rule system has no combat rules."), code="no_combat")
    return combat_rules


def _lock_combat(combat: Combat) -> Combat:
    locked = (
        Combat.objects.select_for_update(no_key=True)
        .select_related("scene__campaign")
        .get(pk=combat.pk)
    )
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

    locked = (
        Scene.objects.select_for_update(no_key=True).select_related("campaign").get(pk=scene.pk)
    )
    phase = _rules(locked.campaign).default_phase
    if locked.status != Scene.Status.OPEN:
        raise ValidationError(_("Reopen the scene to start a combat."), code="closed")
    if Combat.objects.filter(scene=locked, status=Combat.Status.ACTIVE).exists():
        raise ValidationError(_("A combat is already in progress in this scene."), code="active")
    combat = Combat.objects.create(scene=locked, started_by=user)
    characters = list(locked.participants.order_by("is_npc", "name", "pk"))
    sheets = load_sheets(characters, locked.campaign, with_scene=False) if characters else {}
    # The dead of the scene do not fight (docs/rules.md#shared-dead-fighters).
    CombatParticipant.objects.bulk_create(
        CombatParticipant(combat=combat, character=character, phase=phase)
        for character in characters
        if not sheets[character.pk].health.dead
    )
    return combat


@receiver(scene_closing, dispatch_uid="combat_keeps_its_scene_open")
def refuse_closing_a_scene_mid_fight(sender, scene: Scene, **kwargs) -> None:
    """A scene with a fight going on stays open: its damage may still wait for the GM,
    which ending the fight would discard; the GM ends the fight first."""
    if Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).exists():
        raise ValidationError(
            _("A combat is still going on in this scene: end it before closing the scene."),
            code="combat",
        )


@transaction.atomic
def combat_add_participants(
    *, combat: Combat, characters: Iterable[Character]
) -> list[CombatParticipant]:
    """Bring characters of the campaign into the fight (and into the scene, for NPCs who
    were not in it); a character taken out earlier comes back with its initiative."""

    locked = _lock_combat(combat)
    chosen = participants_in(locked.scene.campaign, characters)
    if not chosen:
        raise ValidationError(_("Choose at least one character."), code="empty")
    existing = {p.character_id: p for p in locked.participants.all()}
    phase = _rules(locked.scene.campaign).default_phase
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


@receiver(character_died, dispatch_uid="the_dead_leave_the_fight")
def take_the_dead_out_of_fights(sender, character: Character, **kwargs) -> None:
    """A character who dies leaves the turn order of every fight going on, as if the GM
    took it out: its turn, if it was playing, passes on (docs/rules.md#shared-dead-fighters)."""
    fighting = CombatParticipant.objects.filter(
        character=character, active=True, combat__status=Combat.Status.ACTIVE
    ).select_related("combat")
    for participant in fighting:
        combat_remove_participant(participant=participant)


@transaction.atomic
def combat_set_phase(*, participant: CombatParticipant, phase: int) -> CombatParticipant:
    """The phase a character acts in, for a system that acts by phases."""

    locked = _lock_combat(participant.combat)
    if phase not in dict(_rules(locked.scene.campaign).phases):
        raise ValidationError(_("Unknown combat phase."), code="phase")
    CombatParticipant.objects.filter(pk=participant.pk).update(phase=phase)
    participant.phase = phase
    locked.save(update_fields=["updated_at"])
    return participant


@transaction.atomic
def combat_roll_initiative(
    *, combat: Combat, user, rng=None, spenders: Collection[int] = ()
) -> list:
    """Roll initiative on the server for everyone in the fight who has none yet, break
    ties, store each roll in the log with the scene, and start round 1 if not started.

    `spenders`: the participants (ids) who spend the system's `initiative_spend` on their
    roll; each must be rolling now. A refused spend (an empty pool) stores nothing."""

    locked = _lock_combat(combat)
    campaign = locked.scene.campaign
    participants = _active_participants(locked)
    pending = [p for p in participants if p.initiative is None]
    if not pending:
        raise ValidationError(_("Everyone in the fight has rolled initiative."), code="rolled")
    spenders = set(spenders)
    if spenders and (
        _rules(campaign).initiative_spend is None or not spenders <= {p.pk for p in pending}
    ):
        raise ValidationError(
            _("Only a fighter rolling initiative now can spend on it."), code="spend"
        )
    sheets = load_sheets([p.character for p in participants], campaign, with_scene=False)
    rng = rng or default_rng()
    rolled = {
        p.pk: rules.roll_initiative(sheets[p.character_id], rng, spend=p.pk in spenders)
        for p in pending
    }
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
                    label=Message(gettext_noop("Initiative")),
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

    A new round does what the system's rules say to the fighters (`CombatRules.new_round`:
    bleeding, say); the names of those it touched are in the returned combat's `bled`.
    """
    locked = _lock_combat(combat)
    if locked.round == 0:
        raise ValidationError(_("Roll initiative first."), code="no_initiative")
    following, new_round = _next_in_order(locked, locked.current)
    if following is None:
        raise ValidationError(_("Nobody in the fight can take a turn."), code="empty")
    locked.current = following
    if new_round:
        locked.round += 1
    locked.save(update_fields=["current", "round", "updated_at"])
    locked.bled = []
    if new_round:
        combat_rules = _rules(locked.scene.campaign)
        bled = combat_rules.new_round(locked, _active_participants(locked), user)
        # A fighter the round's wounds killed has left the order meanwhile, its turn
        # passed on (take_the_dead_out_of_fights): read where the turn is now.
        locked.refresh_from_db(fields=["current", "round", "updated_at"])
        locked.bled = bled
    return locked


def attack_counts(combat: Combat, attacker_id: int, target_id: int) -> dict[str, int]:
    """The attacker's attacks and the target's rolled defences so far this round."""
    return CombatAttack.objects.filter(combat=combat, round=combat.round).aggregate(
        attacks_made=Count("pk", filter=Q(attacker_id=attacker_id)),
        defences_made=Count("pk", filter=Q(target_id=target_id, defence_roll__isnull=False)),
    )


def moved_this_round(participant: CombatParticipant, round_: int) -> int:
    """The metres the fighter has moved in round `round_`."""
    return participant.moved_m if participant.moved_round == round_ else 0


@transaction.atomic
def combat_move(
    *, combat: Combat, character: Character, metres: int, user, adversity=None, rng=None
) -> str:
    """A fighter moves `metres` more this round, by its system's rules (a long move may
    take a roll, stored with the scene); returns the words for the GM."""
    locked = _lock_combat(combat)
    combat_rules = _rules(locked.scene.campaign)
    if not combat_rules.moves:
        raise ValidationError(_("This rule system has no movement rules."), code="no_moves")
    if locked.round == 0:
        raise ValidationError(_("Roll initiative first."), code="no_initiative")
    participant = _fighter(locked, character)
    attacked = CombatAttack.objects.filter(
        combat=locked, round=locked.round, attacker=character
    ).exists()
    sheet = load_sheets([character], locked.scene.campaign, with_scene=False)[character.pk]
    move = combat_rules.move(
        sheet,
        moved_this_round(participant, locked.round) + metres,
        attacked,
        adversity,
        rng or default_rng(),
    )
    if move.side is not None:
        roll_perform(
            campaign=locked.scene.campaign,
            user=user,
            sides=[
                RollSide(
                    record=move.side.record,
                    character=character,
                    scene=locked.scene,
                    label=Message(gettext_noop("Movement: %(metres)s m"), metres=metres),
                )
            ],
        )
    CombatParticipant.objects.filter(pk=participant.pk).update(
        moved_round=locked.round, moved_m=move.reached
    )
    locked.save(update_fields=["updated_at"])
    return move.text


def last_shots(combat: Combat, attacker_id: int) -> dict[str, int]:
    """{weapon: the last round the attacker used it} in this fight, from the weapon its
    attack rolls name (details["weapon"])."""
    shots: dict[str, int] = {}
    rows = CombatAttack.objects.filter(
        combat=combat, attacker_id=attacker_id, roll__record__details__has_key="weapon"
    ).values_list("round", "roll__record__details__weapon")
    for round_, weapon in rows:
        shots[weapon] = max(round_, shots.get(weapon, 0))
    return shots


@transaction.atomic
def combat_attack_record(
    *, combat: Combat, user, attacker: Character, target: Character, attack
) -> CombatAttack:
    """Store an attack the server rolled (`mechanics.combat.AttackRoll`): its rolls go to
    the log with the scene (the attacker's spends applied), and its damage waits for
    the GM. Nothing is applied to the target here."""

    locked = _lock_combat(combat)
    fighter = _fighter(locked, attacker)
    _fighter(locked, target)
    if attacker.pk == target.pk:
        raise ValidationError(_("A character cannot attack itself."), code="self")
    combat_rules = _rules(locked.scene.campaign)
    if combat_rules.moves:
        moved = moved_this_round(fighter, locked.round)
        combat_rules.refuse_attack_after_move(attack.sides[-1].sheet, moved)
    limit = combat_rules.attacks_per_round
    made = CombatAttack.objects.filter(combat=locked, round=locked.round, attacker=attacker)
    if limit is not None and made.count() >= limit:
        raise ValidationError(
            ngettext(
                "%(name)s has already made %(count)d attack this round.",
                "%(name)s has already made %(count)d attacks this round.",
                limit,
            )
            % {"name": attacker.name, "count": limit},
            code="attacks_per_round",
        )
    if combat_rules.reads_last_shots:
        combat_rules.refuse_attack(attack, last_shots(locked, attacker.pk), locked.round)
    if attack.counted is not None:
        now = attack_counts(locked, attacker.pk, target.pk)
        if attack.counted != (now["attacks_made"], now["defences_made"]):
            raise ValidationError(
                _("The fight moved on while you chose: check the attack and roll again."),
                code="stale",
            )
    labels = {
        attacker.pk: Message(gettext_noop("Attack on %(name)s"), name=target.name),
        target.pk: Message(gettext_noop("Defence against %(name)s"), name=attacker.name),
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
    # Without damage to wait for, what would come with it is written now.
    now = attack.writes if pending else (*attack.writes, *attack.with_damage)
    written = combat_rules.write_back(now, user, locked.scene)
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
        # A text the site wrote keeps its code beside its words (campaigns/texts.py).
        texts=codes(damage_text=attack.damage_text),
        notes=[kept(note) for note in (*attack.notes, *written)],
        with_damage=list(attack.with_damage) if pending else [],
        status=CombatAttack.Status.PENDING if pending else CombatAttack.Status.NO_DAMAGE,
        created_by=user,
    )
    locked.save(update_fields=["updated_at"])
    return created


def scene_fight(*, scene: Scene | None, attacker: Character, target: Character) -> Combat:
    """The fight in progress in `scene` where both take part: where an attack rolled from
    a sheet's roll panel waits for the GM, as the combat panel's do. Refused with the
    reason when there is none."""
    combat = (
        Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).first()
        if scene is not None
        else None
    )
    if combat is None:
        raise ValidationError(
            _(
                "An attack on a character goes to the fight in progress in the roll's scene, "
                "where the GM applies its damage, and there is none: ask the GM to start "
                "it, or roll without a target."
            ),
            code="no_fight",
        )
    fighting = set(
        combat.participants.filter(
            active=True, character_id__in=(attacker.pk, target.pk)
        ).values_list("character_id", flat=True)
    )
    for character in (attacker, target):
        if character.pk not in fighting:
            raise ValidationError(
                _("%(name)s is not taking part in the fight of this scene.")
                % {"name": character.name},
                code="not_participant",
            )
    return combat


def attack_target(sheet: Sheet, data: Mapping) -> Sheet | None:
    """The sheet of the character an attack from a roll panel is aimed at (None: no
    target, the numbers typed), once the fight of the sheet's scene it joins is known;
    a character of another campaign, or the roller, is refused."""
    target_id = data.get("target") if data.get("kind") == "attack" else None
    if not target_id:
        return None
    target = (
        Character.objects.filter(pk=target_id, campaign_id=sheet.character.campaign_id)
        .exclude(pk=sheet.character.pk)
        .first()
    )
    if target is None:
        raise ValidationError(
            _("Choose a character of this campaign as the target."), code="target"
        )
    scene_fight(scene=sheet.scene, attacker=sheet.character, target=target)
    return load_sheets([target], sheet.character.campaign, with_scene=False)[target.pk]


@transaction.atomic
def scene_attack_record(
    *, scene: Scene | None, user, attacker: Character, target: Character, attack
) -> CombatAttack:
    """Store an attack rolled from a sheet's roll panel in the fight of its scene: its
    damage waits for the GM with the combat panel's, applied or discarded the same way."""
    combat = scene_fight(scene=scene, attacker=attacker, target=target)
    return combat_attack_record(
        combat=combat, user=user, attacker=attacker, target=target, attack=attack
    )


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
    (`mechanics.services.health.character_apply_damage`), recorded with the scene, and
    what the system writes with it (`AttackRoll.with_damage`) is written now."""

    locked = _settle(attack, user, CombatAttack.Status.APPLIED)
    target = Character.objects.filter(pk=attack.target_id).first()
    if target is None or target.campaign_id != locked.scene.campaign_id:
        raise ValidationError(_("The target is not a character of this campaign."), code="target")
    event = character_apply_damage(
        character=target,
        user=user,
        damage=DamageInput(**attack.damage),
        reason=Message(gettext_noop("Attack by %(name)s"), name=attack.attacker_name),
        scene=locked.scene,
        rng=rng,
    )
    written = _rules(locked.scene.campaign).write_back(attack.with_damage, user, locked.scene)
    notes = [*attack.notes, *(kept(note) for note in written)]
    CombatAttack.objects.filter(pk=attack.pk).update(health_event=event, notes=notes)
    attack.status, attack.health_event, attack.notes = CombatAttack.Status.APPLIED, event, notes
    return event


@transaction.atomic
def combat_attack_discard(*, attack: CombatAttack, user) -> CombatAttack:
    """The GM drops an attack's damage: nothing is applied, nor written with it."""
    _settle(attack, user, CombatAttack.Status.DISCARDED)
    attack.status = CombatAttack.Status.DISCARDED
    return attack


@transaction.atomic
def combat_end(*, combat: Combat, user) -> Combat:
    """End the fight: damage still waiting is discarded, and the summary (rounds, who hit
    whom, damage applied, everyone's final state) is kept for the scene's record."""

    locked = _lock_combat(combat)
    now = timezone.now()
    locked.attacks.filter(status=CombatAttack.Status.PENDING).update(
        status=CombatAttack.Status.DISCARDED, decided_by=user, decided_at=now
    )
    participants = list(locked.participants.select_related("character").order_by("pk"))
    characters = [p.character for p in participants]
    sheets = load_sheets(characters, locked.scene.campaign, with_scene=False)
    system = locked.scene.campaign.game_system
    states = []
    for participant in participants:
        character = participant.character
        health = sheets[character.pk].health
        track = " ".join(mark or "·" for mark, _name in health.boxes)
        lines = " · ".join(f"{label} {value}" for label, value in health.lines)
        # A line's words the site wrote (a Hitos secuela's "for the scene") keep their code,
        # so the summary reads in each reader's language (campaigns/texts.py).
        if not track and any(isinstance(value, Message) for _label, value in health.lines):
            kept_lines = {"lines": [[label, kept(value)] for label, value in health.lines]}
        else:
            kept_lines = {}
        states.append(
            {
                "character": character.pk,
                "name": character.name,
                "owner": character.owner_id,
                "npc": character.is_npc,
                "in_fight": participant.active,
                "state": health.state or "",
                # A wound without a named state (3d6 + NdP) is not "Unhurt".
                "wounded": system.is_wounded(health),
                "unconscious": health.unconscious,
                "dead": health.dead,
                "penalty": health.penalty,
                "track": track or lines,
                "states": list(health.states),
                **kept_lines,
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
            **({TEXTS: a.texts} if a.texts else {}),
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
