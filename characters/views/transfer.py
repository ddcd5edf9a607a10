"""transfer views."""

urlpatterns: list = []
