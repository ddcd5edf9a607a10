"""Writes for campaigns, memberships and invitations: one transaction each."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.images import CleanImage, delete_after_commit, store_image
from campaigns.models import Campaign, Invitation, Membership, Removal, Role, system_options
from campaigns.permissions import may_join_through

# Campaign settings a form may set directly (see CampaignForm.options), besides those only
# one system reads (`system_options`).
CAMPAIGN_OPTIONS = (
    "max_characters_per_player",
    "players_see_full_sheets",
    "xp_rubric",
    "xp_purchases_need_approval",
    "owner_applies_damage",
)


def _options(options: dict | None) -> dict:
    options = dict(options or {})
    unknown = set(options) - {*CAMPAIGN_OPTIONS, *system_options()}
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


@transaction.atomic
def campaign_set_image(*, campaign: Campaign, image: CleanImage | None) -> Campaign:
    """Store a new campaign image (None removes it); the old files go once this commits."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    replaced = store_image(locked, image, full="image", thumb="image_thumb")
    locked.save(update_fields=["image", "image_thumb", "updated_at"])
    delete_after_commit(Campaign.image.field, replaced)
    return locked
