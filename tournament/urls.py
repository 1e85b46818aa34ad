from django.contrib import admin
from django.urls import include, path

from tournament import views

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", views.home, name="home"),
]
