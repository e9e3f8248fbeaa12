"""The command line: replay (exit 0/1/2), play, bench; and no Django in the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "engine" / "foster_2p_joker_move.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_import_does_not_import_django() -> None:
    code = "import games.engine, sys; assert not any(m.startswith('django') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_engine_cli_loads_nothing_of_the_computer_players() -> None:
    """The engine is below the players: its command line (replay, play, bench) runs
    without one module of games.bots, and it offers no duel (theirs is python -m
    games.bots duel)."""
    code = (
        "import sys, games.engine.cli as cli; "
        "cli.parser(); "
        "print(sorted(m for m in sys.modules if m == 'games.bots' or m.startswith('games.bots.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    with pytest.raises(SystemExit):
        main(["duel", "--seats", "greedy,greedy"])


def test_replay_legal_file_prints_state_or_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "replay", str(FIXTURE))
    assert code == 0 and out["ok"] and out["state"]["phase"] == "draw"
    assert "hand" in out["state"] and out["state"]["hand"] == []


def test_replay_finished_deal_prints_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, played = run(capsys, "play", "--variant", "foster-three", "--seed", "4")
    assert code == 0 and "outcome" in played
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(played))
    code, out = run(capsys, "replay", str(f))
    assert code == 0 and out["outcome"] == played["outcome"]


def test_replay_illegal_action_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(FIXTURE.read_text())
    data["actions"][4] = {"type": "move-joker", "seat": 0, "combination": 0, "card": "JH"}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    code, out = run(capsys, "replay", str(f))
    assert code == 1 and out["index"] == 4 and out["law"] == "L18" and out["reason"]


@pytest.mark.parametrize(
    "text",
    ["{not json", '{"rules": {"variant": "foster"}, "players": 2, "seed": 1, "actions": [{"type": "discard", "seat": 1, "card": "1H"}]}',
     '{"rules": {"variant": "whist"}, "seed": 1}', '{"rules": {"variant": "foster"}, "players": 2}',
     '{"rules": {"variant": "foster"}, "players": 2, "pack": ["AS"]}', "[]"],
)  # fmt: skip
def test_replay_malformed_exit_2(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "x.json"
    f.write_text(text)
    code, out = run(capsys, "replay", str(f))
    assert code == 2 and not out["ok"]


def test_replay_missing_file_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(capsys, "replay", "/nonexistent/deal.json")
    assert code == 2


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, a = run(capsys, "play", "--variant", "foster", "--players", "4", "--seed", "9")
    _, b = run(capsys, "play", "--variant", "foster", "--players", "4", "--seed", "9")
    assert a == b and a["seed"] == 9 and a["players"] == 4 and a["actions"]


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "bench", "--variant", "colonel", "--seconds", "0.2", "--json")
    assert code == 0
    assert {"variant", "deals", "actions", "deals_per_s", "actions_per_s"} <= set(out)


def test_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "play", "--variant", "colonel", "--seed", "1",
         "--option", "bogus=1"], cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2 and "bogus" in proc.stdout


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("foster", []),
        ("foster-three", []),
        ("conquian", []),
        ("conquian", ["--option", "target=10"]),
        ("colonel", []),
        ("tonk", []),
        ("tunk", []),
    ],
)
def test_what_play_writes_replay_reads_in_every_game(
    variant: str, options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 80: `play --variant conquian` wrote scores_in (0, 0) for a deal without a
    target, and `replay` refused it ("scores_in given but each deal is a game")."""
    code, written = run(capsys, "play", "--variant", variant, *options, "--seed", "3")
    assert code == 0
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(written))
    code, replayed = run(capsys, "replay", str(path))
    assert code == 0 and replayed["ok"], replayed
    assert replayed["outcome"] == written["outcome"]
    assert ("scores_in" in written) == (variant == "tunk" or bool(options)), written.keys()


def test_a_conquian_deal_recorded_before_issue_80_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deals stored before the fix carry scores_in [0, 0] without a target: they replay;
    points before a deal of a game without a target are still refused."""
    _, written = run(capsys, "play", "--variant", "conquian", "--seed", "5")
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**written, "scores_in": [0, 0]}))
    code, replayed = run(capsys, "replay", str(path))
    assert code == 0 and replayed["outcome"] == written["outcome"]
    path.write_text(json.dumps({**written, "scores_in": [3, 0]}))
    code, refused = run(capsys, "replay", str(path))
    assert code == 2 and "each deal is a game" in refused["error"]
