from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        # XP awards and diaries join the scene timeline (campaigns.chronicle).
        from characters import diary_timeline, xp_timeline  # noqa: F401
        from characters.xp_summary import install_trigger

        # After every migrate: a migration that rebuilds the XP entries' table on SQLite
        # drops their triggers.
        post_migrate.connect(install_trigger, sender=self)
