#!/usr/bin/env python3
"""Benchmark of the aggregation: generates a realistic timing log (10 million records by default) and times
``analysis/aggregate.py`` on it (wall time and peak RSS of the process), against the requirement of at most
10 s and 2 GB for summary + per-second + comparison (charts are timed apart, when asked).

If JMeter has been assembled at ``target/jmeter`` (repository root), a .jtl with the same number of rows is
generated too and JMeter's own dashboard generator (``jmeter -g FILE.jtl -o DIR``) is timed next to it.

Data goes under /tmp by default (never into the repository)::

    .venv/bin/python analysis/bench/bench_aggregate.py                 # 10M records, /tmp/stomp-analysis-bench
    .venv/bin/python analysis/bench/bench_aggregate.py --records 1000000 --charts --dir /tmp/b
    .venv/bin/python analysis/bench/bench_aggregate.py --mode fire-and-forget      # schedule lag instead of CO
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANALYSIS = HERE.parent
REPO = ANALYSIS.parent
GEN = HERE / "gen_data.py"


def generate(kind: str, path: Path, records: int, *extra: str) -> dict:
    """Runs the generator in its own process, so that this (measuring) process stays small: a child's peak
    RSS as reported by wait4 includes the memory of the parent it was forked from."""
    cmd = [sys.executable, str(GEN), kind, str(path), "--records", str(records), *extra]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _cpu_jiffies() -> tuple[int, int] | None:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            parts = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
    return sum(parts) - idle, sum(parts)


def timed(cmd: list[str], *, env: dict | None = None, timeout: float | None = None) -> dict:
    """Runs cmd; returns wall seconds, peak RSS (MiB) and CPU seconds of the child (os.wait4), plus the
    machine's CPU use by *other* processes meanwhile (in cores), to show contention."""
    before = _cpu_jiffies()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = None if timeout is None else t0 + timeout
    # drain pipes in the background so a chatty child never blocks
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}

    def pump(stream, key):
        for line in iter(stream.readline, b""):
            chunks[key].append(line)

    threads = [
        threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True),
    ]
    for t in threads:
        t.start()
    while True:
        pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if deadline and time.perf_counter() > deadline:
            proc.kill()
            pid, status, rusage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    wall = time.perf_counter() - t0
    for t in threads:
        t.join(timeout=5)
    after = _cpu_jiffies()
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = rusage.ru_utime + rusage.ru_stime
    others = None
    if before and after:
        hz = os.sysconf("SC_CLK_TCK")
        busy = (after[0] - before[0]) / hz
        others = max(0.0, (busy - cpu) / wall) if wall > 0 else None
    return {
        "cmd": " ".join(cmd),
        "rc": proc.returncode,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "peak_rss_mib": round(rusage.ru_maxrss / 1024, 1),  # Linux: KiB
        "other_load_cores": None if others is None else round(others, 2),
        "stdout": b"".join(chunks["out"]).decode(errors="replace"),
        "stderr": b"".join(chunks["err"]).decode(errors="replace"),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--records", type=int, default=10_000_000, help="timing records to generate (default 10M)")
    p.add_argument("--senders", type=int, default=200)
    p.add_argument("--rate", type=float, default=20_000.0, help="messages per second in the generated run")
    p.add_argument(
        "--mode",
        choices=["await-reply", "fire-and-forget", "old"],
        default="await-reply",
        help="the generated log's mode column (old: the former 9-column format); await-reply runs the CO correction, "
        "fire-and-forget the schedule lag",
    )
    p.add_argument("--dir", type=Path, default=Path("/tmp/stomp-analysis-bench"), help="where data goes")
    p.add_argument("--reuse", action="store_true", help="reuse data files already generated with the same size")
    p.add_argument("--repeat", type=int, default=1, help="time the aggregation this many times (best is kept)")
    p.add_argument("--charts", action="store_true", help="also time a run that writes the charts")
    p.add_argument("--skip-jmeter", action="store_true", help="do not time JMeter's dashboard generator")
    p.add_argument("--jmeter", type=Path, default=REPO / "target" / "jmeter" / "bin" / "jmeter")
    p.add_argument("--max-wall-s", type=float, default=10.0)
    p.add_argument("--max-rss-mib", type=float, default=2048.0)
    p.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = p.parse_args(argv)

    args.dir.mkdir(parents=True, exist_ok=True)
    log = args.dir / f"timing_{args.records}_{args.mode}.csv"
    meta_path = log.with_suffix(".json")
    if args.reuse and log.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        print(f"reusing {log} ({log.stat().st_size / 2**20:.0f} MiB)")
    else:
        t = time.perf_counter()
        meta = generate(
            "timing", log, args.records, "--senders", str(args.senders), "--rate", str(args.rate), "--mode", args.mode
        )
        meta_path.write_text(json.dumps(meta))
        print(
            f"generated {log}: {args.records} records, {log.stat().st_size / 2**20:.0f} MiB"
            f" in {time.perf_counter() - t:.1f} s"
        )

    script = ANALYSIS / "aggregate.py"
    out_dir = args.dir / "out"
    base = [sys.executable, str(script), str(log), "--target-rate", str(meta["target_rate_per_min"]), "--quiet"]
    results = {"records": args.records, "file_mib": round(log.stat().st_size / 2**20, 1), "runs": []}
    best = None
    for i in range(args.repeat):
        r = timed([*base, "--no-charts", "--out", str(out_dir)])
        if r["rc"] != 0:
            print(r["stderr"], file=sys.stderr)
            print(f"aggregation failed (exit {r['rc']})", file=sys.stderr)
            return 1
        print(
            f"aggregation #{i + 1} (summary + per-second + comparison, no charts): wall {r['wall_s']:.2f} s, "
            f"cpu {r['cpu_s']:.2f} s, peak RSS {r['peak_rss_mib']:.0f} MiB"
            + (f", other processes meanwhile: {r['other_load_cores']:.2f} cores" if r["other_load_cores"] else "")
        )
        results["runs"].append({k: v for k, v in r.items() if k not in ("stdout", "stderr")})
        if best is None or r["wall_s"] < best["wall_s"]:
            best = r
    ok = best["wall_s"] <= args.max_wall_s and best["peak_rss_mib"] <= args.max_rss_mib
    verdict = "within" if ok else "OVER"
    print(
        f"=> {args.records} records: {best['wall_s']:.2f} s, {best['peak_rss_mib']:.0f} MiB peak RSS: {verdict} the "
        f"limits ({args.max_wall_s:g} s, {args.max_rss_mib:g} MiB)"
    )
    results["best"] = {k: v for k, v in best.items() if k not in ("stdout", "stderr")}
    results["within_limits"] = ok
    if args.charts:
        r = timed([*base, "--out", str(out_dir)])
        print(f"with charts + report.html: wall {r['wall_s']:.2f} s, peak RSS {r['peak_rss_mib']:.0f} MiB")
        results["with_charts"] = {k: v for k, v in r.items() if k not in ("stdout", "stderr")}

    if args.skip_jmeter:
        print("JMeter dashboard: skipped (--skip-jmeter)")
    elif not args.jmeter.exists():
        print(f"JMeter dashboard: skipped ({args.jmeter} not found; build JMeter there to compare)")
    else:
        jtl = args.dir / f"results_{args.records}.jtl"
        if not (args.reuse and jtl.exists()):
            t = time.perf_counter()
            generate("jtl", jtl, args.records, "--senders", str(args.senders))
            print(f"generated {jtl}: {args.records} rows in {time.perf_counter() - t:.1f} s")
        dash = args.dir / "jmeter-dashboard"
        shutil.rmtree(dash, ignore_errors=True)
        r = timed(
            [str(args.jmeter), "-g", str(jtl), "-o", str(dash), "-j", str(args.dir / "jmeter-g.log")], timeout=3600
        )
        state = "ok" if r["rc"] == 0 else f"exit {r['rc']}"
        print(
            f"JMeter dashboard generator (jmeter -g, {args.records} rows): wall {r['wall_s']:.2f} s,"
            f" cpu {r['cpu_s']:.2f} s, "
            f"peak RSS {r['peak_rss_mib']:.0f} MiB ({state})"
        )
        if r["rc"] != 0:
            print(r["stderr"][-2000:] or r["stdout"][-2000:], file=sys.stderr)
        results["jmeter_dashboard"] = {k: v for k, v in r.items() if k not in ("stdout", "stderr")}
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
