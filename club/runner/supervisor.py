"""A small process supervisor for `make run`.

Each process runs in its own process group with its output prefixed by its name. When
one dies the supervisor says so and starts it again (after 1 s, doubling up to 30 s
while it keeps dying within half a minute of starting), instead of stopping the whole
club (as honcho, used before, did). Ctrl-C or SIGTERM stops every process group it started.

Services (the embedded PostgreSQL and Redis) start first and stop last: the supervisor
starts them, runs a preparation step while they run (waiting for the database, migrating),
then starts the rest. Each program may be stopped with its own signal (PostgreSQL's fast
shutdown is SIGINT; SIGTERM would wait for every client to leave).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import IO

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STABLE_AFTER = 30.0  # a process that ran this long counts as healthy: the delay resets
STOP_GRACE = 10.0


def next_delay(previous: float | None, ran_for: float) -> float:
    """The wait before restarting a process that died after running ``ran_for`` seconds.

    >>> next_delay(None, 0.5), next_delay(1.0, 0.5), next_delay(16.0, 2.0), next_delay(30.0, 2.0)
    (1.0, 2.0, 30.0, 30.0)
    >>> next_delay(8.0, 3600.0)  # it had been running well: start again soon
    1.0
    """
    if previous is None or ran_for >= STABLE_AFTER:
        return FIRST_DELAY
    return min(MAX_DELAY, previous * 2)


@dataclass
class Program:
    name: str
    command: str
    service: bool = False
    stop_signal: int = signal.SIGTERM
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restarts: int = 0
    delay: float | None = None
    restart_at: float | None = None
    readers: list[threading.Thread] = field(default_factory=list)


class Supervisor:
    """Start ``commands`` (name → shell command); keep them running until :meth:`stop`."""

    def __init__(
        self,
        commands: Mapping[str, str],
        *,
        env: Mapping[str, str],
        cwd: str,
        out: IO[str] | None = None,
        services: Collection[str] = (),
        stop_signals: Mapping[str, int] | None = None,
    ) -> None:
        signals = stop_signals or {}
        self.programs = [
            Program(name, cmd, service=name in services,
                    stop_signal=signals.get(name, signal.SIGTERM))
            for name, cmd in commands.items()
        ]  # fmt: skip
        self.env = dict(env)
        self.cwd = cwd
        self.out = out or sys.stdout
        self.width = max([len(p.name) for p in self.programs] + [len("supervisor")])
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    # --- output ------------------------------------------------------------------------

    def say(self, name: str, text: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        with self._lock:
            self.out.write(f"{stamp} {name:<{self.width}} | {text}\n")
            self.out.flush()

    def _pump(self, program: Program, stream: IO[bytes]) -> None:
        for raw in iter(stream.readline, b""):
            self.say(program.name, raw.decode(errors="replace").rstrip("\n"))
        stream.close()

    # --- processes ---------------------------------------------------------------------

    def _start(self, program: Program) -> None:
        proc = subprocess.Popen(
            _dying_with_us(program.command, program.stop_signal),
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one
        )
        program.proc, program.started_at, program.restart_at = proc, time.monotonic(), None
        assert proc.stdout is not None
        reader = threading.Thread(target=self._pump, args=(program, proc.stdout), daemon=True)
        reader.start()
        program.readers = [reader]
        self.say(program.name, f"started with pid {proc.pid}")

    def _check(self, program: Program, now: float) -> None:
        proc = program.proc
        if proc is not None and proc.poll() is not None:
            ran_for = now - program.started_at
            program.delay = next_delay(program.delay, ran_for)
            program.restart_at = now + program.delay
            program.proc = None
            _signal_group(proc, signal.SIGKILL)  # what the dead leader left (pool children)
            for reader in program.readers:
                reader.join(timeout=1.0)  # its last words before ours
            self.say(
                "supervisor",
                f"{program.name} exited with code {proc.returncode} after {ran_for:.0f} s; "
                f"restarting it in {program.delay:.0f} s",
            )
        if program.proc is None and program.restart_at is not None and now >= program.restart_at:
            program.restarts += 1
            self.say("supervisor", f"restarting {program.name} (restart {program.restarts})")
            self._start(program)

    def alive(self, name: str) -> bool:
        """Whether ``name`` is running now (while preparing, nothing is restarted)."""
        return any(
            p.name == name and p.proc is not None and p.proc.poll() is None for p in self.programs
        )

    def run(self, prepare: Callable[[], None] | None = None) -> int:
        """Start the services, run ``prepare`` (its SystemExit stops them and is passed
        on), start the rest, and supervise until :meth:`stop` is called; then stop all."""
        services = [p for p in self.programs if p.service]
        for program in services:
            self._start(program)
        if prepare is not None:
            try:
                prepare()
            except BaseException:
                self._stop_all()
                raise
        if self._stopping.is_set():  # Ctrl-C while preparing
            self._stop_all()
            return 0
        for program in self.programs:
            if not program.service:
                self._start(program)
        while not self._stopping.wait(0.2):
            now = time.monotonic()
            for program in self.programs:
                self._check(program, now)
        self._stop_all()
        return 0

    def stop(self) -> None:
        self._stopping.set()

    def _stop_all(self) -> None:
        """The programs first, then the services they use."""
        self._stop([p for p in self.programs if not p.service])
        self._stop([p for p in self.programs if p.service])

    def _stop(self, programs: list[Program]) -> None:
        running = [p for p in programs if p.proc is not None and p.proc.poll() is None]
        for p in running:
            self.say("supervisor", f"stopping {p.name}")
            _signal_group(p.proc, p.stop_signal)  # type: ignore[arg-type]
        deadline = time.monotonic() + STOP_GRACE
        for p in running:
            assert p.proc is not None
            try:
                p.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say("supervisor", f"{p.name} did not stop in {STOP_GRACE:.0f} s; killing it")
                _signal_group(p.proc, signal.SIGKILL)
                p.proc.wait(5)
            # The group may hold children that outlive its leader (gunicorn's workers).
            _signal_group(p.proc, signal.SIGKILL)
        for p in programs:
            for reader in p.readers:
                reader.join(timeout=1.0)


def _compound(command: str) -> bool:
    """Whether the shell runs more than one program for ``command`` (a list, a pipe, a
    subshell, outside quotes): such a command stays a shell, whose children would
    outlive the supervisor."""
    if "\n" in command:
        return True
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    try:
        return any(token and set(token) <= set(";&|()") for token in lexer)
    except ValueError:  # unbalanced quotes: the shell says so
        return True


def _dying_with_us(command: str, sig: int) -> list[str]:
    """The argv that runs ``command`` so that it ends when the supervisor does, whatever
    ends the supervisor (issue 57: `make run` killed alone, by the out-of-memory killer or
    a closed terminal, left the club running headless): the kernel sends the program
    ``sig`` (its own stop signal) when its parent dies (util-linux's ``setpriv
    --pdeathsig``, kept across exec), and a simple command is exec'd by its shell so
    that the program itself is the one that gets it. Without setpriv (not Linux), the
    shell as before."""
    shell = ["/bin/sh", "-c"]
    if not _compound(command) and not command.lstrip().startswith("exec "):
        command = f"exec {command}"
    setpriv = shutil.which("setpriv")
    if setpriv is None or not sys.platform.startswith("linux"):
        return [*shell, command]
    return [setpriv, "--pdeathsig", signal.Signals(sig).name, "--", *shell, command]


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group is gone already
        os.killpg(proc.pid, sig)
