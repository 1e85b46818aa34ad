"""Django's admin speaks the user's language for this app's models and fields too: every model and field has
a translatable verbose name (gettext_lazy), and the Polish admin shows them in Polish."""

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.utils.functional import Promise

from tournament.models import Participant, Tournament

MODELS = list(apps.get_app_config("tournament").get_models())


def own_fields(model):
    """The fields a model declares (its automatic primary key and the relations pointing at it aside)."""
    return [f for f in model._meta.get_fields() if not f.auto_created]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_and_field_has_a_translatable_name(model):
    assert isinstance(model._meta.verbose_name, Promise), model
    assert isinstance(model._meta.verbose_name_plural, Promise), model
    untranslated = [f.name for f in own_fields(model) if not isinstance(f.verbose_name, Promise)]
    assert untranslated == []


@pytest.fixture
def admin(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


@pytest.mark.django_db
def test_the_admin_in_polish_names_the_models_and_fields_in_polish(admin):
    t = Tournament.objects.create(name="Puchar Łodzi")
    p = Participant.objects.create(tournament=t, name="Łucja", club="SP 1")

    index = admin.get("/admin/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    for words in ("Turnieje", "Uczestnicy", "Rundy turnieju", "Stoliki", "Wyniki stolików", "Gry"):
        assert words in index
    for english in ("Participants", "Table results", "Game events", "Rounds"):
        assert english not in index

    listed = admin.get("/admin/tournament/participant/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Wybierz uczestnik do zmiany" in listed and ">Turniej<" in listed  # the title, a column

    rounds = admin.get("/admin/tournament/round/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "runda turnieju" in rounds and "Round" not in rounds

    form = admin.get(f"/admin/tournament/participant/{p.pk}/change/", HTTP_ACCEPT_LANGUAGE="pl")
    assert "Klub / szkoła" in form.content.decode() and "Turniej" in form.content.decode()


@pytest.mark.django_db
def test_the_admin_in_english_stays_english(admin):
    index = admin.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tournament rounds" in index and "Table results" in index and "Moves in the log" in index
