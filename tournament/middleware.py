"""Requests carrying a NUL character are refused before any view sees them: no database stores it
(PostgreSQL cannot), and no user types one. The answer is a 400 page in the user's language."""

from django.shortcuts import render
from django.utils.translation import gettext as _

NUL = "\x00"


def _has_nul(query_dict) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in query_dict.lists())


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            NUL in request.path
            or _has_nul(request.GET)
            or (request.method == "POST" and _has_nul(request.POST))
        ):
            return render(
                request,
                "400.html",
                {
                    "message": _(
                        "The request contains a character that is not allowed (NUL). Nothing was changed."
                    )
                },
                status=400,
            )
        return self.get_response(request)
