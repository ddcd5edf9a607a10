from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from campaigns.models import Invitation


def _signup_allowed(request: HttpRequest) -> bool:
    if settings.CRONICA_SIGNUP == "open":
        return True
    token = request.session.get("invitation_token")
    return bool(token) and Invitation.objects.usable().filter(token=token).exists()


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def _pending_invitation(request: HttpRequest) -> str | None:
    """The invitation this visitor opened before signing up, so they land back on it."""
    token = request.session.get("invitation_token")
    return reverse("campaigns:invitation", args=[token]) if token else None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    if not _signup_allowed(request):
        return render(request, "accounts/signup_closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.backends.ModelBackend")
        messages.success(request, _("Welcome to Crónica, %(name)s.") % {"name": user.username})
        return redirect(
            _safe_next(request) or _pending_invitation(request) or settings.LOGIN_REDIRECT_URL
        )
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})
