"""Character URLs, under /campaigns/<campaign_id>/characters/."""

from characters import views_xp
from characters.views import creation, sheet, transfer

app_name = "characters"

urlpatterns = [
    *creation.urlpatterns,
    *sheet.urlpatterns,
    *transfer.urlpatterns,
    *views_xp.urlpatterns,
]
