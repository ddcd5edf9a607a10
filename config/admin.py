from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from campaigns.models import Membership
from campaigns.permissions import may_use_admin, users_findable_by
from config.converters import MAX_ID


class MemberLookupView(AutocompleteJsonView):
    """The admin's autocomplete, letting a GM find users for a membership.

    Django asks for view permission on the user accounts, which a GM does not have (and
    must not: the user list stays hidden); for this one field the permission module says
    whom a GM may find instead.
    """

    def _finds_members(self) -> bool:
        return self.source_field.model is Membership and self.source_field.name == "user"

    def has_perm(self, request, obj=None) -> bool:
        if not request.user.is_superuser and self._finds_members():
            return may_use_admin(request.user)
        return super().has_perm(request, obj)

    def get_queryset(self):
        if self.request.user.is_superuser or not self._finds_members():
            return super().get_queryset()
        return users_findable_by(self.request.user, self.term)


class CronicaAdminSite(admin.AdminSite):
    """GMs may log in; each model admin then scopes them to the campaigns they run."""

    site_header = _("Crónica administration")
    site_title = _("Crónica")
    index_title = _("Administration")
    login_form = AdminLoginForm

    def has_permission(self, request) -> bool:
        return may_use_admin(request.user)

    def autocomplete_view(self, request):
        return MemberLookupView.as_view(admin_site=self)(request)

    def get_urls(self) -> list[URLPattern]:
        # Django's "view on site" shortcut redirects to any object of any model: a GM could
        # learn whether an id exists in another campaign, and where (an invitation's token).
        return [
            path(
                "r/<path:content_type_id>/<path:object_id>/",
                self.admin_view(self.view_on_site),
                name="view_on_site",
            )
            if getattr(pattern, "name", None) == "view_on_site"
            else pattern
            for pattern in super().get_urls()
        ]

    def view_on_site(
        self, request: HttpRequest, content_type_id: str, object_id: str
    ) -> HttpResponse:
        """The object's page, only when this user may view it in this admin; else 404,
        the same answer as for an id that does not exist."""
        if not (content_type_id.isdigit() and int(content_type_id) <= MAX_ID):
            raise Http404
        try:
            model = ContentType.objects.get_for_id(int(content_type_id)).model_class()
        except ContentType.DoesNotExist:
            raise Http404 from None
        model_admin = self._registry.get(model)
        if model_admin is None or not hasattr(model, "get_absolute_url"):
            raise Http404
        try:
            obj = model_admin.get_queryset(request).filter(pk=object_id).first()
        except (TypeError, ValueError, ValidationError, OverflowError):
            raise Http404 from None
        if obj is None or not model_admin.has_view_permission(request, obj):
            raise Http404
        return redirect(obj.get_absolute_url())
