"""A GM's help for a member who cannot reset their password by mail."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from campaigns.models import Membership
from campaigns.permissions import campaign_access, may_make_reset_link, require


@never_cache
@login_required
@require_POST
def member_reset_link(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    """A one-time link to choose a new password, shown to the GM once, stored nowhere.

    Django's reset token: it stops working once the password changes or the member logs
    in, and after PASSWORD_RESET_TIMEOUT.
    """
    access = campaign_access(request.user, campaign_id)
    require(access.can_manage)
    member = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=access.campaign
    )
    if not may_make_reset_link(access, member):
        messages.error(
            request,
            _(
                "A password link is only for a player or observer without an email address "
                "who plays in no campaign but yours; the site's administrator can reset any "
                "password."
            ),
        )
        return redirect(reverse("campaigns:detail", args=[campaign_id]) + "#members")
    user = member.user
    path = reverse(
        "password_reset_confirm",
        args=[
            urlsafe_base64_encode(force_bytes(user.pk)),
            default_token_generator.make_token(user),
        ],
    )
    context = {
        "campaign": access.campaign,
        "member": member,
        "link": request.build_absolute_uri(path),
    }
    return render(request, "campaigns/reset_link.html", context)
