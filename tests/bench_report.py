"""Render docs/benchmarks.md from the results `python -m tests.bench` measured."""

from __future__ import annotations

from typing import Any

COMMANDS = {
    "engine": "make bench BENCH_ARGS='--only engine'",
    "club": "make bench BENCH_ARGS='--only club'",
    "games": "make bench BENCH_ARGS='--only games'",
    "bots": "make bench BENCH_ARGS='--only bots'",
    "load": "make bench BENCH_ARGS='--only load'",
    "paced": "make bench BENCH_ARGS='--only paced'",
}
TITLES = {
    "engine": "Rules engine: random self-play vs rlcard's Gin Rummy",
    "club": "Club: balancing an evening, rendering a washbook",
    "games": "Play: turn actions under load, queries per action, event delivery",
    "bots": "Computer players: duels",
    "load": "Load and soak: 50 bot tables through the HTTP layer",
    "paced": "Capacity at a human pace: tables of five with every phone listening",
}


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3f}" if abs(v) < 100 else f"{v:,.0f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, list | tuple) and all(isinstance(x, int | float) for x in v):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _kv(d: dict[str, Any], prefix: str = "") -> list[str]:
    rows: list[str] = []
    for k, v in d.items():
        if k.startswith("_"):
            continue
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            rows += _kv(v, f"{name}.")
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for i, item in enumerate(v):
                rows += _kv(item, f"{name}[{i}].")
        else:
            rows.append(f"| {name} | {_fmt(v)} |")
    return rows


def _engine(r: dict[str, Any]) -> list[str]:
    base = r["baseline"]["actions_per_s"]
    out = [
        f"Baseline: rlcard {r['baseline'].get('version', '1.2.0')} Gin Rummy, random legal "
        f"play, **{base:,.0f} actions/s** (again after our runs: "
        f"{r['baseline_after']['actions_per_s']:,.0f}). "
        + (
            f"Each row's random legal self-play (the loop of `python -m games.engine bench "
            f"--variant V --players N`) took turns with rlcard's in this process, "
            f"{r['slices']} slices each, {r['seconds_each']} s of ours and half as long of "
            "rlcard's (the row shows rlcard's actions/s over its slices): the ratio is of "
            "the two loops' actions/s over all their slices (each quarter's in the JSON)."
            if r.get("slices")
            else f"Each row ran {r['seconds_each']} s of random legal self-play "
            "(`python -m games.engine bench --variant V --players N --seconds S --json`)"
            f" in {r['rounds']} rounds, each right after rlcard for half as long (the row "
            "shows rlcard's median): the ratio is the median of the rounds' ratios, each "
            "against the run beside it (the rounds' ratios in the JSON)."
        ),
        "",
        "| variant | players | deals | actions | deals/s | actions/s | rlcard beside | × rlcard |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for v in r["variants"]:
        beside = v.get("rlcard_beside", base)
        out.append(
            f"| {v['variant']} | {v['players']} | {v['deals']:,} | {v['actions']:,} | "
            f"{v['deals_per_s']:,.1f} | {v['actions_per_s']:,.0f} | {beside:,.0f} | "
            f"**{v['ratio_vs_rlcard']:.2f}×** |"
        )
    la = r.get("legal_actions_after_draw")
    if la:
        out += ["", "`legal_actions` right after a draw (full hand, two jokers on the table):", ""]
        out += ["| figure | value |", "|---|---|", *_kv(la)]
    sn = r.get("snapshot_per_action")
    if sn:
        out += [
            "",
            "Storing a deal per action, as the server does (load the stored state, apply one "
            "action, store it again), over the same seeded random deals: the JSON snapshot "
            "(`to_json` + `json.dumps`, `json.loads` + `deal_from_json`) against pickle. "
            f"Worst ratio: **{sn['worst_json_vs_pickle']:.2f}×** (the bar: at most 1.5×).",
            "",
            "| variant | players | deals | actions | pickle µs/action | JSON µs/action "
            "| JSON ÷ pickle |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for row in sn["rows"]:
            out.append(
                f"| {row['variant']} | {row['players']} | {row['deals']} | {row['actions']:,} | "
                f"{row['pickle_us_per_action']:,.1f} | {row['json_us_per_action']:,.1f} | "
                f"**{row['json_vs_pickle']:.2f}×** |"
            )
    return out


def _ci(v: list[float], pct: bool = False) -> str:
    if pct:
        return f"[{v[0] * 100:.1f}%, {v[1] * 100:.1f}%]"
    return f"[{v[0]:+.2f}, {v[1]:+.2f}]"


def _yes(ok: bool) -> str:
    return "**yes**" if ok else "**no**"


def _bots(r: dict[str, Any]) -> list[str]:
    scale = r.get("scale", 1)
    out = [
        "Each duel plays seeded deals in blocks: one pack per block, played once in every "
        "rotation of the seats, so each bot sits in every position and meets the same "
        f"cards. Intervals are 95%, over blocks. Seed {r.get('seed')}"
        + (f"; **scale {scale}**: shortened duels, not the issue's counts" if scale != 1 else
           "; full counts: the issue's 2,000 Conquián deals, and 3,000 five-player Foster deals "
           "where the issue asks for 1,000, to narrow the interval (the first 1,000 are the "
           "deals the issue's count plays)")
        + ". Decision times are over the decisions with more than one legal action.",
        "",
        "| duel | deals | bot | win rate [95%] | points a deal [95%] | ms median / p99 |",
        "|---|---:|---|---|---|---|",
    ]  # fmt: skip
    for d in r["duels"]:
        for i, (name, b) in enumerate(d["bots"].items()):
            share = f" ×{b['seats']}" if b["seats"] > 1 else ""
            out.append(
                f"| {d['duel'] if i == 0 else ''} | {_fmt(d['deals']) if i == 0 else ''} | "
                f"{name}{share} | {b['win_rate'] * 100:.1f}% {_ci(b['win_ci95'], True)} | "
                f"{b['mean_points']:+.3f} {_ci(b['ci95'])} | "
                f"{b['choice_ms_median']:.2f} / {b['choice_ms_p99']:.1f} |"
            )
    out += [
        "",
        "Targets (issue #6): each level beats the one below with a points interval that "
        "excludes even; in five-player foster the expert wins clearly more than its 20% "
        "share against club seats; the median decision under 50 ms (club) and 500 ms "
        "(expert). A duel stops at a computer player's failure or illegal move (none did).",
        "",
        "| duel | first seat's points interval above 0 | win-rate interval above 20% | "
        "decision times | seconds |",
        "|---|---|---|---|---:|",
    ]
    for d in r["duels"]:
        first = next(iter(d["bots"].values()))
        share = "win-rate" in d.get("target", "")
        out.append(
            f"| {d['duel']} | {_yes(first['ci95'][0] > 0)} | "
            f"{_yes(first['win_ci95'][0] > 0.20) if share else '(not a target)'} | "
            f"{_yes(d['times_met'])} | {_fmt(d['seconds'])} |"
        )
    firsts = [d for d in r["duels"] if d.get("first_deals")]
    if firsts:
        out += [
            "",
            "The same duels' first seat over the first deals only, the count the "
            "issue names (the same packs and rotations a duel of that length plays):",
            "",
        ]
        for d in firsts:
            f = d["first_deals"]
            out.append(
                f"- {d['duel']}, first {_fmt(f['deals'])} deals: win rate "
                f"{f['win_rate'] * 100:.1f}% {_ci(f['win_ci95'], True)}, points a deal "
                f"{f['mean_points']:+.3f} {_ci(f['ci95'])}"
            )
    out += ["", "Commands:", ""] + [f"- `{d['command']}`" for d in r["duels"]]
    return out


def _paced(r: dict[str, Any]) -> list[str]:
    out = [
        str(r["summary"]),
        "",
        "Each row: the driver (tests/bench_paced_driver.py, a process of its own, on "
        "aiohttp) for that many tables, every member's phone listening to its table's "
        "stream (a move's part pushed on it), each mover acting after 2-8 s, the "
        "secretary's console open (the single table six times as long as the others: the "
        "rule's anchor from about 190 refreshes); delays in ms from an action's answer "
        "to each other phone's refreshed fragment (negative: shown before the mover had "
        "their answer), and from the move sent (and from a move's notice to the console's "
        "line of that table shown, pushed in the notice); CPU in cores busy over the row "
        "(the web's also a move: its CPU seconds over the moves made in its span), memory "
        "resident MB.",
        "",
        "| tables | actions | action p50/p90/p99 | other phones p50/p90/p99 "
        "| from the move p50/p90/p99 | console p50/p90 "
        "| CPU web/events/worker/PostgreSQL/Redis | web CPU a move | web+events a move "
        "| driver CPU | memory web/events/worker/PostgreSQL | errors |",
        "|---:|---:|---|---|---|---|---|---:|---:|---:|---|---:|",
    ]
    for row in r["rows"]:
        a, p, c = row["action_ms"], row["other_phones_ms"], row["console_ms"]
        m = row.get("other_phones_from_move_ms") or {"p50": "", "p90": "", "p99": ""}
        cpu, mem = row["cpu_cores"], row["memory_mb"]
        out.append(
            f"| {row['tables']} | {row['actions']:,} | {a['p50']}/{a['p90']}/{a['p99']} | "
            f"{p['p50']}/{p['p90']}/{p['p99']} | {m['p50']}/{m['p90']}/{m['p99']} | "
            f"{c['p50']}/{c['p90']} | "
            f"{cpu['web']}/{cpu['events']}/{cpu['worker']}/{cpu['postgres']}/{cpu['redis']} | "
            f"{_ms(row.get('web_cpu_ms_per_move'))} | "
            f"{_ms(row.get('pages_cpu_ms_per_move'))} | "
            f"{row['driver_cpu_cores']} | {mem['web']}/{mem['events']}/{mem['worker']}/"
            f"{mem['postgres']} | {len(row['errors'])} |"
        )
    return out


def _ms(value: Any) -> str:
    return "" if value is None else f"{value} ms"


def render(meta: dict[str, Any], parts: dict[str, Any]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python -m tests.bench`); do not edit by hand. Speed is",
        "given as ratios against a baseline measured in the same invocation on the same",
        "machine. Machine: "
        f"{meta.get('cpus')} CPUs, {meta.get('machine')}, Python {meta.get('python')}.",
        "",
    ]
    for name in COMMANDS:
        if name not in parts:
            continue
        r = parts[name]
        lines += [f"## {TITLES[name]}", ""]
        lines.append(
            f"Measured {r.get('_measured_at', '?')} in {r.get('_wall_s', '?')} s"
            + (" (**quick run**: shortened, not the recorded figure)" if r.get("_quick") else "")
            + f". Rerun: `{COMMANDS[name]}`."
        )
        lines.append("")
        if name == "engine":
            lines += _engine(r)
        elif name == "paced":
            lines += _paced(r)
        elif name == "bots" and r.get("duels") and "bots" in r["duels"][0]:
            lines += _bots(r)
        else:
            if r.get("summary"):
                lines += [str(r["summary"]), ""]
            lines += ["| figure | value |", "|---|---|", *_kv({k: v for k, v in r.items()
                                                                 if k != "summary"})]  # fmt: skip
        lines.append("")
    return "\n".join(lines)
