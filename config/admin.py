from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from campaigns.permissions import may_use_admin


class CronicaAdminSite(admin.AdminSite):
    """GMs may log in; each model admin then scopes them to the campaigns they run."""

    site_header = _("Crónica administration")
    site_title = _("Crónica")
    index_title = _("Administration")

    def has_permission(self, request) -> bool:
        return may_use_admin(request.user)
