"""For everyone at the venue, without logging in: how a phone joins the event."""

from django.urls import path

from tournament.venue import views

urlpatterns = [
    path("join/", views.join, name="join"),
    path("join/trust/", views.trust, name="join_trust"),
    path("join/monopoly-venue.crt", views.authority_file, name="join_authority"),
]
