from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running the site: backup and restore. Generic: it knows tables, not the apps."""

    name = "ops"
    verbose_name = "Operations"
