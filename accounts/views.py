from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import PasswordResetForm, SignUpForm
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


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, limited per address and per email typed (README, "Password reset"), and
    answering in the same time whether the address has an account (accounts.outbox)."""

    form_class = PasswordResetForm
    subject_template_name = "registration/password_reset_subject.txt"
    email_template_name = "registration/password_reset_email.txt"

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # Counted whether or not the address has an account: the limit tells nothing.
        limits = {
            f"reset-from:{get_client_ip_address(self.request)}": settings.CRONICA_RESET_PER_ADDRESS,
            f"reset-to:{form.cleaned_data['email'].lower()}": settings.CRONICA_RESET_PER_EMAIL,
        }
        if not services.requests_take(limits=limits, window=settings.CRONICA_RESET_WINDOW):
            form.add_error(
                None,
                _(
                    "Too many requests for a new password from here or for this address. "
                    "Try again in an hour."
                ),
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page drawn before the user signed in again (in another tab, say):
    nothing was saved. Say so in the user's words, with the way back to that page, which
    offers again the long texts the browser kept (the page's `data-unsent-kept`: app.js)."""
    back = request.headers.get("Referer")
    if not back or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home")
    return render(request, "403_csrf.html", {"back": back}, status=403)
