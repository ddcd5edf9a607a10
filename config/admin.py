from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.utils.translation import gettext_lazy as _

from campaigns.models import Membership
from campaigns.permissions import may_use_admin, users_findable_by


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

    def has_permission(self, request) -> bool:
        return may_use_admin(request.user)

    def autocomplete_view(self, request):
        return MemberLookupView.as_view(admin_site=self)(request)
