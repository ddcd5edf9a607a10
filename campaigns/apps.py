from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # Ended combats join the scene timeline (campaigns.chronicle).
        from campaigns import combat_timeline  # noqa: F401
