from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        # XP awards join the scene timeline (campaigns.chronicle).
        # Damage, treatments and time passing join it too.
        from characters import (
            health_timeline,  # noqa: F401
            xp_timeline,  # noqa: F401
        )
