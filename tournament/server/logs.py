"""How the server's log lines read (settings.LOGGING): each starts with its time, level and logger.

A response Django logs (a 4xx or 5xx: the record carries ``request`` and ``status_code``) also names the
request's method and the status, and, when an exception made it, the exception's message as the reason
(``Forbidden (Permission denied): /tournaments/new/ — GET 403: Only the tournament director may do this.``;
the path too where Django's message does not name it).
Below 500 that one line is all: a refused request (a 403, a missing page, a bad request) is the client's
doing, and its traceback would only bury the server's real errors. A 500 keeps its traceback.

A participant's private link is his only key (tournament.people.participant_links): no line shows it, its
key written ``…`` wherever a path holds it (a traceback's too).
"""

import logging
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
#: A participant's private link in a path: ``/me/<key>`` (the key: 24 characters of URL-safe base64).
_PRIVATE_LINK = re.compile(r"(/me/)[A-Za-z0-9_-]{24}")


def _without_keys(text: str) -> str:
    return _PRIVATE_LINK.sub(r"\1…", text)


def _one_line(text: str) -> str:
    return _CONTROL.sub(" ", text).strip()


class LineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return _without_keys(self._format(record))

    def _format(self, record: logging.LogRecord) -> str:
        status = getattr(record, "status_code", None)
        method = getattr(getattr(record, "request", None), "method", None)
        if not isinstance(status, int) or not isinstance(method, str):
            return super().format(record)
        record = logging.makeLogRecord(record.__dict__)  # a copy: other handlers get the record as it came
        message = _one_line(record.getMessage())
        path = getattr(record.request, "path", "").encode("unicode_escape").decode("ascii")  # as Django does
        said = f"{message} — {_one_line(method)}{'' if path in message else f' {path}'} {status}"
        exception = record.exc_info[1] if record.exc_info else None
        reason = _one_line(str(exception)) if exception is not None else ""
        record.msg = f"{said}: {reason}" if reason and reason not in message else said
        record.args = ()
        if status < 500:
            record.exc_info = record.exc_text = record.stack_info = None
        return super().format(record)
