"""Polish and English: the engine's messages and the pages go through Django's i18n."""

import ast
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext

from rules import replay
from tournament.games.messages import error_text, message_text
from tournament.server.checks import board_files

ROOT = Path(__file__).resolve().parents[1]


def engine_templates():
    """Every string the rules package marks with gettext_noop."""
    found = set()
    for path in (ROOT / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            is_mark = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
            if is_mark and node.args and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
    return found


def test_every_engine_message_has_a_polish_translation():
    templates = engine_templates()
    assert len(templates) > 100
    with translation.override("pl"):
        untranslated = sorted(t for t in templates if gettext(t) == t and t not in SAME_IN_POLISH)
    assert untranslated == []


#: Engine templates that read the same in Polish (punctuation only).
SAME_IN_POLISH = {"{first}, {rest}"}


def test_rule_error_in_polish_and_english_with_nested_fragment():
    record = {
        "variant": "tournament-pl",
        "board": "classic-pl",
        "players": [{"id": "A"}, {"id": "B"}],
        "events": [
            {"type": "roll", "player": "A", "dice": [1, 2]},
            {"type": "decline", "player": "A"},
            {"type": "auction", "square": 3, "winner": "B", "price": 29},
        ],
    }
    error = replay(record).exception
    with translation.override("pl"):
        assert (
            error_text(error) == "Cena 29 jest niższa od kwoty wywoławczej 30 (połowa z 60) w wariancie "
            "„Zasady turniejowe (10 kolejek)”."
        )
    with translation.override("en"):
        assert (
            error_text(error) == "Auction price 29 is below the opening bid 30 (half of 60) in "
            "Tournament rules (10 rounds of play)."
        )


def test_notes_translate():
    result = replay(
        keep=True,
        data={
            "variant": "classic",
            "board": "classic-pl",
            "players": [{"id": "A"}, {"id": "B"}],
            "events": [{"type": "roll", "player": "A", "dice": [1, 3]}],
        },
    )
    with translation.override("pl"):
        texts = [message_text(n) for n in result.outcomes[0].notes]
    assert texts == ["A rzuca 1+3.", "A staje na polu Podatek dochodowy.", "A płaci podatek 200."]


def test_replay_text_in_polish(tmp_path, capsys):
    path = tmp_path / "g.json"
    call_command("simulate", "--seed", "4", "--output", str(path))
    call_command("replay", str(path), "--format", "text", "--language", "pl")
    assert "rzuca" in capsys.readouterr().out


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "text"), [("pl", "Turniej Monopoly"), ("en", "Monopoly tournament")])
def test_home_page_in_both_languages(client, language, text):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and text in response.content.decode()


def test_board_files_pass_the_startup_check():
    assert board_files() == []


def test_polish_catalog_is_complete():
    """No empty or fuzzy translation in the Polish catalog (the header entry aside)."""
    text = (ROOT / "tournament" / "locale" / "pl" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    empty = [e for e in entries if e.rstrip().endswith('msgstr ""') and "msgid_plural" not in e]
    assert fuzzy == [] and empty == []


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_value_that_ends_with_a_full_stop_ends_the_sentence(language):
    """A square named "Wall St." at a sentence's end: one full stop (the phone's words do the same:
    static/console/console.js, tests/test_console_browser.py)."""
    from rules.messages import Message
    from tournament.games.messages import message_text

    with translation.override(language):
        said = message_text(Message("{player} lands on {square}.", {"player": "Ala", "square": "Wall St."}))
        plain = message_text(Message("{player} lands on {square}.", {"player": "Ala", "square": "Boardwalk"}))
    assert said.endswith(" Wall St.") and not said.endswith("..")
    assert plain.endswith(" Boardwalk.")


def test_a_note_stored_in_its_earlier_words_is_still_said_in_polish():
    """Moves keep their notes as the engine wrote them (GameEvent.notes): notes reworded since (he/his made
    neutral) are still in the catalogue in their earlier words, so a game recorded before reads in Polish."""
    earlier = [
        "{player} is bankrupt to {creditor}, who takes all he has.",
        "{player} keeps {percent} percent of his cash: {kept}.",
        "{player} has waited his turns and leaves jail free.",
        "{player} owes the fine {fine}: his token moves once he has raised the money "
        "(or he is bankrupt to the bank).",
        "{player} pays {fixed} or {percent} ({share}): his choice.",
    ]
    with translation.override("pl"):
        for words in earlier:
            said = gettext(words)
            assert said != words and "{player}" in said, words


#: The words' functions whose first text ``makemessages`` collects only when it is written there, literally.
GETTEXTS = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "gettext_noop",
}
#: Where a text is translated from a variable on purpose: the engine's messages, each written literally where
#: the rules make it (``gettext_noop``), rendered here.
TRANSLATED_FROM_A_VARIABLE = {"tournament/games/messages.py"}


def test_every_text_to_translate_is_written_where_it_is_translated():
    """A text handed to gettext through a variable escapes ``makemessages``: its Polish words would be dropped
    from the catalogue (as obsolete) at its next update, and the page would speak English again."""
    found = []
    for package in ("tournament", "rules", "ledger"):
        for path in sorted((ROOT / package).rglob("*.py")):
            shown = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or shown in TRANSLATED_FROM_A_VARIABLE:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                at = 1 if name in ("pgettext", "pgettext_lazy") else 0  # (after the context)
                if name not in GETTEXTS or len(node.args) <= at:
                    continue
                text = node.args[at]
                if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
                    found.append(f"{shown}:{node.lineno}: {name}({ast.unparse(text)})")
    assert found == []
