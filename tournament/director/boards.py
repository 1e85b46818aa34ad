"""The director's board editions: the boards there are (shipped and stored), a board as a workbook to fill
in (the template) or as JSON, and storing a board from a file (``tournament.boards.editions``, read by
``tournament.boards.files``). A board stored here is offered for games and tournaments like a shipped one."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tournament.boards import editions
from tournament.boards.files.columns import XLSX, BoardFileError
from tournament.boards.files.reading import read_board_file
from tournament.boards.files.template import template_workbook
from tournament.director.forms import BoardUploadForm
from tournament.files.participants_import import problem_lines
from tournament.people.access import director_required
from tournament.server.uploads import too_large_message, upload_refused


@director_required
@require_safe
def board_list(request):
    return render(
        request,
        "director/boards.html",
        {
            "editions": editions.editions(),
            "choices": editions.board_choices(),
            "form": BoardUploadForm(),
            "max_mb": settings.UPLOAD_MAX_BYTES // (1024 * 1024),
        },
    )


def _chosen(request) -> tuple[str, dict]:
    board_id = request.GET.get("board", "")
    data = editions.board_data(board_id)
    if data is None:
        raise Http404(_("There is no board %(id)s.") % {"id": board_id[:50]})
    return board_id, data


def _download(content: bytes, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@director_required
@require_safe
def board_template(request):
    """A board as the workbook to fill in: each square, deck and card of the chosen board, its id blank."""
    board_id, data = _chosen(request)
    return _download(template_workbook(data), f"{board_id}-template.xlsx", XLSX)


@director_required
@require_safe
def board_json(request):
    board_id, data = _chosen(request)
    text = editions.dumps(data)
    return _download(text.encode(), f"{board_id}.json", "application/json; charset=utf-8")


@director_required
@require_POST
def board_upload(request):
    def refuse(problems: list[str]):
        messages.error(request, _("Nothing was stored. Correct the file and upload it again:"))
        for text in problem_lines([(None, p) for p in problems]):  # the first few and how many more
            messages.error(request, text)
        return redirect("boards")

    if upload_refused(request):  # too large: the upload handler stopped at the file, which was not read
        return refuse([too_large_message()])
    form = BoardUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return refuse(
            [
                f"{form.fields[f].label}: {e}" if f in form.fields else str(e)
                for f, errors in form.errors.items()
                for e in errors
            ]
        )
    upload = form.cleaned_data["file"]
    if upload.size > settings.UPLOAD_MAX_BYTES:  # before reading it into memory
        return refuse([too_large_message()])
    d = form.cleaned_data
    try:
        data = read_board_file(upload.name, upload.read())
        edition = editions.store_board(
            data,
            request.user,
            file_name=upload.name,
            board_id=d["board"],
            name=d["name"],
            replace=d["replace"],
        )
    except BoardFileError as e:
        return refuse(e.problems)
    messages.info(
        request,
        _("Board %(name)s (%(id)s) stored: choose it for a game or a tournament.")
        % {"name": edition.name, "id": edition.pk},
    )
    return redirect("boards")


@director_required
@require_POST
def board_delete(request):
    board_id = request.POST.get("board", "")
    try:
        editions.delete_board(board_id, request.user)
    except BoardFileError as e:
        for text in e.problems:
            messages.error(request, text)
    else:
        messages.info(request, _("Board %(id)s deleted.") % {"id": board_id})
    return redirect("boards")
