from django.shortcuts import render

from rules import available_boards, available_variants


def home(request):
    return render(
        request,
        "home.html",
        {"variants": available_variants(), "boards": available_boards()},
    )
