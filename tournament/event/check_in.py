"""Check-in before a round is seated (a tournament with ``check_in``): a participant says he is here from his
private link, or the director ticks him (and unticks him); the round then seats those who checked in for it
(``rounds.seat_tables``). The director's override is his tick: a participant without a phone, everyone at
once, a late arrival before the round is seated again.

The round checked in for is the one not started yet: the last round while it is seated and not started (it
can still be seated again), else the next one. Once its games start, check-in moves on to the round after."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.errors import RoundError
from tournament.models import CheckIn, Participant, Round, Tournament


def check_in_round(tournament: Tournament) -> int | None:
    """The number of the round check-in is for now (None: every round is played or under way)."""
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.status == Round.Status.SEATED:
        return last.number
    number = 1 if last is None else last.number + 1
    return number if number <= tournament.rounds else None


def checked_in(tournament: Tournament, number: int) -> dict[int, CheckIn]:
    """Who checked in for round ``number``: participant id → his check-in."""
    rows = CheckIn.objects.filter(participant__tournament=tournament, round_number=number)
    return {c.participant_id: c for c in rows}


def attendance(tournament: Tournament, participants: list[Participant] | None = None) -> dict | None:
    """Who is here for the round check-in is for: ``{"round", "here", "of"}``, counted over the participants
    still in; each of ``participants`` (by default all the tournament's) marked with ``here``, his check-in or
    None. None when the tournament does not ask for check-in or no round is left to check in for."""
    number = check_in_round(tournament) if tournament.check_in else None
    if number is None:
        return None
    if participants is None:
        participants = list(tournament.participants.all())
    here = checked_in(tournament, number)
    for p in participants:
        p.here = here.get(p.pk)
    active = [p for p in participants if p.active]
    return {"round": number, "here": sum(p.here is not None for p in active), "of": len(active)}


def check_in(participant: Participant, *, by=None) -> tuple[CheckIn, int]:
    """``participant`` here for the round check-in is for (``by``: the director who ticks him; None: his own
    link). Once a round: a second check-in (a double tap, the director at the same moment) finds the first.
    Returns the check-in and whether it is new (1) or was there (0). RoundError when there is nothing to
    check in for."""
    tournament = participant.tournament
    if not tournament.check_in:
        raise RoundError(_("This tournament does not ask its participants to check in."))
    if not participant.active:
        withdrew = {"name": participant.shown_name, "n": participant.withdrawn_after}
        raise RoundError(_("%(name)s withdrew after round %(n)s.") % withdrew)
    via = CheckIn.Via.LINK if by is None else CheckIn.Via.DIRECTOR
    with transaction.atomic():
        # the tournament's row, as a seating locks it: a check-in waits for a seating under way, and then
        # counts for the round after it, or for that round, to be seated again, if it has not started
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
        number = check_in_round(tournament)
        if number is None:
            raise RoundError(_("There is no round to check in for now."))
        try:
            with transaction.atomic():
                return CheckIn.objects.create(participant=participant, round_number=number, via=via, by=by), 1
        except IntegrityError:  # he checked in already (the unique constraint: one a round)
            there = CheckIn.objects.filter(participant=participant, round_number=number).first()
            if there is None:  # unticked by the director in between: his tap stands
                return CheckIn.objects.create(participant=participant, round_number=number, via=via, by=by), 1
            return there, 0


def cancel(participant: Participant) -> bool:
    """The director unticks him for the round check-in is for; whether there was a check-in to take back."""
    number = check_in_round(participant.tournament)
    if number is None:
        return False
    deleted, _rows = CheckIn.objects.filter(participant=participant, round_number=number).delete()
    return bool(deleted)


def check_in_everyone(tournament: Tournament, user) -> int:
    """Every participant still in, ticked by the director (those already in stay as they are): how many were
    added."""
    added = 0
    for participant in tournament.participants.filter(withdrawn_after__isnull=True):
        added += check_in(participant, by=user)[1]
    return added
