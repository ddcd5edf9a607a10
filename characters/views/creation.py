"""creation views."""

urlpatterns: list = []
