"""The engine's messages in the referee's words on the phone: the one renderer (``rules.messages.say``) with
the server's catalogue and the page's names, given once when the rules start (``use_words``), as the server
says them with Django's (``tournament.games.messages``)."""

from __future__ import annotations

from rules.messages import Message, say

#: What the phone was given: the catalogue ({English template: its translation, or its plural forms}), the
#: game's board words ({English: the reader's}) and the ids' names ({"variant": {id: name}, "board": …}).
_WORDS: dict = {"catalog": {}, "board_words": {}, "ids": {}}


def use_words(words: dict) -> None:
    _WORDS.update({k: words.get(k) or {} for k in _WORDS})


def _translate(template: str) -> str:
    found = _WORDS["catalog"].get(template) or template
    return found[0] if isinstance(found, list) else found


def _word(name: str) -> str:
    return _WORDS["board_words"].get(name, name)


def _id_name(key: str, v: str) -> str:
    return _WORDS["ids"].get(key, {}).get(v, v)


def said(message: Message | dict) -> str:
    """``message`` in the words given (English until some are)."""
    return say(message, _translate, _word, _id_name)
