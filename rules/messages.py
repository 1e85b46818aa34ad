"""Messages for people, translatable without Django.

A :class:`Message` is an English template with named values. Values may themselves be messages (a fragment
such as "half of 60" or "2 houses"), so a translator can translate the whole sentence. Templates are marked
with :func:`gettext_noop`, which Django's ``makemessages`` collects; ``tournament.games.messages`` translates
them.
"""

from __future__ import annotations

import re
from collections.abc import Callable


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (picked up by ``makemessages``)."""
    return message


#: A value followed by the sentence's full stop: "{square}." ("Wall St." ends it with its own).
_VALUE_THEN_STOP = re.compile(r"(?<!\{)\{(\w+)\}\.")


def render(template: str, params: dict) -> str:
    """The template with its values; a value that ends with a full stop of its own (an abbreviation: "Wall
    St.", "p.m.") ends the sentence with it, not with a second one."""
    template = _VALUE_THEN_STOP.sub(
        lambda m: m.group(0)[:-1] if str(params.get(m.group(1), "")).endswith(".") else m.group(0), template
    )
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a template/param mismatch must never hide the message
        return f"{template} {params}"


class Message:
    """An English template and its values; rendered (and translated) only when shown."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, params: dict):
        self.template = template
        self.params = params

    def __eq__(self, other) -> bool:
        return isinstance(other, Message) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, {self.params!r})"

    @property
    def text(self) -> str:
        return render(self.template, self.params)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


def msg(template: str, **params) -> Message:
    return Message(template, params)


def to_data(m: Message) -> dict:
    """A message as JSON data (values that are messages nest)."""
    return {
        "t": m.template,
        "p": {k: to_data(v) if isinstance(v, Message) else v for k, v in m.params.items()},
    }


def from_data(d: dict) -> Message:
    return Message(
        d["t"], {k: from_data(v) if isinstance(v, dict) and "t" in v else v for k, v in d["p"].items()}
    )


#: The values of the messages that hold a square's or a deck's name as the board prints it ("squares":
#: several, joined by ", "): a reader's words for the game's own ("Chance", "Income Tax") are the app's.
NAME_PARAMS = frozenset({"square", "squares", "deck", "other", "expected"})

#: The values of the messages that hold a variant's or a board's id ("tournament-pl"): shown by its name.
ID_PARAMS = frozenset({"variant", "board"})


def say(
    message: Message | dict,
    translate: Callable[[str], str],
    word: Callable[[str], str],
    id_name: Callable[[str, str], str],
) -> str:
    """A message in a reader's words: its template through ``translate``; each value that is a message said
    the same way, a square's or a deck's name (``NAME_PARAMS``; several: each) through ``word``, an id
    (``ID_PARAMS``) through ``id_name(key, id)``; then ``render``. The one renderer of the engine's messages,
    wherever they are read: the server's pages and sheets (``tournament.games.messages``, Django's
    catalogue) and the referee's phone (``tournament.console.view_model.words``, the same catalogue sent
    to it)."""
    if isinstance(message, dict):
        message = from_data(message)

    def value(key: str, v):
        if isinstance(v, Message):
            return say(v, translate, word, id_name)
        if not isinstance(v, str):
            return v
        if key in NAME_PARAMS:
            return ", ".join(word(name) for name in v.split(", "))
        if key in ID_PARAMS:
            return id_name(key, v)
        return v

    return render(translate(message.template), {k: value(k, v) for k, v in message.params.items()})
