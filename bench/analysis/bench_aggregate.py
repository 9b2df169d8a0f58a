#!/usr/bin/env python3
"""Benchmark of the aggregation: generates realistic timing logs (10 million records by default; repeat
``--records`` for more sizes) and times ``analysis/aggregate.py`` on each (wall time and peak RSS of the process),
against the requirements for summary + per-second + comparison (charts are timed apart, when asked):

==============  ==========  ===========
records         wall        peak RSS
==============  ==========  ===========
10,000,000      5 s         2 GiB
100,000,000     60 s        3 GiB
==============  ==========  ===========

(a size in between gets the next size's budget; ``--max-wall-s`` and ``--max-rss-mib`` override). Inputs of
``--max-in-memory`` MiB and more (512 by default, so both sizes) are aggregated out of core; ``--phases`` also times
the phases apart, each in a process of its own: the bare CSV parse by polars (the floor), pass 1 (parse and spill
into slices of send time) and pass 2 (the slices aggregated: dedup by message, grouping, histograms, per-second
series, CO correction), or reading and aggregating in memory.

If JMeter has been assembled at ``target/jmeter`` (repository root), a .jtl with as many rows as the first size
is generated too and JMeter's own dashboard generator (``jmeter -g FILE.jtl -o DIR``) is timed next to it.

Data goes under /tmp by default (never into the repository); ``--clean`` removes it at the end::

    .venv/bin/python bench/analysis/bench_aggregate.py                 # 10M records, /tmp/stomp-analysis-bench
    .venv/bin/python bench/analysis/bench_aggregate.py --records 10000000 --records 100000000 --phases --clean
    .venv/bin/python bench/analysis/bench_aggregate.py --records 1000000 --charts --dir /tmp/b
    .venv/bin/python bench/analysis/bench_aggregate.py --mode fire-and-forget      # schedule lag instead of CO
    .venv/bin/python bench/analysis/bench_aggregate.py --shape real                # 2,000 users, one login
    .venv/bin/python bench/analysis/bench_aggregate.py --from-log results/timing.csv   # a real log, replicated

Shapes (see gen_data.py): ``synthetic`` (200 senders, each its own login, one destination, 20,000 messages/s);
``real`` (2,000 virtual users ``vu-1`` .. ``vu-2000`` under the one login ``guest``, a destination per user
``/queue/echo.<n>``, 1 message/s per user, fire-and-forget, long quoted failure reasons); ``--from-log FILE``: the
rows of a real timing log, replicated (send times shifted forward, message ids unique per copy) to each size.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ANALYSIS = REPO / "analysis"
GEN = HERE / "gen_data.py"
#: (records, wall seconds, peak RSS MiB): the budget of every size up to these records.
BUDGETS = ((10_000_000, 5.0, 2048.0), (100_000_000, 60.0, 3072.0))


def budget(records: int) -> tuple[float, float]:
    for n, wall, rss in BUDGETS:
        if records <= n:
            return wall, rss
    n, wall, rss = BUDGETS[-1]
    return wall * records / n, rss


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


PHASES = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
kind, log, rate, held_mib = sys.argv[2], Path(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
t0 = time.perf_counter()
out = {}
if kind == "parse":  # the floor: polars parses every column, nothing else
    import polars as pl
    from stomp_analysis.timing_log import check_header
    schema = check_header(log)[1].schema
    n = 0
    for batch in pl.scan_csv(log, has_header=False, skip_rows=1, schema=schema).collect_batches():
        n += batch.height
    out["parse_s"] = time.perf_counter() - t0
else:
    import stomp_analysis.huge_pages  # as the command does: before numpy is imported
    from stomp_analysis.aggregate import RunSpec, analyze
    spec = RunSpec("bench", [log], messages_per_second=rate)
    if kind == "out-of-core":
        from stomp_analysis.spill import SpillStore, analyze_spilled
        with SpillStore(total_bytes=log.stat().st_size, held_bytes=held_mib << 20) as store:
            scan = store.read(log, 0)
            out["pass1_parse_and_spill_s"] = time.perf_counter() - t0
            out["slices"], out["slice_s"] = len(store.slices), store.slice_s
            t1 = time.perf_counter()
            results = analyze_spilled(spec, [scan], store)
            out["pass2_aggregate_s"] = time.perf_counter() - t1
    else:
        from stomp_analysis.timing_log import read_timing_log
        logs = [read_timing_log(log, 0)]
        out["read_s"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        results = analyze(spec, logs)
        out["aggregate_s"] = time.perf_counter() - t1
    out["sent"] = sum(r.total.sent for r in results)
print(json.dumps(out))
"""


def phases(log: Path, messages_per_second: float, kinds: list[str], held_mib: int) -> dict:
    """Times the phases apart, each kind in a process of its own (peak RSS per kind); out of core, ``held_mib`` of
    the slices are held in memory, as aggregate.py's --max-in-memory does."""
    out = {}
    for kind in kinds:
        args = [str(ANALYSIS / "src"), kind, str(log), str(messages_per_second), str(held_mib)]
        r = timed([sys.executable, "-c", PHASES, *args])
        if r["rc"] != 0:
            print(r["stderr"][-2000:], file=sys.stderr)
            continue
        figures = json.loads(r["stdout"].strip().splitlines()[-1])
        figures.update(wall_s=r["wall_s"], cpu_s=r["cpu_s"], peak_rss_mib=r["peak_rss_mib"])
        shown = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        print(f"  phases, {kind}: {shown}")
        out[kind] = figures
    return out


#: stomp_analysis.steps_log.HEADER, written out: this (measuring) process does not import polars (a forked child's
#: peak RSS would include it)
STEPS_HEADER = (
    "run,engine,step,kind,offered,ramp_start_epoch_ms,hold_start_epoch_ms,end_epoch_ms,users,sent,answered,lost,"
    "failed,achieved,p50_us,p99_us,p999_us,send_lag_p99_ms,generator_cpu,machine_cpu,connects,connect_failed,"
    "connect_p99_ms,heartbeat_misses,verdict,limit,reason"
)


def write_steps_log(log: Path, path: Path, steps: int) -> Path:
    """A steps log of ``steps`` equal rate steps over the log's sends (first to last record's send time, read from
    its first and last lines), with the log's run and engine: each step holds for its last four fifths."""
    with open(log, "rb") as f:
        header = f.readline().decode().strip().split(",")
        first = next(csv.reader([f.readline().decode()]))
        f.seek(max(0, log.stat().st_size - 65536))
        last = next(csv.reader([f.read().decode(errors="replace").strip().splitlines()[-1]]))
    col = {c: i for i, c in enumerate(header)}
    a, b = int(first[col["sent_epoch_ms"]]), int(last[col["sent_epoch_ms"]])
    run, engine = first[col["run"]], first[col["engine"]]
    width = (b - a) // steps + 1
    with open(path, "w", newline="") as f:
        f.write(STEPS_HEADER + "\n")
        w = csv.DictWriter(f, STEPS_HEADER.split(","), lineterminator="\n")
        for k in range(steps):
            ramp = a + k * width
            w.writerow(
                {
                    "run": run,
                    "engine": engine,
                    "step": k + 1,
                    "kind": "rate",
                    "offered": 1000 * (k + 1),
                    "ramp_start_epoch_ms": ramp,
                    "hold_start_epoch_ms": ramp + width // 5,
                    "end_epoch_ms": ramp + width,
                    "verdict": "held" if k < steps - 1 else "broke",
                    "limit": "" if k < steps - 1 else "server",
                    "reason": "" if k < steps - 1 else "p99 1240 ms > 500 ms",
                }
            )
    return path


def bench_size(args, records: int) -> dict:
    """Generates (or reuses) a log of ``records`` records and times the aggregation on it."""
    if args.from_log:
        shape = f"from-{args.from_log.stem}"
    elif args.shape == "real":
        shape = f"real-{args.columns}"
    else:
        shape = f"{args.mode}-{args.columns}"
    log = args.dir / f"timing_{records}_{shape}.csv"
    meta_path = log.with_suffix(".json")
    meta = json.loads(meta_path.read_text()) if args.reuse and log.exists() and meta_path.exists() else {}
    if "messages_per_second" in meta:  # a log kept from before the rate was per second is generated again
        print(f"reusing {log} ({log.stat().st_size / 2**20:.0f} MiB)")
    else:
        t = time.perf_counter()
        if args.from_log:
            extra = ["--from-log", str(args.from_log)]
        elif args.shape == "real":
            extra = ["--shape", "real", "--senders", "2000", "--rate", "2000", "--mode", "fire-and-forget"]
        else:
            extra = ["--senders", str(args.senders), "--rate", str(args.rate), "--mode", args.mode]
        meta = generate("timing", log, records, *extra, "--columns", str(args.columns))
        meta_path.write_text(json.dumps(meta))
        print(
            f"generated {log}: {records} records, {log.stat().st_size / 2**20:.0f} MiB"
            f" in {time.perf_counter() - t:.1f} s"
        )

    script = ANALYSIS / "aggregate.py"
    out_dir = args.dir / "out"
    base = [sys.executable, str(script), str(log), "--messages-per-second", str(meta["messages_per_second"]), "--quiet"]
    base += ["--max-in-memory", str(args.max_in_memory)]
    if args.steps:
        steps_log = write_steps_log(log, args.dir / f"steps_{records}_{shape}_{args.steps}.csv", args.steps)
        base += ["--steps", str(steps_log)]
    out_of_core = log.stat().st_size >= args.max_in_memory * 2**20
    results = {
        "records": records,
        "file_mib": round(log.stat().st_size / 2**20, 1),
        "out_of_core": out_of_core,
        "runs": [],
    }
    max_wall, max_rss = budget(records)
    max_wall, max_rss = args.max_wall_s or max_wall, args.max_rss_mib or max_rss
    best = None
    for i in range(args.repeat):
        r = timed([*base, "--no-charts", "--out", str(out_dir)])
        if r["rc"] != 0:
            print(r["stderr"], file=sys.stderr)
            print(f"aggregation failed (exit {r['rc']})", file=sys.stderr)
            results["failed"] = r["rc"]
            return results
        print(
            f"aggregation #{i + 1} of {records} records ({'out of core' if out_of_core else 'in memory'}; summary + "
            f"per-second + comparison, no charts): wall {r['wall_s']:.2f} s, cpu {r['cpu_s']:.2f} s, peak RSS "
            f"{r['peak_rss_mib']:.0f} MiB"
            + (f", other processes meanwhile: {r['other_load_cores']:.2f} cores" if r["other_load_cores"] else "")
        )
        results["runs"].append({k: v for k, v in r.items() if k not in ("stdout", "stderr")})
        if best is None or r["wall_s"] < best["wall_s"]:
            best = r
    ok = best["wall_s"] <= max_wall and best["peak_rss_mib"] <= max_rss
    verdict = "within" if ok else "OVER"
    print(
        f"=> {records} records: {best['wall_s']:.2f} s, {best['peak_rss_mib']:.0f} MiB peak RSS: {verdict} the "
        f"limits ({max_wall:g} s, {max_rss:g} MiB)"
    )
    results["best"] = {k: v for k, v in best.items() if k not in ("stdout", "stderr")}
    results["limits"] = {"wall_s": max_wall, "peak_rss_mib": max_rss}
    results["within_limits"] = ok
    if args.charts:
        r = timed([*base, "--out", str(out_dir)])
        print(f"with charts + report.html: wall {r['wall_s']:.2f} s, peak RSS {r['peak_rss_mib']:.0f} MiB")
        results["with_charts"] = {k: v for k, v in r.items() if k not in ("stdout", "stderr")}
    if args.phases:
        kinds = ["parse", "out-of-core" if out_of_core else "in-memory"]
        results["phases"] = phases(log, meta["messages_per_second"], kinds, args.max_in_memory)
    if args.clean:
        for p in (log, meta_path):
            p.unlink(missing_ok=True)
        shutil.rmtree(out_dir, ignore_errors=True)
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--records",
        type=int,
        action="append",
        help="timing records to generate, repeatable for several sizes (default 10000000)",
    )
    p.add_argument("--senders", type=int, default=200)
    p.add_argument("--rate", type=float, default=20_000.0, help="messages per second in the generated run")
    p.add_argument(
        "--mode",
        choices=["await-reply", "fire-and-forget", "old"],
        default="await-reply",
        help="the generated log's mode column (old: the former 9-column format); await-reply runs the CO correction, "
        "fire-and-forget the schedule lag",
    )
    p.add_argument(
        "--shape",
        choices=["synthetic", "real"],
        default="synthetic",
        help="synthetic: 200 senders, one destination; real: 2,000 virtual users under one login, a destination per "
        "user, 1 msg/s each, fire-and-forget (--senders, --rate and --mode then do not apply)",
    )
    p.add_argument("--from-log", type=Path, metavar="FILE", help="replicate the rows of this real timing log instead")
    p.add_argument(
        "--columns",
        type=int,
        choices=[9, 14, 16],
        default=16,
        help="the generated log's format (default 16; --mode old writes 9)",
    )
    p.add_argument("--dir", type=Path, default=Path("/tmp/stomp-analysis-bench"), help="where data goes")
    p.add_argument("--reuse", action="store_true", help="reuse data files already generated with the same size")
    p.add_argument("--clean", action="store_true", help="remove the generated data at the end")
    p.add_argument("--repeat", type=int, default=1, help="time the aggregation this many times (best is kept)")
    p.add_argument("--charts", action="store_true", help="also time a run that writes the charts")
    p.add_argument("--phases", action="store_true", help="also time the phases apart (see above)")
    p.add_argument(
        "--max-in-memory",
        type=int,
        default=512,
        metavar="MIB",
        help="passed to aggregate.py: inputs this big and bigger are aggregated out of core (default 512)",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=0,
        metavar="N",
        help="also give the aggregation a steps log of N rate steps over the log's time (the stepped report's cost)",
    )
    p.add_argument("--skip-jmeter", action="store_true", help="do not time JMeter's dashboard generator")
    p.add_argument("--jmeter", type=Path, default=REPO / "target" / "jmeter" / "bin" / "jmeter")
    p.add_argument("--max-wall-s", type=float, help="override the wall-time budget of every size")
    p.add_argument("--max-rss-mib", type=float, help="override the peak-RSS budget of every size")
    p.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = p.parse_args(argv)
    sizes = args.records or [10_000_000]

    args.dir.mkdir(parents=True, exist_ok=True)
    results = {"sizes": [bench_size(args, n) for n in sizes]}
    ok = all(r.get("within_limits") for r in results["sizes"])

    if args.skip_jmeter:
        print("JMeter dashboard: skipped (--skip-jmeter)")
    elif not args.jmeter.exists():
        print(f"JMeter dashboard: skipped ({args.jmeter} not found; build JMeter there to compare)")
    else:
        rows = sizes[0]
        jtl = args.dir / f"results_{rows}.jtl"
        if not (args.reuse and jtl.exists()):
            t = time.perf_counter()
            generate("jtl", jtl, rows, "--senders", str(args.senders))
            print(f"generated {jtl}: {rows} rows in {time.perf_counter() - t:.1f} s")
        dash = args.dir / "jmeter-dashboard"
        shutil.rmtree(dash, ignore_errors=True)
        r = timed(
            [str(args.jmeter), "-g", str(jtl), "-o", str(dash), "-j", str(args.dir / "jmeter-g.log")], timeout=3600
        )
        state = "ok" if r["rc"] == 0 else f"exit {r['rc']}"
        print(
            f"JMeter dashboard generator (jmeter -g, {rows} rows): wall {r['wall_s']:.2f} s,"
            f" cpu {r['cpu_s']:.2f} s, "
            f"peak RSS {r['peak_rss_mib']:.0f} MiB ({state})"
        )
        if r["rc"] != 0:
            print(r["stderr"][-2000:] or r["stdout"][-2000:], file=sys.stderr)
        results["jmeter_dashboard"] = {k: v for k, v in r.items() if k not in ("stdout", "stderr")}
        if args.clean:
            jtl.unlink(missing_ok=True)
            shutil.rmtree(dash, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
