"""Template filters for what people read instead of ids, and for lists of names in Polish order:
``{% load labels %}`` then ``{{ t.variant|variant_label }}``, ``{{ t.board|board_label }}``,
``{% for p in participants|by_name %}``. An Anti-Monopoly role as a badge:
``tournament.templatetags.roles``."""

from django import template

from tournament import labels
from tournament.boards import names
from tournament.collation import name_key

register = template.Library()

register.filter("variant_label", labels.variant_label)
register.filter("board_label", names.board_label)
register.filter("tie_break_label", labels.tie_break_label)


@register.filter
def by_name(people):
    """Anything with a ``name`` (participants, players), sorted by it in Polish alphabetical order."""
    return sorted(people, key=lambda p: name_key(p.name))
