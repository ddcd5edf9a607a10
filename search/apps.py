from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = _("Search")

    def ready(self) -> None:
        # The index follows every write of what it holds, in the write's transaction.
        from search import index  # noqa: F401
