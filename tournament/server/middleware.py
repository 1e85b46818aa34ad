"""The site's own middleware.

- :class:`SecurityHeadersMiddleware`: the Content-Security-Policy and Permissions-Policy headers on every
  response (Django 5.2 has no CSP of its own; SecurityMiddleware sends X-Content-Type-Options,
  Referrer-Policy and Cross-Origin-Opener-Policy, XFrameOptionsMiddleware X-Frame-Options).
- :class:`RefuseNulMiddleware`: requests carrying a NUL character are refused before any view sees them: no
  database stores it (PostgreSQL cannot), and no user types one. The answer is a 400 page in the user's
  language.
"""

from django.conf import settings
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


class SecurityHeadersMiddleware:
    """``settings.SECURITY_HEADERS`` on every response, unless a view set the header itself.

    The pages load only the site's own scripts and style sheets, with no inline script, event handler or
    style attribute, so the policy forbids all of those: injected markup can run nothing."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.headers = dict(settings.SECURITY_HEADERS)

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in self.headers.items():
            response.headers.setdefault(name, value)
        return response
