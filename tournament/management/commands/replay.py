"""`python manage.py replay FILE --format json|text` (GAME_RECORD.md)."""

import json

from django.core.management.base import BaseCommand, CommandError

from ledger.report import ledger_for, summary, text_account
from rules import RulesError, load_record_file, replay


class Command(BaseCommand):
    help = "Replay a game record, checking every event against the rules; print the result."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a game record (JSON)")
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args, **opts):
        try:
            record = load_record_file(opts["file"])
        except RulesError as e:
            result = None
            error = {"index": None, **e.as_dict()}
        else:
            result = replay(record)
            error = result.error
        if opts["format"] == "json":
            if error:
                self.stdout.write(json.dumps({"error": error}, ensure_ascii=False, indent=1))
            else:
                self.stdout.write(
                    json.dumps(summary(result.state, ledger_for(result)), ensure_ascii=False, indent=1)
                )
        else:
            if result is None:
                self.stdout.write(f"ERROR in the record: {error['message']} ({error['code']})")
            else:
                self.stdout.write(text_account(result, ledger_for(result)), ending="")
        if error:
            raise CommandError(
                "illegal event" if error["index"] is not None else "invalid record", returncode=1
            )
