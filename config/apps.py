from django.contrib.admin.apps import AdminConfig


class CronicaAdminConfig(AdminConfig):
    default_site = "config.admin.CronicaAdminSite"
