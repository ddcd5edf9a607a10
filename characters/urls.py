"""Character URLs, under /campaigns/<campaign_id>/characters/."""

from characters import views_xp
from characters.views import creation, health, sheet, transfer

app_name = "characters"

urlpatterns = [
    *creation.urlpatterns,
    *sheet.urlpatterns,
    *health.urlpatterns,
    *transfer.urlpatterns,
    *views_xp.urlpatterns,
]
