"""The one place that answers "may this user do X to this campaign object".

Every view, HTMX endpoint, admin page, feed and export asks here. A user who is not a
member of a campaign gets a 404 for anything in it, so URLs leak nothing; a member
without the right gets a 403.

Access to character sheets (`CharacterAccess`, `character_access`, `visible_sheet_rows`)
lives here too, although characters sits above campaigns: every caller asks this one
module, and campaigns' own pages ask some of it (`may_create_character`), which they
could not import from characters. The Character model is reached only through
`campaigns.models.all_characters` and named in annotations under TYPE_CHECKING.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db.models import F, Q, QuerySet
from django.http import Http404

from campaigns.models import Campaign, Invitation, Membership, Removal, Role, all_characters

if TYPE_CHECKING:
    # Annotations only: characters sits above campaigns and is never imported at run time.
    from characters.models import Character


@dataclass(frozen=True)
class CampaignAccess:
    """What one user may do in one campaign."""

    campaign: Campaign
    membership: Membership

    @property
    def role(self) -> str:
        return self.membership.role

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def live_seq(self) -> int:
        """The change sequence this member's pages and live stream follow: every change
        for a GM, those a player or observer may see otherwise (campaigns.versions)."""
        return self.campaign.change_seq if self.is_gm else self.campaign.public_seq

    @property
    def live_nonroll_seq(self) -> int:
        """Of `live_seq`, every change but a new roll: what reads the campaign's other rows
        and never its rolls (a roll panel aiming at the fight) follows it, and stays as it
        is through the evening's rolls (campaigns.versions)."""
        campaign = self.campaign
        if self.is_gm:
            return campaign.nonroll_seq
        # A new roll players see moves both counters alike; a GM's private row, neither.
        return campaign.public_seq - campaign.public_roll_seq

    @property
    def is_player(self) -> bool:
        return self.role == Role.PLAYER

    @property
    def is_observer(self) -> bool:
        return self.role == Role.OBSERVER

    @property
    def can_view(self) -> bool:
        return True

    @property
    def can_write(self) -> bool:
        """Observers read and never write."""
        return self.role in (Role.GM, Role.PLAYER)

    @property
    def can_manage(self) -> bool:
        """Edit the campaign, its house rules, members and invitations."""
        return self.is_gm

    @property
    def can_award_xp(self) -> bool:
        """Award per-scene XP, adjust balances and decide XP purchases."""
        return self.is_gm

    @property
    def can_free_roll(self) -> bool:
        """Roll any dice expression (the free roller) and make secret rolls."""
        return self.is_gm

    @property
    def can_hide_diaries(self) -> bool:
        """Hide (and show again) any diary entry of the campaign they can read; its author
        keeps it, marked hidden."""
        return self.is_gm

    @property
    def can_run_scenes(self) -> bool:
        """Create and edit stories and scenes, close and reopen scenes, keep GM notes."""
        return self.is_gm


@dataclass(frozen=True)
class CharacterAccess:
    """What one user may do with one character sheet."""

    access: CampaignAccess
    character: Character

    @property
    def is_owner(self) -> bool:
        return self.character.owner_id == self.access.membership.user_id

    @property
    def acts_for_character(self) -> bool:
        """GMs, and the owner while they may write (not if they are only an observer now)."""
        return self.access.is_gm or (self.is_owner and self.access.can_write)

    @property
    def can_view_full(self) -> bool:
        """The owner and GMs see everything; other players only if the campaign allows."""
        return sees_full_sheet(self.access, self.character.owner_id)

    @property
    def can_view_portrait(self) -> bool:
        """The portrait belongs to the sheet's header (name, concept, description), which
        every member who may open the sheet sees; its full part is not needed."""
        return self.access.can_view

    @property
    def can_edit_story(self) -> bool:
        """Name, concept, description, notes, the portrait and the current resource pools."""
        return self.acts_for_character

    @property
    def can_edit_traits(self) -> bool:
        """Ratings change through XP spending or by a GM."""
        return self.access.is_gm

    @property
    def can_recover_aspects(self) -> bool:
        """An exhausted Hitos aspect comes back at the next session or story, as the GM
        decides: exhausting one is the owner's cost, giving it back only the GM's."""
        return self.access.is_gm

    @property
    def can_raise_open_pools(self) -> bool:
        """Pools with no maximum (drama, destiny points) grow only by the GM's hand or by a
        rule: a player may spend them, never add to them (RULES section 6)."""
        return self.access.is_gm

    @property
    def can_keep_bonds(self) -> bool:
        """The bonds a character keeps by its own choice (the deities it worships, the
        creatures it keeps bound): the owner and GMs."""
        return self.acts_for_character

    @property
    def can_view_history(self) -> bool:
        return self.access.is_gm or self.is_owner

    @property
    def can_spend_xp(self) -> bool:
        return self.acts_for_character

    @property
    def can_roll(self) -> bool:
        return self.acts_for_character

    @property
    def can_save_rolls(self) -> bool:
        """Keep, rename and delete the sheet's saved rolls: whoever rolls for it (the
        owner, and the GMs for any sheet, NPCs included)."""
        return self.can_roll

    @property
    def can_apply_damage(self) -> bool:
        """GMs; the owner too when the campaign lets players hurt their own characters."""
        return self.access.is_gm or (
            self.acts_for_character and self.access.campaign.owner_applies_damage
        )

    @property
    def can_heal(self) -> bool:
        """Healing rolls and treatments (first aid, drugs, supervision, Auxiliar): whoever
        may apply damage."""
        return self.can_apply_damage

    @property
    def can_manage_health(self) -> bool:
        """Advance in-game time, undo health events, bleed a round: the GM's calls."""
        return self.access.is_gm


def campaign_access(user, campaign_id: int) -> CampaignAccess:
    """The user's access to a campaign, or 404 when they are not a member. One query."""
    if not user.is_authenticated:
        raise Http404
    found = list(_memberships_with_campaign().filter(user_id=user.pk, campaign_id=campaign_id))
    if not found:
        raise Http404
    [membership] = found
    return CampaignAccess(campaign=membership.campaign, membership=membership)


@cache
def _memberships_with_campaign() -> QuerySet[Membership]:
    """The query of `campaign_access` but its two values, built once: a queryset never
    evaluated, which each call filters (a copy) and reads its own rows from. At most one
    row (unique per user and campaign): no ORDER BY, so no join for the default ordering."""
    return Membership.objects.select_related("campaign").order_by()


@cache
def _membership_selected() -> tuple[str, ...]:
    """The membership's columns `character_access` selects: all but its campaign and
    user, the ones it filters on, which come from the character's row and the caller."""
    filtered = ("campaign_id", "user_id")
    return tuple(f.attname for f in Membership._meta.concrete_fields if f.attname not in filtered)


@cache
def _characters_with_membership() -> QuerySet:
    """The query of `character_access` but its two values, built once (as
    `_memberships_with_campaign`; building it was a third of the call's time): the
    character with its campaign, and the columns of a membership in that campaign as
    annotations through one join (a join costs half the Python of a subquery per column).
    `membership_user` is aliased, not selected: it is only filtered on."""
    memberships = "campaign__memberships"
    return (
        all_characters()
        .select_related("campaign")
        .alias(membership_user=F(f"{memberships}__user_id"))
        .annotate(
            **{f"membership_{name}": F(f"{memberships}__{name}") for name in _membership_selected()}
        )
        .order_by()
    )


def character_access(user, campaign_id: int, character_id: int) -> CharacterAccess:
    """Access to a character of a campaign; 404 for non-members or a character elsewhere.

    One query, the hottest of the site (every sheet, roll and poll asks it): the character
    with its campaign and the user's membership there. The character's campaign is
    compared here, not in SQL: a character elsewhere is a 404 all the same, with one
    condition less for the ORM to build."""
    if not user.is_authenticated:
        raise Http404
    found = list(_characters_with_membership().filter(pk=character_id, membership_user=user.pk))
    if not found or found[0].campaign_id != campaign_id:
        raise Http404
    [character] = found
    selected = {name: getattr(character, f"membership_{name}") for name in _membership_selected()}
    values = {**selected, "campaign_id": character.campaign_id, "user_id": user.pk}
    columns = [field.attname for field in Membership._meta.concrete_fields]
    membership = Membership.from_db(character._state.db, columns, [values[c] for c in columns])
    access = CampaignAccess(campaign=character.campaign, membership=membership)
    return CharacterAccess(access=access, character=character)


def may_create_character(
    access: CampaignAccess, owner_id: int | None, *, owned: int | None = None
) -> bool:
    """Players create their own characters up to the campaign's limit; GMs create any.

    `owned` is how many characters the owner already has here, for callers that have
    them loaded (saves a query); counted when not given."""
    if access.is_gm:
        return True
    if not access.is_player or owner_id != access.membership.user_id:
        return False
    if owned is None:
        owned = access.campaign.characters.filter(owner_id=owner_id).count()
    return owned < access.campaign.max_characters_per_player


def require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied


def campaigns_run_by(user) -> QuerySet[Campaign]:
    """Campaigns the user may administer: all for superusers, those they GM otherwise."""
    if user.is_superuser:
        return Campaign.objects.all()
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user, memberships__role=Role.GM)


def may_join_through(invitation: Invitation, user) -> bool:
    """False when a GM removed this user from the campaign after the link was made."""
    return not Removal.objects.filter(
        campaign_id=invitation.campaign_id, user=user, removed_at__gte=invitation.created_at
    ).exists()


def may_use_admin(user, access: CampaignAccess | None = None) -> bool:
    """GMs and superusers; `access`, the page's campaign as the user has it, answers for
    its GMs without a query."""
    if not (user.is_active and user.is_authenticated):
        return False
    if access is not None and access.is_gm and access.membership.user_id == user.pk:
        return True
    # Asked on every page (the menu's admin link).
    return user.is_superuser or Membership.objects.filter(user_id=user.pk, role=Role.GM).exists()


def users_findable_by(user, term: str) -> QuerySet:
    """Accounts a GM may find in the admin to add to a campaign.

    Members of the campaigns they run whose username starts with `term`, and anyone whose
    username is exactly `term`: a GM can add a friend by name without being able to list
    everyone who has an account.
    """
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(is_active=True)
    known = Q(memberships__campaign__in=campaigns_run_by(user))
    term = term.strip()
    if term:
        known = (known & Q(username__istartswith=term)) | Q(username__iexact=term)
    return users.filter(pk__in=users.filter(known).values("pk")).order_by("username")


def may_make_reset_link(access: CampaignAccess, member: Membership) -> bool:
    """A GM may make a one-time link to choose a new password for a member who has no
    email address, so cannot reset it alone (README, "Password reset").

    The link lets whoever opens it into the account, the GM included: only for an account
    with nothing outside the campaigns this GM runs (no GM role anywhere, no membership in
    another GM's campaign, no admin rights). Any other account is the site admin's to reset.
    """
    user = member.user
    if not access.can_manage or member.user_id == access.membership.user_id:
        return False
    if user.email or user.is_staff or user.is_superuser or not user.is_active:
        return False
    runs = Membership.objects.filter(user_id=access.membership.user_id, role=Role.GM)
    beyond = Membership.objects.filter(user_id=member.user_id).filter(
        Q(role=Role.GM) | ~Q(campaign_id__in=runs.values("campaign_id"))
    )
    return not beyond.exists()


def may_administer_campaign(user, campaign_id: int | None) -> bool:
    if user.is_superuser:
        return True
    if campaign_id is None:
        return False
    return campaigns_run_by(user).filter(pk=campaign_id).exists()


def visible_diaries(access: CampaignAccess, queryset: QuerySet) -> QuerySet:
    """The diary entries this member may read, wherever they are listed or counted.

    Authors always see their own entries (drafts too). Otherwise only published entries
    count: GMs read them all, players and observers only those shared with the group
    that no GM has hidden.
    """
    diary = queryset.model
    published = Q(status=diary.Status.PUBLISHED)
    if not access.is_gm:
        # An entry a GM hid stays readable only by GMs and its author.
        published &= Q(visibility=diary.Visibility.GROUP, hidden_at__isnull=True)
    return queryset.filter(published | Q(author_id=access.membership.user_id))


def visible_scene_notes(access: CampaignAccess, queryset: QuerySet) -> QuerySet:
    """GM notes: only GMs ever see them (lists and counts alike)."""
    return queryset if access.is_gm else queryset.none()


def visible_rolls(access: CampaignAccess, queryset: QuerySet) -> QuerySet:
    """Secret rolls are for GMs only."""
    return queryset if access.is_gm else queryset.filter(secret=False)


def may_write_diary(access: CampaignAccess, character: Character) -> bool:
    """A member who writes (not an observer) keeps the diary of the characters they own."""
    return access.can_write and character.owner_id == access.membership.user_id


def _sees_every_sheet(access: CampaignAccess) -> bool:
    """GMs, and players when the campaign shares full sheets."""
    return access.is_gm or (access.is_player and access.campaign.players_see_full_sheets)


def sees_full_sheet(access: CampaignAccess, owner_id: int | None) -> bool:
    """Whether this member sees the whole sheet (health and XP included) of a character
    owned by `owner_id` (None: an NPC): the rule of `CharacterAccess.can_view_full`, for
    places that only hold the owner's id (a stored combat summary)."""
    if owner_id is not None and owner_id == access.membership.user_id:
        return True
    return _sees_every_sheet(access)


def visible_sheet_rows(
    access: CampaignAccess, queryset: QuerySet, *, character: str = "character"
) -> QuerySet:
    """`sees_full_sheet` as a filter, for lists, sums and charts of what belongs to a
    sheet: its XP entries (balance, awards, spends and the ratings they bought) and its
    health events. `character` names the field that points at the sheet ("" when the
    rows are the characters themselves). GMs see every row; the owner theirs; other
    players only when the campaign shares full sheets; observers only their own."""
    if _sees_every_sheet(access):
        return queryset
    owner = f"{character}__owner_id" if character else "owner_id"
    return queryset.filter(**{owner: access.membership.user_id})


def visible_health_events(access: CampaignAccess, queryset: QuerySet) -> QuerySet:
    """Damage, healing and undo events are sheet information."""
    return visible_sheet_rows(access, queryset)


def visible_search_entries(
    access: CampaignAccess, entries: QuerySet, *, diaries: QuerySet
) -> QuerySet:
    """The search index's entries (search.models.SearchEntry) this member may find: each
    kind by the rule of the place it comes from, read when searching, so a diary hidden
    or sheets shared a moment ago count at once.

    Stories, scenes and characters' names, concepts and descriptions: every member.
    Rolls: secret ones GMs only (`visible_rolls`). GM notes: GMs only. Diaries: those
    `visible_diaries` lets them read, out of `diaries` (the campaign's entries). A sheet's
    notes and aspects, and XP entries: the sheet's rule (`visible_sheet_rows`)."""
    kind = entries.model.Kind
    allowed = Q(kind__in=[kind.STORY, kind.SCENE, kind.CHARACTER])
    allowed |= Q(kind=kind.ROLL) if access.is_gm else Q(kind=kind.ROLL, secret=False)
    if access.is_gm:
        allowed |= Q(kind=kind.NOTE)
    allowed |= Q(kind=kind.DIARY, object_id__in=visible_diaries(access, diaries).values("pk"))
    sheet = Q(kind__in=[kind.SHEET, kind.XP])
    if not _sees_every_sheet(access):
        # A subquery, not a join: the whole filter then runs in one place, and the
        # diaries' subquery once (PostgreSQL ran it in the scan and again after a join).
        own = all_characters().filter(owner_id=access.membership.user_id).values("pk")
        sheet &= Q(character_id__in=own)
    return entries.filter(allowed | sheet)
