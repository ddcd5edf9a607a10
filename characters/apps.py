from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        # XP awards and diaries join the scene timeline (campaigns.chronicle).
        from characters import diary_timeline, xp_timeline  # noqa: F401
