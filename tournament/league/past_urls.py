"""The director's page of the past results imported to start the ratings (tournament.league.past_views)."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.league import past_views as past

urlpatterns = [
    path("league/past/", past.past_events, name="past_events"),
    path("league/past/check/<slug:key>/", past.past_results_check, name="past_results_check"),
    path("league/past/template.xlsx", past.past_results_template, name="past_results_template"),
    path("league/past/<id:event>/delete/", past.past_event_delete, name="past_event_delete"),
]
