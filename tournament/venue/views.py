"""The join page (the director's projector: where the phones go, as a QR code), the trust page (a phone
trusts the venue's certificate authority once: Android and iOS, step by step, and whether this phone does
now) and the authority's certificate itself. The authority is ``serve --https``'s
(tournament/server/venue_authority.py); without it there is nothing to trust, and those two pages are not
there."""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournament.exports.qr_image import qr_code_data_uri
from tournament.server import public_url, venue_authority


def kept_authority(request) -> bytes | None:
    """The venue authority's certificate, when the event is served over HTTPS with it."""
    return venue_authority.authority_certificate(settings.KEPT_DIR) if request.is_secure() else None


@require_safe
def join(request):
    bases = public_url.phone_bases(request)
    address = bases[0] + "/"
    trust_url = bases[0] + reverse("join_trust") if kept_authority(request) else None
    return render(
        request,
        "venue/join.html",
        {
            "address": address,
            "qr": qr_code_data_uri(address),
            "others": [b + "/" for b in bases[1:]],
            "trust_url": trust_url,
            "trust_qr": qr_code_data_uri(trust_url) if trust_url else None,
            "plain_http": not request.is_secure(),
        },
    )


@require_safe
def trust(request):
    certificate = kept_authority(request)
    if certificate is None:
        raise Http404("No certificate authority of the event's own: nothing to trust.")
    return render(request, "venue/trust.html", {"authority": venue_authority.authority_name(certificate)})


@require_safe
def authority_file(request):
    certificate = kept_authority(request)
    if certificate is None:
        raise Http404("No certificate authority of the event's own.")
    response = HttpResponse(certificate, content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="monopoly-venue.crt"'
    return response
