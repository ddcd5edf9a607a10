"""Writes for the chronicle: stories, scenes and GM notes, one transaction each."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, PlaySession, Scene, SceneNote, Story
from campaigns.signals import scene_closing

if TYPE_CHECKING:
    # Annotations only: characters sits above campaigns.
    from characters.models import Character


def _story_in(campaign: Campaign, story: Story | None) -> Story | None:
    if story is not None and story.campaign_id != campaign.pk:
        raise ValidationError(_("That story belongs to another campaign."), code="foreign_story")
    return story


def participants_in(campaign: Campaign, participants: Iterable[Character]) -> list[Character]:
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
    story.title, story.summary = title, summary
    # Only these two columns (and the summary's HTML): the position is not touched.
    story.save(update_fields=["title", "summary"])
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
    chosen = participants_in(campaign, participants)
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
    locked = (
        Scene.objects.select_for_update(no_key=True).select_related("campaign").get(pk=scene.pk)
    )
    chosen = participants_in(locked.campaign, participants)
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
def scene_close(*, scene: Scene, user=None) -> Scene:
    """Close an open scene, and let its system expire what lasted the scene (Hitos
    scene-long aspects); closing a closed scene changes nothing. Raises ValidationError
    when something in the scene refuses (`scene_closing`: a fight still going on)."""
    locked = Scene.objects.select_for_update(no_key=True).get(pk=scene.pk)
    if locked.status == Scene.Status.OPEN:
        scene_closing.send(sender=Scene, scene=locked)
    closed = Scene.objects.filter(pk=scene.pk, status=Scene.Status.OPEN).update(
        status=Scene.Status.CLOSED, closed_at=timezone.now()
    )
    scene = Scene.objects.select_related("campaign").get(pk=scene.pk)
    if closed:
        scene.campaign.game_system.end_scene(scene, user)
    return scene


@transaction.atomic
def session_end(*, campaign: Campaign, user) -> PlaySession:
    """The GM ends the play session: its system expires what lasted a session (Hitos
    temporary and exhausted aspects), and the session is numbered and kept."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    last = campaign.sessions.order_by("-number").values_list("number", flat=True).first()
    notes = campaign.game_system.end_session(campaign, user)
    return PlaySession.objects.create(
        campaign=campaign, number=(last or 0) + 1, ended_by=user, notes=notes
    )


@transaction.atomic
def scene_reopen(*, scene: Scene) -> Scene:
    Scene.objects.filter(pk=scene.pk, status=Scene.Status.CLOSED).update(
        status=Scene.Status.OPEN, closed_at=None
    )
    return Scene.objects.get(pk=scene.pk)


@transaction.atomic
def scene_note_save(*, scene: Scene, author, body: str, note: SceneNote | None = None) -> SceneNote:
    """Add a GM note to a scene, or rewrite one (`note`)."""
    if not body.strip():
        raise ValidationError(_("The note is empty."), code="empty")
    if note is None:
        return SceneNote.objects.create(scene=scene, author=author, body=body)
    if note.scene_id != scene.pk:
        raise ValidationError(_("That note belongs to another scene."), code="foreign_note")
    note.body = body
    note.save(update_fields=["body", "updated_at"])
    return note


@transaction.atomic
def scene_note_delete(*, note: SceneNote) -> None:
    SceneNote.objects.filter(pk=note.pk).delete()
