"""For everyone, without logging in: the standings, their projector view and the seating of a round."""

from django.urls import path

from tournament import converters  # noqa: F401 (the <id:…> paths)
from tournament.public import views as public

urlpatterns = [
    path("tournaments/<id:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<id:pk>/projector/", public.projector, name="projector"),
    path("tournaments/<id:pk>/seating/", public.seating, name="seating"),
    path("tournaments/<id:pk>/rounds/<id:number>/seating/", public.seating, name="round_seating"),
]
