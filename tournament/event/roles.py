"""Anti-Monopoly roles at a tournament (RULES.md §5: "Anti-Monopoly tables keep the role balance").

Each table is balanced (as many competitors as monopolists, or one more of either at an odd table), and the
roles alternate across rounds where possible: at each table the participants who have so far played
competitor more often become the monopolists. At an odd table the extra seat goes to the role the
tournament has had fewer of so far, so the two roles are played about equally often overall. Ties are broken
by the round's seed, so a seating is reproducible.
"""

from __future__ import annotations

import random
from collections import Counter

from tournament.models import Seat

COMPETITOR, MONOPOLIST = Seat.Role.COMPETITOR, Seat.Role.MONOPOLIST


#: The badge's colour per role (the site's stylesheet, static/site/site.css ``.role-badge``, uses the same;
#: a PDF draws its badge with them): white letters on each.
ROLE_COLOURS = {COMPETITOR: "#1d4e89", MONOPOLIST: "#9b1c1c"}


def assign_roles(tables: list[list[int]], history: dict[int, Counter], seed: int) -> dict[int, str]:
    """Role per participant for a round seated as ``tables`` (participant ids); ``history``: per participant,
    how often he has played each role before."""
    rng = random.Random(seed)
    overall = Counter()
    for counts in history.values():
        overall.update(counts)
    roles: dict[int, str] = {}
    for ids in tables:
        lean = {
            pid: history.get(pid, Counter())[COMPETITOR] - history.get(pid, Counter())[MONOPOLIST]
            for pid in ids
        }
        tiebreak = {pid: rng.random() for pid in ids}
        order = sorted(ids, key=lambda pid: (-lean[pid], tiebreak[pid]))
        monopolists = len(ids) // 2
        if len(ids) % 2 and overall[MONOPOLIST] < overall[COMPETITOR]:
            monopolists += 1
        for i, pid in enumerate(order):
            roles[pid] = MONOPOLIST if i < monopolists else COMPETITOR
            overall[roles[pid]] += 1
    return roles


def role_history(tournament, before: int) -> dict[int, Counter]:
    """How often each participant has played each role in the rounds before ``before``."""
    history: dict[int, Counter] = {}
    seats = Seat.objects.filter(table__round__tournament=tournament, table__round__number__lt=before).exclude(
        role=""
    )
    for pid, role in seats.values_list("participant_id", "role"):
        history.setdefault(pid, Counter())[role] += 1
    return history
