from django.contrib.admin.apps import AdminConfig
from django.urls import register_converter

from config.converters import IdConverter
from config.lookups import register as register_lookups


class CronicaAdminConfig(AdminConfig):
    default_site = "config.admin.CronicaAdminSite"

    def ready(self) -> None:
        # Before the admin's autodiscovery or any URLconf builds its patterns.
        register_converter(IdConverter, "id")
        register_lookups()
        super().ready()
