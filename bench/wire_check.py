#!/usr/bin/env python3
"""The timing log against a clock outside the plugin: a loopback packet capture.

Runs jmx/send.jmx (fire-and-forget, paced) against the demo server while tcpdump captures the server's port,
then pairs each message's SEND frame on the wire with its first reply frame on the wire (WebSocket frames from
the client are masked: they are unmasked; SockJS frames are searched as text), by the message id the plugin
stamps into both. Prints, per message, the wire latency, the timing log's latency and their difference (the
generator's own share), for the whole run and after a warm-up; and that share split in two, from the recorded
send to the SEND on the wire and from the reply on the wire to the recorded reply (both clocks are the
kernel's wall clock, so the two sides are exact to the microsecond stamps).

The transport `floor` is not ours: io.github.sockjsstomp.bench.floors.WireFloor (benchmark code in bench/java), the same users, rate and
messages over blocking sockets, each thread waiting in read() for its reply and stamping the wall clock around
the write and the read. Its "log minus wire" is what this machine adds to any client's recorded time (waking a
blocked thread on busy cores): the floor under ours.

    python3 bench/wire_check.py                       # raw and websocket, 10 users, 20 messages/s, 30 s
    TRANSPORTS=raw DURATION_S=60 python3 bench/wire_check.py
    DURATION_S=60 WARMUP_S=20 PER_S=200 RAMP_S=5 python3 bench/wire_check.py   # past the JIT's warm-up
    PROPS="sockjsstomp.ioThreads=0" python3 bench/wire_check.py               # with Tomcat's own I/O threads
    TRANSPORTS="raw floor" python3 bench/wire_check.py    # beside the floor: blocking sockets, no JMeter (WireFloor)
    PLAN=echo python3 bench/wire_check.py    # echo.jmx, request and reply: the closed loop vs one user per thread

With PLAN=echo it runs jmx/echo.jmx (await-reply, `USERS` users, `PAUSE_MS` after each reply) once per loop of
`LOOPS` (default "closed blocking": the closed loop on echo.jmx's default threads, and the one-user-per-thread
await-reply it replaces, `users` threads) for each transport, alternating, `ROUNDS` times, on the same demo
server: the same users and pause on both, so the same load.

Needs `make jmeter` and tcpdump (Debian: apt-get install tcpdump) with the right to capture on lo (root, or
CAP_NET_RAW). Loopback only; every run is bounded by its duration. Results: results/wire-check-<time>/.
"""

from __future__ import annotations

import bisect
import csv
import math
import os
import re
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # the demo server and JMeter runners

ENV = {k: int(os.environ.get(k, d)) for k, d in [("THREADS", 10), ("PER_S", 20), ("DURATION_S", 30), ("WARMUP_S", 5),
                                                  ("RAMP_S", 0)]}
TRANSPORTS = os.environ.get("TRANSPORTS", "raw websocket").split()
PLAN = os.environ.get("PLAN", "send")
# PLAN=echo: users, the pause after each reply, the loops compared, the rounds they alternate for.
ECHO = {k: int(os.environ.get(k, d)) for k, d in [("USERS", 200), ("PAUSE_MS", 1000), ("ROUNDS", 2)]}
LOOPS = os.environ.get("LOOPS", "closed blocking").split()
# More JMeter properties for the runs, "name=value name=value" (e.g. PROPS="sockjsstomp.ioThreads=0").
PROPS = dict(item.split("=", 1) for item in os.environ.get("PROPS", "").split())


def higher(values: list[int], q: float) -> float:
    """The 'higher' percentile, as analysis/ and the books line take it."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, math.ceil(q * (len(s) - 1)))]


# ------------------------------------------------------------------ pcap, TCP and WebSocket


def packets(pcap: Path):
    """(timestamp µs, src, dst, tcp seq, payload) of every IPv4/IPv6 TCP packet with data in a pcap file."""
    data = pcap.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    nano = struct.unpack(endian + "I", data[:4])[0] == 0xA1B23C4D
    link = struct.unpack(endian + "I", data[20:24])[0]
    pos = 24
    while pos + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(endian + "IIII", data[pos : pos + 16])
        pkt = data[pos + 16 : pos + 16 + incl]
        pos += 16 + incl
        ts = sec * 1_000_000 + (frac // 1000 if nano else frac)
        off = 14 if link == 1 else (16 if link == 113 else 0)
        ethertype = struct.unpack(">H", pkt[12:14])[0] if link == 1 else 0x0800
        ip = pkt[off:]
        if ethertype == 0x0800 or (link != 1 and ip[:1] and ip[0] >> 4 == 4):
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] != 6:
                continue
            src, dst, tcp = ip[12:16], ip[16:20], ip[ihl:]
        elif ethertype == 0x86DD:
            if ip[6] != 6:
                continue
            src, dst, tcp = ip[8:24], ip[24:40], ip[40:]
        else:
            continue
        sport, dport, seq = struct.unpack(">HHI", tcp[:8])
        payload = tcp[(tcp[12] >> 4) * 4 :]
        if payload:
            yield ts, (src, sport), (dst, dport), seq, payload


class Direction:
    """One direction of one TCP connection: its byte stream, with the time each byte arrived."""

    def __init__(self):
        self.next_seq = None
        self.buf = bytearray()
        self.ends: list[int] = []  # each packet's end offset in buf
        self.stamps: list[int] = []  # and its timestamp

    def add(self, ts, seq, payload):
        if self.next_seq is not None:
            skip = (self.next_seq - seq) & 0xFFFFFFFF
            if skip < 0x80000000:  # a retransmission, or its overlap: keep only what is new
                payload = payload[skip:]
                if not payload:
                    return
                seq = self.next_seq
        self.buf += payload
        self.ends.append(len(self.buf))
        self.stamps.append(ts)
        self.next_seq = (seq + len(payload)) & 0xFFFFFFFF

    def time_at(self, end: int) -> int:
        """When the byte before ``end`` arrived."""
        return self.stamps[bisect.bisect_left(self.ends, end)]

    def frames(self):
        """(timestamp of the frame's last byte, unmasked payload) of every WebSocket message after an HTTP upgrade."""
        head_end = self.buf.find(b"\r\n\r\n")
        if head_end < 0:
            return
        head = bytes(self.buf[:head_end]).lower()
        if not (head.startswith(b"http/1.1 101") or b"upgrade: websocket" in head):
            return
        pos, message = head_end + 4, bytearray()
        while pos + 2 <= len(self.buf):
            b0, b1 = self.buf[pos], self.buf[pos + 1]
            length, p = b1 & 0x7F, pos + 2
            if length == 126:
                length, p = struct.unpack(">H", self.buf[p : p + 2])[0], p + 2
            elif length == 127:
                length, p = struct.unpack(">Q", self.buf[p : p + 8])[0], p + 8
            mask = None
            if b1 & 0x80:
                mask, p = self.buf[p : p + 4], p + 4
            if p + length > len(self.buf):
                return
            payload = bytes(self.buf[p : p + length])
            if mask:
                payload = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
            pos = p + length
            if b0 & 0x0F in (0, 1, 2):
                message += payload
                if b0 & 0x80:
                    yield self.time_at(pos), bytes(message)
                    message = bytearray()


def wire_frames(pcap: Path, server_port: int, id_pattern: re.Pattern) -> tuple[dict[str, int], dict[str, int]]:
    """Per message id: epoch µs of the SEND frame's last byte, and of the first reply frame's last byte, on lo."""
    flows: dict[tuple, Direction] = {}
    for ts, src, dst, seq, payload in packets(pcap):
        flows.setdefault((src, dst), Direction()).add(ts, seq, payload)
    sends, replies = {}, {}
    for (src, _dst), direction in flows.items():
        from_server = src[1] == server_port
        for ts, message in direction.frames():
            text = message.decode("utf-8", "replace")
            is_send, is_reply = "SEND\\n" in text or "SEND\n" in text, "MESSAGE\\n" in text or "MESSAGE\n" in text
            for msg_id in set(id_pattern.findall(text)):
                if from_server and is_reply:
                    replies[msg_id] = min(ts, replies.get(msg_id, ts))
                elif not from_server and is_send:
                    sends[msg_id] = min(ts, sends.get(msg_id, ts))
    return sends, replies


def wire_times(pcap: Path, server_port: int, id_pattern: re.Pattern) -> dict[str, tuple[int, int]]:
    """Per message id: (epoch µs of the SEND frame's last byte, of the first reply frame's last byte) on lo."""
    sends, replies = wire_frames(pcap, server_port, id_pattern)
    return {m: (sends[m], replies[m]) for m in sends if m in replies}


def unmatched(all_rows: list[dict], sends: dict, replies: dict) -> tuple[int, int, int]:
    """What the log and the wire disagree on: messages the log times (ANSWERED) without a SEND and a reply on the
    wire; messages with both on the wire the log does not time as answered; SENDs on the wire the log never had."""
    outcome = {r["msg_id"]: r["outcome"] for r in all_rows}
    log_only = sum(1 for m, o in outcome.items() if o == "ANSWERED" and not (m in sends and m in replies))
    wire_only = sum(1 for m in sends if m in replies and outcome.get(m) != "ANSWERED")
    sends_unlogged = sum(1 for m in sends if m not in outcome)
    return log_only, wire_only, sends_unlogged


# ------------------------------------------------------------------ one run


def run(transport: str, server, out: Path, number: int, loop: str | None = None):
    """One run: its rows of the latency table, its warm-up curve, its row of the max and unmatched table."""
    # a transport may come back (TRANSPORTS="raw floor raw floor")
    name = f"echo-{transport}-{loop}-{number}" if loop else f"send-{transport}-{number}"
    label = f"{transport}, {loop}" if loop else transport
    pcap, timing = out / f"{name}.pcap", out / f"{name}-timing.csv"
    dump = subprocess.Popen(
        ["tcpdump", "-i", "lo", "-s", "0", "-U", "-w", str(pcap), f"tcp port {server.port}"],
        stdout=subprocess.DEVNULL,
        stderr=open(out / f"{name}.tcpdump.txt", "w"),
    )
    time.sleep(1.5)
    raw = transport == "raw"
    props = {
        "host": "127.0.0.1",
        "port": server.port,
        "threads": ENV["THREADS"],
        "rampUp": ENV["RAMP_S"],
        "duration": ENV["DURATION_S"],
        "messagesPerSecond": ENV["PER_S"],
        "transport": transport,
        "endpoint": "/stomp-ws" if raw else "/ws",
        "indexPath": "none" if raw else "/index",
        "pullPath": "none" if raw else "/clientPull",
        "timingLog": timing,
        **PROPS,
    }
    if loop:
        # echo.jmx: the same users and pause on both loops; the closed loop on the plan's default threads
        # (users / 1000, at least 2), the blocking one a thread per user (the plan's default for it).
        for key in ("threads", "messagesPerSecond"):
            del props[key]
        props.update(users=ECHO["USERS"], pauseMillis=ECHO["PAUSE_MS"], loop=loop, **PROPS)
    if transport == "floor":
        # The shortest client path (blocking sockets, no JMeter): what the machine itself adds to a recorded time.
        process = subprocess.Popen(
            ["java", "-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-cp", common.test_classpath(), "io.github.sockjsstomp.bench.floors.WireFloor",
             str(server.port), str(ENV["THREADS"]), str(ENV["PER_S"]), str(ENV["DURATION_S"]), str(timing),
             str(ENV["RAMP_S"])],
            cwd=common.ROOT, stdout=open(out / f"{name}.console.txt", "w"), stderr=subprocess.STDOUT)
    else:
        plan = common.ROOT / ("jmx/echo.jmx" if loop else "jmx/send.jmx")
        process, _, _ = common.jmeter(common.OURS_HOME, plan, out, name, props)
    process.wait(ENV["DURATION_S"] + 120)
    time.sleep(1)
    dump.send_signal(signal.SIGINT)
    dump.wait(30)
    with open(timing, newline="") as f:
        all_rows = list(csv.DictReader(f))
    rows = [r for r in all_rows if r["outcome"] == "ANSWERED"]
    if not rows:
        return [f"| {label} | no answered message (see {out}) | | | | | |"], f"- {label}: none", f"| {label} | none |"
    prefix = rows[0]["msg_id"].rsplit("-", 1)[0]
    sends, replies = wire_frames(pcap, server.port, re.compile(re.escape(prefix) + r"-\d+"))
    wire = {m: (sends[m], replies[m]) for m in sends if m in replies}
    start = min(int(r["sent_epoch_us"]) for r in rows)
    with open(out / f"{name}-pairs.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["msg_id", "sent_epoch_us", "wire_send_epoch_us", "wire_reply_epoch_us", "log_us"])
        w.writerows([r["msg_id"], r["sent_epoch_us"], *wire.get(r["msg_id"], ("", "")), r["latency_us"]] for r in rows)
    lines = []
    for part, after in (("whole run", 0), (f"after the first {ENV['WARMUP_S']} s", ENV["WARMUP_S"] * 1_000_000)):
        logged, on_wire, diff, send_side, receive_side = [], [], [], [], []
        for r in rows:
            times = wire.get(r["msg_id"])
            if times is None or int(r["sent_epoch_us"]) - start < after:
                continue
            sent, log_us = int(r["sent_epoch_us"]), int(r["latency_us"])
            logged.append(log_us)
            on_wire.append(times[1] - times[0])
            diff.append(log_us - (times[1] - times[0]))
            # Both clocks are the kernel's CLOCK_REALTIME (the log's Instant.now(), tcpdump's stamps).
            send_side.append(times[0] - sent)
            receive_side.append(sent + log_us - times[1])
        ms = lambda v: f"{v / 1000:.2f}"
        pair = lambda v: f"{ms(higher(v, 0.5))} / {ms(higher(v, 0.99))}"
        lines.append(
            f"| {label}, {part} | {len(logged)} of {len(rows)} | {pair(on_wire)} | {pair(logged)} | "
            f"{pair(diff)} | {pair(send_side)} | {pair(receive_side)} |"
        )
    return lines, warmup_curve(label, rows, wire), extremes(label, rows, all_rows, sends, replies, wire, start)


def extremes(label, rows, all_rows, sends, replies, wire, start) -> str:
    """Log minus wire at its worst (after the warm-up) and the messages the log and the wire disagree on."""
    after = ENV["WARMUP_S"] * 1_000_000
    diff = [int(r["latency_us"]) - (wire[r["msg_id"]][1] - wire[r["msg_id"]][0]) for r in rows
            if r["msg_id"] in wire and int(r["sent_epoch_us"]) - start >= after]
    outcomes = {o: sum(1 for r in all_rows if r["outcome"] == o) for o in ("ANSWERED", "LOST", "FAILED")}
    log_only, wire_only, sends_unlogged = unmatched(all_rows, sends, replies)
    worst = f"{higher(diff, 0.5) / 1000:.2f} / {higher(diff, 0.99) / 1000:.2f} / {max(diff) / 1000:.2f}" if diff else "-"
    return (f"| {label} | {worst} | {outcomes['ANSWERED']} / {outcomes['LOST']} / {outcomes['FAILED']} | "
            f"{len(sends)} / {len(replies)} | {log_only} | {wire_only} | {sends_unlogged} |")


def warmup_curve(transport: str, rows: list[dict], wire: dict) -> str:
    """The generator's share by message count since the start: how long the JVM's warm-up lasts."""
    shares = [int(r["latency_us"]) - (wire[r["msg_id"]][1] - wire[r["msg_id"]][0])
              for r in sorted(rows, key=lambda r: int(r["sent_epoch_us"])) if r["msg_id"] in wire]
    step = max(100, -(-len(shares) // 8))
    cells = [f"{i + 1}-{i + len(shares[i:i + step])}: {higher(shares[i:i + step], 0.5) / 1000:.2f} / "
             f"{higher(shares[i:i + step], 0.99) / 1000:.2f}" for i in range(0, len(shares), step)]
    return f"- {transport}: " + "; ".join(cells)


def runs() -> list[tuple[str, str | None]]:
    """(transport, loop) in the order they run: send.jmx's transports once each; echo.jmx's loops alternating."""
    if PLAN == "send":
        return [(t, None) for t in TRANSPORTS]
    if PLAN != "echo" or not LOOPS or set(LOOPS) - {"closed", "blocking"} or "floor" in TRANSPORTS:
        sys.exit(f"PLAN={PLAN} LOOPS={' '.join(LOOPS)}: PLAN is send or echo; LOOPS closed and/or blocking (echo "
                 "has no floor transport)")
    return [(t, loop) for _ in range(ECHO["ROUNDS"]) for t in TRANSPORTS for loop in LOOPS]


def main() -> int:
    if not (common.OURS_HOME / "bin/jmeter").exists():
        sys.exit("run 'make jmeter' first")
    if subprocess.run(["which", "tcpdump"], capture_output=True, check=False).returncode:
        sys.exit("tcpdump is needed: apt-get install tcpdump")
    out = common.ROOT / "results" / time.strftime("wire-check-%Y%m%d-%H%M%S")
    out.mkdir(parents=True)
    server = common.DemoServer(out)
    lines = [
        f"# Timing log vs the wire, {time.strftime('%Y-%m-%d %H:%M')}",
        "",
        (f"send.jmx, {ENV['THREADS']} users, {ENV['PER_S']} messages/s in all, {ENV['DURATION_S']} s, " if PLAN == "send"
         else f"echo.jmx (await-reply), {ECHO['USERS']} users, each a round trip then {ECHO['PAUSE_MS']} ms, loops "
         f"{' and '.join(LOOPS)} alternating, {ECHO['ROUNDS']} rounds, {ENV['DURATION_S']} s, ") +
        f"ramp-up {ENV['RAMP_S']} s{', ' + ' '.join(f'-J{k}={v}' for k, v in PROPS.items()) if PROPS else ''}, "
        f"demo server on the same {os.cpu_count()} cores; per message: wire = first reply frame's last byte "
        "minus the SEND frame's last byte on lo; log = the timing log's latency_us. Percentiles 'higher'.",
        "",
        "| transport | messages paired | wire p50 / p99 ms | timing log p50 / p99 ms | log minus wire p50 / p99 ms "
        "| of which before the SEND's wire time | of which after the reply's wire time |",
        "| --- | ---: | --- | --- | --- | --- | --- |",
    ]
    curves = ["", "Log minus wire, p50 / p99 ms, by messages since the start (the JIT compiles the path as it runs):", ""]
    worst = ["", f"Log minus wire at its worst (after the first {ENV['WARMUP_S']} s) and what the log and the wire "
             "disagree on (log only: timed ANSWERED, no SEND or no reply on the wire; wire only: SEND and reply on "
             "the wire, not ANSWERED in the log; unlogged: a SEND on the wire the log never had):", "",
             "| run | log minus wire p50 / p99 / max ms | log ANSWERED / LOST / FAILED | wire SENDs / replies | "
             "log only | wire only | unlogged |", "| --- | --- | --- | --- | ---: | ---: | ---: |"]
    try:
        for number, (transport, loop) in enumerate(runs(), 1):
            table, curve, extreme = run(transport, server, out, number, loop)
            lines += table
            curves.append(curve)
            worst.append(extreme)
    finally:
        server.stop()
    lines += worst + curves
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nresults in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
