from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MechanicsConfig(AppConfig):
    name = "mechanics"
    verbose_name = _("Mechanics")
