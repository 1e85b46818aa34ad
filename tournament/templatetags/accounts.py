"""``{% load accounts %}`` then ``{{ user|display_name }}``: the name an account is shown and printed with
(the name the director gave a referee, else the login; tournament.people.referee_accounts)."""

from django import template

from tournament.people.referee_accounts import display_name

register = template.Library()
register.filter("display_name", display_name)
