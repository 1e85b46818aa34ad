"""The director's pages of the league: who is who in a tournament (or a past tournament imported), and a
player renamed, merged with another or split in two (tournament.ratings.identities does it; each change
rebuilds the ratings it touches)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament.collation import name_key
from tournament.errors import RoundError
from tournament.league.forms import LinkForm, MergeForm, RenameForm, SplitForm
from tournament.models import LeagueChange, Participant, PastEntrant, PastEvent, Player, Tournament
from tournament.people.access import directed_tournaments, director_required, directs_all, is_director
from tournament.ratings import identities


def _links_page(request, *, entries, title, back, template_context):
    """The page of who is who for ``entries`` (one tournament's participants, or one past tournament's
    entrants): GET shows the players proposed, POST links as chosen."""
    entries = sorted(entries, key=lambda e: name_key(e.name))
    form = LinkForm(identities.matches(entries), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            changed = identities.link(entries, form.choices())
        except RoundError as e:
            messages.error(request, str(e))
        else:
            names = ", ".join(getattr(e, "shown_name", e.name) for e in changed)  # which, not only how many
            messages.success(
                request,
                ngettext("%(n)s link changed: %(names)s.", "%(n)s links changed: %(names)s.", len(changed))
                % {"n": len(changed), "names": names}
                if changed
                else _("Nothing changed."),
            )
            return redirect(request.path)
    linked = sum(1 for e in entries if e.player_id is not None)
    return render(
        request,
        "league/links.html",
        {
            "form": form,
            "title": title,
            "back": back,
            "linked": linked,
            "unlinked": len(entries) - linked,
            **template_context,
        },
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@director_required
def tournament_players(request, pk: int):
    """A tournament's participants linked to players, as the director confirms."""
    tournament = get_object_or_404(Tournament, pk=pk)
    entries = tournament.participants.select_related("player")
    return _links_page(
        request,
        entries=entries,
        title=tournament.name,
        back=tournament,
        template_context={"tournament": tournament},
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def past_event_players(request, pk: int):
    """A past tournament's entrants (imported) linked to players, as the director confirms (any account with
    the director's role: the league is every organiser's)."""
    if not is_director(request.user):
        raise PermissionDenied(_("Only a tournament director may do this."))
    event = get_object_or_404(PastEvent, pk=pk)
    entries = event.entrants.select_related("player")
    return _links_page(
        request, entries=entries, title=str(event), back=None, template_context={"event": event}
    )


def _player_games(player: Player):
    participants = (
        Participant.objects.filter(player=player).select_related("tournament").order_by("tournament__date")
    )
    past = PastEntrant.objects.filter(player=player).select_related("event").order_by("event__date")
    return list(participants), list(past)


def _shown(p: Player) -> str:
    """A player as the league's log keeps him: number, name, club."""
    return f"#{p.pk} {p.name}" + (f" ({p.club})" if p.club else "")


def _logged(request, action: str, form, **change) -> None:
    LeagueChange.objects.create(
        action=action, user=request.user, reason=form.cleaned_data.get("reason", "").strip(), **change
    )


def _may_manage(user, *players: Player) -> None:
    """A player's name, merge or split changes the tournaments he played in: only one who directs every one
    of them may (staff direct all); 403 otherwise. Past tournaments imported are every organiser's."""
    if directs_all(user):
        return
    played = set(Participant.objects.filter(player__in=players).values_list("tournament_id", flat=True))
    if played - set(directed_tournaments(user).filter(pk__in=played).values_list("pk", flat=True)):
        raise PermissionDenied(
            _("Only the directors of all this player's tournaments may change this player.")
        )


def _manage_page(request, p: Player, status: int = 200, **forms):
    participants, past = _player_games(p)
    context = {
        "player": p,
        "rename": RenameForm(initial={"name": p.name, "club": p.club}),
        "merge": MergeForm(),
        "split": SplitForm(participants, past, initial={"name": p.name}),
        "participants": participants,
        "past": past,
        "several": len(participants) + len(past) > 1,
        "same_name": Player.objects.filter(name_key=p.name_key).exclude(pk=p.pk).select_related("rating"),
        **forms,
    }
    return render(request, "league/player_manage.html", context, status=status)


@require_http_methods(["GET", "HEAD"])
@director_required
def player_manage(request, player: int):
    """A player's name and club, his merge with another player (one person entered twice) and his split
    (two people under one name)."""
    p = get_object_or_404(Player, pk=player)
    _may_manage(request.user, p)
    return _manage_page(request, p)


def _manage_again(request, p: Player, **forms):
    return _manage_page(request, p, status=400, **forms)


@require_POST
@director_required
def player_rename(request, player: int):
    p = get_object_or_404(Player, pk=player)
    _may_manage(request.user, p)
    form = RenameForm(request.POST)
    if not form.is_valid():
        return _manage_again(request, p, rename=form)
    before = _shown(p)
    p.name, p.club = form.cleaned_data["name"], form.cleaned_data["club"].strip()
    p.save(update_fields=["name", "club"])
    _logged(request, LeagueChange.Action.RENAMED, form, player=p, before=before, after=_shown(p))
    messages.success(request, _("Saved."))
    return redirect("league_player_manage", player=p.pk)


@require_POST
@director_required
def player_merge(request, player: int):
    """This player's games become the other's (the other keeps his number, name and club)."""
    p = get_object_or_404(Player, pk=player)
    form = MergeForm(request.POST)
    if not form.is_valid():
        return _manage_again(request, p, merge=form)
    other = form.cleaned_data["other"]
    _may_manage(request.user, p, other)
    before = _shown(p)
    try:
        identities.merge(p, other)
    except RoundError as e:
        messages.error(request, str(e))
        return redirect("league_player_manage", player=p.pk)
    _logged(request, LeagueChange.Action.MERGED, form, player=other, before=before, after=_shown(other))
    messages.success(
        request, _("%(a)s's games are now %(b)s's (#%(n)s).") % {"a": p.name, "b": other.name, "n": other.pk}
    )
    return redirect("league_player_manage", player=other.pk)


@require_POST
@director_required
def player_split(request, player: int):
    """The tournaments chosen become a new player's (the other person's)."""
    p = get_object_or_404(Player, pk=player)
    _may_manage(request.user, p)
    participants, past = _player_games(p)
    form = SplitForm(participants, past, request.POST)
    if not form.is_valid():
        return _manage_again(request, p, split=form)
    try:
        other = identities.split(
            p,
            form.cleaned_data["participants"],
            form.cleaned_data["past_entrants"],
            form.cleaned_data["name"],
            form.cleaned_data["club"],
        )
    except RoundError as e:
        messages.error(request, str(e))
        return redirect("league_player_manage", player=p.pk)
    _logged(
        request, LeagueChange.Action.SPLIT, form, player=p, other=other, before=_shown(p), after=_shown(other)
    )
    messages.success(
        request, _("%(name)s is now a separate player (#%(n)s).") % {"name": other.name, "n": other.pk}
    )
    return redirect("league_player_manage", player=other.pk)
