"""A bad value an upload brought, as its message quotes it back (tournament.server.uploads.echo): the
participants' file, a board's workbook and a game record all cut it the same way."""

from tournament.server.uploads import ECHO_LENGTH, echo


def test_a_short_value_is_quoted_whole():
    assert echo("Anna") == "Anna"
    assert echo("a" * ECHO_LENGTH) == "a" * ECHO_LENGTH


def test_a_long_value_is_cut_to_the_length_its_last_character_an_ellipsis():
    assert echo("ł" * 100) == "ł" * (ECHO_LENGTH - 1) + "…"
    assert echo("abcdef", 4) == "abc…"


def test_a_value_that_is_not_text_is_quoted_in_pythons_spelling():
    assert echo(None) == "None"
    assert echo(60.5) == "60.5"
    assert echo(list(range(30))) == repr(list(range(30)))[: ECHO_LENGTH - 1] + "…"


def test_combining_accents_count_as_characters():
    """A decomposed name (e + combining acute) is cut by its characters, as stored: Django's Truncator would
    count the accents as nothing and let it run to twice the length."""
    decomposed = "e\u0301" * 30
    assert echo(decomposed) == decomposed[: ECHO_LENGTH - 1] + "…"
