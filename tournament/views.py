from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from rules import available_boards, available_variants
from tournament.models import Round, Table, Tournament
from tournament.people.access import is_director
from tournament.people.referee_tables import games_now, tables_now


def home(request):
    my_tables = []
    if request.user.is_authenticated:
        my_tables = (
            Table.objects.filter(referees=request.user)
            .exclude(round__status=Round.Status.FINISHED)
            .select_related("round__tournament", "game")
            .order_by("round__tournament", "round__number", "number")
        )
    return render(
        request,
        "home.html",
        {
            "variants": available_variants(),
            "boards": available_boards(),
            "tournaments": Tournament.objects.all()[:10],
            "my_tables": my_tables,
        },
    )


@login_required
def my_tables(request):
    """Where a referee lands after logging in: his tables now, one tap from each game."""
    return render(
        request,
        "my_tables.html",
        {
            "tables": tables_now(request.user),
            "games": games_now(request.user),
            "director": is_director(request.user),
        },
    )


def login_username(request, credentials=None) -> str:
    """The user name django-axes counts failures against, cut to what an account name can be (the login form
    does not bound it, and axes would store a 5,000-character one)."""
    name = (credentials or {}).get("username") or request.POST.get("username") or ""
    return name[: get_user_model()._meta.get_field("username").max_length]


def locked_out(request, response=None, credentials=None):
    """The page shown after too many wrong passwords for one account from one address (django-axes)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
