"""Character URLs, under /campaigns/<campaign_id>/characters/: sheets, diaries and XP."""

from characters.views import creation, diary, sheet, transfer, xp

app_name = "characters"

urlpatterns = [
    *creation.urlpatterns,
    *sheet.urlpatterns,
    *diary.urlpatterns,
    *transfer.urlpatterns,
    *xp.urlpatterns,
]
