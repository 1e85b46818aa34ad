"""The flagged trades of the page's round or table (``templates/director/_trade_flags.html``):
``{% load trade_flags %}{% trade_flags_here as flags %}`` — the table page's from its report (its game's
replay, read once), the round page's from the tournament's tables (the pairs need them all). Directors only
(``director`` in the page's context): an empty list for anybody else."""

from django import template

from tournament.reports.trade_flags import flags_of_round, flags_of_table

register = template.Library()


@register.simple_tag(takes_context=True)
def trade_flags_here(context):
    if not context.get("director"):
        return []
    report = context.get("report")
    if report is not None and context.get("table") is not None:
        return flags_of_table(report, context["tournament"])
    return flags_of_round(context["round"])
