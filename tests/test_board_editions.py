"""Board editions from an organiser's file (issue 11): the workbook template, JSON, the checks with a message
per square and field, the rules' registry, and a stored board played on like a shipped one."""

import html
import io
import json
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

import rules.board.registry
from rules import BoardError, available_boards, get_board, replay
from rules.board import (
    BOARDS_DIR,
    EFFECT_FIELDS,
    forget_board,
    parse_board,
    register_board,
    set_board_loader,
    shipped_boards,
)
from rules.simulate import simulate
from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tournament.boards import editions
from tournament.boards.files.columns import BoardFileError
from tournament.boards.files.reading import read_board_file
from tournament.boards.files.template import template_workbook
from tournament.files.participants_import import MAX_UNPACKED_BYTES
from tournament.games import recording
from tournament.models import BoardEdition, Game, Tournament
from tournament.server.uploads import FORM_OVERHEAD_BYTES


def shipped(board_id: str) -> dict:
    return json.loads((BOARDS_DIR / f"{board_id}.json").read_text(encoding="utf-8"))


def same_board(a, b) -> bool:
    """Two boards alike in everything the rules read (a Board compares by id only)."""
    return (a.squares, a.decks, a.groups, a.jail, a.language) == (
        b.squares,
        b.decks,
        b.groups,
        b.jail,
        b.language,
    )


# -- the rules' registry (no database) ---------------------------------------------------------------------


def test_a_registered_board_is_found_listed_and_forgotten():
    data = {**shipped("classic-us"), "id": "my-us"}
    board = parse_board(data)
    set_board_loader(None)  # this process only
    with pytest.raises(BoardError):
        get_board("my-us")
    register_board(board)
    assert get_board("my-us") is board and "my-us" in available_boards()
    assert same_board(board, get_board("classic-us"))
    forget_board("my-us")
    with pytest.raises(BoardError) as e:
        get_board("my-us")
    assert e.value.code == "board.unknown" and "my-us" not in available_boards()


def test_a_shipped_board_cannot_be_replaced_nor_forgotten():
    board = parse_board(shipped("classic-pl"))
    with pytest.raises(ValueError):
        register_board(board)
    with pytest.raises(ValueError):
        forget_board("classic-pl")
    assert set(shipped_boards()) <= set(available_boards())


def test_the_loader_says_the_version_at_every_use_and_a_version_is_parsed_once():
    store = {"my-pl": (1, {**shipped("classic-pl"), "id": "my-pl"})}
    loaded, versions = [], []

    def load(board_id):
        loaded.append(board_id)
        return store.get(board_id)

    def version(board_id):
        versions.append(board_id)
        return store[board_id][0] if board_id in store else None

    set_board_loader(load, lambda: list(store), version)
    first = get_board("my-pl")
    assert get_board("my-pl") is first and get_board("classic-us").id == "classic-us"
    assert loaded == ["my-pl"] and versions == ["my-pl", "my-pl"]  # a shipped board asks nothing
    assert "my-pl" in available_boards()
    with pytest.raises(BoardError):
        get_board("nowhere")
    store["my-pl"] = (2, {**store["my-pl"][1], "name": "Replaced"})  # replaced by another process
    assert get_board("my-pl").name == "Replaced"
    del store["my-pl"]  # deleted elsewhere
    with pytest.raises(BoardError):
        get_board("my-pl")


def test_a_loader_without_versions_is_asked_at_every_use():
    store = {"my-pl": (1, {**shipped("classic-pl"), "id": "my-pl"})}
    set_board_loader(store.get, lambda: list(store))
    first = get_board("my-pl")
    assert get_board("my-pl") is first  # the same version: not parsed again
    store["my-pl"] = (2, {**store["my-pl"][1], "name": "Replaced"})
    assert get_board("my-pl").name == "Replaced"


def test_every_problem_of_a_board_is_listed_with_its_square_and_field():
    data = shipped("classic-us")
    data["squares"][12]["price"] = "abc"
    data["squares"][3]["rents"][4] = None
    data["squares"][5]["kind"] = "castle"
    data["decks"]["chance"]["cards"][0]["effect"] = {"kind": "fly"}
    with pytest.raises(BoardError) as e:
        parse_board(data)
    messages = [p.message for p in e.value.problems]
    assert messages == [
        "Board file: square 3 (Baltic Avenue), field 'rents': value 4 must be a whole number ≥ 0, got None.",
        "Board file: square 5 (Reading Railroad), field 'kind': unknown kind 'castle'; one of card, "
        "foundation, go_to_jail, jail, parking, railroad, start, street, tax, utility.",
        "Board file: square 12 (Electric Company), field 'price': must be a whole number ≥ 1, got 'abc'.",
        "Board file: deck chance, card advance-to-boardwalk, field 'effect.kind': unknown effect 'fly'; "
        f"one of {', '.join(EFFECT_FIELDS)}.",
    ]
    assert e.value.message == messages[0]


# -- the files ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("board_id", ["classic-us", "classic-pl", "anti-monopoly-us"])
def test_the_template_reads_back_as_the_same_board(board_id):
    data = shipped(board_id)
    back = read_board_file("t.xlsx", template_workbook(data))
    assert back == {k: v for k, v in data.items() if k != "id"}  # every field, the id left blank
    assert same_board(parse_board({**back, "id": "x"}), get_board(board_id))


def test_the_template_has_a_row_per_square_and_a_column_per_field():
    wb = load_workbook(io.BytesIO(template_workbook(shipped("anti-monopoly-us"))))
    assert wb.sheetnames == ["board", "squares", "decks", "cards", "help"]
    squares = list(wb["squares"].values)
    header = squares[0]
    for name in ("index", "name", "kind", "group", "price", "house_cost", "rents_0", "rents_5",
                 "monopolist_rents_5", "multipliers_1", "monopolist_multipliers_1", "mortgage", "unmortgage",
                 "amount", "percent_choice", "deck", "competitor_deck", "monopolist_deck", "monopolist_pays",
                 "die_grants_5"):  # fmt: skip
        assert name in header
    assert [row[0] for row in squares[1:]] == list(range(40))
    assert list(wb["cards"].values)[0][:5] == ("deck", "id", "text", "copies", "effect")


def test_text_is_never_written_as_a_formula():
    data = shipped("classic-us")
    data["squares"][1]["name"] = '=HYPERLINK("http://x","y")'
    ws = load_workbook(io.BytesIO(template_workbook(data)))["squares"]
    assert ws["B3"].data_type == "s" and ws["B3"].value == '=HYPERLINK("http://x","y")'
    assert (
        read_board_file("t.xlsx", template_workbook(data))["squares"][1]["name"] == data["squares"][1]["name"]
    )


# -- through the pages -------------------------------------------------------------------------------------


def page(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def template(client, board_id="classic-us") -> bytes:
    response = client.get(reverse("board_template"), {"board": board_id})
    assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.openxml")
    return response.content


def upload(client, data: bytes, filename="board.xlsx", **fields):
    f = SimpleUploadedFile(filename, data)
    return client.post(reverse("board_upload"), {"file": f, **fields}, follow=True)


def workbook_with(data: bytes, change) -> bytes:
    wb = load_workbook(io.BytesIO(data))
    change(wb)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_the_page_lists_the_boards(client, director):
    text = page(client.get(reverse("boards")))
    for board_id in shipped_boards():
        assert board_id in text
    assert "Upload a board" in text and "Board editions" in page(client.get(reverse("tournaments")))


def test_template_round_trip_through_the_pages(client, director):
    text = page(upload(client, template(client, "classic-us"), board="my-us", name="My US edition"))
    assert "Board My US edition (my-us) stored" in text
    edition = BoardEdition.objects.get()
    assert (edition.pk, edition.name, edition.language, edition.uploaded_by) == (
        "my-us",
        "My US edition",
        "en",
        director,
    )
    assert edition.data == {**shipped("classic-us"), "id": "my-us", "name": "My US edition"}
    board = get_board("my-us")
    assert same_board(board, get_board("classic-us")) and board.name == "My US edition"
    assert "my-us" in available_boards() and "my-us" in page(client.get(reverse("boards")))
    # downloaded again, as a workbook and as JSON, it is the same board
    again = read_board_file("t.xlsx", template(client, "my-us"))
    assert again == {k: v for k, v in edition.data.items() if k != "id"}
    response = client.get(reverse("board_json"), {"board": "my-us"})
    assert json.loads(response.content) == edition.data


def test_the_workbook_names_id_and_name(client, director):
    def named(wb):
        wb["board"]["B2"] = "anti-monopoly-pl"
        wb["board"]["B3"] = "Anti-Monopoly, polska edycja"
        wb["board"]["B4"] = "pl"

    text = page(upload(client, workbook_with(template(client, "anti-monopoly-us"), named)))
    assert "(anti-monopoly-pl) stored" in text
    board = get_board("anti-monopoly-pl")
    assert (board.name, board.language) == ("Anti-Monopoly, polska edycja", "pl")
    assert same_board(board, get_board("anti-monopoly-us")) is False  # the language differs
    assert board.squares == get_board("anti-monopoly-us").squares


def test_a_json_upload(client, director):
    data = json.dumps({**shipped("classic-pl"), "id": "warszawa-2", "name": "Warszawa 2"}).encode()
    text = page(upload(client, data, "warszawa.json"))
    assert "Board Warszawa 2 (warszawa-2) stored" in text
    assert same_board(get_board("warszawa-2"), get_board("classic-pl"))
    assert BoardEdition.objects.get().file_name == "warszawa.json"


NOTHING = "Nothing was stored. Correct the file and upload it again:"


def refused(client, data: bytes, filename="board.xlsx", **fields) -> str:
    fields.setdefault("board", "new-board")
    text = page(upload(client, data, filename, **fields))
    assert NOTHING in text
    assert not BoardEdition.objects.exists()
    with pytest.raises(BoardError):
        get_board(fields["board"])
    return text


def test_a_file_that_is_not_a_workbook(client, director):
    assert "The file cannot be read as an Excel workbook (.xlsx)." in refused(client, b"hello, not a zip")
    bad_zip = io.BytesIO()
    with zipfile.ZipFile(bad_zip, "w") as z:
        z.writestr("hello.txt", "hi")
    assert "The file cannot be read as an Excel workbook (.xlsx)." in refused(client, bad_zip.getvalue())


def test_a_file_of_another_kind(client, director):
    text = refused(client, b"%PDF-1.4", "board.pdf")
    assert "Upload an Excel workbook (.xlsx) or a JSON file (.json)." in text


def column(name: str) -> str:
    """The letter of a column of the template's sheet squares."""
    from openpyxl.utils import get_column_letter

    from tournament.boards.files.template import square_headers

    return get_column_letter(square_headers(shipped("classic-us")).index(name) + 1)


def set_cell(sheet, cell, value):
    def change(wb):
        wb[sheet][cell] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            set_cell("squares", f"{column('kind')}7", "castle"),  # row 7: square 5
            "Board file: square 5 (Reading Railroad), field 'kind': unknown kind 'castle'; one of card,",
        ),
        (
            set_cell("squares", f"{column('price')}3", None),  # square 1's price
            "Board file: square 1 (Mediterranean Avenue), field 'price': missing.",
        ),
        (
            set_cell("squares", f"{column('price')}14", "abc"),
            "Board file: square 12 (Electric Company), field 'price': must be a whole number ≥ 1, got 'abc'.",
        ),
        (
            set_cell("squares", f"{column('price')}14", 150.5),
            "Board file: square 12 (Electric Company), field 'price': must be a whole number ≥ 1, got 150.5.",
        ),
        (lambda wb: wb["squares"].delete_rows(41), "field 'squares': must list 40 squares."),
        (
            set_cell("squares", "BZ1", "prcie"),
            "Sheet squares, row 1, column BZ: unknown column “prcie”.",
        ),
        (
            set_cell("cards", "A2", "nowhere"),
            "Sheet cards, row 2, column deck: the deck “nowhere” is not on sheet decks.",
        ),
        (
            set_cell("cards", "E2", "teleport"),
            "Board file: deck chance, card advance-to-boardwalk, field 'effect.kind': unknown effect "
            "'teleport';",
        ),
        (
            set_cell("squares", f"{column('percent_choice')}2", "maybe"),  # Go's
            "Sheet squares, row 2, column percent_choice: “maybe” is not yes or no.",
        ),
    ],
    ids=[
        "wrong kind",
        "missing price",
        "price not a number",
        "price not whole",
        "39 squares",
        "unknown column",
        "unknown deck",
        "unknown effect",
        "not yes or no",
    ],
)
def test_a_bad_workbook_is_refused_naming_the_square_and_field(client, director, change, message):
    assert message in refused(client, workbook_with(template(client), change))


def test_every_problem_is_listed(client, director):
    def two(wb):
        wb["squares"][f"{column('price')}3"] = None
        wb["squares"][f"{column('price')}14"] = "abc"

    text = refused(client, workbook_with(template(client), two))
    assert "square 1 (Mediterranean Avenue), field 'price': missing" in text
    assert "square 12 (Electric Company), field 'price': must be a whole number ≥ 1, got 'abc'" in text


def with_part(data: bytes, name: str, old: bytes, new: bytes) -> bytes:
    """The workbook ``data`` with ``old`` replaced by ``new`` in its part ``name`` (what openpyxl will not
    write: a NUL, a character reference)."""
    out = io.BytesIO()
    found = False
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            part = zin.read(info.filename)
            if info.filename == name:
                assert old in part
                part, found = part.replace(old, new), True
            zout.writestr(info, part)
    assert found
    return out.getvalue()


SQUARES_XML = "xl/worksheets/sheet2.xml"  # the template's sheet squares (its texts written inline)


@pytest.mark.parametrize("nul", [b"&#0;", b"\x00"])
def test_nul_in_a_workbook(client, director, nul):
    data = with_part(template(client), SQUARES_XML, b"Baltic Avenue", b"Baltic" + nul + b"Avenue")
    assert "The file cannot be read as an Excel workbook (.xlsx)." in refused(client, data)


def test_a_control_character_in_a_workbook(client, director):
    data = workbook_with(template(client), set_cell("squares", f"{column('name')}5", "Baltic\x7fAvenue"))
    text = refused(client, data)
    assert "Sheet squares, row 5, column name: the text contains a character that is not allowed" in text
    # a line break typed in a cell is a space
    data = workbook_with(template(client), set_cell("squares", f"{column('name')}5", "Baltic\n  Avenue"))
    assert "stored" in page(upload(client, data, board="new-board"))
    assert get_board("new-board").square(3).name == "Baltic Avenue"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00" * 100, "The file is not a board in JSON: it is not JSON (line 1, column 1)."),
        (
            json.dumps({**shipped("classic-us"), "name": "Bad\x00Name"}).encode(),
            "name contains a character that is not allowed",
        ),
        (
            json.dumps(shipped("classic-us")).replace("Baltic Avenue", "Baltic\\u0000Avenue").encode(),
            "squares[3].name contains a character that is not allowed",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "The file is not a board in JSON: it is nested too deeply."),
        (b'{"id": NaN}', "it holds a number that is not valid JSON or is too long."),
        (b"\xff\xfe", "The file is not a board in JSON: it is not text (UTF-8)."),
        (b"[1, 2]", "The file is not a board in JSON: it is not a JSON object."),
        (
            json.dumps({**shipped("classic-us"), "squares": shipped("classic-us")["squares"][:39]}).encode(),
            "Board file: new-board, field 'squares': must list 40 squares.",
        ),
    ],
    ids=[
        "NUL bytes",
        "NUL in a name",
        "escaped NUL",
        "deep",
        "NaN",
        "not UTF-8",
        "not an object",
        "39 squares",
    ],
)
def test_a_bad_json_file_is_refused(client, director, data, message):
    assert message in refused(client, data, "board.json")


def test_a_zip_bomb_is_refused_before_it_is_opened(client, director, monkeypatch):
    bomb = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(template(client))) as zin,
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zout,
    ):
        for info in zin.infolist():
            zout.writestr(info, zin.read(info.filename))
        zout.writestr("xl/media/padding.bin", b"\0" * (MAX_UNPACKED_BYTES + 1))
    assert len(bomb.getvalue()) < 100_000
    import openpyxl

    def never(*args, **kwargs):
        raise AssertionError("opened")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    assert "The workbook unpacks to more than 10 MB." in refused(client, bomb.getvalue())


def test_a_file_over_the_limit(client, director, settings):
    big = b" " * (settings.UPLOAD_MAX_BYTES + 1)
    with pytest.raises(BoardFileError) as e:
        read_board_file("b.json", big)
    assert e.value.problems == ["The file is larger than 5 MB."]
    assert "The file is larger than 5 MB." in refused(client, big, "b.json")
    settings.UPLOAD_MAX_BYTES = 1024 * 1024
    huge = b" " * (settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES + 1)
    assert "The file is larger than 1 MB." in refused(client, huge, "b.json")


def test_too_many_rows(client, director):
    def many(wb):
        for i in range(600):
            wb["cards"].append(["chance", f"extra-{i}", "x", None, "go_to_jail"])

    assert "Sheet cards has more than 500 rows." in refused(client, workbook_with(template(client), many))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"board": ""}, "Give the board an id"),
        ({"board": "Big Board"}, "The board id “Big Board” is not valid"),
        ({"board": "classic-us"}, "classic-us is a board shipped with the app: choose another id."),
        ({"board": "x" * 41}, "Board id: Ensure this value has at most 40 characters (it has 41)."),
        (
            {"board": "ok", "name": "N" * 201},
            "Name: Ensure this value has at most 200 characters (it has 201).",
        ),
    ],
)
def test_the_id_and_name_are_checked(client, director, fields, message):
    text = page(upload(client, template(client), **fields))
    assert NOTHING in text and message in text
    assert not BoardEdition.objects.exists()


def test_a_nul_in_the_form_is_refused_before_the_view(client, director):
    f = SimpleUploadedFile("board.xlsx", template(client))
    response = client.post(reverse("board_upload"), {"file": f, "board": "a\x00b"})
    assert response.status_code == 400 and not BoardEdition.objects.exists()


def test_nothing_chosen(client, director):
    text = page(client.post(reverse("board_upload"), {"board": "x"}, follow=True))
    assert NOTHING in text and not BoardEdition.objects.exists()


def test_an_id_that_exists(client, director):
    data = template(client)
    upload(client, data, board="mine")
    text = page(upload(client, data, board="mine", name="Again"))
    assert "A board with the id mine is already stored" in text
    assert BoardEdition.objects.get().name == "Monopoly, US classic edition"
    # his own, no game on it: replaced
    text = page(upload(client, data, board="mine", name="Again", replace="on"))
    assert "Board Again (mine) stored" in text and get_board("mine").name == "Again"
    # another director's: refused
    other = User.objects.create_user("other", password="pw", is_staff=True)
    client.force_login(other)
    text = page(upload(client, data, board="mine", name="Theirs", replace="on"))
    assert "The board mine was stored by someone else: choose another id." in text
    assert BoardEdition.objects.get().name == "Again"
    # a game on it: not replaced
    client.force_login(director)
    recording.create_game(
        name="", variant="classic", board="mine", options={}, players=[{"name": "A"}, {"name": "B"}]
    )
    text = page(upload(client, data, board="mine", name="Third", replace="on"))
    assert "The board mine is not replaced: 1 game is played on it." in text
    assert BoardEdition.objects.get().name == "Again" and get_board("mine").name == "Again"


@pytest.mark.postgres
def test_a_replaced_board_is_seen_at_once_by_another_process(client, director):
    upload(client, template(client), board="mine", name="First")
    seen, first = get_board("mine"), BoardEdition.objects.get().digest
    assert seen.name == "First"
    upload(client, template(client), board="mine", name="Second", replace="on")
    # another server process: it still holds the first version in its memory, and asks which is current
    rules.board.registry._others["mine"] = rules.board.registry._Found(seen, first)
    assert get_board("mine").name == "Second" and BoardEdition.objects.get().digest != first


@pytest.mark.postgres
def test_a_board_deleted_and_uploaded_again_under_its_id_is_seen_by_another_process(client, director):
    upload(client, template(client), board="mine", name="With a typo")
    seen, first = get_board("mine"), BoardEdition.objects.get().digest
    client.post(reverse("board_delete"), {"board": "mine"})
    upload(client, template(client), board="mine", name="Corrected")
    # another process, the old copy in memory
    rules.board.registry._others["mine"] = rules.board.registry._Found(seen, first)
    assert get_board("mine").name == "Corrected"


def test_delete(client, director):
    upload(client, template(client), board="mine")
    assert "Board mine deleted." in page(client.post(reverse("board_delete"), {"board": "mine"}, follow=True))
    assert not BoardEdition.objects.exists()
    with pytest.raises(BoardError):
        get_board("mine")
    for bad in ("mine", "classic-us", "", "x" * 500):
        text = page(client.post(reverse("board_delete"), {"board": bad}, follow=True))
        assert "There is no stored board" in text


@pytest.mark.postgres
def test_a_board_played_on_is_not_deleted(client, director):
    upload(client, template(client), board="mine")
    Tournament.objects.create(name="Cup", board="mine")
    text = page(client.post(reverse("board_delete"), {"board": "mine"}, follow=True))
    assert "The board mine is not deleted: a game or a tournament is played on it." in text
    assert BoardEdition.objects.exists()


# -- played on ---------------------------------------------------------------------------------------------


def test_a_game_on_a_stored_board(client, director):
    def renamed(wb):
        wb["squares"]["B3"] = "Ulica Testowa"

    upload(client, workbook_with(template(client, "classic-pl"), renamed), board="my-pl", name="Moja")
    assert ("my-pl", "Moja (my-pl)") in editions.board_choices()
    response = client.post(
        reverse("game_new"),
        {"name": "Practice", "variant": "classic", "board": "my-pl", "players": "A\nB\nC"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.board == "my-pl"
    record = simulate("classic", "my-pl", 3, seed=5, rounds=3)
    result = replay(record)
    assert result.exception is None and result.state.board.square(1).name == "Ulica Testowa"
    for event in record["events"][:30]:
        game = recording.submit(game.pk, event, version=game.version).game
    assert recording.current_state(game).board.square(1).name == "Ulica Testowa"
    text = page(client.get(reverse("console", args=[game.pk])))
    assert "Practice" in text


def test_a_tournament_on_a_stored_board(client, director):
    upload(client, template(client, "classic-pl"), board="my-pl", name="Moja")
    form = {
        "name": "Puchar", "date": "2026-12-05", "variant": "tournament-pl", "board": "my-pl",
        "game_rounds": "10", "rounds": "5", "table_size": "4", "placement_points": "4, 2, 1, 0",
        "tie_breaks": "points, total_score", "seed": "42",
    }  # fmt: skip
    assert "Moja (my-pl)" in page(client.get(reverse("tournament_new")))
    response = client.post(reverse("tournament_new"), form)
    assert response.status_code == 302 and Tournament.objects.get().board == "my-pl"
    text = page(client.post(reverse("tournament_new"), {**form, "board": "not-stored"}))
    assert "Select a valid choice" in text and Tournament.objects.count() == 1


def test_a_tournament_backup_on_a_stored_board_is_imported(client, director):
    from tournament.files.backup import export_tournament, import_tournament

    upload(client, template(client, "classic-pl"), board="my-pl")
    t = Tournament.objects.create(name="Cup", board="my-pl")
    data = export_tournament(t)
    t.delete()
    assert import_tournament(data).board == "my-pl"


# -- who may -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method"),
    [("boards", "get"), ("board_template", "get"), ("board_json", "get"), ("board_upload", "post"),
     ("board_delete", "post")],
)  # fmt: skip
def test_only_the_director(client, name, method):
    url = reverse(name)
    data = {"board": "classic-us"}
    response = getattr(client, method)(url, data)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(User.objects.create_user("ref", password="pw"))
    assert getattr(client, method)(url, data).status_code == 403


def test_an_unknown_board_to_download(client, director):
    for name in ("board_template", "board_json"):
        for board in ("", "nowhere", "x" * 5000):
            assert client.get(reverse(name), {"board": board}).status_code == 404
        assert client.get(reverse(name), {"board": "a\x00b"}).status_code == 400


def test_a_kind_that_is_not_text_is_a_problem_not_a_crash():
    data = shipped("anti-monopoly-us")
    data["squares"][1]["kind"] = ["street"]
    data["decks"]["competitor"]["cards"] = [{"id": "x", "text": "x", "effect": {"kind": ["pay"]}}]
    with pytest.raises(BoardError) as e:
        parse_board(data)
    assert [p.params["field"] for p in e.value.problems] == ["kind", "effect.kind"]
    record = {
        "variant": "classic",
        "board": "classic-pl",
        "players": [{"id": "A"}, {"id": "B"}],
        "events": [
            {"type": "roll", "player": "A", "dice": [3, 4]},
            {"type": "card", "player": "A", "effect": {"kind": ["pay"]}},
        ],
    }
    assert replay(record).error["index"] == 1
