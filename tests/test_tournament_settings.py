"""A tournament's settings are declared once (``tournament.models.tournaments.SETTINGS``): every editable
field of a tournament is one of them, the director's form shows them in that order, and a backup carries each
and gives it back; a backup made before a later setting gets what tournaments had then, and one without a
setting every backup has is refused, naming it."""

import datetime
import json

import pytest

from tests.tournaments import make_tournament
from tournament.director.forms import TournamentForm
from tournament.files.backup import BackupError, dumps, export_tournament
from tournament.files.backup.reading import read_values
from tournament.models import Tournament
from tournament.models.tournaments import ALWAYS, SETTINGS

pytestmark = pytest.mark.django_db

#: A tournament's fields that are not its settings: who made it and when, who directs it.
NOT_SETTINGS = {"id", "created_by", "created_at", "directors"}


def test_every_editable_field_is_a_setting_and_the_form_shows_them_in_order():
    fields = {f.name for f in Tournament._meta.get_fields() if f.concrete or f.many_to_many}
    assert fields - NOT_SETTINGS == set(SETTINGS)
    assert list(TournamentForm._meta.fields) == list(SETTINGS)
    assert list(TournamentForm().fields) == list(SETTINGS)


def test_a_backup_carries_every_setting_and_gives_it_back():
    t = make_tournament(
        8,
        name="Cup",
        date=datetime.date(2026, 5, 2),
        variant="anti-monopoly",
        ending="game_b",
        game_rounds=9,
        time_limit_minutes=90,
        move_time_limit=40,
        rounds=4,
        table_size=4,
        final_table_size=4,
        placement_points=[5, 3, 1, 0],
        tie_breaks=["total_score", "games"],
        second_confirmation=True,
        check_in=True,
        signatures_required=True,
        links_on_sheets=True,
        seed=77,
        seed_by_rating=False,
    )
    data = json.loads(dumps(export_tournament(t)))
    assert list(data["tournament"])[: len(SETTINGS)] == list(SETTINGS)
    read = read_values(data)["tournament"]
    assert {key: read[key] for key in SETTINGS} == {key: getattr(t, key) for key in SETTINGS}

    for key, before in SETTINGS.items():
        older = json.loads(dumps(export_tournament(t)))
        del older["tournament"][key]
        if before is ALWAYS:
            with pytest.raises(BackupError, match=f"the key “{key}” is missing"):
                read_values(older)
        else:
            assert read_values(older)["tournament"][key] == before
