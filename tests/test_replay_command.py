"""`python manage.py replay` and `simulate` as GAME_RECORD.md describes them."""

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

#: Copies of ../shared/spec/examples (GAME_RECORD.md "Example"), kept with the tests so they always run.
EXAMPLES = Path(__file__).resolve().parent / "data"
EXAMPLE = EXAMPLES / "first-round.json"


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def subset(expected, actual):
    """Every key of ``expected`` is in ``actual`` with the same value (extra keys allowed)."""
    if isinstance(expected, dict):
        return all(k in actual and subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(
            subset(e, a) for e, a in zip(expected, actual, strict=True)
        )
    return expected == actual


def test_replay_json_matches_the_spec_example():
    expected = json.loads((EXAMPLES / "first-round.replay.json").read_text())
    actual = json.loads(run("replay", str(EXAMPLE), "--format", "json"))
    assert subset(expected, actual)
    for p in actual["players"]:
        assert p["net_worth"] == 1500 + p["income"] - p["cost"]


def test_replay_text_is_readable(tmp_path):
    path = tmp_path / "game.json"
    run(
        "simulate",
        "--variant",
        "tournament-pl",
        "--board",
        "classic-pl",
        "--players",
        "3",
        "--seed",
        "2",
        "--output",
        str(path),
    )
    text = run("replay", str(path), "--format", "text")
    assert "Round 10" in text and "finished (rounds)" in text and "net worth" in text


def test_replay_finished_game_has_ranks_and_end_reason(tmp_path):
    path = tmp_path / "game.json"
    run(
        "simulate",
        "--variant",
        "classic",
        "--board",
        "classic-us",
        "--players",
        "4",
        "--seed",
        "3",
        "--rounds",
        "5",
        "--output",
        str(path),
    )
    result = json.loads(run("replay", str(path), "--format", "json"))
    assert result["finished"] and result["end_reason"] == "rounds" and result["round"] == 5
    assert sorted(p["rank"] for p in result["players"]) == [1, 2, 3, 4]


def test_replay_illegal_event_prints_error_object_and_exits_1(tmp_path, capsys):
    record = {
        "format": "monopoly-game-record/1",
        "variant": "tournament-pl",
        "board": "classic-pl",
        "players": [{"id": "A", "name": "Anna"}, {"id": "B", "name": "Bartek"}],
        "options": {},
        "events": [
            {"type": "roll", "player": "A", "dice": [1, 2]},
            {"type": "decline", "player": "A"},
            {"type": "auction", "square": 3, "winner": "B", "price": 29},
        ],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    with pytest.raises(SystemExit) as e:
        from django.core.management import ManagementUtility

        ManagementUtility(["manage.py", "replay", str(path), "--format", "json"]).execute()
    assert e.value.code == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "error": {
            "index": 2,
            "code": "auction.below_opening_bid",
            "message": "Auction price 29 is below the opening bid 30 (half of 60) in "
            "Tournament rules (10 rounds of play).",
        }
    }


@pytest.mark.parametrize(
    "content",
    ["{not json", "[]", "", "[" * 100_000 + "]" * 100_000, '{"format": 1' + "0" * 5000 + "}"],
    ids=["not json", "a list", "empty", "nested too deeply", "a number too long"],
)
def test_replay_malformed_file(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError):
        run("replay", str(path), "--format", "json")


def test_replay_missing_file():
    with pytest.raises(CommandError):
        run("replay", "/nonexistent/game.json")


def test_simulate_writes_a_record_that_replays(tmp_path):
    out = run("simulate", "--variant", "short", "--board", "classic-us", "--players", "5", "--seed", "9")
    record = json.loads(out)
    assert record["format"] == "monopoly-game-record/1" and len(record["players"]) == 5
    assert {e["type"] for e in record["events"]} >= {"deal", "roll", "buy", "rent"}


def test_simulate_refuses_bad_arguments():
    with pytest.raises(CommandError):
        run("simulate", "--players", "1")


def test_replay_text_in_polish_has_a_polish_frame_and_the_json_stays_as_the_spec_says(tmp_path):
    """`--language pl` translates the frame of the text account (GAME_RECORD.md fixes only the JSON): the
    rounds, the bank, the final table's columns and a player's state; codes (end reason, error) stay codes."""
    path = tmp_path / "game.json"
    run("simulate", "--seed", "4", "--output", str(path))
    text = run("replay", str(path), "--format", "text", "--language", "pl")
    assert "; gracze: Anna, Bartek" in text.splitlines()[0]
    assert "\nKolejka 1\n" in text and "Kolejka 10, gra zakończona (rounds). Bank: domy " in text
    header = next(line for line in text.splitlines() if line.lstrip().startswith("miejsce"))
    assert header.split() == ["miejsce", "gracz", "gotówka", "majątek", "przychody", "koszty", "pole"]
    rows = text.splitlines()[-4:]
    assert all(len(row) >= header.index("pole") for row in rows)  # the columns line up under the header
    assert "(w więzieniu)" in text
    for english in ("Round", "finished", "players:", "net worth", "in jail"):
        assert english not in text
    english_json = run("replay", str(path), "--format", "json")
    assert run("replay", str(path), "--format", "json", "--language", "pl") == english_json


def test_replay_error_line_in_polish(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"variant": "nope", "board": "classic-pl", "players": [{"id": "A"}], "events": []})
    )
    out = tmp_path / "out.txt"
    with pytest.raises(CommandError), out.open("w") as stream:
        call_command("replay", str(path), "--format", "text", "--language", "pl", stdout=stream)
    assert out.read_text().startswith("BŁĄD w zapisie partii: ")


def test_simulate_takes_the_records_options_as_the_developers_guide_shows(tmp_path):
    """``simulate --variant anti-monopoly --board anti-monopoly-us --options '{"ending": "two_hour"}'``: the
    record carries the option, and replays."""
    path = tmp_path / "game.json"
    argv = ["--variant", "anti-monopoly", "--board", "anti-monopoly-us", "--seed", "3"]
    run("simulate", *argv, "--options", '{"ending": "two_hour"}', "--output", str(path))
    record = json.loads(path.read_text())
    assert record["options"] == {"ending": "two_hour"}
    assert json.loads(run("replay", str(path), "--format", "json"))["end_reason"] == "time"  # two hours


def test_replay_until_n_is_the_game_after_its_first_n_events(tmp_path):
    """GAME_RECORD.md: ``--until N`` prints the same object for the game after its first N events, as if the
    record stopped there; N from 0 to the number of events, anything else refused saying why."""
    record = json.loads(EXAMPLE.read_text())
    n = len(record["events"])
    whole = json.loads(run("replay", str(EXAMPLE)))
    assert json.loads(run("replay", str(EXAMPLE), "--until", str(n))) == whole
    for until in (0, 1, n // 2, n - 1):
        cut = tmp_path / f"first-{until}.json"
        cut.write_text(json.dumps({**record, "events": record["events"][:until]}))
        assert json.loads(run("replay", str(EXAMPLE), "--until", str(until))) == json.loads(
            run("replay", str(cut))
        )
    start = json.loads(run("replay", str(EXAMPLE), "--until", "0"))
    assert {p["cash"] for p in start["players"]} == {1500} and "rank" not in start["players"][0]
    for wrong in (-1, n + 1):
        with pytest.raises(CommandError, match=f"has {n} events"):
            run("replay", str(EXAMPLE), "--until", str(wrong))
