"""Writes to campaigns and their chronicle, through services: one transaction each.

Campaigns, invitations and memberships (`campaign`); stories, scenes and GM notes
(`chronicle`); the allowance of picture uploads (`uploads`). Import them from here:
`from campaigns import services`.
"""

from campaigns.services.campaign import (
    CAMPAIGN_OPTIONS,
    campaign_create,
    campaign_set_image,
    campaign_update,
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_change_role,
    membership_remove,
)
from campaigns.services.chronicle import (
    scene_close,
    scene_create,
    scene_note_delete,
    scene_note_save,
    scene_reopen,
    scene_update,
    session_end,
    story_create,
    story_update,
)
from campaigns.services.uploads import upload_allowance_take

__all__ = [
    "CAMPAIGN_OPTIONS",
    "campaign_create",
    "campaign_set_image",
    "campaign_update",
    "invitation_accept",
    "invitation_create",
    "invitation_revoke",
    "membership_change_role",
    "membership_remove",
    "scene_close",
    "scene_create",
    "scene_note_delete",
    "scene_note_save",
    "scene_reopen",
    "scene_update",
    "session_end",
    "story_create",
    "story_update",
    "upload_allowance_take",
]
