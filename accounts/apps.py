from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.devices import remember_device

        user_logged_in.connect(remember_device, dispatch_uid="accounts.remember_device")
