"""`python manage.py replay FILE --format json|text [--until N]` (GAME_RECORD.md)."""

import dataclasses
import json

from django.core.management.base import CommandError
from django.utils.translation import ngettext

from ledger.report import EventLog, error_line, replay_ledger, summary, text_account
from rules import Replay, RulesError, load_record_file
from rules.cash_counts import CashCounts
from tournament.games.messages import error_text, message_text
from tournament.management.translated import TranslatedCommand


class Command(TranslatedCommand):
    help = "Replay a game record, checking every event against the rules; print the result."

    def add_arguments(self, parser):
        super().add_arguments(parser)  # --language
        parser.add_argument("file", help="a game record (JSON)")
        parser.add_argument("--format", choices=["json", "text"], default="json")
        parser.add_argument(
            "--until",
            type=int,
            metavar="N",
            help="the game after its first N events, as if the record stopped there (0 to their number)",
        )

    def handle(self, *args, **opts):
        log, counts = EventLog(), CashCounts()

        def follow(i, out):
            log(i, out)
            counts(i, out)

        try:
            record = load_record_file(opts["file"])
            until = opts["until"]
            if until is not None:
                if not 0 <= until <= len(record.events):
                    raise CommandError(
                        ngettext(
                            "--until %(n)s: the record has %(events)s event (0 to %(events)s).",
                            "--until %(n)s: the record has %(events)s events (0 to %(events)s).",
                            len(record.events),
                        )
                        % {"n": until, "events": len(record.events)},
                        returncode=2,
                    )
                record = dataclasses.replace(record, events=record.events[:until])
            result, ledger = replay_ledger(record, on_outcome=follow, narrate=opts["format"] == "text")
        except RulesError as e:
            result, ledger = Replay(None, None, error={"index": None, **e.as_dict()}, exception=e), None
        error = result.error
        if error:
            error = {**error, "message": error_text(result.exception)}
            result.error = error
        if opts["format"] == "json":
            out = {"error": error} if error else summary(result.state, ledger, counts.last)
            self.stdout.write(json.dumps(out, ensure_ascii=False, indent=1))
        elif result.state is None:
            self.stdout.write(error_line(error, message_text))
        else:
            self.stdout.write(text_account(result, ledger, log, message_text, counts.last), ending="")
        if error:
            raise CommandError(
                "illegal event" if error["index"] is not None else "invalid record", returncode=1
            )
