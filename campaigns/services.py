"""Writes for campaigns, memberships, invitations and the chronicle: one transaction each."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Campaign,
    DiaryEntry,
    Invitation,
    Membership,
    Role,
    Scene,
    SceneNote,
    Story,
)
from characters.models import Character

# Campaign settings a form may set directly (see CampaignForm.options).
CAMPAIGN_OPTIONS = (
    "max_characters_per_player",
    "players_see_full_sheets",
    "xp_rubric",
    "xp_purchases_need_approval",
    "hitos_drama_sacrifice",
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
def membership_remove(*, membership: Membership) -> None:
    if membership.role == Role.GM:
        _ensure_not_last_gm(membership)
    Membership.objects.filter(pk=membership.pk).delete()


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
