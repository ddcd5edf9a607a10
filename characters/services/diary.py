"""A player's diary for a scene: written through this one service."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Scene
from characters.models import Character, DiaryEntry


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
def diary_set_hidden(*, entry: DiaryEntry, user, hidden: bool) -> DiaryEntry:
    """A GM hides an entry from the group (its text stays), or shows it again.

    Hiding twice keeps the first hide's time and GM; neither touches `updated_at`, so the
    entry keeps its place in the timeline."""
    rows = DiaryEntry.objects.filter(pk=entry.pk)
    if hidden:
        rows.filter(hidden_at__isnull=True).update(hidden_at=timezone.now(), hidden_by=user)
    else:
        rows.update(hidden_at=None, hidden_by=None)
    entry.refresh_from_db(fields=["hidden_at", "hidden_by"])
    return entry
