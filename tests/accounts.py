"""The accounts the page tests act as, signed in on the test client.

tests/conftest.py gives every test a ``referee`` ("ref") and a ``director`` ("director", staff), not signed
in. A test module whose pages are all seen as one of them imports its signed-in form, which takes the same
fixture name (``referee`` or ``director``) in that module:

    from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
"""

import pytest


@pytest.fixture(name="referee")
def signed_in_referee(referee, client):
    """conftest's referee, signed in on ``client``."""
    client.force_login(referee)
    return referee


@pytest.fixture(name="director")
def signed_in_director(director, client):
    """conftest's director, signed in on ``client``."""
    client.force_login(director)
    return director
