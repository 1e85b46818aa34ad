"""The players sign their table's figures from their private links once the game is over: "I agree", or "I
dispute" saying why. A dispute stops the confirmation, and so does a missing signature where the tournament
requires them, until the director rules (his ruling kept in his log); a change of the game voids the
signatures on its older figures."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments import make_tournament, play_table
from tournament.errors import RoundError
from tournament.event import results, rounds, signatures
from tournament.games import recording
from tournament.models import AuditEntry, Participant, Signature, TableResult, Tournament
from tournament.people.participant_links import link_path

pytestmark = pytest.mark.django_db


@pytest.fixture
def over(referee):
    """A table whose game is over, its result not confirmed: (tournament, table, game)."""
    t = make_tournament(4, name="Cup", rounds=2, table_size=4)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    game = play_table(table, referee)
    return t, table, game


def person(t, name) -> Participant:
    return Participant.objects.select_related("tournament").get(tournament=t, name=name)


def sign(client, p: Participant, table, game, verdict: str, reason: str = "", version=None):
    url = reverse("participant_sign", args=[p.tournament_id, p.link_key])
    data = {"table": table.pk, "version": game.version if version is None else version, "verdict": verdict}
    return html.unescape(client.post(url, {**data, "reason": reason}, follow=True).content.decode())


def test_a_dispute_stops_the_confirmation_until_the_director_rules(client, over, referee, director):
    t, table, game = over
    page = html.unescape(client.get(link_path(person(t, "P00"))).content.decode())
    assert "Your table's result: round 1, table 1" in page and "I agree" in page
    for name in ("P00", "P01", "P02"):
        assert "Your signature is kept" in sign(client, person(t, name), table, game, "agree")
    assert "Say why you dispute the figures." in sign(client, person(t, "P03"), table, game, "dispute", " ")
    assert Signature.objects.count() == 3
    sign(client, person(t, "P03"), table, game, "dispute", "my hotel was not counted")
    with pytest.raises(RoundError, match="P03: my hotel was not counted"):
        results.confirm(table, referee)  # the referee cannot rule
    with pytest.raises(RoundError, match="Confirm it with your ruling"):
        results.confirm(table, director, directs=True)
    assert not TableResult.objects.exists() and not AuditEntry.objects.exists()
    # the table page shows who signed what, and the director the ruling's field
    client.force_login(director)
    page = client.get(reverse("table", args=[t.pk, 1, 1])).content.decode()
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(page)))
    assert "P00: ✓ agrees" in said and "P03: ✗ disputes: “my hotel was not counted”" in said
    assert 'name="ruling"' in page
    client.post(reverse("table_confirm", args=[t.pk, 1, 1]), {"ruling": "the hotel was sold before"})
    assert TableResult.objects.filter(table=table).exists()
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.reason, entry.table_number) == ("ruling", "the hotel was sold before", 1)
    assert "P03" in entry.details["stopped"]
    # confirmed: nothing more to sign
    assert "already" in sign(client, person(t, "P00"), table, game, "agree")
    assert "Your table's result" not in client.get(link_path(person(t, "P00"))).content.decode()


def test_where_signatures_are_required_every_player_agrees_first(client, over, referee):
    t, table, game = over
    t.signatures_required = True
    t.save()
    for name in ("P00", "P01", "P02"):
        sign(client, person(t, name), table, game, "agree")
    with pytest.raises(RoundError, match="Waiting for a player's signature: P03."):
        results.confirm(table, referee)
    sign(client, person(t, "P03"), table, game, "agree")
    results.confirm(table, referee)
    assert TableResult.objects.filter(table=table).exists() and not AuditEntry.objects.exists()


def test_signatures_are_of_the_figures_as_read(client, over, referee):
    t, table, game = over
    p = person(t, "P01")
    assert "changed since your page showed" in sign(client, p, table, game, "agree", version=game.version - 1)
    sign(client, p, table, game, "dispute", "wrong rent")
    assert signatures.blocking(t, table, game) is not None
    # the referee corrects the game: the last move undone (it is over no more), the signature void
    game = recording.undo_last(game.pk, version=game.version, user=referee, reason="the dispute")
    assert "not over yet" in sign(client, p, table, game, "agree")
    assert signatures.current(table, game) == {} and signatures.blocking(t, table, game) is None
    assert Signature.objects.filter(participant=p).count() == 1  # kept, on the version it was of


def test_a_forged_key_or_a_damaged_form_signs_nothing(client, over):
    t, table, game = over
    p = person(t, "P00")
    url = reverse("participant_sign", args=[t.pk, p.link_key])
    forged = url.replace(p.link_key, ("A" if p.link_key[0] != "A" else "B") + p.link_key[1:])
    data = {"table": table.pk, "version": game.version, "verdict": "agree"}
    assert client.post(forged, data).status_code == 404
    for data in (
        {"table": table.pk, "version": game.version, "verdict": "maybe"},
        {"table": "x", "version": game.version, "verdict": "agree"},
        {"table": table.pk, "version": "-1", "verdict": "agree"},
        {"table": table.pk + 999, "version": game.version, "verdict": "agree"},
    ):
        assert "This form is damaged" in html.unescape(client.post(url, data, follow=True).content.decode())
    other = make_tournament(["Zed", "Yan"], name="Other")
    zed = person(other, "Zed")
    url = reverse("participant_sign", args=[other.pk, zed.link_key])  # his link, our table
    client.post(url, {"table": table.pk, "version": game.version, "verdict": "agree"})
    assert not Signature.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_dispute_and_the_confirmation_at_once_never_both_go_through(over, referee):
    from tests.threads import at_once

    t, table, game = over

    def dispute():
        p = person(t, "P02")
        with translation.override("en"):  # (a thread starts in the site's language)
            try:
                signatures.sign(p, table, agrees=False, reason="a misread die", version=game.version)
            except RoundError as e:
                return str(e)
        return "signed"

    def confirm():
        with translation.override("en"):
            try:
                results.confirm(table, referee)
            except RoundError as e:
                return str(e)
        return "confirmed"

    outcome = at_once(dispute, confirm)
    assert outcome in (
        ["signed", "A player disputes the figures (P02: a misread die): the director rules."],
        ["This table's result is confirmed already.", "confirmed"],
    )
    assert Signature.objects.exists() != TableResult.objects.exists()


def signed_by_five(disputing: int = 0, agreeing: int = 5) -> tuple[dict[int, str], dict[int, Signature]]:
    """Five players P01…P05 (as ``signatures.players_of``) and their signatures (as ``signatures.current``):
    the first ``disputing`` dispute, the others agree, ``agreeing`` signatures in all."""
    players = {pid: f"P{pid:02}" for pid in range(1, 6)}
    signed = {}
    for pid in range(1, agreeing + 1):
        agrees = pid > disputing
        signed[pid] = Signature(participant_id=pid, agrees=agrees, reason="" if agrees else f"rent {pid}")
    return players, signed


@pytest.mark.parametrize(
    ("language", "n", "said"),
    [
        ("en", 1, "A player disputes the figures (P01: rent 1): the director rules."),
        ("en", 2, "2 players dispute the figures (P01: rent 1; P02: rent 2): the director rules."),
        ("pl", 1, "Gracz kwestionuje wyniki (P01: rent 1): rozstrzyga dyrektor."),
        ("pl", 2, "2 gracze kwestionują wyniki (P01: rent 1; P02: rent 2): rozstrzyga dyrektor."),
        (
            "pl",
            5,
            "5 graczy kwestionuje wyniki (P01: rent 1; P02: rent 2; P03: rent 3; P04: rent 4; P05: rent 5): "
            "rozstrzyga dyrektor.",
        ),
    ],
)
def test_the_disputes_are_counted_in_their_plural_form(language, n, said):
    with translation.override(language):
        assert signatures.why_blocked(Tournament(), *signed_by_five(disputing=n)) == said


@pytest.mark.parametrize(
    ("language", "n", "said"),
    [
        ("en", 1, "Waiting for a player's signature: P05."),
        ("en", 2, "Waiting for the players' signatures: P04, P05."),
        ("pl", 1, "Czekamy na podpis gracza: P05."),
        ("pl", 2, "Czekamy na podpisy graczy: P04, P05."),
        ("pl", 5, "Czekamy na podpisy graczy: P01, P02, P03, P04, P05."),
    ],
)
def test_the_missing_signatures_are_counted_in_their_plural_form(language, n, said):
    required = Tournament(signatures_required=True)
    with translation.override(language):
        assert signatures.why_blocked(required, *signed_by_five(agreeing=5 - n)) == said
