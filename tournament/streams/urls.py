from django.urls import path

from tournament.streams import views

urlpatterns = [
    path("tables/<id:pk>/events/", views.table_events, name="table_events"),
    path("tournaments/<id:pk>/events/", views.tournament_events, name="tournament_events"),
]
