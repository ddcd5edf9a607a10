"""Character URLs, under /campaigns/<campaign_id>/characters/: sheets, diaries and XP."""

from characters.views import creation, diary, sheet, sheet_lists, transfer, xp

app_name = "characters"

urlpatterns = [
    *creation.urlpatterns,
    *sheet.urlpatterns,
    *sheet_lists.urlpatterns,
    *diary.urlpatterns,
    *transfer.urlpatterns,
    *xp.urlpatterns,
]
