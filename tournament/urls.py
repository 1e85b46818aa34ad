from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import views
from tournament.console import views as console

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("games/", console.game_list, name="games"),
    path("games/new/", console.game_new, name="game_new"),
    path("games/<int:pk>/", console.console, name="console"),
    path("games/<int:pk>/panel/", console.panel, name="console_panel"),
    path("games/<int:pk>/act/", console.act, name="console_act"),
    path("games/<int:pk>/undo/", console.undo, name="console_undo"),
    path("games/<int:pk>/void/<int:seq>/", console.void, name="console_void"),
    path("games/<int:pk>/record.json", console.export, name="game_record"),
]
