"""sheet views."""

urlpatterns: list = []
