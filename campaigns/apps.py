from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from django.db.models import fields
        from django.db.models.signals import post_migrate

        from campaigns.versions import install_triggers

        # After every migrate, once every table is there: a new table or column is
        # covered by the version triggers without a migration of its own.
        post_migrate.connect(install_triggers, sender=self)

        # Django 6.1's blank choice of every select (site and admin): its own Spanish
        # catalogue leaves it untranslated, so the label comes from ours.
        fields.BLANK_CHOICE_LABEL = _("- Select an option -")
