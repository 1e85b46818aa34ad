"""Joining the event at the venue: the page the director shows on the projector (the address the phones use,
as a QR code) and, when ``serve --https`` serves the event with a certificate authority of its own, the page
that leads a phone through trusting it."""
