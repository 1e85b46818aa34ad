"""Django's ``createsuperuser``, every prompt in English: Django writes most of its prompts in English only
("leave blank to use", "Password:", "Bypass password validation…"), and the field names in the site's
language ("Nazwa użytkownika", "Adres e-mail") made them a mix of two languages."""

from django.contrib.auth.management.commands import createsuperuser
from django.core.management.base import no_translations


class Command(createsuperuser.Command):
    @no_translations
    def handle(self, *args, **options):
        return super().handle(*args, **options)
