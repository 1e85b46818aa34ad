import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def client(client):
    """Django's test client speaking English unless a test chooses another language."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client
