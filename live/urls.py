from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("", views.stream, name="stream"),
    path("check/", views.check, name="check"),
]
