from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from mechanics.systems.registry import all_systems

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="campaigns:list", permanent=False), name="home"),
    path("accounts/", include("accounts.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("campaigns/<id:campaign_id>/characters/", include("characters.urls")),
    path("campaigns/<id:campaign_id>/", include("mechanics.urls")),
    path("campaigns/<id:campaign_id>/search/", include("search.urls")),
    path("campaigns/<id:campaign_id>/live/", include("live.urls")),
    # Each rule system's own pages (GameSystem.urlpatterns), in its own namespace.
    *[
        path(f"campaigns/<id:campaign_id>/{system.key}/", include((list(urls), system.key)))
        for system in all_systems()
        if (urls := system.urlpatterns)
    ],
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
