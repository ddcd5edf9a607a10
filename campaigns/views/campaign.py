from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services
from campaigns.append_only import chained_models, checkpoint
from campaigns.confirm import ask_first
from campaigns.forms.campaign import CampaignForm, InvitationForm, MemberRoleForm
from campaigns.fragments import cached_htmls, cached_pieces, fragment_key, viewer
from campaigns.htmx import htmx_render, unchanged
from campaigns.images import SIZES, image_response
from campaigns.models import Campaign, Invitation, Membership, Role, all_characters
from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    may_create_character,
    may_join_through,
    require,
)
from campaigns.selectors import scenes_for, with_counts

LATEST_SCENES = 5
# What the latest scenes show: not their rolls, so a roll leaves the cached page as it is.
LATEST_SCENE_COUNTS = ("diary_count",)


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    memberships = list(
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("campaign__name", "campaign__pk")
    )
    # Each card links straight to the viewer's own characters (one query for all).
    mine: dict[int, list] = {}
    owned = all_characters().filter(owner=request.user, campaign__memberships__user=request.user)
    for character in owned.only("id", "name", "campaign_id", "portrait_thumb").order_by(
        "name", "pk"
    ):
        mine.setdefault(character.campaign_id, []).append(character)
    for membership in memberships:
        membership.my_characters = mine.get(membership.campaign_id, [])
    return render(request, "campaigns/campaign_list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None, request.FILES or None, uploader=request.user)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(
            user=request.user,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            system=form.cleaned_data["system"],
            house_rules=form.cleaned_data["house_rules"],
            options=form.options(),
        )
        _set_image(form, campaign)
        messages.success(request, _("Campaign created. Invite your players from here."))
        return redirect(campaign)
    return render(request, "campaigns/campaign_form.html", {"form": form, "creating": True})


def _page_key(
    request: HttpRequest,
    access: CampaignAccess,
    latest_scenes: list,
    invitations: list,
    waiting: int,
) -> str:
    """The cache key of the campaign page's body (all but the live roll feed): the
    campaign's version (its members, characters, scenes and invitations: see
    `campaigns.versions`), the viewer, the counts of the latest scenes, and the host the
    invitation links are written for. An invitation's status also depends on the time,
    so the key holds the statuses of those shown; and the XP purchases waiting for a GM."""
    campaign = access.campaign
    return fragment_key(
        "campaign-page",
        viewer(access),
        (campaign.pk, campaign.version),
        request.scheme,
        request.get_host(),
        [
            (scene.pk, [getattr(scene, name) for name in LATEST_SCENE_COUNTS])
            for scene in latest_scenes
        ],
        [(row.pk, row.status) for row in invitations],
        waiting,
    )


@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    # The latest scenes, and the counts this member may see of those alone, kept until
    # anything in the campaign changes (the change sequence: a diary bumps no version
    # of the campaign's own, and a player's draft counts for its author alone); for a GM,
    # the XP purchases waiting for approval, until anything but a roll changes. Both read
    # in one round trip.
    keys = {
        "latest": fragment_key("latest-scenes", viewer(access), campaign.pk, campaign.change_seq)
    }
    compute = {
        "latest": lambda: with_counts(
            access, scenes_for(access)[:LATEST_SCENES], names=LATEST_SCENE_COUNTS
        )
    }
    if access.can_award_xp:
        keys["waiting"] = fragment_key("purchases-waiting", campaign.pk, campaign.nonroll_seq)
        # Through the characters' relation: the purchases are the characters app's rows.
        compute["waiting"] = lambda: campaign.characters.filter(
            xp_purchases__status="pending"
        ).count()
    found = cached_pieces(
        keys, lambda missing: {item: compute[item]() for item in missing}, timeout=3600
    )
    latest_scenes, waiting = found["latest"], found.get("waiting", 0)
    invitations = (
        list(campaign.invitations.filter(revoked_at__isnull=True)[:20]) if access.can_manage else []
    )
    key = _page_key(request, access, latest_scenes, invitations, waiting)
    # The page's live refresh follows its key, not each change of the campaign: a roll
    # (the feed's, refreshed apart) leaves it up to date.
    if up_to_date := unchanged(request, key):
        return up_to_date
    context = {"access": access, "campaign": campaign, "page_key": key, "waiting": waiting}
    # The body is rendered once per key, in two parts around the roll feed (cached apart,
    # by the rolls it shows); its rows are loaded only when a part is not cached.
    keys = {part: f"{key}:{part}" for part in ("top", "bottom")}
    found = cached_htmls(request, list(keys.values()))
    for part, part_key in keys.items():
        context[f"page_{part}"] = found.get(part_key)
        context[f"page_{part}_key"] = part_key
    if len(found) == len(keys):
        return render(request, "campaigns/campaign_detail.html", context)
    # Every member sees every character's public view; the list is loaded once here
    # so the "New character" check needs no extra query.
    characters = list(
        campaign.characters.select_related("owner").defer(
            "description", "notes", "details", "health"
        )
    )
    members = list(campaign.memberships.select_related("user").order_by("role", "user__username"))
    context.update(
        members=members,
        invitations=invitations,
        # Open on the page while the GM is alone and has invited nobody yet; otherwise it
        # loads when asked for, so that a page of play does not render it.
        invitation_form=InvitationForm() if len(members) == 1 and not invitations else None,
        latest_scenes=latest_scenes,
        characters=characters,
        may_create_character=may_create_character(
            access,
            access.membership.user_id,
            owned=sum(1 for c in characters if c.owner_id == access.membership.user_id),
        ),
    )
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    form = CampaignForm(
        request.POST or None, request.FILES or None, instance=access.campaign, uploader=request.user
    )
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_update(
                campaign=access.campaign,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                system=form.cleaned_data["system"],
                house_rules=form.cleaned_data["house_rules"],
                options=form.options(),
            )
        except ValidationError as error:
            form.add_error("system", error)
        else:
            _set_image(form, campaign)
            messages.success(request, _("Campaign saved."))
            return redirect(campaign)
    return render(
        request,
        "campaigns/campaign_form.html",
        {
            "form": form,
            "campaign": access.campaign,
            "creating": False,
            "history_tips": _history_tips(access.campaign.pk),
        },
    )


def _history_tips(campaign_id: int) -> list[tuple[str, int, str]]:
    """(kind, length, head) of each of the campaign's history chains, for its GMs."""
    tips = checkpoint(campaign_id)
    rows = []
    for model in chained_models():
        tip = tips.get(model._meta.db_table, {}).get(str(campaign_id))
        if tip is not None:
            rows.append((model._meta.verbose_name_plural, tip["length"], tip["head"][:16]))
    return rows


@login_required
@require_GET
def history_checkpoint(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The tips of the campaign's history chains as a file its GMs keep: `manage.py
    verify_history --checkpoint FILE` later says whether the history still reaches them
    (rows removed or rewritten since)."""
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    now = timezone.now()
    response = JsonResponse(
        {
            "format": "cronica-history-checkpoint",
            "campaign": campaign_id,
            "created_at": now.isoformat(timespec="seconds"),
            "history": checkpoint(campaign_id),
        },
        json_dumps_params={"indent": 2},
    )
    name = f"cronica-{campaign_id}-history-{now:%Y%m%d-%H%M%S}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _set_image(form: CampaignForm, campaign: Campaign) -> None:
    changes, image = form.image_change()
    if changes:
        services.campaign_set_image(campaign=campaign, image=image)


@require_GET
def campaign_image(request: HttpRequest, campaign_id: int, size: str) -> FileResponse:
    """The campaign's image, to its members; 404 to anyone else, signed in or not."""
    access = campaign_access(request.user, campaign_id)
    if not access.can_view or size not in SIZES:
        raise Http404
    campaign = access.campaign
    return image_response(campaign.image if size == "full" else campaign.image_thumb)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A new invitation link. GET: its form, which the campaign page asks for the first
    time "New invitation link" is opened (without htmx, a page with the form). A refused
    form comes back on that page with what was typed."""
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    form = InvitationForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        services.invitation_create(
            campaign=access.campaign,
            user=request.user,
            role=form.cleaned_data["role"],
            expires_at=form.expires_at(),
            max_uses=form.cleaned_data["max_uses"],
        )
        messages.success(request, _("Invitation link created."))
        return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#invitations")
    context = {"access": access, "campaign": access.campaign, "invitation_form": form}
    if request.htmx and not form.is_bound:
        return render(request, "campaigns/invitation_form.html#form", context)
    return render(request, "campaigns/invitation_form.html", context)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, campaign_id: int, invitation_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign=access.campaign)
    back = reverse("campaigns:detail", args=[campaign_id]) + "#invitations"
    question = _("Revoke this invitation link? Nobody will be able to join with it.")
    if asking := ask_first(request, question=question, button=_("Revoke"), cancel_url=back):
        return asking
    services.invitation_revoke(invitation=invitation)
    messages.success(request, _("Invitation link revoked."))
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#invitations")


@require_http_methods(["GET", "POST"])
def invitation_open(request: HttpRequest, token: str) -> HttpResponse:
    """The link a GM shares: shows the campaign and a button to join.

    Joining is a POST so that link previews and prefetchers never use up an invitation.
    Anonymous visitors are offered sign-up or log-in, and come back here.
    """
    invitation = Invitation.objects.select_related("campaign").filter(token=token).first()
    state = invitation.status if invitation is not None else "missing"
    membership = None
    if request.user.is_authenticated:
        if request.method == "POST":
            try:
                membership = services.invitation_accept(token=token, user=request.user)
            except ValidationError as error:
                messages.error(request, error.messages[0])
            else:
                request.session.pop("invitation_token", None)
                messages.success(
                    request,
                    _("You joined %(campaign)s as %(role)s.")
                    % {"campaign": membership.campaign.name, "role": membership.get_role_display()},
                )
                return redirect("campaigns:detail", membership.campaign_id)
        if invitation is not None:
            membership = Membership.objects.filter(
                campaign_id=invitation.campaign_id, user=request.user
            ).first()
            if not (membership or may_join_through(invitation, request.user)):
                state = "removed"
    elif request.method == "POST":
        return redirect_to_login(request.get_full_path())
    elif state == "active":
        # Lets an invite-only site accept this visitor's sign-up.
        request.session["invitation_token"] = token
    status = {"active": 200, "missing": 404, "removed": 403}.get(state, 410)
    context = {"invitation": invitation, "state": state, "membership": membership}
    return render(request, "campaigns/invitation.html", context, status=status)


def _member_or_404(access, membership_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=access.campaign
    )


@login_required
@require_GET
def members_manage(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The GM's forms for the other members (role, removal, a password link): the
    campaign page asks for them the first time "Manage members" is opened (without
    htmx, a page with them), so that a page of play does not render them."""
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    members = (
        access.campaign.memberships.select_related("user")
        .exclude(pk=access.membership.pk)
        .order_by("role", "user__username")
    )
    context = {
        "access": access,
        "campaign": access.campaign,
        "members": list(members),
        "role_choices": Role.choices,
    }
    return htmx_render(request, "campaigns/members.html", "manage", context)


@login_required
@require_POST
def member_change_role(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    membership = _member_or_404(access, membership_id)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a valid role."))
    else:
        try:
            services.membership_change_role(membership=membership, role=form.cleaned_data["role"])
        except ValidationError as error:
            messages.error(request, error.messages[0])
        else:
            messages.success(
                request,
                _("%(user)s is now %(role)s.")
                % {"user": membership.user.username, "role": membership.get_role_display()},
            )
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#members")


@login_required
@require_POST
def member_remove(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    """A GM removes a member, or any member leaves (removes their own membership)."""
    access = campaign_access(request.user, campaign_id)
    membership = _member_or_404(access, membership_id)
    leaving = membership.pk == access.membership.pk
    require(leaving or access.can_manage)
    names = {"user": membership.user.username, "campaign": access.campaign.name}
    if leaving:
        question = _("Leave %(campaign)s? To come back you will need a new invitation.") % names
    else:
        question = _("Remove %(user)s from %(campaign)s?") % names
    if asking := ask_first(
        request,
        question=question,
        button=_("Leave campaign") if leaving else _("Remove"),
        cancel_url=reverse("campaigns:detail", args=[campaign_id]) + "#members",
    ):
        return asking
    try:
        services.membership_remove(
            membership=membership, removed_by=None if leaving else request.user
        )
    except ValidationError as error:
        messages.error(request, error.messages[0])
        return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#members")
    if leaving:
        messages.success(request, _("You left %(campaign)s.") % {"campaign": access.campaign.name})
        return redirect("campaigns:list")
    messages.success(request, _("%(user)s was removed.") % {"user": membership.user.username})
    return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#members")
