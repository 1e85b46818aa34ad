"""docs/api.md runs: each documented request is sent to a tournament in play (its ids put in the example's
{placeholders}; {etag}: the ETag of the answer before it), and the answer has the documented status, headers
and shape — the same fields, each of the same JSON type (a documented null: any), every item of a list like
the documented one. A field added to the API and not to the guide, or documented and not answered, fails."""

import json
import re
from pathlib import Path

import pytest

from tests.live_games import live_table
from tournament.games import recording

pytestmark = pytest.mark.django_db

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api.md"
BLOCK = re.compile(r"```http\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    """The guide's (request, answer) pairs, in order."""
    blocks = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) % 2 == 0 and blocks, "a request block, then its answer's"
    pairs = list(zip(blocks[::2], blocks[1::2], strict=True))
    for request, answer in pairs:
        assert request.startswith("GET ") and answer.startswith("HTTP/1.1 "), (request, answer)
    return pairs


def kind(value) -> str:
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "list", dict: "object"}.get(
        type(value), "null"
    )


def same_shape(documented, answered, where="answer") -> None:
    if documented is None:
        return  # documented as null: may be anything (null before it is known)
    assert kind(answered) == kind(documented), f"{where}: {answered!r} is not like {documented!r}"
    if isinstance(documented, dict):
        assert set(answered) == set(documented), f"{where}: fields {sorted(answered)} ≠ {sorted(documented)}"
        for key, value in documented.items():
            same_shape(value, answered[key], f"{where}.{key}")
    elif isinstance(documented, list) and documented:
        assert answered, f"{where}: documented with items, answered empty"
        for i, item in enumerate(answered):
            same_shape(documented[0], item, f"{where}[{i}]")


def parsed(answer: str) -> tuple[int, dict[str, str], object]:
    head, _, body = answer.partition("\n\n")
    status_line, *header_lines = head.strip().splitlines()
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, json.loads(body) if body.strip() else None


@pytest.fixture
def ids():
    live = live_table(moves=40)
    assert recording.current_state(live.game).holdings  # the example's holdings are not empty
    hidden = live_table(moves=2, live=False, seed=8)
    return {"tournament": live.tournament.pk, "table": live.table.pk, "hidden_table": hidden.table.pk}


def test_every_example_of_the_guide_answers_as_documented(client, ids):
    etag = ""
    ran = 0
    for request, answer in examples():
        first, *header_lines = request.strip().splitlines()
        path = first.split()[1].format(**ids, etag=etag)
        headers = {}
        for line in header_lines:
            name, value = line.split(": ", 1)
            headers["HTTP_" + name.upper().replace("-", "_")] = value.format(**ids, etag=etag)
        got = client.get(path, **headers)
        status, documented_headers, body = parsed(answer)
        assert got.status_code == status, (path, got.content[:300])
        for name in documented_headers:
            assert got.has_header(name), (path, name)
        if documented_headers.get("Content-Type") == "application/json":
            same_shape(body, got.json(), path)
            if "code" in body:  # a refusal's code is fixed (its words vary with the language)
                assert got.json()["code"] == body["code"], path
        else:
            assert status == 304 and body is None and not got.content
        etag = got.get("ETag", etag)
        ran += 1
    assert ran == 5


def test_the_shape_check_can_fail():
    with pytest.raises(AssertionError):
        same_shape({"a": 1, "b": [{"c": "x"}]}, {"a": 1, "b": [{"c": 2}]})
    with pytest.raises(AssertionError):
        same_shape({"a": 1}, {"a": 1, "new": 2})
    same_shape({"a": None, "b": []}, {"a": "anything", "b": [1, 2]})
