"""The Anti-Monopoly role badge, one look wherever a seat is shown: ``{% load roles %}`` then
``{% role_badge seat.role %}`` (nothing for a game without roles). Its markup: ``templates/_role.html``; its
colours and shapes: ``.role-badge`` in static/site/site.css (PDFs:
``tournament.event.roles.ROLE_COLOURS``)."""

from django import template

from tournament.labels import role_label, role_letter

register = template.Library()


@register.inclusion_tag("_role.html")
def role_badge(role: str, short: bool = False):
    """A coloured badge with the role's letter and name; ``short``: the letter only, the name kept for screen
    readers and as the tooltip."""
    return {"role": role, "label": role_label(role), "letter": role_letter(role), "short": short}
