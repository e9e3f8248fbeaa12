"""The supervisor of `make run`: a process that dies is restarted and the log says so,
the others are left running, and stopping ends every process group it started."""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from club.runner.supervisor import Supervisor


class Output(io.StringIO):
    """What the supervisor prints, readable while it runs."""

    def wait_for(self, text: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.getvalue():
                return
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never printed:\n{self.getvalue()}")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too (it waits for its parent to collect it).
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def supervise(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], tuple[Supervisor, Output]]]:
    running: list[tuple[Supervisor, threading.Thread]] = []

    def start(commands: dict[str, str]) -> tuple[Supervisor, Output]:
        out = Output()
        sup = Supervisor(commands, env=dict(os.environ), cwd=str(tmp_path), out=out)
        thread = threading.Thread(target=sup.run, daemon=True)
        thread.start()
        running.append((sup, thread))
        return sup, out

    yield start
    for sup, thread in running:
        sup.stop()
        thread.join(30)


def test_a_process_that_dies_is_restarted_and_the_log_says_so_while_the_others_run_on(
    supervise: Callable[[dict[str, str]], tuple[Supervisor, Output]], tmp_path: Path
) -> None:
    # The first run dies with code 3; the second stays up (as a worker would after a crash).
    flaky = (
        "if [ -e ran-once ]; then echo second run; exec sleep 600; "
        "else touch ran-once; echo first run; exit 3; fi"
    )
    sup, out = supervise({"calm": "exec sleep 600", "flaky": flaky})
    out.wait_for("started with pid")
    calm = next(p for p in sup.programs if p.name == "calm")
    assert calm.proc is not None
    calm_pid = calm.proc.pid
    out.wait_for("flaky exited with code 3")
    out.wait_for("restarting flaky (restart 1)")
    out.wait_for("second run")
    text = out.getvalue()
    assert "flaky      | first run" in text  # its own output, prefixed with its name
    assert calm.proc is not None and calm.proc.pid == calm_pid and alive(calm_pid)
    assert "calm exited" not in text


def test_stopping_ends_every_process_group_including_children_of_the_leader(
    supervise: Callable[[dict[str, str]], tuple[Supervisor, Output]],
) -> None:
    # A leader with a child of its own, as gunicorn's master has workers.
    sup, out = supervise({"parent": f"{sys.executable} -c \"import subprocess, time; "
                                    "p = subprocess.Popen(['sleep', '600']); "
                                    "print('child', p.pid, flush=True); time.sleep(600)\""})  # fmt: skip
    out.wait_for("child ")
    child = int(out.getvalue().split("child ", 1)[1].split()[0])
    leader = sup.programs[0].proc
    assert leader is not None and alive(child)
    sup.stop()
    wait_until(lambda: not alive(child) and not alive(leader.pid), "the whole group to stop")


def test_services_start_first_prepare_runs_between_and_they_stop_last_with_their_signal(
    tmp_path: Path,
) -> None:
    """The embedded PostgreSQL and Redis start before migrate (prepare) and the club's
    processes, and stop after them; PostgreSQL with SIGINT, its fast shutdown."""
    # Each program writes a line when it starts and when its signal arrives.
    log = tmp_path / "log"

    def program(name: str) -> str:
        # Python, not a shell trap: sh's trap waits on its foreground child, which the
        # group's signal may kill first (one run in a full suite lost its line).
        code = (
            "import signal, sys, time\n"
            f"log = open({str(log)!r}, 'a', buffering=1)\n"
            "def got(sig, frame):\n"
            f"    log.write('{name} got ' + signal.Signals(sig).name[3:] + '\\n'); sys.exit(0)\n"
            "signal.signal(signal.SIGINT, got); signal.signal(signal.SIGTERM, got)\n"
            f"log.write('{name} up\\n')\n"
            "while True: time.sleep(0.05)\n"
        )
        return f"exec {sys.executable} -c {shlex.quote(code)}"

    out = Output()
    sup = Supervisor(
        {"db": program("db"), "web": program("web")},
        env=dict(os.environ), cwd=str(tmp_path), out=out,
        services=["db"], stop_signals={"db": signal.SIGINT},
    )  # fmt: skip

    def prepare() -> None:
        wait_until(lambda: log.exists() and "db up" in log.read_text(), "the service")
        assert sup.alive("db") and not sup.alive("web")  # the rest waits for prepare
        with log.open("a") as f:
            f.write("prepared\n")

    thread = threading.Thread(target=sup.run, args=(prepare,), daemon=True)
    thread.start()
    wait_until(lambda: log.exists() and "web up" in log.read_text(), "the club's process")
    sup.stop()
    thread.join(30)
    lines = log.read_text().split()
    text = " ".join(lines)
    assert text.index("db up") < text.index("prepared") < text.index("web up")
    assert text.index("web got TERM") < text.index("db got INT")
    assert "db got TERM" not in text


def test_a_failing_prepare_stops_the_services_and_is_passed_on(tmp_path: Path) -> None:
    out = Output()
    sup = Supervisor(
        {"db": "exec sleep 600", "web": "exec sleep 600"},
        env=dict(os.environ), cwd=str(tmp_path), out=out, services=["db"],
    )  # fmt: skip

    def prepare() -> None:
        raise SystemExit("the database did not start")

    with pytest.raises(SystemExit, match="did not start"):
        sup.run(prepare)
    db = sup.programs[0].proc
    assert db is not None and not alive(db.pid)
    assert sup.programs[1].proc is None  # never started


def test_the_programs_end_when_the_supervisor_is_killed_outright(tmp_path: Path) -> None:
    """Issue 57: `make run` killed alone (SIGKILL: the out-of-memory killer, a closed
    terminal's process group) left every program running headless, a second `make run`
    then failing on ports in use while /healthz answered from the orphans. The kernel
    now stops each program with its own signal when the supervisor dies."""
    log = tmp_path / "log"
    program = tmp_path / "program.py"
    program.write_text(
        "import os, signal, sys, time\n"
        f"log = open({str(log)!r}, 'a', buffering=1)\n"
        "def got(sig, frame):\n"
        "    log.write(sys.argv[1] + ' got ' + signal.Signals(sig).name + '\\n'); sys.exit(0)\n"
        "signal.signal(signal.SIGINT, got); signal.signal(signal.SIGTERM, got)\n"
        "print('pid', os.getpid(), flush=True)\n"
        "while True: time.sleep(0.05)\n"
    )
    script = (
        "import signal, sys\n"
        "from club.runner.supervisor import Supervisor\n"
        f"run = sys.executable + ' {program} '\n"
        "Supervisor({'calm': run + 'calm', 'db': run + 'db'}, env={}, cwd='.',\n"
        "           services=['db'], stop_signals={'db': signal.SIGINT}).run()\n"
    )
    sup = subprocess.Popen(
        [sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert sup.stdout is not None
    pids: list[int] = []
    for line in sup.stdout:
        if "| pid " in line:
            pids.append(int(line.rsplit("pid ", 1)[1]))
        if len(pids) == 2:
            break
    assert all(alive(p) for p in pids)
    sup.kill()
    sup.wait()
    wait_until(lambda: not any(alive(p) for p in pids), "the programs to end with it")
    assert sorted(log.read_text().splitlines()) == ["calm got SIGTERM", "db got SIGINT"]
