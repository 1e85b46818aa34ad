"""`python manage.py simulate --variant V --board B --players N --seed S [--rounds R]`."""

import json

from django.core.management.base import BaseCommand, CommandError

from rules import RulesError, available_boards, available_variants
from rules.record import MAX_PLAYERS
from rules.simulate import simulate


class Command(BaseCommand):
    help = "Write the record of a random but legal game (for tests and benchmarks)."

    def add_arguments(self, parser):
        parser.add_argument("--variant", default="tournament-pl", choices=available_variants())
        parser.add_argument("--board", default="classic-pl", choices=available_boards())
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--rounds", type=int, default=None, help="end the game after this many rounds")
        parser.add_argument("--max-events", type=int, default=50_000)
        parser.add_argument(
            "--options",
            default="{}",
            help='the record\'s options as JSON, e.g. \'{"ending": "two_hour"}\' for Anti-Monopoly',
        )
        parser.add_argument("--output", "-o", default="-", help="file to write (default: standard output)")

    def handle(self, *args, **o):
        if not 2 <= o["players"] <= MAX_PLAYERS:
            raise CommandError(f"--players must be between 2 and {MAX_PLAYERS}")
        if o["rounds"] is not None and o["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        try:
            options = json.loads(o["options"])
        except json.JSONDecodeError as e:
            raise CommandError(f"--options is not JSON: {e}") from None
        if not isinstance(options, dict):
            raise CommandError("--options must be a JSON object")
        try:
            record = simulate(
                o["variant"], o["board"], o["players"], o["seed"], o["rounds"], o["max_events"], options
            )
        except RulesError as e:  # a bug in the simulator or the engine: say so plainly
            raise CommandError(f"simulation failed: {e.message} ({e.code})") from None
        text = json.dumps(record, ensure_ascii=False, indent=1)
        if o["output"] == "-":
            self.stdout.write(text)
        else:
            with open(o["output"], "w", encoding="utf-8") as f:
                f.write(text + "\n")
