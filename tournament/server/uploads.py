"""Uploads are refused by their declared size before they are read: a 50 MB file is not parsed, stored in a
temporary file and only then refused. The view tells the user (``upload_refused``)."""

import json
import math
import re

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.utils.formats import number_format
from django.utils.translation import gettext as _

#: Room for the other form fields and the multipart boundaries around the file itself.
FORM_OVERHEAD_BYTES = 64 * 1024


def megabytes(size: int) -> str:
    """A size in megabytes as a message says it (``12`` or ``1,5`` in Polish)."""
    mb = size / (1024 * 1024)
    return number_format(int(mb) if mb.is_integer() else round(mb, 1))


def too_large_message() -> str:
    """Why a file over ``settings.UPLOAD_MAX_BYTES`` is refused (by the view before it is read, or here)."""
    return _("The file is larger than %(size)s MB.") % {"size": megabytes(settings.UPLOAD_MAX_BYTES)}


def upload_refused(request) -> bool:
    """True when the request carried a file larger than ``UPLOAD_MAX_BYTES`` (it was not read)."""
    return getattr(request, "upload_refused", False)


class SizeLimitUploadHandler(FileUploadHandler):
    """First of the upload handlers: stops a request whose body is larger than the limit at its first file.

    The form fields before the file (the CSRF token) are kept; the file and what follows are not read.
    """

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        self.too_large = content_length > settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES

    def new_file(self, *args, **kwargs):
        if self.too_large:
            self.request.upload_refused = True
            raise StopUpload(connection_reset=True)

    def receive_data_chunk(self, raw_data, start):
        return raw_data  # within the limit: the next handlers store it

    def file_complete(self, file_size):
        return None


MAX_UNPACKED_BYTES = 10 * 1024 * 1024  # a workbook's parts together, as its zip directory declares them

#: Characters no uploaded text may hold: control characters (NUL, a tab, a line break …) and lone surrogates.
NOT_ALLOWED = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class NotJSON(ValueError):
    """Why an uploaded file is not a JSON object, in the user's language ("it is not text (UTF-8).")."""


def _refuse_constant(name: str):
    raise ValueError(name)  # NaN, Infinity: Python reads them, JSON does not


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: Python reads it as infinity, which no database stores as JSON
        raise ValueError(text)
    return value


#: How deep a file from outside may nest its lists and objects (a backup nests about 15 deep, a board 6):
#: deeper data would exhaust the stack of whatever reads or writes it next (the JSON encoder, a database).
MAX_JSON_DEPTH = 100

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def nested_deeper_than(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the lists and objects of a JSON text nest more than ``limit`` deep: its strings left out, the
    innermost pairs of brackets are taken away a level at a time (by regular expressions, not by a loop in
    Python over the characters: a 50 MB backup takes a second or two)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    for _level in range(limit):
        brackets = _INNERMOST.sub("", brackets)
        if not brackets:
            return False
    return True


def load_json(text: str):
    """The JSON value of a file from outside (an upload, a backup); raises ``json.JSONDecodeError`` as
    ``json.loads`` does, and NotJSON for what ``json.loads`` would read but is no JSON a database stores or
    the app can use: nested too deeply, NaN or Infinity, a number too large for a float or too long."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise NotJSON(_("it is nested too deeply.")) from None
    except ValueError:  # NaN or Infinity, 1e400, or an integer longer than Python converts (4300 digits)
        raise NotJSON(_("it holds a number that is not valid JSON or is too long.")) from None
    if nested_deeper_than(text):
        raise NotJSON(_("it is nested too deeply."))
    return value


def json_object(data: bytes) -> dict:
    """The JSON object an uploaded file holds (a game record, a board); NotJSON says why it is not one."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotJSON(_("it is not text (UTF-8).")) from None
    try:
        value = load_json(text)
    except json.JSONDecodeError as e:
        raise NotJSON(
            _("it is not JSON (line %(line)s, column %(column)s).") % {"line": e.lineno, "column": e.colno}
        ) from None
    if not isinstance(value, dict):
        raise NotJSON(_("it is not a JSON object."))
    return value


def check_characters(value) -> None:
    """No text of an uploaded object (a name, an id, a key) holds a control character or a lone surrogate:
    the databases cannot store some of them (NUL, surrogates) and none belongs in a record or on a board.
    NotJSON says where."""
    stack = [("", value)]
    while stack:  # not recursive: a deep file must not exhaust the stack here
        where, value = stack.pop()
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        elif isinstance(value, str) and NOT_ALLOWED.search(value):
            raise NotJSON(
                _(
                    "%(where)s contains a character that is not allowed "
                    "(a control character such as NUL, a tab or a line break)."
                )
                % {"where": where or _("the file")}
            )
        else:
            continue
        for key, item in items:
            if isinstance(key, str) and NOT_ALLOWED.search(key):
                raise NotJSON(
                    _("%(where)s has a key with a character that is not allowed (a control character).")
                    % {"where": where or _("the file")}
                )
            path = f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else str(key))
            stack.append((path, item))


#: How much of a bad value a message repeats (a message quotes it, not a whole page of it).
ECHO_LENGTH = 40


def echo(value, length: int = ECHO_LENGTH) -> str:
    """A value the file brought, as a message quotes it back: at most ``length`` characters, the last one an
    ellipsis when cut; a value that is not text in Python's spelling (``None``, ``60.5``). Not Django's
    ``Truncator(text).chars()``, which does not count combining accents and so lets a decomposed name run
    longer."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= length else text[: length - 1] + "…"


class NotAWorkbook(ValueError):
    """The upload is not an Excel workbook (.xlsx) openpyxl can read."""


class WorkbookTooLarge(ValueError):
    """The workbook's parts unpack to more than ``MAX_UNPACKED_BYTES``."""


def open_workbook(data: bytes):
    """An uploaded workbook, read-only: refused by the size its zip directory declares before openpyxl opens
    it (a small file may unpack to gigabytes). Raises NotAWorkbook or WorkbookTooLarge."""
    import io
    import zipfile

    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except Exception:  # not a zip file, or a broken one
        raise NotAWorkbook() from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise WorkbookTooLarge()
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds for a file that is not a workbook
        raise NotAWorkbook() from None
