"""Who is who across tournaments: a tournament's participants (or a past tournament's entrants) linked to
players, as the director confirms them; players merged (one person entered twice) and split (two people
under one name).

A match is proposed on the name as compared (``Player.name_key``) and the club (``rules.seating.club_key``):
the same name and club is proposed as that player; the same name with another club is listed for the
director to choose, and proposed only when it is the only player of that name who has no club or the entry
has none. Nothing is linked until the director confirms. Each change rebuilds the ratings it touches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from rules.seating import club_key
from tournament.errors import RoundError
from tournament.models import Participant, PastEntrant, Player
from tournament.models.games import NAME_LENGTH
from tournament.models.players import name_key
from tournament.ratings import triggers
from tournament.ratings.rebuild import Point

NEW = "new"  # the choice of a new player for an entry
NONE = ""  # the choice of no player


@dataclass
class Match:
    """What is proposed for one entry (a participant or a past entrant)."""

    entry: Model
    candidates: list[Player] = field(default_factory=list)  # players of that name, the same club first
    proposed: str = NEW  # a player's id, NEW or NONE: the choice the form starts from

    @property
    def exact(self) -> Player | None:
        """The player of the same name and club, when there is exactly one."""
        same = [p for p in self.candidates if club_key(p.club) == club_key(self.entry.club)]
        return same[0] if len(same) == 1 else None


def matches(entries: Sequence[Model]) -> list[Match]:
    """For each entry (``name``, ``club``, ``player_id``), the players it may be and the choice proposed:
    his linked player if he has one, else the one player of the same name and club, else the one player of
    the name where either has no club, else a new player (``NEW``) — the director decides."""
    keys = {name_key(e.name) for e in entries}
    by_key: dict[str, list[Player]] = {}
    for player in Player.objects.filter(name_key__in=keys).order_by("pk"):
        by_key.setdefault(player.name_key, []).append(player)
    out = []
    for e in entries:
        candidates = sorted(
            by_key.get(name_key(e.name), []), key=lambda p: (club_key(p.club) != club_key(e.club), p.pk)
        )
        m = Match(e, candidates)
        if e.player_id is not None:
            m.proposed = str(e.player_id)
            if all(p.pk != e.player_id for p in candidates):
                m.candidates.insert(0, e.player)
        elif m.exact is not None:
            m.proposed = str(m.exact.pk)
        elif len(candidates) == 1 and not (club_key(candidates[0].club) and club_key(e.club)):
            m.proposed = str(candidates[0].pk)
        out.append(m)
    return out


def _group_of(entry: Model):
    """The tournament (or past tournament) an entry belongs to, and its entries' model."""
    if isinstance(entry, Participant):
        return Participant.objects.filter(tournament_id=entry.tournament_id)
    return PastEntrant.objects.filter(event_id=entry.event_id)


def _point_of(entry: Model) -> Point:
    if isinstance(entry, Participant):
        return Point.of_tournament(entry.tournament)
    return Point.of_past_event(entry.event)


@transaction.atomic
def link(entries: Sequence[Model], choices: dict[int, str]) -> list[Model]:
    """Link each entry (of one tournament, or one past tournament) as chosen: ``choices`` by entry pk, a
    player's id, ``NEW`` (a new player of the entry's name and club) or ``NONE`` (no player). An entry not in
    ``choices`` keeps its link. RoundError (nothing changed) for a player who is not there or is chosen for
    two entries of the tournament. Returns the entries whose link changed, in the order given."""
    if not entries:
        return []
    entries = list(entries)
    chosen_ids = {int(c) for c in choices.values() if c not in (NEW, NONE)}
    players = Player.objects.select_for_update().in_bulk(chosen_ids)  # held: not merged away meanwhile
    if len(players) != len(chosen_ids):
        raise RoundError(_("A player chosen is no longer there (merged meanwhile?): open the page again."))
    wanted: dict[int, int | None | str] = {}
    for e in entries:
        choice = choices.get(e.pk)
        if choice is None:
            continue
        wanted[e.pk] = NEW if choice == NEW else None if choice == NONE else int(choice)
    group = _group_of(entries[0]).select_for_update()
    final = {pk: player for pk, player in group.values_list("pk", "player_id")}
    final.update({pk: None if p == NEW else p for pk, p in wanted.items()})
    seen: dict[int, int] = {}
    names = dict(group.values_list("pk", "name"))
    for pk, player in final.items():
        if player is None:
            continue
        if player in seen:
            raise RoundError(
                _(
                    "%(a)s and %(b)s cannot both be the player %(player)s: one person plays once in a "
                    "tournament."
                )
                % {"a": names[seen[player]], "b": names[pk], "player": players.get(player) or player}
            )
        seen[player] = pk
    changed = []
    for e in entries:
        if e.pk not in wanted:
            continue
        target = wanted[e.pk]
        if target == NEW:
            target = Player.objects.create(name=e.name[:NAME_LENGTH], club=e.club).pk
        if target != e.player_id:
            e.player_id = target
            changed.append(e)
    model = type(entries[0])
    # unlinked first: two entries exchanging their players never hold one player at once (the constraint)
    model.objects.filter(pk__in=[e.pk for e in changed]).update(player=None)
    model.objects.bulk_update([e for e in changed if e.player_id is not None], ["player"])
    if changed:
        triggers.after_commit(_point_of(entries[0]))
    return changed


def _shared(a: Player, b: Player) -> str | None:
    """A tournament (or past tournament) both players played in, named; None when there is none."""
    both = (
        Participant.objects.filter(player=a)
        .filter(tournament__participants__player=b)
        .select_related("tournament")
        .first()
    )
    if both is not None:
        return both.tournament.name
    past = (
        PastEntrant.objects.filter(player=a).filter(event__entrants__player=b).select_related("event").first()
    )
    return str(past.event) if past is not None else None


@transaction.atomic
def merge(source: Player, target: Player) -> None:
    """One person entered twice: ``source``'s games become ``target``'s, and ``source`` is gone. Refused when
    both played in one tournament (two people, then)."""
    if source.pk == target.pk:
        raise RoundError(_("Choose another player to merge with."))
    if Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk]).count() != 2:
        raise RoundError(_("A player chosen is no longer there (merged meanwhile?): open the page again."))
    shared = _shared(source, target)
    if shared is not None:
        raise RoundError(
            _("%(a)s and %(b)s both played in %(event)s: they are two people.")
            % {"a": source.name, "b": target.name, "event": shared}
        )
    Participant.objects.filter(player=source).update(player=target)
    PastEntrant.objects.filter(player=source).update(player=target)
    source.delete()
    triggers.after_commit(None)


@transaction.atomic
def split(
    player: Player, participants: Iterable[int], past_entrants: Iterable[int], name: str, club: str
) -> Player:
    """Two people under one player: the chosen games (participants, past entrants) become a new player's,
    ``name`` and ``club``; some games must stay with ``player``."""
    participants, past_entrants = set(participants), set(past_entrants)
    if not Player.objects.select_for_update().filter(pk=player.pk).exists():
        raise RoundError(_("A player chosen is no longer there (merged meanwhile?): open the page again."))
    mine = Participant.objects.filter(player=player)
    mine_past = PastEntrant.objects.filter(player=player)
    if not participants and not past_entrants:
        raise RoundError(_("Choose the tournaments of the other person."))
    if not participants <= set(mine.values_list("pk", flat=True)) or not past_entrants <= set(
        mine_past.values_list("pk", flat=True)
    ):
        raise RoundError(_("A tournament chosen is no longer this player's: open the page again."))
    if len(participants) + len(past_entrants) == mine.count() + mine_past.count():
        raise RoundError(_("Leave at least one tournament with %(name)s.") % {"name": player.name})
    name = " ".join((name or "").split())
    if not name:
        raise RoundError(_("Give the other person's name."))
    if len(name) > NAME_LENGTH or len(club or "") > NAME_LENGTH:
        raise RoundError(_("A name or club has at most %(n)s characters.") % {"n": NAME_LENGTH})
    other = Player.objects.create(name=name, club=(club or "").strip())
    mine.filter(pk__in=participants).update(player=other)
    mine_past.filter(pk__in=past_entrants).update(player=other)
    triggers.after_commit(None)
    return other
