"""A participant's private link and what it opens (no login: the link's key is the key)."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.participants import views

urlpatterns = [
    path("tournaments/<id:pk>/me/<slug:key>/", views.page, name="participant_page"),
    path("tournaments/<id:pk>/me/<slug:key>/cards.pdf", views.cards, name="participant_own_cards"),
    path("tournaments/<id:pk>/me/<slug:key>/check-in/", views.check_in, name="participant_own_check_in"),
    path("tournaments/<id:pk>/me/<slug:key>/sign/", views.sign, name="participant_sign"),
]
