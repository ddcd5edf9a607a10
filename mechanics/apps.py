import pkgutil
from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MechanicsConfig(AppConfig):
    name = "mechanics"
    verbose_name = _("Mechanics")

    def ready(self) -> None:
        # Signal receivers and timeline sources need the models loaded first.
        from mechanics import (  # noqa: F401
            combat_timeline,
            health_panel,
            health_timeline,
            roll_links,
            roll_timeline,
            systems,
        )
        from mechanics.services import combat  # noqa: F401 (refuses closing a scene mid-fight)

        # Each system package registers itself (mechanics.systems.registry) on import.
        for module in pkgutil.iter_modules(systems.__path__):
            if module.ispkg:
                import_module(f"{systems.__name__}.{module.name}")
