"""Ended combats in a scene's timeline ("Group review"), registered from
MechanicsConfig.ready(), and the summary as one member may read it.

The summary is stored once, when the fight ends (`services.combat_end`). Who attacked
whom and whether it hit is for everyone who reads the scene (the rolls are in the log);
damage taken and final states are sheet information, shown only to those who may see
that character's full sheet (`permissions.sees_full_sheet`).
"""

from __future__ import annotations

from campaigns.chronicle import TimelineItem, register_timeline_source
from campaigns.permissions import CampaignAccess, sees_full_sheet
from campaigns.texts import TEXTS, kept_shown, shown
from mechanics.models import Combat


def _track(entry: dict) -> str:
    """A fighter's track or health lines, in the reader's language when kept with codes."""
    lines = entry.get("lines")
    if not isinstance(lines, list):
        return entry.get("track", "")
    return " · ".join(f"{label} {kept_shown(value)}" for label, value in lines)


def _damage(entry: dict) -> str:
    texts = entry.get(TEXTS) or {}
    return shown(entry["damage"], texts.get("damage_text"))


def summary_for(access: CampaignAccess, summary: dict) -> dict:
    """The stored summary with what this member may not see left out."""
    participants = []
    for entry in summary.get("participants", []):
        visible = sees_full_sheet(access, entry.get("owner"))
        shown = {"name": entry["name"], "npc": entry.get("npc", False), "visible": visible}
        if visible:
            shown.update(
                state=entry.get("state", ""),
                wounded=entry.get("wounded", False),
                unconscious=entry.get("unconscious", False),
                dead=entry.get("dead", False),
                track=_track(entry),
                states=entry.get("states", []),
            )
        participants.append(shown)
    attacks = []
    for entry in summary.get("attacks", []):
        visible = sees_full_sheet(access, entry.get("target_owner"))
        attacks.append(
            {
                "round": entry["round"],
                "attacker": entry["attacker"],
                "target": entry["target"],
                "hit": entry["hit"],
                "damage": _damage(entry) if visible else "",
                "status": entry["status"] if visible else "",
            }
        )
    return {
        "rounds": summary.get("rounds", 0),
        "participants": participants,
        "attacks": attacks,
        "hits": summary.get("hits", 0),
    }


@register_timeline_source()
def combat_source(access: CampaignAccess, scene) -> list[TimelineItem]:
    combats = Combat.objects.filter(scene=scene, status=Combat.Status.ENDED).order_by(
        "ended_at", "pk"
    )
    items = []
    for combat in combats:
        combat.scene = scene
        combat.shown = summary_for(access, combat.summary)
        items.append(
            TimelineItem(
                at=combat.ended_at,
                kind="combat",
                template="mechanics/timeline/combat.html",
                obj=combat,
            )
        )
    return items
