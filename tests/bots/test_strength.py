"""Each level beats the one below it (fixed seeds, so the results are stable), and the
duel command reports what the issue asks for."""

from __future__ import annotations

import json

import pytest

from games.bots.duel import duel, half_width, main


def _beats(report: dict[str, object], name: str) -> bool:
    bots = report["bots"]
    assert isinstance(bots, dict)
    lo, _ = bots[name]["ci95"]
    return bool(lo > 0)


def test_greedy_beats_random_at_conquian() -> None:
    assert _beats(duel("conquian", ["greedy", "random"], 300, seed=1), "greedy")


def test_greedy_beats_random_at_foster() -> None:
    report = duel("foster", ["greedy", "random", "random", "random", "random"], 100, seed=1)
    assert _beats(report, "greedy")


# The club level's duels are statistical runs (issue 55: they stay in `make test-long`;
# their figures are in make bench): 1,600 and 600 deals on two processes each.
@pytest.mark.long
def test_club_beats_greedy_at_conquian() -> None:
    report = duel("conquian", ["club", "greedy"], 1600, seed=7, workers=2)
    assert _beats(report, "club")


@pytest.mark.long
def test_club_beats_greedy_at_colonel() -> None:
    assert _beats(duel("colonel", ["club", "greedy"], 600, seed=1, workers=2), "club")


@pytest.mark.long  # about 2 minutes; `make test-long` (the strength figures are in make bench)
def test_expert_beats_club_at_conquian() -> None:
    report = duel("conquian", ["expert", "club"], 200, seed=1, workers=2)
    assert _beats(report, "expert")


def test_the_duel_prints_json_with_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "foster-three", "--seats", "club,greedy,random", "--deals", "6",
                 "--seed", "3", "--json", "--workers", "1"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["variant"] == "foster-three" and report["deals"] == 6 and report["seed"] == 3
    assert "seconds" in report and "illegal" not in report  # an illegal move stops a duel
    for name in ("club", "greedy", "random"):
        b = report["bots"][name]
        assert b["seats"] == 1 and b["deals"] == 6
        assert set(b) >= {"wins", "win_rate", "mean_points", "ci95", "decision_ms_median",
                          "decision_ms_p99"}  # fmt: skip
        lo, hi = b["ci95"]
        assert lo <= b["mean_points"] <= hi
        wlo, whi = b["win_ci95"]
        assert wlo <= b["win_rate"] <= whi
    # six deals, one per rotation: every deal has exactly one winner among the three
    assert sum(b["wins"] for b in report["bots"].values()) == 6
    # seats rotate: with three seats and six deals each bot sits in each seat twice
    assert sum(b["mean_points"] for b in report["bots"].values()) == pytest.approx(0, abs=0.01)


def test_options_reach_the_deals() -> None:
    report = duel("conquian", ["greedy", "greedy"], 4, seed=2,
                  options={"pack": "spanish", "scoring": "pips"})  # fmt: skip
    assert report["options"]["pack"] == "spanish"


def test_the_duel_takes_the_experts_settings(capsys: pytest.CaptureFixture[str]) -> None:
    """``--expert KEY=VALUE`` rebuilds the expert for the duel (and is recorded); a bad
    setting is refused with a clear message."""
    assert main(["--variant", "foster", "--seats", "expert,greedy", "--deals", "2", "--seed",
                 "4", "--json", "--workers", "1", "--expert", "hold=false", "--expert",
                 "rummy_playouts=12"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["expert_settings"] == {"hold": False, "rummy_playouts": 12}
    for bad in ("hold=maybe", "rummy_playouts=many", "peek=true", "hold"):
        with pytest.raises(SystemExit, match="--expert"):
            main(
                ["--variant", "conquian", "--seats", "expert,club", "--deals", "1", "--expert", bad]
            )


def test_a_longer_duel_begins_with_the_shorter_duels_deals() -> None:
    """The bench plays more Foster deals than the issue's count and reports the first
    ones on their own: block by block, a longer duel replays the shorter one (same
    packs, rotations and choices), and the blocks give back the overall figures."""
    seats = ["club", "greedy", "greedy"]
    short = duel("foster", seats, 6, seed=11, workers=1)
    long = duel("foster", seats, 15, seed=11, workers=1)
    for name in ("club", "greedy"):
        assert long["bots"][name]["block_points"][:2] == short["bots"][name]["block_points"]
        blocks = long["bots"][name]["block_points"]
        assert len(blocks) == 5
        assert sum(blocks) / 5 == pytest.approx(long["bots"][name]["mean_points"], abs=0.01)
    assert long["bots"]["club"]["block_win_rates"][:2] == short["bots"]["club"]["block_win_rates"]
    assert half_width([1.0]) == 0.0
    assert half_width([0.0, 2.0]) == pytest.approx(1.96)


def test_the_duel_is_the_computer_players_own_command() -> None:
    """``python -m games.bots duel`` (the engine's command line has no duel)."""
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "games.bots", "duel", "--variant", "conquian",
         "--seats", "greedy,random", "--deals", "4", "--seed", "3", "--workers", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    same = duel("conquian", ["greedy", "random"], 4, seed=3, workers=1)
    seeded = ("deals", "wins", "win_rate", "mean_points")  # the rest are timings
    assert report["outcomes"] == same["outcomes"]
    for name in ("greedy", "random"):
        assert {k: report["bots"][name][k] for k in seeded} == {
            k: same["bots"][name][k] for k in seeded
        }
