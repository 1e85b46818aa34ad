"""The site's addresses: each page package keeps its own (console, director, exports, public, participants,
streams, league: their ``urls.py``); here the login, the home page and a referee's tables. The URL names are
global (no namespaces): ``reverse("table", …)`` wherever a page links to another."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import converters, views  # noqa: F401 (converters: the <id:…> paths)

#: The database away answered 503 in the user's language, anything else the usual 500 page.
handler500 = "tournament.server.database_away.server_error"

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("my-tables/", views.my_tables, name="my_tables"),
    path("", include("tournament.console.urls")),
    path("", include("tournament.director.urls")),
    path("", include("tournament.exports.urls")),
    path("", include("tournament.public.urls")),
    path("", include("tournament.venue.urls")),
    path("", include("tournament.participants.urls")),
    path("", include("tournament.streams.urls")),
    path("", include("tournament.league.urls")),
    path("", include("tournament.league.manage_urls")),
    path("", include("tournament.league.past_urls")),
]
